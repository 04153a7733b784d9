"""Two people in two browsers at one table served by two ``koikoi serve`` processes
(PostgreSQL, Redis), each browser behind its own balancer that prefers a different
process; one process is killed with SIGKILL mid-match, and both players carry on
through the other without reloading. Every answer and WebSocket frame either browser
received is then crawled for cards that seat could not see.

Nothing sleeps: every wait is on a page's state or on Playwright's auto-waiting.
"""

from __future__ import annotations

import asyncio
import json
import signal
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket, expect

from hidden import hidden_by_version, leaks
from servers import koikoi_serve, listening_socket
from test_browser import state
from test_browser_tables import Match, People, at_table, invite

WAIT = 60.0


class Balancer:
    """A TCP balancer on a port of its own: each connection goes to the first of its
    backends that accepts it, as a load balancer sends players away from a dead server."""

    def __init__(self, backends: list[int]) -> None:
        self.backends = backends
        self.sock = listening_socket()
        self.port = self.sock.getsockname()[1]
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> Balancer:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(), self.loop).result(WAIT)
        return self

    def __exit__(self, *_exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(WAIT)
        self.loop.close()
        self.sock.close()

    async def _serve(self) -> None:
        self.server = await asyncio.start_server(self._client, sock=self.sock)

    async def _stop(self) -> None:
        self.server.close()
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for port in self.backends:
            try:
                upstream = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                continue  # that process is gone: the next one
            break
        else:
            writer.close()
            return
        up_reader, up_writer = upstream
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with suppress(OSError, asyncio.CancelledError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    with suppress(OSError):
        writer.close()


@contextmanager
def process(database_url: str, redis_url: str) -> Iterator[tuple[int, Any]]:
    """A server process on a socket of its own; the test lets go of its copy of the
    socket at once, so that once the process dies, its port refuses connections."""
    sock = listening_socket()
    port = sock.getsockname()[1]
    with koikoi_serve(sock.fileno(), database_url, redis_url=redis_url) as served:
        sock.close()
        yield port, served


class Received:
    """Everything a page was told about tables: API answers and WebSocket frames."""

    def __init__(self, page: Page) -> None:
        self.data: list[Any] = []
        self.frames = 0
        page.on("response", self._response)
        page.on("websocket", self._websocket)

    def _response(self, response: Any) -> None:
        if "/api/tables" in response.url and response.ok:
            with suppress(Exception):  # a body the page never read (navigated away)
                self.data.append(response.json())

    def _websocket(self, websocket: WebSocket) -> None:
        websocket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        if isinstance(payload, str) and payload.startswith("{"):
            self.frames += 1
            self.data.append(json.loads(payload))


def test_two_browsers_on_two_processes_play_through_a_killed_one(
    chromium: Browser, postgresql_url: str, redis_url: str
) -> None:
    with ExitStack() as stack:
        first_port, _ = stack.enter_context(process(postgresql_url, redis_url))
        second_port, second = stack.enter_context(process(postgresql_url, redis_url))
        # The host's balancer prefers the first process, the friend's the second.
        host_door = stack.enter_context(Balancer([first_port, second_port]))
        friend_door = stack.enter_context(Balancer([second_port, first_port]))
        hosts = People(chromium, f"http://127.0.0.1:{host_door.port}")
        friends = People(chromium, f"http://127.0.0.1:{friend_door.port}")
        for crowd in (hosts, friends):
            stack.callback(crowd.close)

        host = hosts.open("laptop")
        heard = [Received(host)]
        tid = invite(host, seconds=120)
        friend = friends.open("laptop", path=f"/#/table/{tid}")
        heard.append(Received(friend))
        friend.get_by_test_id("sit-button").click()
        at_table(friend)
        at_table(host)
        game = Match([host, friend])
        game.play_moves(8)
        game.sync()
        before = state(friend)
        assert before["status"] == "playing"
        frames_before = heard[1].frames

        second.send_signal(signal.SIGKILL)
        assert second.wait(timeout=WAIT) == -signal.SIGKILL
        # The friend's page loses its WebSocket and opens a new one through its
        # balancer, now to the first process: the table as it was, then play goes on.
        friend.wait_for_function(
            "(v) => window.koikoi.state && window.koikoi.state.version >= v", arg=before["version"]
        )
        # The round the process died in is played to its end, and the next one begun.
        moves_before = sum(game.moves)
        assert game.play_round() in ("round", "over")
        game.play_moves(4)
        game.sync()
        after = [state(host), state(friend)]
        # The moves since came to the friend over a new WebSocket, to the other process.
        assert heard[1].frames > frames_before + 4
        assert after[0]["version"] == after[1]["version"] > before["version"]
        assert sum(game.moves) > moves_before + 4
        for page in (host, friend):
            expect(page.get_by_test_id("hand")).to_be_visible()

    # The friend's page saw its connection drop (the browser logs that); nothing else.
    dropped = ("WebSocket", "ERR_", "Failed to load resource")
    assert [e for e in friends.unexpected() if not any(d in e for d in dropped)] == []
    assert hosts.unexpected() == []

    hidden = hidden_by_version(postgresql_url, tid)
    for seat, received in enumerate(heard):
        assert received.frames > 8, "the moves came over the WebSocket"
        for data in received.data:
            assert not leaks(hidden, seat, data), data
