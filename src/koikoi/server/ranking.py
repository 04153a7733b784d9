"""The leaderboards and the players' profiles, read from finished games.

Totals are always summed from the game rows, never kept in a counter of their own,
so a point can only exist where the server stored a won match. Ratings are kept per
player and rule set (koikoi.server.rating), each move recorded on its game row.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Float, and_, case, cast, func, select
from sqlalchemy.orm import Session, aliased

from koikoi.server.accounts import AccountError, name_key, name_shape
from koikoi.server.games import DIFFICULTIES, DRAWN, LOST, PLAYING, RESIGNED, WON
from koikoi.server.gamestore import finished_at, row_status, status_at
from koikoi.server.rating import RATED_SIGMA
from koikoi.store.models import Game, Rating, User

MIN_MATCHES = 5
"""Matches a player needs before a win rate is shown or ranked."""
BOARD_SIZE = 50
HISTORY_SIZE = 50
RATING_HISTORY = 200
"""The newest ratings a profile's graph shows, per rule set."""

Sort = Literal["rating", "points", "wins", "best", "win_rate"]


def _won() -> Any:
    return func.sum(case((Game.status == WON, 1), else_=0))


def leaderboard(
    db: Session,
    now: datetime,
    *,
    rules_name: str,
    difficulty: str | None,
    sort: Sort,
    offset: int = 0,
    user_id: int | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None, bool]:
    """One rule set's board by ``sort`` over ranked matches (of one level, or all), as
    of ``now``: a page of rows from ``offset``, ``user_id``'s own row wherever it is
    (None when they are not on this board), and whether more rows follow the page.

    Every row has a rank of its own: ties are broken by rating, then points, wins
    and name, so a board reads the same every time. By rating, only players whose
    rating is settled (``sigma`` at most RATED_SIGMA) stand on the board.
    """
    players = (
        select(
            User.id.label("user_id"),
            User.name,
            User.name_key,
            func.coalesce(func.sum(Game.points), 0).label("points"),
            _won().label("wins"),
            func.count(Game.id).label("matches"),
            func.max(case((Game.status == WON, Game.score))).label("best"),
            (cast(_won(), Float) / func.count(Game.id)).label("win_rate"),
        )
        .join(Game, Game.user_id == User.id)
        .where(Game.ranked, status_at(now) != PLAYING, Game.rules_name == rules_name)
        .group_by(User.id, User.name, User.name_key)
    )
    if difficulty is not None:
        players = players.where(Game.difficulty == difficulty)
    board = players.subquery()
    rating = aliased(Rating)
    joined = select(board, rating.mu, rating.sigma).outerjoin(
        rating, and_(rating.user_id == board.c.user_id, rating.rules_name == rules_name)
    )
    if sort == "rating":
        joined = joined.where(rating.sigma <= RATED_SIGMA)
    elif sort == "win_rate":
        joined = joined.where(board.c.matches >= MIN_MATCHES)
    first = {
        "rating": rating.mu,
        "points": board.c.points,
        "wins": board.c.wins,
        "best": board.c.best,
        "win_rate": board.c.win_rate,
    }[sort]
    order = [
        first.desc().nulls_last(),
        rating.mu.desc().nulls_last(),
        board.c.points.desc(),
        board.c.wins.desc(),
        board.c.name_key,
    ]
    ranked = joined.add_columns(func.row_number().over(order_by=order).label("rank")).subquery()
    # One row past the page says whether another page follows.
    page = db.execute(
        select(ranked).order_by(ranked.c.rank).offset(offset).limit(BOARD_SIZE + 1)
    ).all()
    own = None
    if user_id is not None:
        own = db.execute(select(ranked).where(ranked.c.user_id == user_id)).one_or_none()
    rows = [_board_row(row) for row in page[:BOARD_SIZE]]
    return rows, _board_row(own) if own is not None else None, len(page) > BOARD_SIZE


def _board_row(row: Any) -> dict[str, Any]:
    return {
        "rank": int(row.rank),
        "name": row.name,
        "rating": None if row.mu is None else round(row.mu),
        "settled": row.sigma is not None and row.sigma <= RATED_SIGMA,
        "points": int(row.points),
        "wins": int(row.wins),
        "matches": int(row.matches),
        "best": row.best,
        "win_rate": float(row.win_rate) if row.matches >= MIN_MATCHES else None,
    }


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
        "ratings": _ratings(db, user.id, games),
        "name": user.name,
        "joined": user.created.isoformat(),
        "points": sum(game.points for game, _ in games),
        "matches": len(games),
        "wins": counts[WON],
        "losses": counts[LOST],
        "draws": counts[DRAWN],
        "resigned": counts[RESIGNED],
        "win_rate": _rate(counts[WON], len(games)),
        "min_matches": MIN_MATCHES,
        "by_difficulty": by_difficulty,
        "yaku": dict(sorted(yaku.items(), key=lambda item: (-item[1], item[0]))),
        "history": [
            {
                "id": game.id,
                "finished": finished_at(game).isoformat(),
                "difficulty": game.difficulty,
                "rules_name": game.rules_name,
                "totals": [game.score, game.opponent_score],
                "outcome": status,
                "ranked": game.ranked,
                "points": game.points,
                "rating": None if game.rating_after is None else round(game.rating_after),
            }
            for game, status in games[:HISTORY_SIZE]
        ],
    }


def _ratings(db: Session, user_id: int, games: list[tuple[Game, str]]) -> dict[str, Any]:
    """The player's rating in each rule set they played ranked, with its history
    (oldest first: the profile draws it as a graph)."""
    history: dict[str, list[dict[str, Any]]] = {}
    for game, _ in reversed(games):
        if game.rating_after is not None:
            point = {"finished": finished_at(game).isoformat(), "rating": round(game.rating_after)}
            history.setdefault(game.rules_name, []).append(point)
    return {
        row.rules_name: {
            "rating": round(row.mu),
            "sigma": round(row.sigma),
            "settled": row.sigma <= RATED_SIGMA,
            "matches": row.matches,
            "history": history.get(row.rules_name, [])[-RATING_HISTORY:],
        }
        for row in db.scalars(
            select(Rating).where(Rating.user_id == user_id).order_by(Rating.rules_name)
        )
    }


def user_points(db: Session, user_id: int) -> int:
    return int(
        db.scalar(select(func.coalesce(func.sum(Game.points), 0)).where(Game.user_id == user_id))
        or 0
    )
