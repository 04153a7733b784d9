"""Tables between people in the database, and their news on the broker.

Every change is read, applied to the rebuilt table outside any transaction, and
written only over the version it read (as for games against the computer), so any
number of server processes can serve one table: of two racing changes only the first
lands, and the other is refused as stale. Once written, the change is published on
the table's channel with each seat's own view (:meth:`TableSession.views`).

The clock needs no process of its own: :meth:`TableStore.expire` makes the moves of
seats whose time is up, and every process calls it each second (and before serving a
table), the versions keeping two processes from making one timeout twice. The tables
this process changed last are kept as it left them (koikoi.server.tablecopies); the
quick-match queue opens its tables here (koikoi.server.matchqueue).
"""

from __future__ import annotations

import json
import random
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import and_, bindparam, func, or_, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from koikoi.record import Record
from koikoi.rules import RuleSet
from koikoi.server.clock import Clock
from koikoi.server.errors import GameOverError, StaleActionError
from koikoi.server.live import Broker
from koikoi.server.ranked import check_rankable
from koikoi.server.results import SeatResult, finish, stored
from koikoi.server.reviews import Reviews
from koikoi.server.sessions import SessionInfo, hold
from koikoi.server.tablecopies import TableCopies, news_of, table_channel
from koikoi.server.tables import (
    CANCELLED,
    MAX_TIMEOUTS,
    MOVE_SECONDS,
    MOVE_SECONDS_CHOICES,
    OPEN,
    OVER,
    PLAYING,
    Seat,
    TableError,
    TableSession,
    new_code,
)
from koikoi.server.thinking import Thinking
from koikoi.server.throttle import CODE_MISSES, count_address, held_address
from koikoi.store.models import Table, TableReview, User
from koikoi.store.rows import table_of, update_where

OPEN_FOR = timedelta(days=1)
"""A table nobody sits down at is closed after this long."""
MAX_OPEN = 10
"""Tables one player may have open or in play at once."""
EXPIRE_BATCH = 100
"""Timeouts one sweep makes at most (the rest wait for the next second)."""


@dataclass(frozen=True)
class Change:
    """A change made to a table: the table after it, its events (seats as the match
    counts them) and what each seat was told (its state and its side of the events)."""

    table: TableSession
    events: list[dict[str, Any]]
    views: list[dict[str, Any]]
    updates: list[str]
    """Each seat's WebSocket message of the change, written once (see _change)."""


T = TypeVar("T")

_TABLES = table_of(Table)
_COLUMNS = _TABLES.c
_SEATED = (table_of(User).alias("seated0"), table_of(User).alias("seated1"))
WITH_NAMES = select(
    _TABLES, _SEATED[0].c.name.label("name0"), _SEATED[1].c.name.label("name1")
).select_from(
    _TABLES.outerjoin(_SEATED[0], _SEATED[0].c.id == _COLUMNS.seat0_user_id).outerjoin(
        _SEATED[1], _SEATED[1].c.id == _COLUMNS.seat1_user_id
    )
)
"""Tables' rows with their players' names (``name0``, ``name1``), as plain rows: the
ORM's objects would cost a move more than the query."""
LOAD = WITH_NAMES.where(_COLUMNS.id == bindparam("table_id"))
"""One table's (built once: building it costs more than running it)."""


TableChange = Callable[[TableSession, datetime], list[dict[str, Any]]]
"""A change made to a table as of a moment; the events it made."""


def seat_columns(seat: int, taken: Seat | None) -> dict[str, Any]:
    return {
        f"seat{seat}_user_id": None if taken is None else taken.user_id,
        f"seat{seat}_session_id": None if taken is None else taken.session_id,
    }


class TableStore:
    def __init__(
        self,
        sessions: sessionmaker[Session],
        clock: Clock,
        broker: Broker,
        seeds: random.Random,
        reviews: Reviews | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.broker = broker
        self.seeds = seeds
        """Draws each new table's deal (a test or ``koikoi serve --seed`` fixes it)."""
        self.reviews = reviews or Reviews(sessions, Thinking(inline=True))
        self.copies = TableCopies()
        broker.follow(self.copies.heard)
        # Re-entrant: a look holds its table's lock around a change (see _looked).
        self._locks = [threading.RLock() for _ in range(64)]

    # -- tables ---------------------------------------------------------------------

    def create(
        self,
        owner: SessionInfo,
        rules: RuleSet,
        *,
        ranked: bool = False,
        move_seconds: int | None = None,
    ) -> TableSession:
        """A new table with the owner in seat 0, open for a friend to sit down."""
        table = TableSession.open(
            secrets.token_urlsafe(16),
            new_code(),
            rules,
            self.seeds.getrandbits(48),
            Seat.of(owner),
            ranked=ranked,
            move_seconds=self._clock_for(rules, ranked, move_seconds),
        )
        if table.ranked:
            check_rankable(table.rules_name, owner.user_id is not None)
        self._insert(table, owner)
        return table

    def _clock_for(self, rules: RuleSet, ranked: bool, move_seconds: int | None) -> int:
        if move_seconds is None:
            return MOVE_SECONDS
        if move_seconds not in MOVE_SECONDS_CHOICES:
            choices = ", ".join(map(str, MOVE_SECONDS_CHOICES))
            raise TableError(422, f"move_seconds {move_seconds!r} is not one of {choices}")
        if ranked and move_seconds != MOVE_SECONDS:
            raise TableError(
                422, f"a ranked table plays the preset's clock, {MOVE_SECONDS} s a move"
            )
        return move_seconds

    def _insert(self, table: TableSession, owner: SessionInfo) -> None:
        now = self.clock()
        for _ in range(5):  # a code already taken: draw another
            try:
                with self.sessions.begin() as db:
                    # Counted and added under the owner's lock: none slips past the limit.
                    if not hold(db, owner.user_id, owner.id):
                        raise TableError(403, "you were signed out meanwhile; reload")
                    check_room(db, owner)
                    db.add(self._new_row(table, now))
                return
            except IntegrityError:
                table.code = new_code()
        raise TableError(503, "no free table code; try again")  # pragma: no cover

    def load(self, table_id: str, behind: TableSession | None = None) -> TableSession:
        """The table as stored (one query: the row and its players' names); its match
        is ``behind``'s, played on, where that is an older copy of it."""
        found: list[SeatResult | None] = [None, None]
        with self.sessions() as db:
            row = db.connection().execute(LOAD, {"table_id": table_id}).one_or_none()
            if row is not None and row.status == OVER and row.ranked:
                found = stored(db, table_id, [0, 1])
        if row is None:
            raise TableError(404, f"no table {table_id!r}")
        table = restore_table(row, [row.name0, row.name1], behind)
        if table.status == OVER and table.ranked:
            table.ratings = moved_ratings(found)
        return table

    def review(self, table_id: str, seat: int, address: str) -> dict[str, Any]:
        """The coach's review of ``seat`` (0: who opened the table) in a finished match
        (public, like its replay), made once."""
        table = self.load(table_id)
        if table.status != OVER or table.ending == CANCELLED:
            raise TableError(409, "the match is still being played; reviews come after")
        record = Record(table.rules, tuple(table.actions), seed=table.seed)
        key = {"table_id": table_id, "seat": seat}
        return self.reviews.kept_or_made(TableReview, key, record, seat, self.clock(), address)

    def current(self, table_id: str, look: Callable[[TableSession], T]) -> T:
        """What ``look`` makes of the table as stored, once the moves its clock owes
        are made (should no sweep have made them yet): what a player is shown."""
        return self._looked(table_id, lambda t, now: [], look, fresh=True)

    def _looked(
        self,
        table_id: str,
        change: TableChange,
        look: Callable[[TableSession], T],
        before: Callable[[TableSession, Session], None] | None = None,
        *,
        fresh: bool = False,
    ) -> T:
        """What ``look`` makes of the table once ``change`` is made (see _apply), made
        before another thread may change it: the table it is given is the copy this
        process keeps, which the next change alters in place."""
        with self._lock(table_id):
            return look(self._apply(table_id, change, before, fresh=fresh).table)

    def _lock(self, table_id: str) -> threading.RLock:
        """The lock that lets one thread at a time change (or look at) a table."""
        return self._locks[hash(table_id) % len(self._locks)]

    def _apply(
        self,
        table_id: str,
        change: TableChange,
        before: Callable[[TableSession, Session], None] | None = None,
        *,
        fresh: bool = False,
    ) -> Change:
        """Make the moves the table's clock owes, then ``change``: on the table as this
        process last left it, if it still holds it (no read, no replay), else as stored.

        A copy another process has moved past is first brought up to date from what
        that process published of its change (so two processes serving one table, a
        seat each, read nothing for a move). One still behind (the news was lost, or
        has not come yet) fails as stale, by its version or at the write; it is then
        dropped and the change made once more on the table as stored.
        The table is out of the copies while it changes (so no other thread sees it
        half-changed), and one table changes in one thread at a time.
        """
        with self._lock(table_id):
            copy = self.copies.take(table_id)
            if copy is not None and not fresh:
                try:
                    return self._keep(self._settled(copy, change, before))
                except (StaleActionError, TableError, GameOverError):
                    pass  # perhaps only the copy was behind: as stored, then
            # Read afresh, the copy's match catching up (two processes serving one
            # table each hold a copy a move or two behind the other's).
            return self._keep(self._settled(self.load(table_id, copy), change, before))

    def _settled(
        self,
        table: TableSession,
        change: TableChange,
        before: Callable[[TableSession, Session], None] | None,
    ) -> Change:
        for _ in range(MAX_TIMEOUTS):  # then it has forfeited
            if not table.due(self.clock()):
                break
            table = self._change(table, lambda t, at: t.timeout(at)).table
        return self._change(table, change, before)

    def _keep(self, change: Change) -> Change:
        self.copies.keep(change.table)
        return change

    def mine(self, owner: SessionInfo) -> list[dict[str, Any]]:
        """The owner's tables open or in play, newest first, as lines of a list."""
        with self.sessions() as db:
            rows = db.execute(
                WITH_NAMES.where(sat_at(owner), Table.status.in_((OPEN, PLAYING))).order_by(
                    Table.updated.desc()
                )
            ).all()
        lines = []
        for row in rows:
            table = restore_table(row, [row.name0, row.name1])
            seat = table.seat_of(owner)
            assert seat is not None
            lines.append(table.summary(seat, row.updated))
        return lines

    def find(self, code: str, address: str) -> str:
        """The id of the open table a code names (a code names nothing once its table
        has begun). Codes that name none are counted per ``address``: past
        CODE_MISSES a minute, every look-up from it is refused (429) for a while."""
        now = self.clock()
        with self.sessions.begin() as db:
            key = held_address(db, CODE_MISSES, address, now)
            found = db.scalar(
                select(Table.id).where(Table.code == code.upper(), Table.status == OPEN)
            )
            if found is None:
                count_address(db, CODE_MISSES, key, now)
        if found is None:
            raise TableError(404, f"no open table has the code {code!r}; check it with your friend")
        return found

    def sit(self, table_id: str, owner: SessionInfo) -> Change:
        return self._apply(table_id, lambda t, now: t.sit(owner, now))

    def act(
        self, table_id: str, owner: SessionInfo, data: Any, version: int, claimed: int | None
    ) -> Change:
        def move(table: TableSession, now: datetime) -> list[dict[str, Any]]:
            return table.act(table.seated(owner), data, version, now, claimed=claimed)

        return self._apply(table_id, move)

    def resign(self, table_id: str, owner: SessionInfo) -> Change:
        return self._apply(table_id, lambda t, now: t.resign(t.seated(owner), now))

    def cancel(self, table_id: str, owner: SessionInfo) -> Change:
        return self._apply(table_id, lambda t, now: t.cancel(t.seated(owner)))

    def rematch(self, table_id: str, owner: SessionInfo, look: Callable[[TableSession], T]) -> T:
        """Offer (or accept) another match at a finished table; once both seats want it,
        the new table opens with the seats as they were and a new deal. What ``look``
        makes of the table then."""

        def offer(table: TableSession, now: datetime) -> list[dict[str, Any]]:
            if table.rematch[table.seated(owner)]:
                return []  # offered already: nothing changes
            events = table.offer_rematch(table.seated(owner))
            if all(table.rematch):
                table.next_id = secrets.token_urlsafe(16)
            return events

        for _ in range(3):
            try:
                return self._looked(table_id, offer, look, before=self._open_rematch)
            except StaleActionError:
                continue  # the other offer landed first: offers do not conflict, so again
        raise StaleActionError("the table keeps changing; reload the table")

    def _open_rematch(self, table: TableSession, db: Session) -> None:
        """Within the write of the second offer: the new table, both seats taken (each
        player held and counted against their limit of tables first)."""
        host, guest = table.seats
        if table.next_id is not None and host is not None and guest is not None:
            for seat in (host, guest):
                hold(db, seat.user_id, seat.session_id)
            check_room(db, host, guest)
            self.open_between(
                db, table.next_id, table.rules, host, guest, table.ranked, table.move_seconds
            )

    def open_between(
        self,
        db: Session,
        table_id: str,
        rules: RuleSet,
        host: Seat,
        guest: Seat,
        ranked: bool,
        move_seconds: int,
    ) -> TableSession:
        """A new table with both seats taken and its match begun (a rematch, a quick
        match), added within the caller's transaction."""
        now = self.clock()
        table = TableSession.open(
            table_id,
            new_code(),
            rules,
            self.seeds.getrandbits(48),
            host,
            ranked=ranked,
            move_seconds=move_seconds,
        )
        table.begin(guest, now)
        db.add(self._new_row(table, now))
        return table

    def expire(self) -> int:
        """Make the moves of every seat whose time is up (a batch at a time), and close
        tables left open for a day; how many moves."""
        now = self.clock()
        forgotten = and_(Table.status == OPEN, Table.updated < now - OPEN_FOR)
        with self.sessions() as db:
            stale = db.scalar(select(func.count()).where(forgotten))
        if stale:  # a write only when there is something to close
            with self.sessions.begin() as db:
                db.execute(
                    update(Table)
                    .where(forgotten)
                    .values(status=OVER, ending=CANCELLED, finished=now, version=Table.version + 1)
                )
        with self.sessions() as db:
            due = db.scalars(
                select(Table.id)
                .where(Table.status == PLAYING, Table.deadline <= now)
                .limit(EXPIRE_BATCH)
            ).all()
        made = 0
        for table_id in due:
            try:
                before = self.load(table_id).version
                made += self._apply(table_id, lambda t, at: [], fresh=True).table.version > before
            except (StaleActionError, TableError):  # another process made it first
                continue
        return made

    def _change(
        self,
        table: TableSession,
        change: TableChange,
        before: Callable[[TableSession, Session], None] | None = None,
    ) -> Change:
        """Apply ``change`` to the table as read, write it over the version read, then
        publish each seat's view of it; an unchanged table writes nothing."""
        read, was_over = table.version, table.status == OVER
        now = self.clock()
        events = change(table, now)
        if table.version == read:
            return Change(table, events, [], [])
        actions = table.actions
        with self.sessions.begin() as db:
            # The first statement writes: on SQLite it takes the write lock, so the
            # ratings below are read and written by one finishing match at a time.
            written = update_where(
                db,
                Table,
                {"id": table.id, "version": read},
                {**seat_columns(1, table.seats[1]), **self._progress(table, now, actions)},
            )
            if written != 1:
                raise StaleActionError(
                    "the table moved on meanwhile (another tab or device?); reload the table"
                )
            if before is not None:
                before(table, db)
            if table.status == OVER and not was_over and table.ending != CANCELLED:
                table.ratings = moved_ratings(finish(db, table.finished(), now))
        views = table.views(events, now)
        # Each seat's WebSocket message, written once here rather than by every process
        # that passes it on (or by the mover's socket, which answers with its own).
        updates = [json.dumps({"type": "update", **view}, separators=(",", ":")) for view in views]
        message = {"version": table.version, "updates": updates, "table": news_of(table, actions)}
        self.broker.publish(table_channel(table.id), message)
        return Change(table, events, views, updates)

    def _new_row(self, table: TableSession, now: datetime) -> Table:
        return Table(
            id=table.id,
            code=table.code,
            rules=table.rules.to_mapping(),
            rules_name=table.rules_name,
            ranked=table.ranked,
            seed=table.seed,
            move_seconds=table.move_seconds,
            created=now,
            **seat_columns(0, table.seats[0]),
            **seat_columns(1, table.seats[1]),
            **self._progress(table, now),
        )

    @staticmethod
    def _progress(
        table: TableSession, now: datetime, actions: list[Any] | None = None
    ) -> dict[str, Any]:
        """The columns a change writes (``actions``: the match's, if made already)."""
        return {
            "actions": table.actions if actions is None else actions,
            "version": table.version,
            "status": table.status,
            "ending": table.ending,
            "winner": table.winner,
            "deadline": table.deadline,
            "timeouts": list(table.timeouts),
            "rematch": list(table.rematch),
            "next_id": table.next_id,
            "updated": now,
            "finished": now if table.status == OVER else None,
        }


def check_room(db: Session, *owners: SessionInfo | Seat) -> None:
    """Refuse (409) where a player already has as many tables open or in play as one
    may (quick matches and rematches included); the caller holds their rows
    (:func:`koikoi.server.sessions.hold`), so racing requests count one another."""
    for owner in owners:
        count = tables_of(db, owner)
        if count >= MAX_OPEN:
            raise TableError(
                409,
                f"you have {count} tables open or in play, the most one player may"
                " have; finish or resign one first",
            )


def tables_of(db: Session, owner: SessionInfo | Seat) -> int:
    """How many tables the owner holds a seat at, open or in play."""
    count = db.scalar(select(func.count()).where(sat_at(owner), Table.status.in_((OPEN, PLAYING))))
    return count or 0


def sat_at(owner: SessionInfo | Seat) -> Any:
    """Tables where the owner (a browser's session, or a seat's player) holds a seat."""
    if owner.user_id is not None:
        return or_(Table.seat0_user_id == owner.user_id, Table.seat1_user_id == owner.user_id)
    session = owner.id if isinstance(owner, SessionInfo) else owner.session_id
    return or_(Table.seat0_session_id == session, Table.seat1_session_id == session)


def restore_table(
    row: Table | Row[Any], names: list[str | None], behind: TableSession | None = None
) -> TableSession:
    """The table a row holds (an ORM object or a plain row of its columns), its match
    played on from ``behind`` where that is an older copy (:meth:`TableSession.restore`)."""
    seats: list[Seat | None] = []
    for seat in (0, 1):
        user = getattr(row, f"seat{seat}_user_id")
        session = getattr(row, f"seat{seat}_session_id")
        taken = user is not None or session is not None
        seats.append(Seat(user, session, names[seat]) if taken else None)
    if behind is not None and behind.id != row.id:
        behind = None
    return TableSession.restore(
        row.actions,
        behind,
        id=row.id,
        code=row.code,
        # A table's rules never change: a copy's need not be read again.
        rules=RuleSet.from_mapping(row.rules) if behind is None else behind.rules,
        ranked=row.ranked,
        seed=row.seed,
        seats=seats,
        move_seconds=row.move_seconds,
        version=row.version,
        status=row.status,
        ending=row.ending,
        winner=row.winner,
        deadline=row.deadline,
        timeouts=list(row.timeouts),
        rematch=list(row.rematch),
        next_id=row.next_id,
    )


def moved_ratings(results: Sequence[SeatResult | None]) -> list[list[float] | None] | None:
    """Each seat's rating before and after a finished match, as a table keeps them."""
    moved = [None if r is None or r.rating is None else list(r.rating) for r in results]
    return None if moved == [None, None] else moved
