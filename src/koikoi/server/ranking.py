"""The leaderboard and the players' profiles, read from finished games.

Totals are always summed from the game rows, never kept in a counter of their own,
so a point can only exist where the server stored a won match.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Float, case, cast, func, select
from sqlalchemy.orm import Session

from koikoi.server.accounts import AccountError, name_key, name_shape
from koikoi.server.games import DIFFICULTIES, DRAWN, LOST, PLAYING, RESIGNED, WON
from koikoi.server.gamestore import ABANDONED_AFTER, row_status, status_at
from koikoi.store.models import Game, User

MIN_MATCHES = 5
"""Matches a player needs before a win rate is shown or ranked."""
BOARD_SIZE = 50
HISTORY_SIZE = 50

Sort = Literal["points", "wins", "best", "win_rate"]


def _won() -> Any:
    return func.sum(case((Game.status == WON, 1), else_=0))


def leaderboard(
    db: Session, now: datetime, *, difficulty: str | None, rules_name: str | None, sort: Sort
) -> list[dict[str, Any]]:
    """The best players by ``sort`` over ranked matches (of one level or rule set), as
    of ``now``."""
    wins = _won().label("wins")
    matches = func.count(Game.id).label("matches")
    points = func.sum(Game.points).label("points")
    best = func.max(case((Game.status == WON, Game.score))).label("best")
    win_rate = (cast(_won(), Float) / func.count(Game.id)).label("win_rate")
    query = (
        select(User.name, points, wins, matches, best, win_rate)
        .join(Game, Game.user_id == User.id)
        .where(Game.ranked, status_at(now) != PLAYING)
        .group_by(User.id, User.name)
    )
    if difficulty is not None:
        query = query.where(Game.difficulty == difficulty)
    if rules_name is not None:
        query = query.where(Game.rules_name == rules_name)
    if sort == "win_rate":
        query = query.having(func.count(Game.id) >= MIN_MATCHES)
    order = {"points": points, "wins": wins, "best": best, "win_rate": win_rate}[sort]
    query = query.order_by(
        order.desc().nulls_last(), points.desc(), wins.desc(), User.name_key
    ).limit(BOARD_SIZE)
    rows: list[dict[str, Any]] = []
    for position, row in enumerate(db.execute(query), 1):
        entry = {
            "name": row.name,
            "points": int(row.points or 0),
            "wins": int(row.wins or 0),
            "matches": int(row.matches),
            "best": row.best,
            "win_rate": float(row.win_rate) if row.matches >= MIN_MATCHES else None,
        }
        # Players level on the sorted value share a rank.
        level = rows and rows[-1][sort] == entry[sort]
        entry["rank"] = rows[-1]["rank"] if level else position
        rows.append(entry)
    return rows


def _rate(wins: int, matches: int) -> float | None:
    return wins / matches if matches >= MIN_MATCHES else None


def profile(db: Session, now: datetime, name: str) -> dict[str, Any] | None:
    """A player's record as of ``now``: totals, by level, yaku made and recent matches."""
    try:
        key = name_key(name_shape(name))
    except AccountError:  # no account can have such a name
        return None
    user = db.scalar(select(User).where(User.name_key == key))
    if user is None:
        return None
    rows = db.scalars(
        select(Game)
        .where(Game.user_id == user.id, status_at(now) != PLAYING)
        .order_by(func.coalesce(Game.finished, Game.updated).desc(), Game.id)
    ).all()
    games = [(row, row_status(row, now)) for row in rows]
    by_difficulty: dict[str, dict[str, Any]] = {
        level: {"matches": 0, "wins": 0, "points": 0, "win_rate": None} for level in DIFFICULTIES
    }
    counts = Counter(status for _, status in games)
    yaku: Counter[str] = Counter()
    for game, status in games:
        level = by_difficulty[game.difficulty]
        level["matches"] += 1
        level["wins"] += status == WON
        level["points"] += game.points
        yaku.update(game.yaku)
    for level in by_difficulty.values():
        level["win_rate"] = _rate(level["wins"], level["matches"])
    return {
        "name": user.name,
        "joined": user.created.isoformat(),
        "points": sum(game.points for game, _ in games),
        "matches": len(games),
        "wins": counts[WON],
        "losses": counts[LOST],
        "draws": counts[DRAWN],
        "resigned": counts[RESIGNED],
        "win_rate": _rate(counts[WON], len(games)),
        "by_difficulty": by_difficulty,
        "yaku": dict(sorted(yaku.items(), key=lambda item: (-item[1], item[0]))),
        "history": [
            {
                "id": game.id,
                "finished": (game.finished or game.updated + ABANDONED_AFTER).isoformat(),
                "difficulty": game.difficulty,
                "rules_name": game.rules_name,
                "totals": [game.score, game.opponent_score],
                "outcome": status,
                "ranked": game.ranked,
                "points": game.points,
            }
            for game, status in games[:HISTORY_SIZE]
        ],
    }


def user_points(db: Session, user_id: int) -> int:
    return int(
        db.scalar(select(func.coalesce(func.sum(Game.points), 0)).where(Game.user_id == user_id))
        or 0
    )
