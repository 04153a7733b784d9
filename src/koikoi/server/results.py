"""Every finished match's result, written by one function.

A match ends in many ways: played out, resigned, lost to the clock, abandoned;
against the computer, at a table between people, or as a practice match a device
played and saved. Every one of them goes through :func:`finish`, inside the
transaction that stores the ending: it writes one result per seated account, moves
ratings (nothing else does), and awards ranking points. Profiles, histories, rating
graphs and leaderboards read only these results, so a match counts the same wherever
it was played, and a rating or a board entry exists only where a match really ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from koikoi.server.ranked import (
    REPEAT_WINDOW,
    points_for,
    repeat_weight,
    too_short,
)
from koikoi.server.rating import START, START_SIGMA, rated, rated_pair
from koikoi.store.models import MatchResult, Rating
from koikoi.store.rows import insert_new


class Status(StrEnum):
    """Where a match stands, as one seat sees it: the one vocabulary of the states the
    API answers, the histories and the results."""

    OPEN = "open"
    """A table waiting for its second player."""
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"
    DRAWN = "drawn"
    RESIGNED = "resigned"
    """Given up (or abandoned) against the computer: a loss."""
    ABORTED = "aborted"
    """Between people, given up before it meant anything (koikoi.server.ranked)."""
    CANCELLED = "cancelled"
    """A table closed before anyone sat down at it."""
    OVER = "over"
    """A table's row once its match has ended, whoever won: each seat reads its own
    status from the winner."""


class Ending(StrEnum):
    """How a match ended."""

    PLAYED = "played"
    RESIGNED = "resigned"
    FORFEIT = "forfeit"
    """Too many moves in a row made by the clock."""
    ABANDONED = "abandoned"
    """Left untouched against the computer for a week."""
    CANCELLED = "cancelled"


class Opponent(StrEnum):
    """Whom a result was played against."""

    COMPUTER = "computer"
    PERSON = "person"
    PRACTICE = "practice"
    """The computer, on the player's own device (a saved practice match)."""


GIVEN_UP = (Ending.RESIGNED, Ending.FORFEIT, Ending.ABANDONED)


@dataclass(frozen=True)
class Finished:
    """A match that has just ended, as :func:`finish` needs it. Seats count as the
    match does; against the computer, the person is seat 0 and ``level`` seat 1."""

    opponent: Opponent
    match_id: str
    rules_name: str
    ranked: bool
    users: tuple[int | None, int | None]
    """Each seat's account (None: a guest, or the computer)."""
    winner: int | None
    ending: Ending
    totals: tuple[int, int]
    yaku: tuple[dict[str, int], dict[str, int]]
    """How many rounds each seat won with each yaku."""
    actions: tuple[int, int]
    """How many actions each seat made (counted between people only, where a match
    given up too soon is aborted; (0, 0) against the computer)."""
    level: str | None = None
    """The computer's level, against the computer."""

    @property
    def aborted(self) -> bool:
        """A ranked match between people given up too soon to count
        (koikoi.server.ranked)."""
        return (
            self.opponent is Opponent.PERSON
            and self.ranked
            and too_short(self.ending in GIVEN_UP, self.actions)
        )


@dataclass(frozen=True)
class SeatResult:
    """What a finished match meant for one seat."""

    status: Status
    points: int = 0
    rating: tuple[float, float] | None = None
    """The seat's rating in the match's rule set before and after it, if it moved."""

    def rating_json(self) -> dict[str, int] | None:
        if self.rating is None:
            return None
        return {"before": round(self.rating[0]), "after": round(self.rating[1])}


def seat_status(finished: Finished, seat: int) -> Status:
    """The match's result as ``seat`` sees it."""
    if finished.aborted:
        return Status.ABORTED
    if finished.winner is None:
        return Status.DRAWN
    if finished.winner == seat:
        return Status.WON
    if finished.opponent is not Opponent.PERSON and finished.ending in GIVEN_UP:
        return Status.RESIGNED
    return Status.LOST


SCORES = {Status.WON: 1.0, Status.DRAWN: 0.5}
"""A result's score for the rating model (anything else scores 0)."""


def finish(db: Session, finished: Finished, at: datetime) -> tuple[SeatResult, SeatResult]:
    """Store a match's ending, within ``db``'s transaction (which has already written
    the match's row, so that on SQLite it holds the write lock and ratings are read
    and written by one finishing match at a time): each seated account's result, its
    rating moved where the match was ranked and counts, ranking points where won.
    ``at`` is when it ended. Returns what it meant for each seat."""
    statuses = [seat_status(finished, seat) for seat in (0, 1)]
    ratings: list[tuple[float, float] | None] = [None, None]
    counts = finished.ranked and not finished.aborted
    if counts and finished.opponent is Opponent.COMPUTER and finished.users[0] is not None:
        assert finished.level is not None
        ratings[0] = _rate_against(db, finished, statuses[0])
    elif counts and finished.opponent is Opponent.PERSON and None not in finished.users:
        ratings[0], ratings[1] = _rate_pair(db, finished, statuses[0], at)
    points = [0, 0]
    if counts and finished.opponent is Opponent.COMPUTER and statuses[0] is Status.WON:
        assert finished.level is not None
        points[0] = points_for(finished.level, finished.rules_name)
    seats = (
        SeatResult(statuses[0], points[0], ratings[0]),
        SeatResult(statuses[1], points[1], ratings[1]),
    )
    rows = [
        {
            "match_id": finished.match_id,
            "seat": seat,
            "user_id": user,
            "opponent": finished.opponent.value,
            "opponent_id": finished.users[1 - seat],
            "level": finished.level,
            "rules_name": finished.rules_name,
            "ranked": finished.ranked,
            "status": seats[seat].status.value,
            "ending": finished.ending.value,
            "score": finished.totals[seat],
            "opponent_score": finished.totals[1 - seat],
            "points": seats[seat].points,
            **dict(
                zip(("rating_before", "rating_after"), ratings[seat] or (None, None), strict=True)
            ),
            "yaku": finished.yaku[seat],
            "finished": at,
        }
        for seat, user in enumerate(finished.users)
        if user is not None
    ]
    if rows:
        insert_new(db, MatchResult, rows)
    return seats


def _ratings(db: Session, users: Sequence[int], rules_name: str) -> list[Rating]:
    """The accounts' rating rows under ``rules_name`` (made at their first ranked
    match), locked for writing, in the order of ``users``."""
    first = {"rules_name": rules_name, "mu": START, "sigma": START_SIGMA, "matches": 0}
    insert_new(db, Rating, [{**first, "user_id": user} for user in users])
    rows = db.scalars(
        select(Rating)
        .where(Rating.user_id.in_(users), Rating.rules_name == rules_name)
        .order_by(Rating.user_id)
        .with_for_update()
    ).all()
    return sorted(rows, key=lambda row: list(users).index(row.user_id))


def _rate_against(db: Session, finished: Finished, status: Status) -> tuple[float, float]:
    """A ranked match against the computer, whose rating never moves."""
    assert finished.users[0] is not None
    assert finished.level is not None
    [row] = _ratings(db, [finished.users[0]], finished.rules_name)
    before = row.mu
    row.mu, row.sigma = rated(row.mu, row.sigma, finished.level, SCORES.get(status, 0.0))
    row.matches += 1
    return before, row.mu


def _rate_pair(
    db: Session, finished: Finished, status: Status, at: datetime
) -> tuple[tuple[float, float], tuple[float, float]]:
    """A ranked match between two accounts: both ratings move, less for each result
    the two had between them lately (koikoi.server.ranked.repeat_weight)."""
    first, second = finished.users
    assert first is not None
    assert second is not None
    rows = _ratings(db, [first, second], finished.rules_name)
    earlier = db.scalar(
        select(func.count()).where(
            MatchResult.user_id == first,
            MatchResult.opponent_id == second,
            MatchResult.rules_name == finished.rules_name,
            MatchResult.rating_after.is_not(None),
            MatchResult.finished > at - REPEAT_WINDOW,
        )
    )
    before = [(row.mu, row.sigma) for row in rows]
    after = rated_pair(before[0], before[1], SCORES.get(status, 0.0), repeat_weight(earlier or 0))
    for row, (mu, sigma) in zip(rows, after, strict=True):
        row.mu, row.sigma = mu, sigma
        row.matches += 1
    return (before[0][0], after[0][0]), (before[1][0], after[1][0])


def stored(db: Session, match_id: str, seats: Sequence[int]) -> list[SeatResult | None]:
    """The results stored for a finished match's ``seats`` (None for a seat that has
    none: a guest's)."""
    rows = {
        row.seat: row
        for row in db.scalars(
            select(MatchResult).where(MatchResult.match_id == match_id, MatchResult.seat.in_(seats))
        )
    }
    found: list[SeatResult | None] = []
    for seat in seats:
        row = rows.get(seat)
        if row is None:
            found.append(None)
            continue
        moved = None
        if row.rating_before is not None and row.rating_after is not None:
            moved = (row.rating_before, row.rating_after)
        found.append(SeatResult(Status(row.status), row.points, moved))
    return found
