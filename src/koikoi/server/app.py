"""The web application: the JSON API, the static browser client, and their database.

The server is authoritative: the browser sends intentions (play, capture, koi-koi,
stop) with the version of the state they answer; the server checks them with the
engine, applies them, lets the computer move, stores the game and only then answers
with the human seat's state and the events to animate. The routes live in
``server.routes``, one module per concept; this module puts the parts together.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException
from starlette_compress import CompressMiddleware

from koikoi import __version__
from koikoi.server.boundary import (
    MAX_BODY_BYTES,
    BodyGuard,
    ErrorGuard,
    InlineScriptPolicy,
    ResponseHeaders,
    domain_error,
    error_responses,
    http_error,
    validation_error,
)
from koikoi.server.clock import Clock, utc_now
from koikoi.server.context import Services
from koikoi.server.credentials import Passwords
from koikoi.server.errors import DOMAIN_ERRORS
from koikoi.server.gamestore import GameStore
from koikoi.server.live import make_broker
from koikoi.server.matchqueue import MatchQueue
from koikoi.server.offline import Offline
from koikoi.server.routes import accounts, boards, games, queue, site, tables, tablesocket
from koikoi.server.sessions import Sessions, signing_key
from koikoi.server.settings import Settings
from koikoi.server.tablestore import TableStore
from koikoi.server.thinking import Thinking
from koikoi.server.throttle import Throttle, sweep_addresses
from koikoi.server.traffic import AccessLog, BestCompression, ClientFiles, HeadAsGet
from koikoi.store.database import Database, default_url, make_engine, upgrade

# The client is all the project's own files: nothing from elsewhere may run, load or
# frame the game. (The API docs page is served from the package too; its one inline
# script, which starts Swagger UI, is allowed by its hash: see InlineScriptPolicy.)
POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
    " form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
DOCS = "/api/docs"
# What each router's routes may refuse, for the schema. Every route may meet an
# oversized body (413), invalid input (422), an unexpected error (500) and a database
# that cannot take the request now (503, with Retry-After).
EVERY_ROUTE = (413, 422, 500, 503)
REFUSALS = {
    # A request is matched against the routes one by one, in this order: the moves'
    # routers first, as they take most requests (matching through every route before
    # them cost a move a tenth of its time).
    tables: (400, 403, 404, 409, 410, 429),
    tablesocket: (),
    games: (400, 403, 404, 409, 429),
    queue: (403, 409),
    accounts: (401, 403, 409, 429),
    boards: (404,),
    site: (404,),
}


log = logging.getLogger("koikoi")


GAMES_SWEEP_EVERY = 60
"""Sweeps of the tables between two sweeps of abandoned games (a minute, by default)."""


async def sweep(games: GameStore, tables: TableStore, queue: MatchQueue, every: float) -> None:
    """Each ``every`` seconds: the moves the clock owes, and quick-match pairings; each
    minute or so, the matches against the computer abandoned a week ago, so that
    their results reach profiles and boards though nobody writes to them."""
    for beat in itertools.count():
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(tables.expire)
            await asyncio.to_thread(queue.pair_waiting)
            if beat % GAMES_SWEEP_EVERY == 0:
                await asyncio.to_thread(games.sweep)
        except Exception:  # the database away for a moment: the next sweep catches up
            log.exception("the tables' sweep failed")


def create_app(
    settings: Settings | None = None,
    *,
    expert_options: dict[str, Any] | None = None,
    rng: random.Random | None = None,
    clock: Clock = utc_now,
    password_hasher: PasswordHasher | None = None,
    web: Path | None = None,
    thinking: Thinking | None = None,
    sweep_seconds: float = 1.0,
) -> FastAPI:
    """The application, its database brought up to date.

    ``settings`` say how it is set up (koikoi.server.settings: the database, the
    cookies' key, Redis, the thinking pool...; by default as the environment says).
    ``expert_options`` tune the expert (``rollouts``,
    ``budget_ms``; by default its standard budget, capped at two seconds a move).
    ``rng`` draws the seeds of new games (by default the system's secure source),
    ``clock`` tells the time (sessions, throttling, abandoned matches), and
    ``password_hasher`` sets argon2's costs: tests pass cheap ones. ``web`` is the
    browser client's folder (by default the package's own): the page, ``/static`` and
    the service worker's cache come from it. ``thinking`` is where the computer thinks
    (by default a pool of the settings' ``thinking_processes`` workers, started at the
    first move that needs it): the app shuts it down when it stops. Every
    ``sweep_seconds`` the app makes the moves of players whose clock ran out and pairs
    the quick-match queue.
    """
    settings = settings or Settings.from_environment()
    engine = make_engine(settings.database_url or default_url())
    upgrade(engine)
    database = Database(engine)
    with database.begin() as db:
        key = signing_key(db, settings.secret_key)
    # Every process of a deployment signs with the same key: it names their channels.
    namespace = hashlib.sha256(f"channels:{key}".encode()).hexdigest()[:16]
    broker = make_broker(settings.redis_url, namespace)
    sessions = Sessions(key, clock, broker)
    with database.begin() as db:
        sessions.sweep(db)
        Throttle(clock).sweep(db)
        sweep_addresses(db, clock())
    expert = {"budget_ms": 2000.0} if expert_options is None else expert_options
    thinking = thinking or Thinking(settings.thinking_processes)

    seeds = rng or random.SystemRandom()
    games = GameStore(database, clock, expert, thinking)
    table_store = TableStore(database, clock, broker, seeds, games.reviews)
    match_queue = MatchQueue(table_store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        sweeping = asyncio.create_task(sweep(games, table_store, match_queue, sweep_seconds))
        yield
        sweeping.cancel()
        with suppress(asyncio.CancelledError):
            await sweeping
        broker.close()
        thinking.close()
        engine.dispose()

    # The API docs with Swagger UI's files from the package, not a CDN: the game and
    # its docs work with no network.
    app = FastAPIOffline(
        title="koikoi",
        version=__version__,
        docs_url=DOCS,
        redoc_url=None,
        static_url="/api/docs-files",
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
        exception_handlers={
            RequestValidationError: validation_error,
            HTTPException: http_error,
            **dict.fromkeys(DOMAIN_ERRORS, domain_error),
        },
    )
    app.state.services = Services(
        engine=engine,
        database=database,
        clock=clock,
        sessions=sessions,
        passwords=Passwords(password_hasher),
        throttle=Throttle(clock),
        games=games,
        tables=table_store,
        queue=match_queue,
        broker=broker,
        seeds=seeds,
        settings=settings,
    )

    # Each middleware added wraps those before it, so the headers go outermost: every
    # response gets them, a 500 included.
    app.state.services.games.sweep()  # matches abandoned while the server was down
    web = web or Path(str(site.WEB))
    offline = app.state.offline = Offline(web)

    app.add_middleware(BodyGuard, max_bytes=MAX_BODY_BYTES)
    app.add_middleware(ErrorGuard)
    # Inside the compression: it reads the docs page as written.
    app.add_middleware(InlineScriptPolicy, paths={DOCS}, policy=POLICY)
    # Text answers (the client, catalogs, card pictures, JSON) travel compressed.
    app.add_middleware(CompressMiddleware, minimum_size=500)
    # What every device downloads to play offline, the most compressed it can be.
    app.add_middleware(BestCompression, paths=lambda: offline.paths)
    app.add_middleware(ResponseHeaders, headers=SECURITY_HEADERS)
    app.add_middleware(HeadAsGet)
    app.add_middleware(AccessLog)

    for module, refusals in REFUSALS.items():
        app.include_router(module.router, responses=error_responses(*refusals, *EVERY_ROUTE))
    app.mount("/static", ClientFiles(directory=str(web)), name="static")
    return app
