"""The quick-match queue: players waiting under a preset, paired by rating.

A signed-in player waits for a ranked match, a guest for a friendly one with another
guest. Two waiting players are paired when their ratings are at most
:data:`QUEUE_SPREAD` apart, a range that widens by :data:`QUEUE_WIDENING` for every
:data:`QUEUE_STEP` the longer-waiting of them has waited; the pairing opens their
table (koikoi.server.tablestore) in the same transaction. A page that stops asking
has left.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.orm import Session

from koikoi.rules import PRESETS
from koikoi.server.ranked import RANKED_PRESETS
from koikoi.server.rating import START
from koikoi.server.sessions import SessionInfo, hold
from koikoi.server.tables import MOVE_SECONDS, Seat, TableError
from koikoi.server.tablestore import MAX_OPEN, TableStore, check_room, tables_of
from koikoi.store.models import QueueEntry, Rating, User

QUEUE_SPREAD = 100.0
"""How far apart in rating the queue pairs two players at first..."""
QUEUE_WIDENING = 50.0
"""...and how much further for each QUEUE_STEP its longest-waiting player has waited."""
QUEUE_STEP = timedelta(seconds=5)
QUEUE_GONE = timedelta(seconds=20)
"""A waiting player whose page has not asked for this long has left (the page polls
every few seconds): nobody is paired with a closed page."""
QUEUE_KEEP = timedelta(minutes=10)
"""How long a pairing is kept for its player's page to read."""


def spread(waited: timedelta) -> float:
    """How far apart in rating a player who has waited this long may be paired.

    >>> spread(timedelta(0)), spread(timedelta(seconds=12))
    (100.0, 200.0)
    """
    return QUEUE_SPREAD + QUEUE_WIDENING * (waited // QUEUE_STEP)


class MatchQueue:
    """The queue of one server; its pairings open tables in ``tables``."""

    def __init__(self, tables: TableStore) -> None:
        self.tables = tables

    def join(self, owner: SessionInfo, preset: str) -> dict[str, Any]:
        """Wait for a quick match under ``preset``: ranked for a signed-in player,
        friendly between guests. Answers the entry, paired at once if someone fits."""
        if preset not in PRESETS:
            raise TableError(422, f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        ranked = owner.user_id is not None
        if ranked and preset not in RANKED_PRESETS:
            raise TableError(
                422, f"quick matches are ranked: choose one of {', '.join(RANKED_PRESETS)}"
            )
        now = self.tables.clock()
        rating = START
        with self.tables.sessions.begin() as db:
            hold(db, owner.user_id, owner.id)
            check_room(db, owner)
            db.execute(delete(QueueEntry).where(queued(owner)))  # joining again: a new wait
            if owner.user_id is not None:
                found = db.get(Rating, (owner.user_id, preset))
                rating = found.mu if found is not None else START
            db.add(
                QueueEntry(
                    id=secrets.token_urlsafe(16),
                    user_id=owner.user_id,
                    session_id=None if owner.user_id is not None else owner.id,
                    rules_name=preset,
                    ranked=ranked,
                    rating=rating,
                    joined=now,
                    seen=now,
                )
            )
        return self.status(owner)

    def leave(self, owner: SessionInfo) -> None:
        with self.tables.sessions.begin() as db:
            db.execute(delete(QueueEntry).where(queued(owner)))

    def status(self, owner: SessionInfo) -> dict[str, Any]:
        """The owner's wait: ``waiting`` (and how far its range has widened), or
        ``paired`` with the table to sit at; pairs it first if someone fits now."""
        with self.tables.sessions() as db:
            entry = db.scalar(select(QueueEntry).where(queued(owner)))
        if entry is None:
            return {"status": "none"}
        if entry.table_id is None:
            with self.tables.sessions.begin() as db:
                db.execute(
                    update(QueueEntry)
                    .where(QueueEntry.id == entry.id)
                    .values(seen=self.tables.clock())
                )
            self._pair(entry.id)
            with self.tables.sessions() as db:
                entry = db.get(QueueEntry, entry.id)
            if entry is None:
                return {"status": "none"}
        waited = self.tables.clock() - entry.joined
        if entry.table_id is not None:
            return {"status": "paired", "table": entry.table_id, "rules_name": entry.rules_name}
        return {
            "status": "waiting",
            "rules_name": entry.rules_name,
            "ranked": entry.ranked,
            "waited": waited.total_seconds(),
            "range": spread(waited),
        }

    def pair_waiting(self) -> int:
        """Pair whoever fits now, oldest first, as waiting widens their ranges; how
        many tables it opened. Also lets go of entries nobody has asked about."""
        now = self.tables.clock()
        gone = or_(
            and_(QueueEntry.table_id.is_(None), QueueEntry.seen < now - QUEUE_GONE),
            QueueEntry.seen < now - QUEUE_KEEP,
        )
        with self.tables.sessions() as db:
            left = db.scalar(select(func.count()).where(gone))
        if left:  # a write only when someone has left
            with self.tables.sessions.begin() as db:
                db.execute(delete(QueueEntry).where(gone))
        with self.tables.sessions() as db:
            waiting = db.scalars(
                select(QueueEntry.id)
                .where(QueueEntry.table_id.is_(None))
                .order_by(QueueEntry.joined)
            ).all()
        return sum(self._pair(entry_id) for entry_id in waiting)

    def _pair(self, entry_id: str) -> bool:
        """Pair one waiting entry with the closest fitting one, if any."""
        now = self.tables.clock()
        with self.tables.sessions.begin() as db:
            # The first statement writes, so two pairings never take one entry.
            db.execute(
                update(QueueEntry).where(QueueEntry.id == entry_id).values(rating=QueueEntry.rating)
            )
            entry = db.get(QueueEntry, entry_id)
            if entry is None or entry.table_id is not None:
                return False
            others = db.scalars(
                select(QueueEntry)
                .where(
                    QueueEntry.id != entry.id,
                    QueueEntry.table_id.is_(None),
                    QueueEntry.rules_name == entry.rules_name,
                    QueueEntry.ranked == entry.ranked,
                    QueueEntry.seen >= now - QUEUE_GONE,
                )
                .order_by(QueueEntry.joined)
                .with_for_update(skip_locked=True)
            ).all()
            fits = [
                other
                for other in others
                if abs(other.rating - entry.rating) <= spread(now - min(other.joined, entry.joined))
            ]
            if not fits:
                return False
            other = min(fits, key=lambda o: abs(o.rating - entry.rating))
            first, second = sorted((entry, other), key=lambda e: e.joined)
            seats = queue_seat(db, first), queue_seat(db, second)
            # Both players held (in one order, so two pairings never wait on each
            # other) and counted: a pairing never takes a player past the tables one
            # may have (some opened while waiting). Such a player leaves the queue.
            for seat in sorted(seats, key=lambda s: (s.user_id or 0, s.session_id or "")):
                hold(db, seat.user_id, seat.session_id)
            full = [
                e
                for e, seat in zip((first, second), seats, strict=True)
                if tables_of(db, seat) >= MAX_OPEN
            ]
            if full:
                for gone in full:
                    db.delete(gone)
                return False
            table = self.tables.open_between(
                db,
                secrets.token_urlsafe(16),
                PRESETS[entry.rules_name],
                *seats,
                entry.ranked,
                MOVE_SECONDS,
            )
            db.flush()
            entry.table_id = other.table_id = table.id
        return True


def queue_seat(db: Session, entry: QueueEntry) -> Seat:
    name = db.get(User, entry.user_id).name if entry.user_id is not None else None  # type: ignore[union-attr]
    return Seat(entry.user_id, entry.session_id, name)


def queued(owner: SessionInfo) -> Any:
    if owner.user_id is not None:
        return QueueEntry.user_id == owner.user_id
    return QueueEntry.session_id == owner.id
