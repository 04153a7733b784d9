"""The leaderboards and the players' profiles, read from the match results.

Every finished match, against the computer or between people, has one result per
seated account (koikoi.server.results); totals are always summed from those, never
kept in a counter of their own, so a point or a win exists only where the server
stored a finished match. An aborted match (given up too soon to count) shows in its
players' histories and counts in no total. Ratings are kept per player and rule set
(koikoi.server.rating), each move recorded on its result.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal

from sqlalchemy import Float, and_, case, cast, func, select
from sqlalchemy.orm import Session, aliased

from koikoi.server.credentials import name_key, name_shape
from koikoi.server.errors import AccountError
from koikoi.server.games import DIFFICULTIES
from koikoi.server.rating import RATED_SIGMA
from koikoi.server.results import GIVEN_UP, Opponent, Status
from koikoi.store.models import MatchResult, Rating, User

MIN_MATCHES = 5
"""Matches a player needs before a win rate is shown or ranked."""
BOARD_SIZE = 50
HISTORY_SIZE = 50
RATING_HISTORY = 200
"""The newest ratings a profile's graph shows, per rule set."""

Sort = Literal["rating", "points", "wins", "best", "win_rate"]

COUNTED = MatchResult.status != Status.ABORTED
"""Results that count in totals: all but aborted matches."""


def _won() -> Any:
    return func.sum(case((MatchResult.status == Status.WON, 1), else_=0))


def leaderboard(
    db: Session,
    *,
    rules_name: str,
    difficulty: str | None,
    sort: Sort,
    offset: int = 0,
    user_id: int | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None, bool]:
    """One rule set's board by ``sort`` over the ranked matches that count, against
    the computer (of one level, or all) and between people: a page of rows from
    ``offset``, ``user_id``'s own row wherever it is (None when they have played no
    ranked match here), and whether more rows follow the page.

    Every row has a rank of its own: ties are broken by rating, then points, wins
    and name, so a board reads the same every time. A rating still uncertain
    (``sigma`` above RATED_SIGMA) stands on the board like any other, marked as
    provisional (``settled`` false).
    """
    players = (
        select(
            User.id.label("user_id"),
            User.name,
            User.name_key,
            func.coalesce(func.sum(MatchResult.points), 0).label("points"),
            _won().label("wins"),
            func.count(MatchResult.id).label("matches"),
            func.max(case((MatchResult.status == Status.WON, MatchResult.score))).label("best"),
            (cast(_won(), Float) / func.count(MatchResult.id)).label("win_rate"),
        )
        .join(MatchResult, MatchResult.user_id == User.id)
        .where(MatchResult.ranked, COUNTED, MatchResult.rules_name == rules_name)
        .group_by(User.id, User.name, User.name_key)
    )
    if difficulty is not None:
        players = players.where(MatchResult.level == difficulty)
    board = players.subquery()
    rating = aliased(Rating)
    joined = select(board, rating.mu, rating.sigma).outerjoin(
        rating, and_(rating.user_id == board.c.user_id, rating.rules_name == rules_name)
    )
    if sort == "rating":
        joined = joined.where(rating.mu.is_not(None))
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


def _tally(results: list[MatchResult]) -> dict[str, Any]:
    """Matches, wins, points and win rate over results that count."""
    wins = sum(result.status == Status.WON for result in results)
    return {
        "matches": len(results),
        "wins": wins,
        "points": sum(result.points for result in results),
        "win_rate": _rate(wins, len(results)),
    }


def profile(db: Session, name: str) -> dict[str, Any] | None:
    """A player's record: totals (by level and by kind of opponent), yaku made,
    ratings with their graphs, and recent matches, against the computer and people.

    The headline figures (matches, wins, win rate, by level, yaku) count only matches
    the server saw played. A practice match was played on the player's own device:
    the server replays its record, but cannot know who or what played the other seat,
    so it stands apart, on its own line of ``by_opponent`` and in the history."""
    try:
        key = name_key(name_shape(name))
    except AccountError:  # no account can have such a name
        return None
    user = db.scalar(select(User).where(User.name_key == key))
    if user is None:
        return None
    opponent = aliased(User)
    rows = db.execute(
        select(MatchResult, opponent.name)
        .outerjoin(opponent, opponent.id == MatchResult.opponent_id)
        .where(MatchResult.user_id == user.id)
        .order_by(MatchResult.finished.desc(), MatchResult.id.desc())
    ).all()
    every = [result for result, _ in rows]
    finished = [result for result in every if result.status != Status.ABORTED]
    counted = [result for result in finished if result.opponent != Opponent.PRACTICE]
    statuses = Counter(result.status for result in counted)
    yaku: Counter[str] = Counter()
    for result in counted:
        yaku.update(result.yaku)
    return {
        "ratings": _ratings(db, user.id, every),
        "name": user.name,
        "joined": user.created.isoformat(),
        "points": sum(result.points for result in counted),
        "matches": len(counted),
        "wins": statuses[Status.WON],
        # A loss by giving up is counted apart from one played out.
        "losses": sum(r.status == Status.LOST and r.ending not in GIVEN_UP for r in counted),
        "draws": statuses[Status.DRAWN],
        "resigned": statuses[Status.RESIGNED]
        + sum(r.status == Status.LOST and r.ending in GIVEN_UP for r in counted),
        "aborted": len(every) - len(finished),
        "win_rate": _rate(statuses[Status.WON], len(counted)),
        "min_matches": MIN_MATCHES,
        "by_difficulty": {
            level: _tally([r for r in counted if r.level == level]) for level in DIFFICULTIES
        },
        "by_opponent": {
            kind.value: _tally([r for r in finished if r.opponent == kind]) for kind in Opponent
        },
        "yaku": dict(sorted(yaku.items(), key=lambda item: (-item[1], item[0]))),
        "history": [
            {
                "id": result.match_id,
                "finished": result.finished.isoformat(),
                "opponent": result.opponent,
                "opponent_name": opponent_name,
                "table": result.opponent == Opponent.PERSON,
                "seat": result.seat,
                "difficulty": result.level,
                "rules_name": result.rules_name,
                "totals": [result.score, result.opponent_score],
                "outcome": result.status,
                "ending": result.ending,
                "ranked": result.ranked,
                "points": result.points,
                "rating": None if result.rating_after is None else round(result.rating_after),
                "rating_before": None
                if result.rating_before is None
                else round(result.rating_before),
            }
            for result, opponent_name in rows[:HISTORY_SIZE]
        ],
    }


def _ratings(db: Session, user_id: int, results: list[MatchResult]) -> dict[str, Any]:
    """The player's rating in each rule set they played ranked, with its history
    (oldest first: the profile draws it as a graph)."""
    history: dict[str, list[dict[str, Any]]] = {}
    for result in reversed(results):
        if result.rating_after is not None:
            point = {"finished": result.finished.isoformat(), "rating": round(result.rating_after)}
            history.setdefault(result.rules_name, []).append(point)
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
    total = db.scalar(
        select(func.coalesce(func.sum(MatchResult.points), 0)).where(
            MatchResult.user_id == user_id, COUNTED
        )
    )
    return int(total or 0)
