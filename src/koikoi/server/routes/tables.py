"""Tables between two people: open one, sit down by its link or code, play live over
a WebSocket, resign, play again; and the quick-match queue.

A move goes over the mover's WebSocket (a ``move`` message), or over HTTP where the
page has none, like a move against the computer; either way the mover is answered with
its new state, and the same change reaches both seats' WebSockets, each with its own
view. A page whose WebSocket cannot open reads the table again every few seconds.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, HTTPException, Path, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from koikoi.rules import RuleSet
from koikoi.server.accounts import SessionInfo
from koikoi.server.boundary import MessageError, parsed_message
from koikoi.server.context import COOKIE, Browser, Checked, Parts, Services, Strict, kept
from koikoi.server.errors import DOMAIN_ERRORS, StaleActionError, answer_of
from koikoi.server.live import ENDED, session_channel
from koikoi.server.tablecopies import table_channel
from koikoi.server.tables import (
    CANCELLED,
    CODE_LENGTH,
    CODE_PATTERN,
    OPEN,
    OVER,
    TableError,
    TableSession,
)

router = APIRouter(prefix="/api", tags=["tables"])

TableId = Annotated[
    str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="A table's id, as the server gave it.")
]
TableCode = Annotated[
    str,
    Path(
        pattern=CODE_PATTERN,
        description=f"A table's short code: {CODE_LENGTH} capital letters and digits.",
    ),
]

CLOSE_REFUSED = 4403
"""WebSocket close code: this browser may not watch the table (not seated)."""
CLOSE_MISSING = 4404


class NewTable(Strict):
    rules: dict[str, Any] = Field(
        default_factory=lambda: {"preset": "classic"},
        description="A preset plus overrides, as in a rules file (RULES.md §6).",
    )
    ranked: bool = Field(default=False, description="Ranked: both players signed in, a preset.")
    move_seconds: int | None = Field(
        default=None, description="Seconds for each action (friendly tables: 15, 30, 60, 120)."
    )


class TableMove(Strict):
    action: Any = Field(
        description='{"play": slug}, {"capture": slug}, {"koikoi": true} or {"stop": true}'
    )
    version: int = Field(description="The table's state version the action was chosen in.")
    seat: int | None = Field(
        default=None, description="The mover's seat, if the client names it: it must be theirs."
    )


class SocketMove(TableMove):
    """A move sent over the table's WebSocket: the POST's body, named as a move."""

    type: Literal["move"] = Field(description='Always "move".')


class QueueJoin(Strict):
    preset: str = Field(default="classic", description="The preset to play a quick match under.")


def seated_view(parts: Services, table: TableSession, seat: int) -> dict[str, Any]:
    return {"state": table.state(seat, parts.clock())}


@router.post("/tables", status_code=201)
def open_table(body: NewTable, parts: Parts, info: Checked) -> dict[str, Any]:
    """Open a table for a friend: share its link or its code; the match begins when
    they sit down."""
    rules = RuleSet.from_mapping(body.rules)
    table = parts.tables.create(info, rules, ranked=body.ranked, move_seconds=body.move_seconds)
    return seated_view(parts, table, 0)


@router.get("/tables")
def my_tables(parts: Parts, info: Browser) -> dict[str, Any]:
    """This player's tables open or in play (signed in: from any device), newest first."""
    return {"tables": parts.tables.mine(info)}


@router.get("/tables/{table_id}/replay")
def table_replay(table_id: TableId, parts: Parts) -> dict[str, Any]:
    """A finished match between two people, every card face up, step by step (public,
    like the replays of matches against the computer)."""
    table = parts.tables.load(table_id)
    if table.status != OVER or table.ending == CANCELLED:
        raise HTTPException(409, "the match is still being played; replays come after")
    return table.replay()


@router.get("/tables/{table_id}/review")
def table_review(
    table_id: TableId,
    parts: Parts,
    seat: Annotated[int, Query(ge=0, le=1, description="Whose decisions: 0 opened the table.")],
) -> dict[str, Any]:
    """The coach's review of one player's decisions in a finished match between people
    (public, like the replay): against the expert's best, from what that player could
    see, marked by the match win chance each gave away."""
    return parts.tables.review(table_id, seat)


@router.get("/tables/code/{code}")
def find_table(code: TableCode, parts: Parts) -> dict[str, Any]:
    """The table a code names (its id, for the link)."""
    return {"id": parts.tables.find(code)}


@router.get("/tables/{table_id}")
def get_table(table_id: TableId, parts: Parts, info: Browser) -> dict[str, Any]:
    """A seated player's state; for anyone else with the link, only what an open table
    shows (its rules and host), or that it is full (403) or was closed (410)."""

    def view(table: TableSession) -> dict[str, Any]:
        seat = table.seat_of(info)
        if seat is not None:
            return seated_view(parts, table, seat)
        if table.ending == CANCELLED:
            raise HTTPException(410, "this table was closed before anyone sat down at it")
        if table.status != OPEN:
            raise HTTPException(403, "this table is full: two players already sit at it")
        return {"state": None, "table": table.info(parts.clock())}

    return parts.tables.current(table_id, view)


@router.post("/tables/{table_id}/seat")
def sit(table_id: TableId, parts: Parts, info: Checked) -> dict[str, Any]:
    """Sit down at an open table: the match begins."""
    try:
        change = parts.tables.sit(table_id, info)
    except StaleActionError:
        raise HTTPException(409, "this table is full: two players already sit at it") from None
    return change.views[1]


@router.delete("/tables/{table_id}")
def close_table(table_id: TableId, parts: Parts, info: Checked) -> dict[str, Any]:
    """Close a table nobody has sat down at yet (only its host)."""
    try:
        change = parts.tables.cancel(table_id, info)
    except StaleActionError:
        raise HTTPException(409, "someone sat down meanwhile: the match has begun") from None
    return change.views[0]


@router.post("/tables/{table_id}/actions")
def table_act(table_id: TableId, body: TableMove, parts: Parts, info: Checked) -> JSONResponse:
    """Play a move at a table; answers, once it is stored, the mover's new state and the
    events to animate (the opponent hears of it on their WebSocket). A page with the
    table's WebSocket open sends its moves there instead: see ``/live``."""
    change = parts.tables.act(table_id, info, body.action, body.version, body.seat)
    # The view is plain JSON already: written out directly, it skips FastAPI's encoder,
    # which would walk it again (a third of a millisecond, on the busiest route).
    return JSONResponse(change.views[change.table.seated(info)])


@router.post("/tables/{table_id}/resign")
def table_resign(table_id: TableId, parts: Parts, info: Checked) -> dict[str, Any]:
    """Give the match up: the opponent wins it."""
    change = parts.tables.resign(table_id, info)
    return change.views[change.table.seated(info)]


@router.post("/tables/{table_id}/rematch")
def rematch(table_id: TableId, parts: Parts, info: Checked) -> dict[str, Any]:
    """Offer to play again (or accept the opponent's offer): once both want it, a new
    table opens for the two of them, its id in ``state.table.next``."""
    return parts.tables.rematch(
        table_id, info, lambda table: seated_view(parts, table, table.seated(info))
    )


@router.post("/queue")
def join_queue(body: QueueJoin, parts: Parts, info: Checked) -> dict[str, Any]:
    """Wait for a quick match against a player of about one's rating under a preset
    (ranked when signed in; guests play guests, friendly). Ask ``GET /api/queue``
    until it answers ``paired``; the range widens as one waits."""
    return parts.queue.join(info, body.preset)


@router.get("/queue")
def queue_status(parts: Parts, info: Browser) -> dict[str, Any]:
    return parts.queue.status(info)


@router.delete("/queue")
def leave_queue(parts: Parts, info: Checked) -> dict[str, Any]:
    parts.queue.leave(info)
    return {"status": "none"}


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
        seat = None if held is None else table.seat_of(held.info)
        await websocket.accept()
        if held is None or seat is None:
            await turn_away(websocket, "you do not sit at this table")
            return
        sent = table.version
        await websocket.send_json({"type": "state", "state": table.state(seat, parts.clock())})
        # One inbox for the table's news and the browser's messages, so that one loop
        # sends everything in order; its reader lives as long as the socket. (A pair of
        # tasks raced anew for each message would leave a thousand sockets' worth of
        # waiting objects for the cycle collector to scan: see settle_collector.)
        reader = asyncio.ensure_future(_read_into(websocket, inbox))
        try:
            while True:
                item = await inbox.get()
                if item == ENDED:
                    await turn_away(websocket, SESSION_ENDED)
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
            with suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await reader


SESSION_ENDED = "your session has ended; reload the page"
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


async def _read_into(websocket: WebSocket, inbox: asyncio.Queue[Any]) -> None:
    """Put the browser's messages into the inbox, until it goes (None)."""
    while True:
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
    return SocketAnswer(change.updates[change.table.seated(held.info)], change.table.version)
