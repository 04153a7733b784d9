"""A table's WebSocket: each seated player's live view of the table, and the way
their page sends its moves.

The socket listens on the table's channel (and the session's) on the broker before
it reads anything, so no change falls between its first read and its news; one loop
then sends everything in order. A move sent here is made as the HTTP route makes it,
and refused with the same status and sentence (from the same domain error).
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import time
from collections import deque
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import Field
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool

from koikoi.server.boundary import MessageError, parsed_message
from koikoi.server.context import COOKIE, Services, kept
from koikoi.server.errors import DOMAIN_ERRORS, answer_of
from koikoi.server.live import ENDED, RESYNC, session_channel
from koikoi.server.routes.tables import TableMove
from koikoi.server.sessions import SessionInfo
from koikoi.server.tablecopies import table_channel
from koikoi.server.tables import TableError, TableSession
from koikoi.store.database import unavailable

router = APIRouter(prefix="/api", tags=["tables"])

CLOSE_REFUSED = 4403
"""WebSocket close code: this browser may not watch the table (not seated)."""
CLOSE_MISSING = 4404
CLOSE_REPLACED = 4409
"""Closed for a newer socket of the same session, past MAX_SOCKETS."""
CLOSE_UNAVAILABLE = 1013
"""The standard "try again later": the database cannot be read now."""
CLOSE_FLOODED = 4429
"""Closed for sending more than FLOOD_MESSAGES in FLOOD_SECONDS."""

MAX_SOCKETS = 8
"""Table sockets one session may hold open (on every process together): a reload or
another tab always gets one, as the oldest beyond this closes."""
INBOX = 4
"""Browser messages a socket takes in before it has answered them: past this it stops
reading, and the browser's own sending waits (TCP's back-pressure)."""
FLOOD_MESSAGES = 60
FLOOD_SECONDS = 10.0
"""A page sends a move when it is its turn: sixty messages in ten seconds is no page
at play. (Pings are answered here without touching anything, so they do not count;
the inbox bounds them as it does every message.)"""


class SocketMove(TableMove):
    """A move sent over the table's WebSocket: the POST's body, named as a move."""

    type: Literal["move"] = Field(description='Always "move".')


def same_origin(websocket: WebSocket) -> bool:
    """A WebSocket carries the cookie wherever the page that opens it comes from, and
    it has no CSRF token: only pages of this site may open one."""
    origin = websocket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == websocket.headers.get("host")


@router.websocket("/tables/{table_id}/live")
async def live(websocket: WebSocket, table_id: str) -> None:
    """The table as it changes, for a seated player: first ``{"type": "state"}`` with the
    whole state, then one ``{"type": "update"}`` per change, with the state and the
    events from this seat's side. Closes with 4403 for anyone not seated, 4404 for no
    such table.

    The player's moves come the same way: ``{"type": "move", "action": ..., "version":
    ...}`` as the POST's body; the answer is the mover's update, or ``{"type":
    "refused", "status": ..., "detail": ..., "version": ...}`` with the status and
    sentence the POST would answer, and the version the move was chosen in. A session
    that ends (signed out, a new password) closes its sockets on every process at
    once, with ``{"type": "error"}`` and 4403, so a page signed out elsewhere cannot
    play on; a move reads the session again where the last read is
    :data:`SOCKET_RECHECK` old. ``"ping"`` is answered ``"pong"``."""
    parts: Services = websocket.app.state.services
    if not same_origin(websocket):
        await websocket.close(code=CLOSE_REFUSED)
        return
    cookie = websocket.cookies.get(COOKIE)
    # The session's channel is named from the cookie alone, so the socket listens
    # before it reads the table and the session: no change, nor the session's end, can
    # fall between the reads and the news.
    named = parts.sessions.named(cookie)
    channels = [table_channel(table_id), *([session_channel(named)] if named else [])]
    async with parts.broker.listen(*channels) as inbox:
        try:
            table, held = await run_in_threadpool(_opened, parts, table_id, cookie)
        except TableError as error:
            await websocket.accept()
            await turn_away(websocket, str(error), CLOSE_MISSING)
            return
        except DBAPIError as error:
            reason = unavailable(error)
            if reason is None:
                raise
            await websocket.accept()
            await turn_away(websocket, f"the game cannot be read now ({reason})", CLOSE_UNAVAILABLE)
            return
        seat = None if held is None else table.seat_of(held.info)
        await websocket.accept()
        if held is None or seat is None:
            await turn_away(websocket, "you do not sit at this table")
            return
        sent = table.version
        await websocket.send_json({"type": "state", "state": table.state(seat, parts.clock())})
        siblings = Siblings(parts, named)
        # In a thread: publishing is a network call, which the event loop must not wait on.
        await run_in_threadpool(siblings.announce, opened=True)
        # One inbox for the table's news and the browser's messages, so that one loop
        # sends everything in order; its reader lives as long as the socket. (A pair of
        # tasks raced anew for each message would leave a thousand sockets' worth of
        # waiting objects for the cycle collector to scan: see settle_collector.)
        turns = asyncio.Semaphore(INBOX)
        reader = asyncio.ensure_future(_read_into(websocket, inbox, turns))
        heard: deque[float] = deque(maxlen=FLOOD_MESSAGES)
        try:
            while True:
                item = await inbox.get()
                if item == ENDED:
                    await turn_away(websocket, SESSION_ENDED)
                    break
                if item == RESYNC:  # the broker is back: news may have been missed
                    table = await run_in_threadpool(parts.tables.load, table_id)
                    if table.version > sent:
                        sent = table.version
                        state = table.state(seat, parts.clock())
                        await websocket.send_json({"type": "state", "state": state})
                    continue
                if isinstance(item, dict) and "socket" in item:
                    if siblings.heard(item):
                        await turn_away(websocket, REPLACED, CLOSE_REPLACED)
                        break
                    continue
                if isinstance(item, Heard) and item.text is not None:
                    turns.release()  # taken out: the reader may take in another
                    if item.text != "ping":  # answered from here, at no cost
                        heard.append(time.monotonic())
                    if len(heard) == FLOOD_MESSAGES and heard[-1] - heard[0] < FLOOD_SECONDS:
                        await turn_away(websocket, FLOODED, CLOSE_FLOODED)
                        break
                if not isinstance(item, Heard):
                    # Not shown yet? (The state read after subscribing, or the mover's
                    # own answer, may have had it.)
                    if item["version"] > sent:
                        sent = item["version"]
                        await websocket.send_text(item["updates"][seat])
                    continue
                if item.text is None:
                    break
                if item.text == "ping":
                    await websocket.send_text("pong")
                    continue
                answer = await run_in_threadpool(_socket_move, parts, held, table_id, item.text)
                if answer.version < 0 or answer.version > sent:  # a refusal, or news
                    sent = max(sent, answer.version)
                    await websocket.send_text(answer.text)
                if answer.close:
                    await websocket.close(code=CLOSE_REFUSED)
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            reader.cancel()
            # Handed to a thread and not waited for: the handler may be being cancelled
            # (the browser gone), and the others must hear of it all the same.
            asyncio.get_running_loop().run_in_executor(
                None, functools.partial(siblings.announce, opened=False)
            )
            with suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await reader


SESSION_ENDED = "your session has ended; reload the page"
REPLACED = f"this session opened more than {MAX_SOCKETS} table pages; this, the oldest, closed"
FLOODED = "this page sent more messages than any page at play sends; reload it"


class Siblings:
    """A socket's view of the other table sockets of its session, on every process:
    each announces its opening and its closing on the session's channel, and a socket
    that hears of MAX_SOCKETS live ones newer than itself is the oldest beyond the
    cap, and closes."""

    def __init__(self, parts: Services, session: str | None) -> None:
        self.parts = parts
        self.channel = None if session is None else session_channel(session)
        self.me = (time.time(), secrets.token_hex(8))
        self.newer: set[str] = set()

    def announce(self, *, opened: bool) -> None:
        if self.channel is not None:
            at, name = self.me
            message = {"socket": name, "at": at, "open": opened}
            self.parts.broker.publish(self.channel, message)

    def heard(self, message: dict[str, Any]) -> bool:
        """Take in another socket's news; whether this one must now close."""
        other = (float(message["at"]), str(message["socket"]))
        if other[1] == self.me[1]:
            return False
        if not message["open"]:
            self.newer.discard(other[1])
        elif other > self.me:
            self.newer.add(other[1])
        return len(self.newer) >= MAX_SOCKETS


SOCKET_RECHECK = timedelta(minutes=5)
"""How long a table's socket goes by the session as it last read it. A session's end
is announced at once; this bounds what a lost announcement could let through."""


@dataclass
class SocketSession:
    """The session a table's socket plays in, as last read, and when (by the clock
    and by the broker's epoch: a lost subscription may have missed an end)."""

    cookie: str | None
    info: SessionInfo
    at: datetime
    epoch: int

    @classmethod
    def read(cls, parts: Services, cookie: str | None) -> SocketSession | None:
        """The live session the cookie names, now; None if it has ended."""
        epoch = parts.broker.epoch
        found = parts.visitor(cookie)
        return None if found is None else cls(cookie, found, parts.clock(), epoch)

    def checked(self, parts: Services) -> bool:
        """Whether the session is still live, read again if the last read is old,
        and kept as in use (see :func:`kept`)."""
        if parts.clock() - self.at >= SOCKET_RECHECK or parts.broker.epoch != self.epoch:
            self.epoch, self.at = parts.broker.epoch, parts.clock()
            found = parts.visitor(self.cookie)
            if found is None:
                return False
            self.info = found
        self.info = kept(parts, self.info)
        return True


def _opened(
    parts: Services, table_id: str, cookie: str | None
) -> tuple[TableSession, SocketSession | None]:
    """What a socket opens on: the table, and the live session the cookie names."""
    return parts.tables.load(table_id), SocketSession.read(parts, cookie)


async def turn_away(websocket: WebSocket, detail: str, code: int = CLOSE_REFUSED) -> None:
    """Tell an accepted socket why it is closed, then close it."""
    await websocket.send_json({"type": "error", "detail": detail})
    await websocket.close(code=code)


@dataclass(frozen=True)
class Heard:
    """A message from the browser, in a socket's inbox beside the table's news: its
    text (a binary one as empty text, refused as not JSON), None once it has gone."""

    text: str | None


async def _read_into(
    websocket: WebSocket, inbox: asyncio.Queue[Any], turns: asyncio.Semaphore
) -> None:
    """Put the browser's messages into the inbox, until it goes (None); no more than
    ``turns`` at a time that the socket has not taken out yet."""
    while True:
        await turns.acquire()
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            message = {"type": "websocket.disconnect"}
        if message["type"] == "websocket.disconnect":
            inbox.put_nowait(Heard(None))
            return
        text = message.get("text")
        inbox.put_nowait(Heard("" if text is None else text))


@dataclass(frozen=True)
class SocketAnswer:
    """What a socket answers a move: the mover's update (``version`` its state's) or a
    refusal (``version`` -1), and whether the socket closes after it."""

    text: str
    version: int
    close: bool = False


def _socket_move(parts: Services, held: SocketSession, table_id: str, text: str) -> SocketAnswer:
    """A move from a table's WebSocket, checked as the POST is (its session, which must
    still be live, but no CSRF token: the socket was opened from this site's pages)."""
    chosen: Any = None

    def refusal(status: int, detail: str, *, close: bool = False) -> SocketAnswer:
        message = {"type": "refused", "status": status, "detail": detail, "version": chosen}
        return SocketAnswer(json.dumps(message, separators=(",", ":")), -1, close)

    try:
        move = parsed_message(text, SocketMove)
    except MessageError as error:
        return refusal(error.status, error.detail)
    chosen = move.version
    if not held.checked(parts):
        return refusal(403, SESSION_ENDED, close=True)
    try:
        change = parts.tables.act(table_id, held.info, move.action, move.version, move.seat)
    except DOMAIN_ERRORS as error:
        status, detail, _ = answer_of(error)
        return refusal(status, detail)
    except DBAPIError as error:
        reason = unavailable(error)
        if reason is None:
            raise
        return refusal(503, f"the game cannot store anything now ({reason}); try again shortly")
    return SocketAnswer(change.updates[change.table.seated(held.info)], change.table.version)
