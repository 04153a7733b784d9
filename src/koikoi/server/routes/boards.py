"""The leaderboards and the players' profiles (public, no sign-in needed)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query

from koikoi.rules import PRESET_NAMES
from koikoi.server import ranking
from koikoi.server.context import Parts
from koikoi.server.games import HOUSE, Difficulty

router = APIRouter(prefix="/api", tags=["boards"])

RULE_SETS = (*PRESET_NAMES, HOUSE, "all")


@router.get("/leaderboard")
def leaderboard(
    parts: Parts,
    difficulty: Annotated[Difficulty | Literal["all"], Query()] = "all",
    rules: Annotated[str, Query(description="a preset name, house or all")] = "all",
    sort: Annotated[ranking.Sort, Query()] = "points",
) -> dict[str, Any]:
    """The best signed-in players over ranked matches."""
    if rules not in RULE_SETS:
        raise HTTPException(422, f"unknown rule set {rules!r}; use {', '.join(RULE_SETS)}")
    with parts.database() as db:
        rows = ranking.leaderboard(
            db,
            parts.clock(),
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


@router.get("/players/{name}")
def player(name: str, parts: Parts) -> dict[str, Any]:
    """A player's profile: totals, win rate by level, yaku made, recent matches."""
    with parts.database() as db:
        found = ranking.profile(db, parts.clock(), name)
    if found is None:
        raise HTTPException(404, f"no player {name!r}")
    return found
