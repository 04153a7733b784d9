"""The HTTP API and the static browser client (FastAPI).

The server is authoritative: the browser sends intentions (play, capture, koi-koi,
stop) with the version of the state they answer; the server checks them with the
engine, applies them, lets the computer move, stores the game and only then answers
with the human seat's state and the events to animate.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from typing import Annotated, Any, Literal

from argon2 import PasswordHasher
from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, select, text
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from koikoi import __version__
from koikoi.cards import UnknownCardError, card_from_slug
from koikoi.round import IllegalActionError
from koikoi.rules import PRESET_NAMES, RulesError, RuleSet
from koikoi.server import ranking
from koikoi.server.accounts import (
    AccountError,
    Passwords,
    SessionInfo,
    Sessions,
    Throttle,
    check_name,
    check_password,
    name_key,
    signing_key,
)
from koikoi.server.cardart import card_back_svg, card_svg
from koikoi.server.games import (
    HOUSE,
    PLAYING,
    RANKING_POINTS,
    GameOverError,
    StaleActionError,
)
from koikoi.server.gamestore import GameNotFoundError, GameStore, restore
from koikoi.server.i18n import LOCALES, best_locale, client_catalog, languages
from koikoi.server.views import (
    cards_catalog,
    replay_json,
    rules_catalog,
    state_json,
    summary_json,
)
from koikoi.store.database import default_url, make_engine, upgrade
from koikoi.store.models import Game, User

WEB = resources.files("koikoi") / "web"
COOKIE = "koikoi_session"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

Difficulty = Literal["easy", "normal", "expert"]

# The client is all the project's own files: nothing from elsewhere may run, load or
# frame the game. (The API docs page fetches Swagger UI from a CDN, so it goes without.)
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
        " form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


class Strict(BaseModel):
    # A field the server does not know (a score, a winner) is refused, not ignored.
    model_config = ConfigDict(extra="forbid")


class NewGame(Strict):
    difficulty: Difficulty = "normal"
    rules: dict[str, Any] = Field(
        default_factory=lambda: {"preset": "classic"},
        description="A preset plus overrides, as in a rules file (RULES.md §6).",
    )


class Move(Strict):
    action: Any = Field(
        description='{"play": slug}, {"capture": slug}, {"koikoi": true} or {"stop": true}'
    )
    version: int = Field(description="The state version the action was chosen in.")


class Credentials(Strict):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class NewPassword(Strict):
    current: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class Confirmation(Strict):
    password: str = Field(max_length=1000)


def _now() -> datetime:
    return datetime.now(UTC)


def set_cookie(request: Request, response: Response, value: str) -> None:
    response.set_cookie(
        COOKIE,
        value,
        max_age=60 * 60 * 24 * 365,
        httponly=True,
        samesite="lax",
        secure=request.app.state.secure_cookies,
        path="/",
    )


def browser(request: Request, response: Response) -> SessionInfo:
    """The browser's session; a new guest session when it has none (reads only)."""
    sessions: Sessions = request.app.state.sessions
    with request.app.state.database.begin() as db:
        found = sessions.find(db, request.cookies.get(COOKIE))
        if found is not None:
            return found
        opened, cookie = sessions.open(db)
    set_cookie(request, response, cookie)
    return opened


def checked(
    request: Request,
    x_csrf_token: Annotated[
        str, Header(description="The `csrf` of the latest answer from /api/session.")
    ] = "",
) -> SessionInfo:
    """The session of a state-changing request, which must echo its CSRF token."""
    sessions: Sessions = request.app.state.sessions
    with request.app.state.database.begin() as db:
        found = sessions.find(db, request.cookies.get(COOKIE))
    if found is None or not secrets.compare_digest(x_csrf_token.encode(), found.csrf.encode()):
        raise HTTPException(403, "missing or wrong CSRF token; reload the page")
    return found


Browser = Annotated[SessionInfo, Depends(browser)]
Checked = Annotated[SessionInfo, Depends(checked)]


def create_app(
    *,
    database_url: str | None = None,
    secret_key: str | None = None,
    expert_options: dict[str, Any] | None = None,
    rng: random.Random | None = None,
    clock: Callable[[], datetime] = _now,
    password_hasher: PasswordHasher | None = None,
    secure_cookies: bool | None = None,
) -> FastAPI:
    """The application, its database brought up to date.

    ``database_url`` defaults to ``KOIKOI_DATABASE_URL`` or a SQLite file in the user's
    data directory; ``secret_key`` signs cookies (``KOIKOI_SECRET_KEY``, else a key
    kept in the database). ``expert_options`` tune the expert (``rollouts``,
    ``budget_ms``; by default its standard budget, capped at two seconds a move).
    ``rng`` draws the seeds of new games (by default the system's secure source),
    ``clock`` tells the time (sessions, throttling, abandoned matches), and
    ``password_hasher`` sets argon2's costs: tests pass cheap ones.
    """
    seeds = rng or random.SystemRandom()
    expert = {"budget_ms": 2000.0} if expert_options is None else expert_options
    if secure_cookies is None:
        secure_cookies = os.environ.get("KOIKOI_SECURE_COOKIES") == "1"
    engine = make_engine(database_url or default_url())
    upgrade(engine)
    database = sessionmaker(engine, expire_on_commit=False)
    with database.begin() as db:
        key = signing_key(db, secret_key or os.environ.get("KOIKOI_SECRET_KEY"))
        sessions = Sessions(key, clock)
        sessions.sweep(db)
    passwords = Passwords(password_hasher)
    throttle = Throttle(clock)
    store = GameStore(database, clock, expert)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        engine.dispose()

    app = FastAPI(
        title="koikoi",
        version=__version__,
        docs_url="/api/docs",
        openapi_url="/api/openapi.json",
        lifespan=lifespan,
    )

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            if request.url.path != app.docs_url or name != "Content-Security-Policy":
                response.headers.setdefault(name, value)
        return response

    app.state.engine = engine
    app.state.database = database
    app.state.sessions = sessions
    app.state.secure_cookies = secure_cookies
    app.state.store = store

    def session_json(info: SessionInfo) -> dict[str, Any]:
        user = None
        if info.user_id is not None:
            with database.begin() as db:
                user = {"name": info.user_name, "points": ranking.user_points(db, info.user_id)}
        return {"user": user, "csrf": info.csrf, "ranking_points": RANKING_POINTS}

    def answer(
        request: Request, response: Response, new: SessionInfo, cookie: str
    ) -> dict[str, Any]:
        """The answer to a request that changed the session: its cookie and token."""
        set_cookie(request, response, cookie)
        return session_json(new)

    def refuse(error: AccountError) -> HTTPException:
        headers = {"Retry-After": str(error.retry_after)} if error.retry_after else None
        return HTTPException(error.status, str(error), headers=headers)

    def verified_user(db: Session, info: SessionInfo, password: str) -> User:
        user = db.get(User, info.user_id) if info.user_id is not None else None
        if user is None:
            raise HTTPException(401, "sign in first")
        if not passwords.verify(user.password_hash, password):
            raise HTTPException(401, "the password is wrong")
        return user

    # -- health --------------------------------------------------------------------------

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> JSONResponse:
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError as error:
            return JSONResponse(
                {"status": "error", "database": type(error).__name__, "version": __version__},
                status_code=503,
            )
        return JSONResponse({"status": "ok", "database": "ok", "version": __version__})

    # -- sessions and accounts -----------------------------------------------------------

    @app.get("/api/session")
    def get_session(info: Browser) -> dict[str, Any]:
        """Who is signed in here, and the CSRF token for this browser's next requests."""
        return session_json(info)

    @app.post("/api/account", status_code=201)
    def sign_up(
        body: Credentials, info: Checked, request: Request, response: Response
    ) -> dict[str, Any]:
        """Create an account and sign in; a match in progress comes along."""
        try:
            name = check_name(body.name)
            check_password(body.password)
        except AccountError as error:
            raise refuse(error) from None
        hashed = passwords.hash(body.password)
        try:
            with database.begin() as db:
                user = User(
                    name=name, name_key=name_key(name), password_hash=hashed, created=clock()
                )
                db.add(user)
                db.flush()
                new, cookie = sessions.switch(db, info, user)
        except IntegrityError:
            raise HTTPException(409, f"the name {name!r} is taken; choose another") from None
        return answer(request, response, new, cookie)

    @app.post("/api/session")
    def sign_in(
        body: Credentials, info: Checked, request: Request, response: Response
    ) -> dict[str, Any]:
        """Sign in; refused for a while after repeated failures on a name or an address."""
        key = name_key(body.name)
        address = request.client.host if request.client else "unknown"
        with database.begin() as db:
            try:
                throttle.check(db, key, address)
            except AccountError as error:
                raise refuse(error) from None
            user = db.scalar(select(User).where(User.name_key == key))
            if passwords.verify(user.password_hash if user else None, body.password):
                assert user is not None
                throttle.succeeded(db, key)
                if passwords.hasher.check_needs_rehash(user.password_hash):
                    user.password_hash = passwords.hash(body.password)
                new, cookie = sessions.switch(db, info, user)
            else:
                throttle.failed(db, key, address)
                new = None
        if new is None:
            raise HTTPException(401, "wrong name or password")
        return answer(request, response, new, cookie)

    @app.delete("/api/session")
    def sign_out(info: Checked, request: Request, response: Response) -> dict[str, Any]:
        """End this session; the browser goes on as a new guest."""
        with database.begin() as db:
            new, cookie = sessions.switch(db, info, None)
        return answer(request, response, new, cookie)

    @app.post("/api/account/password")
    def change_password(
        body: NewPassword, info: Checked, request: Request, response: Response
    ) -> dict[str, Any]:
        """A new password; every other session of the account ends."""
        try:
            check_password(body.new)
        except AccountError as error:
            raise refuse(error) from None
        with database.begin() as db:
            user = verified_user(db, info, body.current)
            user.password_hash = passwords.hash(body.new)
            sessions.end_all(db, user.id)
            new, cookie = sessions.open(db, user)
        return answer(request, response, new, cookie)

    @app.delete("/api/account")
    def delete_account(
        body: Confirmation, info: Checked, request: Request, response: Response
    ) -> dict[str, Any]:
        """Delete the account with its games and sessions."""
        with database.begin() as db:
            user = verified_user(db, info, body.password)
            db.execute(delete(Game).where(Game.user_id == user.id))
            sessions.end_all(db, user.id)
            db.delete(user)
            db.flush()
            new, cookie = sessions.open(db)
        return answer(request, response, new, cookie)

    # -- games ---------------------------------------------------------------------------

    @app.get("/api/rules")
    def rules() -> dict[str, Any]:
        """Every rule key (kind, allowed values, meaning) and every preset's values."""
        return rules_catalog()

    @app.get("/api/cards")
    def cards() -> list[dict[str, Any]]:
        return cards_catalog()

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame, info: Checked) -> dict[str, Any]:
        """Start a match against the computer (ranked when signed in)."""
        try:
            rules = RuleSet.from_mapping(body.rules)
        except RulesError as error:
            raise HTTPException(422, str(error)) from None
        game, events = store.create(info, rules, body.difficulty, seeds.getrandbits(48))
        return {"state": state_json(game), "events": events}

    @app.get("/api/games")
    def my_games(info: Browser) -> dict[str, Any]:
        """This player's matches in progress (signed in: from any device)."""
        return {
            "games": [
                summary_json(game, updated.isoformat()) for game, updated in store.in_progress(info)
            ]
        }

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str, info: Browser) -> dict[str, Any]:
        try:
            return {"state": state_json(store.load(game_id, info))}
        except GameNotFoundError as error:
            raise HTTPException(404, str(error)) from None

    @app.post("/api/games/{game_id}/actions")
    def act(game_id: str, body: Move, info: Checked) -> dict[str, Any]:
        """Play a move; answers, once it is stored, the new state and the events to animate."""
        try:
            game, events = store.act(game_id, info, body.action, body.version)
        except GameNotFoundError as error:
            raise HTTPException(404, str(error)) from None
        except (StaleActionError, GameOverError) as error:
            raise HTTPException(409, str(error)) from None
        except (IllegalActionError, ValueError) as error:
            raise HTTPException(400, str(error)) from None
        return {"state": state_json(game), "events": events}

    @app.post("/api/games/{game_id}/resign")
    def resign(game_id: str, info: Checked) -> dict[str, Any]:
        """Give the match up: it counts as lost."""
        try:
            game, events = store.resign(game_id, info)
        except GameNotFoundError as error:
            raise HTTPException(404, str(error)) from None
        except (StaleActionError, GameOverError) as error:
            raise HTTPException(409, str(error)) from None
        return {"state": state_json(game), "events": events}

    @app.get("/api/games/{game_id}/replay")
    def replay(game_id: str) -> dict[str, Any]:
        """A finished match, every card face up, step by step (public, like the boards)."""
        with database.begin() as db:
            store.resign_abandoned(db, Game.id == game_id)
            row = db.get(Game, game_id)
            if row is None:
                raise HTTPException(404, f"no game {game_id!r}")
            if row.status == PLAYING:
                raise HTTPException(409, "the match is still being played; replays come after")
            player = db.get(User, row.user_id) if row.user_id is not None else None
            game = restore(row)
        return replay_json(game, player.name if player else None)

    # -- leaderboard and profiles --------------------------------------------------------

    @app.get("/api/leaderboard")
    def leaderboard(
        difficulty: Annotated[Literal["all", "easy", "normal", "expert"], Query()] = "all",
        rules: Annotated[str, Query(description="a preset name, house or all")] = "all",
        sort: Annotated[ranking.Sort, Query()] = "points",
    ) -> dict[str, Any]:
        """The best signed-in players over ranked matches."""
        if rules not in (*PRESET_NAMES, HOUSE, "all"):
            raise HTTPException(
                422, f"unknown rule set {rules!r}; use {', '.join((*PRESET_NAMES, HOUSE, 'all'))}"
            )
        with database.begin() as db:
            store.resign_abandoned(db)
            rows = ranking.leaderboard(
                db,
                difficulty=None if difficulty == "all" else difficulty,
                rules_name=None if rules == "all" else rules,
                sort=sort,
            )
        return {
            "difficulty": difficulty,
            "rules": rules,
            "sort": sort,
            "min_matches": ranking.MIN_MATCHES,
            "rows": rows,
        }

    @app.get("/api/players/{name}")
    def player(name: str) -> dict[str, Any]:
        """A player's profile: totals, win rate by level, yaku made, recent matches."""
        with database.begin() as db:
            store.resign_abandoned(db)
            found = ranking.profile(db, name)
        if found is None:
            raise HTTPException(404, f"no player {name!r}")
        return found

    # -- languages and card art ----------------------------------------------------------

    @app.get("/api/i18n")
    def i18n_index(request: Request) -> dict[str, Any]:
        """The languages, and the one that best fits the browser's Accept-Language."""
        return {
            "languages": languages(),
            "preferred": best_locale(request.headers.get("accept-language")),
        }

    @app.get("/api/i18n/{code}")
    def i18n_catalog(code: str) -> dict[str, Any]:
        """One language's messages for the browser, with its plural categories and direction."""
        if code not in LOCALES:
            raise HTTPException(404, f"no language {code!r}; languages: {', '.join(LOCALES)}")
        return client_catalog(code)

    @app.get("/cards/{name}.svg", include_in_schema=False)
    def card_image(name: str) -> Response:
        """A card's picture by slug, or ``back``; made by the project (cardart)."""
        if name == "back":
            svg = card_back_svg()
        else:
            try:
                svg = card_svg(card_from_slug(name))
            except UnknownCardError as error:
                raise HTTPException(404, str(error)) from None
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(str(WEB / "index.html"))

    app.mount("/static", StaticFiles(directory=str(WEB)), name="static")
    return app
