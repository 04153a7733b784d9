"""Tables between two people: open one, sit down by its link or code, play, resign,
play again.

A move goes over the mover's WebSocket (a ``move`` message: routes.tablesocket), or
over HTTP where the page has none, like a move against the computer; either way the
mover is answered with its new state, and the same change reaches both seats'
WebSockets, each with its own view. A page whose WebSocket cannot open reads the
table again every few seconds.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from koikoi.rules import RuleSet
from koikoi.server.context import Browser, Checked, Parts, Services, Strict, client_address
from koikoi.server.errors import StaleActionError
from koikoi.server.tables import (
    CANCELLED,
    CODE_LENGTH,
    CODE_PATTERN,
    OPEN,
    OVER,
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


class NewTable(Strict):
    rules: dict[str, Any] = Field(
        default_factory=lambda: {"preset": "classic"},
        description="A preset plus overrides, as in a rules file (docs/rules.md §6).",
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
    request: Request,
) -> dict[str, Any]:
    """The coach's review of one player's decisions in a finished match between people
    (public, like the replay): against the expert's best, from what that player could
    see, marked by the match win chance each gave away."""
    return parts.tables.review(table_id, seat, client_address(request))


@router.get("/tables/code/{code}")
def find_table(code: TableCode, parts: Parts, request: Request) -> dict[str, Any]:
    """The open table a code names (its id, for the link). Codes that name no open
    table are counted per address: past a few a minute, look-ups wait (429)."""
    return {"id": parts.tables.find(code, client_address(request))}


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
