"""Matches against the computer: start, play, resign, resume, and replay when finished."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request, Response
from pydantic import Field

from koikoi.rules import RuleSet
from koikoi.server.boundary import error_responses
from koikoi.server.context import Browser, Checked, Parts, Strict, client_address
from koikoi.server.games import Difficulty
from koikoi.server.gamestore import restore, row_status
from koikoi.server.results import Status
from koikoi.server.views import cards_catalog, replay_json, rules_catalog, state_json, summary_json
from koikoi.store.models import Game, User

router = APIRouter(prefix="/api", tags=["games"])


GameId = Annotated[
    str, Path(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="A game's id, as the server gave it.")
]
"""Game ids are the server's own tokens: anything else is refused before a query."""


class NewGame(Strict):
    difficulty: Difficulty = "normal"
    rules: dict[str, Any] = Field(
        default_factory=lambda: {"preset": "classic"},
        description="A preset plus overrides, as in a rules file (docs/rules.md §6).",
    )
    ranked: bool | None = Field(
        default=None,
        description="Ranked (rating and ranking points) or friendly; by default ranked"
        " whenever it can be: a signed-in player, a preset as it stands.",
    )


class Move(Strict):
    action: Any = Field(
        description='{"play": slug}, {"capture": slug}, {"koikoi": true} or {"stop": true}'
    )
    version: int = Field(description="The state version the action was chosen in.")


class PracticeSave(Strict):
    """A finished practice match as the device recorded it (docs/rules.md §7, from a seed)."""

    difficulty: Difficulty = Field(description="The computer's level it was played against.")
    rules: Any = Field(
        default_factory=lambda: {"preset": "classic"},
        description="A preset plus overrides, as in a rules file (docs/rules.md §6).",
    )
    seed: Any = Field(default=None, description="The seed the device dealt the match from.")
    actions: Any = Field(default_factory=list, description="Every action, in record form.")
    version: Any = Field(default=None, description="The record's version (1), if given.")
    result: Any = Field(default=None, description="The replay's output, checked if given.")
    resigned: bool = Field(default=False, description="The player gave the match up.")
    ranked: Any = Field(default=None, description="Practice is never ranked: only false.")
    # A given deal's keys, so that a record of one is refused by name.
    dealer: Any = None
    hands: Any = None
    field: Any = None
    stock: Any = None

    def record(self) -> dict[str, Any]:
        given = self.model_fields_set - {"difficulty", "resigned", "ranked"}
        return {key: getattr(self, key) for key in given}


@router.get("/rules")
def rules() -> dict[str, Any]:
    """Every rule key (kind, allowed values, meaning) and every preset's values."""
    return rules_catalog()


@router.get("/cards")
def cards() -> list[dict[str, Any]]:
    return cards_catalog()


@router.post("/games", status_code=201)
def new_game(body: NewGame, parts: Parts, info: Checked) -> dict[str, Any]:
    """Start a match against the computer: ranked (it moves the player's rating, and a
    win earns ranking points) only for a signed-in player under a preset as it
    stands, friendly otherwise."""
    ruleset = RuleSet.from_mapping(body.rules)
    seed = parts.seeds.getrandbits(48)
    game, events = parts.games.create(info, ruleset, body.difficulty, seed, body.ranked)
    return {"state": state_json(game), "events": events}


@router.post(
    "/games/practice",
    status_code=201,
    responses={
        200: {"description": "Saved before: the game already stored (`saved` false)."},
        **error_responses(401, 429),
    },
)
def save_practice(
    body: PracticeSave, parts: Parts, info: Checked, response: Response
) -> dict[str, Any]:
    """Save a practice match the device played to the player's history: the server
    replays its record (a whole match from a seed, finished or resigned) and stores it
    as a friendly match, which earns no points and moves no rating. The same record
    saved again answers the game already stored (200)."""
    if info.user_id is None:
        raise HTTPException(401, "sign in to save a practice match to your history")
    if body.ranked not in (None, False):
        raise HTTPException(
            422, "a practice match is never ranked: the device dealt it, so it knew the stock"
        )
    game_id, new = parts.games.save_practice(
        info.user_id, body.record(), body.difficulty, body.resigned
    )
    if not new:
        response.status_code = 200
    return {"id": game_id, "saved": new}


@router.get("/games")
def my_games(parts: Parts, info: Browser) -> dict[str, Any]:
    """This player's matches in progress (signed in: from any device)."""
    playing = parts.games.in_progress(info)
    return {"games": [summary_json(game, updated.isoformat()) for game, updated in playing]}


@router.get("/games/{game_id}")
def get_game(game_id: GameId, parts: Parts, info: Browser) -> dict[str, Any]:
    return {"state": state_json(parts.games.load(game_id, info))}


@router.post("/games/{game_id}/actions")
def act(game_id: GameId, body: Move, parts: Parts, info: Checked) -> dict[str, Any]:
    """Play a move; answers, once it is stored, the new state and the events to animate."""
    game, events = parts.games.act(game_id, info, body.action, body.version)
    return {"state": state_json(game), "events": events}


@router.post("/games/{game_id}/resign")
def resign(game_id: GameId, parts: Parts, info: Checked) -> dict[str, Any]:
    """Give the match up: it counts as lost."""
    game, events = parts.games.resign(game_id, info)
    return {"state": state_json(game), "events": events}


@router.get("/games/{game_id}/hint")
def hint(game_id: GameId, parts: Parts, info: Browser) -> dict[str, Any]:
    """The coach's advice for the player's move in a practice (unranked) match: the
    move the expert prefers and why, the runner-up and what it gives away, and at a
    stop-or-koi-koi decision the risk meter. Worked out from what the player can see."""
    game, advice = parts.games.advice(game_id, info)
    return {"version": game.version, **advice}


@router.get("/games/{game_id}/review")
def review(game_id: GameId, parts: Parts, request: Request) -> dict[str, Any]:
    """The coach's review of a finished match (public, like the replay): each of the
    player's decisions against the expert's best, marked good, inaccuracy or mistake
    by the match win chance it gave away, and the biggest swings of that chance."""
    return parts.games.review(game_id, client_address(request))


@router.get("/games/{game_id}/replay")
def replay(game_id: GameId, parts: Parts) -> dict[str, Any]:
    """A finished match, every card face up, step by step (public, like the boards)."""
    now = parts.clock()
    with parts.database() as db:
        row = db.get(Game, game_id)
        if row is None:
            raise HTTPException(404, f"no game {game_id!r}")
        if row_status(row, now) == Status.PLAYING:
            raise HTTPException(409, "the match is still being played; replays come after")
        player = db.get(User, row.user_id) if row.user_id is not None else None
    return replay_json(restore(row, now), player.name if player else None)
