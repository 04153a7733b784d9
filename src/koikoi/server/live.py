"""Carrying what changed at a table to the players connected to it, on any process.

A change is stored first, then published on the table's channel; every WebSocket
listening on that channel, on this process or another, receives it. Alone, a server
passes messages in memory (:class:`Broker`). Scaled out (``KOIKOI_REDIS_URL``), it
publishes to Redis and one thread of each process listens to Redis and hands each
message to that process's listeners (:class:`RedisBroker`): a move made on one
process reaches a player connected to another at once.

Publishing is called from the synchronous request handlers (threads), listening from
the WebSocket handlers (event loops): each listener is a queue with its own loop, and
a message reaches it through that loop's ``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

PREFIX = "koikoi:"
"""Every channel's prefix on Redis, before the deployment's own namespace."""
log = logging.getLogger("koikoi.live")

Message = dict[str, Any]
"""What is published: plain JSON, but for ``updates``, a list of texts that are JSON
documents already (each seat's WebSocket message), which Redis carries as they are."""
Follower = Callable[[str, Message], None]
ENDED: Message = {"ended": True}
"""Published on a session's channel once it has ended (signed out, password changed)."""
RESYNC: Message = {"resync": True}
"""Handed to every listener of this process once the broker is back after an outage:
what it missed meanwhile must be read afresh."""
REDIS_CONNECT_SECONDS = 2.0
RETRY_SECONDS = (0.1, 5.0)
"""The first and the longest wait between two tries to reach a broker that is down."""


def session_channel(session_id: str) -> str:
    return f"session:{session_id}"


def wire(message: Message) -> bytes:
    """A message as Redis carries it: the rest of it as JSON on the first line, then
    each of its ``updates`` on a line of its own, unescaped (JSON text has no raw line
    breaks): a move's messages are mostly the seats' views, which would otherwise be
    escaped into a string on one process and parsed out of it on every other."""
    updates = message.get("updates", ())
    rest = {key: value for key, value in message.items() if key != "updates"}
    return "\n".join([json.dumps(rest, separators=(",", ":")), *updates]).encode()


def unwire(data: bytes) -> Message:
    """The message :func:`wire` made.

    >>> unwire(wire({"version": 3, "updates": ['{"a":"b\\\\nc"}', "{}"]}))
    {'version': 3, 'updates': ['{"a":"b\\\\nc"}', '{}']}
    >>> unwire(wire(ENDED))
    {'ended': True}
    """
    first, *updates = data.decode().split("\n")
    message: Message = json.loads(first)
    if updates:
        message["updates"] = updates
    return message


class Listener:
    """One WebSocket's queue of messages, fed from any thread."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        # Any: its owner may put items of its own beside the messages (a WebSocket's
        # handler puts what the browser says, to answer everything from one loop).
        self.queue: asyncio.Queue[Any] = asyncio.Queue()

    def put(self, message: Message) -> None:
        with suppress(RuntimeError):  # the loop has closed: nobody listens any more
            self.loop.call_soon_threadsafe(self.queue.put_nowait, message)


class Broker:
    """Publishing and listening within one process."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Listener]] = {}
        self._followers: list[Follower] = []
        self._lock = threading.Lock()
        self.epoch = 0
        """Counts the times messages may have been missed (a lost Redis subscription):
        what was believed for want of a message is checked again once it changes."""

    def publish(self, channel: str, message: Message) -> None:
        self.deliver(channel, message)

    def follow(self, follower: Follower) -> None:
        """Call ``follower`` with every message this process hears, on any channel,
        in the thread that hears it (it must be quick, and not wait on a lock that a
        publisher may hold)."""
        self._followers.append(follower)

    def deliver(self, channel: str, message: Message) -> None:
        """Hand a message to this process's followers and listeners on ``channel``."""
        for follower in self._followers:
            follower(channel, message)
        with self._lock:
            listeners = list(self._listeners.get(channel, ()))
        for listener in listeners:
            listener.put(message)

    @asynccontextmanager
    async def listen(self, *channels: str) -> AsyncIterator[asyncio.Queue[Any]]:
        """The messages published on ``channels`` from now until the block ends."""
        listener = Listener()
        with self._lock:
            for channel in channels:
                self._listeners.setdefault(channel, set()).add(listener)
        self.started()
        try:
            yield listener.queue
        finally:
            with self._lock:
                for channel in channels:
                    listeners = self._listeners[channel]
                    listeners.discard(listener)
                    if not listeners:
                        del self._listeners[channel]

    def resync(self) -> None:
        """Tell every listener of this process that it may have missed messages."""
        with self._lock:
            listeners = {listener for group in self._listeners.values() for listener in group}
        for listener in listeners:
            listener.put(RESYNC)

    @property
    def state(self) -> str:
        """``ok``, ``down`` (messages go no further than this process), or ``none``
        (a process alone needs no broker)."""
        return "none"

    def started(self) -> None:
        """Called at each new listener: a broker that needs a connection opens it."""

    def close(self) -> None:
        pass


class RedisBroker(Broker):
    """Publishing through Redis, so that every process's listeners hear every message."""

    def __init__(self, url: str, namespace: str) -> None:
        super().__init__()
        # Processes of one deployment share a namespace; another deployment (or test
        # run) on the same Redis hears nothing of theirs: pub/sub ignores the database
        # number in the URL.
        self.prefix = f"{PREFIX}{namespace}:"
        try:
            import redis
        except ImportError:  # pragma: no cover - the extra is part of the test install
            raise ValueError(
                f"the Redis URL {url!r} needs the Redis client: pip install 'koikoi[redis]'"
            ) from None
        try:
            # A Redis that cannot be reached is said so in seconds, not after the
            # system's own minutes of trying to connect.
            self._redis = redis.Redis.from_url(url, socket_connect_timeout=REDIS_CONNECT_SECONDS)
        except ValueError as error:
            raise ValueError(f"Redis URL {url!r} is not valid: {error}") from None
        try:
            self._redis.ping()
        except redis.RedisError as error:
            raise ValueError(f"cannot reach Redis at {url!r}: {error}") from None
        self._thread: threading.Thread | None = None
        self._pubsub: Any = None
        self._ready = threading.Event()
        self._start_lock = threading.Lock()
        self._down_since: float | None = None
        """When Redis was last found away (None while it answers)."""
        self._outage_lock = threading.Lock()

    @property
    def state(self) -> str:
        if self._down_since is not None and self._thread is None:
            # No subscription to notice Redis back: ask it (only while it is away).
            with suppress(Exception):
                self._redis.ping()
                self._came_back()
        return "ok" if self._down_since is None else "down"

    def publish(self, channel: str, message: Message) -> None:
        """Best effort, after the change is stored: with Redis away, this process's own
        listeners still hear it, and the others read the table again once it is back."""
        try:
            self._redis.publish(self.prefix + channel, wire(message))
        except Exception as error:  # any of redis's errors: a change is never undone for it
            self._went_down(error)
            self.deliver(channel, message)
        else:
            if self._down_since is not None and self._thread is None:
                self._came_back()

    def _went_down(self, error: Exception) -> None:
        """Note an outage; said once in the log, however long it lasts."""
        with self._outage_lock:
            if self._down_since is not None:
                return
            self._down_since = time.monotonic()
            self.epoch += 1
        log.warning("Redis is away (%s): tables' news stay in this process until it is back", error)

    def _came_back(self) -> None:
        with self._outage_lock:
            if self._down_since is None:
                return
            away = time.monotonic() - self._down_since
            self._down_since = None
            self.epoch += 1
        log.warning("Redis is back after %.1f s: every table's socket reads its table again", away)
        self.resync()

    def started(self) -> None:
        with self._start_lock:
            if self._thread is None:
                # redis 8.2 types pubsub(); older releases leave it untyped.
                self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call, unused-ignore]
                self._pubsub.psubscribe(self.prefix + "*")
                self._thread = threading.Thread(
                    target=self._receive, name="koikoi-redis", daemon=True
                )
                self._thread.start()

    def _receive(self) -> None:
        pubsub = self._pubsub
        wait = RETRY_SECONDS[0]
        while True:
            try:
                if self._down_since is not None:
                    pubsub.psubscribe(self.prefix + "*")  # connects again, or raises
                    self._came_back()
                    wait = RETRY_SECONDS[0]
                message = pubsub.get_message(timeout=1.0)
            except Exception as error:  # closed, or Redis went away
                if self._pubsub is None:
                    return
                self._went_down(error)
                time.sleep(wait)  # tries again, less and less often
                wait = min(wait * 2, RETRY_SECONDS[1])
                continue
            if self._pubsub is None:
                return
            if message is None or message.get("type") != "pmessage":
                continue
            channel = message["channel"].decode()[len(self.prefix) :]
            self.deliver(channel, unwire(message["data"]))

    def close(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with suppress(Exception):
                pubsub.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._redis.close()


def make_broker(url: str | None = None, namespace: str = "") -> Broker:
    """Redis's when ``url`` names a server, else in memory;
    ``namespace`` keeps one deployment's channels apart from another's."""
    return RedisBroker(url, namespace) if url else Broker()
