"""What every route shares: the app's services, the browser's session and the CSRF check."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from koikoi.server.clock import Clock
from koikoi.server.credentials import Passwords
from koikoi.server.gamestore import GameStore
from koikoi.server.live import Broker
from koikoi.server.matchqueue import MatchQueue
from koikoi.server.sessions import SessionInfo, Sessions
from koikoi.server.settings import Settings
from koikoi.server.tablestore import TableStore
from koikoi.server.throttle import Throttle

COOKIE = "koikoi_session"
DEVICE_COOKIE = "koikoi_device"
"""Set where an account signed in: its password checks there skip the wider throttles."""


@dataclass(frozen=True)
class Services:
    """The server's parts, made once by ``create_app`` and shared by every request."""

    engine: Engine
    database: sessionmaker[Session]
    clock: Clock
    sessions: Sessions
    passwords: Passwords
    throttle: Throttle
    games: GameStore
    seeds: random.Random
    """Draws new games' seeds: the system's secure source unless a test fixes it."""
    tables: TableStore
    queue: MatchQueue
    broker: Broker
    settings: Settings
    """How the server was set up (koikoi.server.settings)."""

    def visitor(self, cookie: str | None) -> SessionInfo | None:
        """The live session a cookie names, if any (for a WebSocket, which has no
        response to set a new visitor's cookie on)."""
        with self.database() as db:
            return self.sessions.find(db, cookie)


def services_of(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


async def services(request: Request) -> Services:
    # async, as it never waits: FastAPI runs a plain function dependency in a worker
    # thread, and that hop cost a sixth of a move's time on the server.
    return services_of(request)


class Strict(BaseModel):
    # A field the server does not know (a score, a winner) is refused, not ignored.
    model_config = ConfigDict(extra="forbid")


def set_cookie(response: Response, parts: Services, value: str, name: str = COOKIE) -> None:
    response.set_cookie(
        name,
        value,
        max_age=60 * 60 * 24 * 365,
        httponly=True,
        samesite="lax",
        secure=parts.settings.secure_cookies,
        path="/",
    )


def client_address(request: Request) -> str:
    """The address a request came from (a trusted proxy's forwarded one, where the
    server was told to believe it: koikoi serve --forwarded-allow-ips)."""
    return request.client.host if request.client else "unknown"


def browser(request: Request, response: Response) -> SessionInfo:
    """The browser's session; a new visitor's when it has none. Writes nothing, so
    reading never waits for the database's writers."""
    parts = services_of(request)
    with parts.database() as db:
        found = parts.sessions.find(db, request.cookies.get(COOKIE))
    if found is not None:
        return found
    visitor, cookie = parts.sessions.visit()
    set_cookie(response, parts, cookie)
    return visitor


def checked(
    request: Request,
    x_csrf_token: Annotated[
        str, Header(description="The `csrf` of the latest answer from /api/session.")
    ] = "",
) -> SessionInfo:
    """The session of a state-changing request, which must echo its CSRF token."""
    parts = services_of(request)
    with parts.database() as db:
        found = parts.sessions.find(db, request.cookies.get(COOKIE))
    if found is None or not secrets.compare_digest(x_csrf_token.encode(), found.csrf.encode()):
        raise HTTPException(403, "missing or wrong CSRF token; reload the page")
    return kept(parts, found)


def kept(parts: Services, found: SessionInfo) -> SessionInfo:
    """A live session about to change something, stored and marked as in use."""
    if parts.sessions.kept_lately(found):
        return found  # no transaction to open and close
    # Its own transaction, which begins by writing: SQLite then takes the write lock
    # first instead of failing to upgrade a read.
    with parts.database.begin() as db:
        return parts.sessions.keep(db, found)


Parts = Annotated[Services, Depends(services)]
Browser = Annotated[SessionInfo, Depends(browser)]
"""The session of a request that only reads."""
Checked = Annotated[SessionInfo, Depends(checked)]
"""The session of a request that changes something, its CSRF token checked."""
