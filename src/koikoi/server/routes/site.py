"""The site around the API: the page, its service worker, card pictures, languages and
the health check."""

from __future__ import annotations

from datetime import datetime
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from koikoi import __version__
from koikoi.cards import UnknownCardError, card_from_slug
from koikoi.server.cardart import card_back_svg, card_svg
from koikoi.server.context import Parts
from koikoi.server.i18n import LOCALES, best_locale, client_catalog, languages
from koikoi.server.offline import Offline
from koikoi.store.database import RETRY_AFTER, unavailable
from koikoi.store.models import HealthCheck
from koikoi.store.rows import upsert

WEB = resources.files("koikoi") / "web"

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
def healthz(parts: Parts) -> JSONResponse:
    """Whether the server can do its work: answer, and store a move (for load
    balancers and monitors). 503, with Retry-After, names what stops the database
    taking a write."""
    try:
        proved_write(parts.database, parts.clock())
    except SQLAlchemyError as error:
        problem = unavailable(error) or f"{type(error).__name__}: {getattr(error, 'orig', error)}"
        return JSONResponse(
            {"status": "error", "database": f"cannot write: {problem}", "version": __version__},
            status_code=503,
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    # A broker away is no reason to take the process out of a balancer (every process
    # would go at once): moves are stored and played on; it is named, for monitors.
    return JSONResponse(
        {"status": "ok", "database": "ok", "broker": parts.broker.state, "version": __version__}
    )


HEALTH_WAIT_MS = 5000
"""How long the health check waits for the database's write lock: the writes of a busy
hour take milliseconds each, so only a database that cannot write waits this long."""


def proved_write(database: sessionmaker[Session], now: datetime) -> None:
    """Write the health row and commit it, so it reaches the database file, waiting
    no more than :data:`HEALTH_WAIT_MS` for a lock; raises what the database says."""
    with database.begin() as db:
        if db.get_bind().dialect.name == "sqlite":
            # The busy timeout of this connection alone, for this check alone.
            connection: Any = db.connection().connection.driver_connection
            waited = connection.execute("PRAGMA busy_timeout").fetchone()[0]
            connection.execute(f"PRAGMA busy_timeout = {HEALTH_WAIT_MS}")
            try:
                upsert(db, HealthCheck, {"id": 1, "checked": now})
                db.flush()
            finally:
                connection.execute(f"PRAGMA busy_timeout = {int(waited)}")
        else:
            db.execute(text(f"SET LOCAL lock_timeout = {HEALTH_WAIT_MS}"))
            db.execute(text(f"SET LOCAL statement_timeout = {HEALTH_WAIT_MS}"))
            upsert(db, HealthCheck, {"id": 1, "checked": now})


@router.get("/api/i18n", tags=["languages"])
def i18n_index(request: Request) -> dict[str, Any]:
    """The languages, and the one that best fits the browser's Accept-Language."""
    return {
        "languages": languages(),
        "preferred": best_locale(request.headers.get("accept-language")),
    }


@router.get("/api/i18n/{code}", tags=["languages"])
def i18n_catalog(code: Annotated[str, Path(max_length=16)]) -> dict[str, Any]:
    """One language's messages for the browser, with its plural categories and direction."""
    if code not in LOCALES:
        raise HTTPException(404, f"no language {code!r}; languages: {', '.join(LOCALES)}")
    return client_catalog(code)


@router.get("/cards/{name}.svg", include_in_schema=False)
def card_image(name: Annotated[str, Path(max_length=40)]) -> Response:
    """A card's picture by slug, or ``back``; made by the project (cardart)."""
    if name == "back":
        svg = card_back_svg()
    else:
        try:
            svg = card_svg(card_from_slug(name))
        except UnknownCardError as error:
            raise HTTPException(404, str(error)) from None
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


@router.get("/", include_in_schema=False)
def index(request: Request) -> FileResponse:
    offline: Offline = request.app.state.offline
    return FileResponse(str(offline.web / "index.html"))


@router.get("/sw.js", include_in_schema=False)
def service_worker(request: Request) -> Response:
    """The service worker, at the root so that it serves the whole site: the game
    offline after one visit (koikoi.server.offline). Browsers look for a new one at
    every visit; it changes with any file it caches."""
    offline: Offline = request.app.state.offline
    tag = f'"{offline.version}"'
    headers = {"Cache-Control": "no-cache", "ETag": tag}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(offline.script, media_type="text/javascript; charset=utf-8", headers=headers)
