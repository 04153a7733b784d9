"""The leaderboards and the players' profiles (public, no sign-in needed)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Path, Query

from koikoi.server import ranking
from koikoi.server.context import Browser, Parts
from koikoi.server.credentials import NAME_INPUT
from koikoi.server.games import Difficulty
from koikoi.server.ranked import RANKED_PRESETS
from koikoi.server.rating import COMPUTER_RATINGS, RATED_SIGMA

router = APIRouter(prefix="/api", tags=["boards"])


@router.get("/leaderboard")
def leaderboard(
    parts: Parts,
    info: Browser,
    rules: Annotated[str, Query(description="a ranked preset: " + ", ".join(RANKED_PRESETS))] = (
        "classic"
    ),
    sort: Annotated[ranking.Sort, Query()] = "rating",
    difficulty: Annotated[Difficulty | Literal["all"], Query()] = "all",
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """One rule set's best players over ranked matches, a page from ``offset``, and the
    signed-in player's own row (``you``) wherever they stand."""
    if rules not in RANKED_PRESETS:
        raise HTTPException(
            422, f"unknown rule set {rules!r}; use one of {', '.join(RANKED_PRESETS)}"
        )
    with parts.database() as db:
        rows, you, more = ranking.leaderboard(
            db,
            rules_name=rules,
            difficulty=None if difficulty == "all" else difficulty,
            sort=sort,
            offset=offset,
            user_id=info.user_id,
        )
    return {
        "rules": rules,
        "sort": sort,
        "difficulty": difficulty,
        "offset": offset,
        "page_size": ranking.BOARD_SIZE,
        "min_matches": ranking.MIN_MATCHES,
        "computer_ratings": {level: round(mu) for level, mu in COMPUTER_RATINGS.items()},
        "settled_sigma": RATED_SIGMA,
        "rows": rows,
        "more": more,
        "you": you,
    }


@router.get("/players/{name}")
def player(
    name: Annotated[str, Path(max_length=NAME_INPUT, description="A player's name.")],
    parts: Parts,
) -> dict[str, Any]:
    """A player's profile: totals, win rate by level, yaku made, recent matches."""
    with parts.database() as db:
        found = ranking.profile(db, name)
    if found is None:
        raise HTTPException(404, f"no player {name!r}")
    return found
