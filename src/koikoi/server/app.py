"""The HTTP API and the static browser client (FastAPI).

The server is authoritative: the browser sends intentions (play, capture, koi-koi,
stop) with the version of the state they answer; the server checks them with the
engine, applies them, lets the computer move and answers with the human seat's state
and the events to animate.
"""

from __future__ import annotations

import os
import random
import secrets
from importlib import resources
from typing import Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.middleware.sessions import SessionMiddleware

from koikoi import __version__
from koikoi.cards import UnknownCardError, card_from_slug
from koikoi.round import IllegalActionError
from koikoi.rules import RulesError, RuleSet
from koikoi.server.cardart import card_back_svg, card_svg
from koikoi.server.games import GameOverError, GameRegistry, GameSession, StaleActionError
from koikoi.server.i18n import LOCALES, best_locale, client_catalog, languages
from koikoi.server.views import cards_catalog, rules_catalog, state_json

WEB = resources.files("koikoi") / "web"


class NewGame(BaseModel):
    difficulty: Literal["easy", "normal", "expert"] = "normal"
    rules: dict[str, Any] = Field(
        default_factory=lambda: {"preset": "classic"},
        description="A preset plus overrides, as in a rules file (RULES.md §6).",
    )


class Move(BaseModel):
    action: Any = Field(
        description='{"play": slug}, {"capture": slug}, {"koikoi": true} or {"stop": true}'
    )
    version: int = Field(description="The state version the action was chosen in.")


def owner_id(request: Request) -> str:
    """The browser's anonymous identity, kept in the signed session cookie."""
    owner = request.session.get("owner")
    if not isinstance(owner, str):
        owner = secrets.token_urlsafe(16)
        request.session["owner"] = owner
    return owner


def create_app(
    *,
    secret_key: str | None = None,
    expert_options: dict[str, Any] | None = None,
    rng: random.Random | None = None,
) -> FastAPI:
    """The application.

    ``secret_key`` signs session cookies (``KOIKOI_SECRET_KEY``, else random per start).
    ``expert_options`` tune the expert (``rollouts``, ``budget_ms``); by default it
    thinks its standard budget, capped at two seconds a move. ``rng`` draws the seeds
    of new games (tests pass a seeded one; by default the system's secure source).
    """
    seeds = rng or random.SystemRandom()
    expert = {"budget_ms": 2000.0} if expert_options is None else expert_options
    app = FastAPI(
        title="koikoi", version=__version__, docs_url="/api/docs", openapi_url="/api/openapi.json"
    )
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret_key or os.environ.get("KOIKOI_SECRET_KEY") or secrets.token_urlsafe(32),
        session_cookie="koikoi_session",
        same_site="lax",
        https_only=False,
    )
    games = GameRegistry()
    app.state.games = games

    def find(game_id: str, owner: str) -> GameSession:
        session = games.get(game_id, owner)
        if session is None:
            raise HTTPException(404, f"no game {game_id!r} for this browser")
        return session

    @app.get("/api/rules")
    def rules() -> dict[str, Any]:
        """Every rule key (kind, allowed values, meaning) and every preset's values."""
        return rules_catalog()

    @app.get("/api/cards")
    def cards() -> list[dict[str, Any]]:
        return cards_catalog()

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame, owner: str = Depends(owner_id)) -> dict[str, Any]:
        """Start a match against the computer."""
        try:
            rules = RuleSet.from_mapping(body.rules)
        except RulesError as error:
            raise HTTPException(422, str(error)) from None
        session, events = GameSession.start(
            owner, rules, body.difficulty, seeds.getrandbits(48), expert_options=expert
        )
        games.add(session)
        return {"state": state_json(session), "events": events}

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str, owner: str = Depends(owner_id)) -> dict[str, Any]:
        return {"state": state_json(find(game_id, owner))}

    @app.post("/api/games/{game_id}/actions")
    def act(game_id: str, body: Move, owner: str = Depends(owner_id)) -> dict[str, Any]:
        """Play a move; answers the new state and the events to animate."""
        session = find(game_id, owner)
        try:
            events = session.act(body.action, body.version)
        except (StaleActionError, GameOverError) as error:
            raise HTTPException(409, str(error)) from None
        except (IllegalActionError, ValueError) as error:
            raise HTTPException(400, str(error)) from None
        return {"state": state_json(session), "events": events}

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
