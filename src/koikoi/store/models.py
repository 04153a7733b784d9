"""The tables, as SQLAlchemy models.

A match's row (a game against the computer, a table between people) is its record
(rules, seed, actions) and where it stands; ``version`` counts the changes made to it
(actions, a resignation), and a write names the version it read, so of two requests
racing on one match only the first lands. What a finished match meant for each
player (result, ranking points, rating) is a :class:`MatchResult` of its own, which
profiles and boards read without replaying anything.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every database (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"timestamp {value!r} has no time zone")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    # Named constraints, so migrations can refer to them on every database.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(table_name)s_%(column_0_name)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


class User(Base):
    __tablename__ = "users"
    # An account's id is never given to another, even after it is deleted (SQLite
    # would reuse the highest one without AUTOINCREMENT; PostgreSQL never does).
    __table_args__ = ({"sqlite_autoincrement": True},)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    """As the player typed it (normalised); shown on boards and profiles."""
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    """The name case-folded: names that differ only in case are the same account."""
    name_skeleton: Mapped[str] = mapped_column(String(80), index=True)
    """What the name looks like (koikoi.server.credentials.name_skeleton): a new name
    may not look like another account's."""
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(UTCDateTime())


class BrowserSession(Base):
    """A signed-in or guest browser; the cookie carries a signed token whose hash is ``id``."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(UTCDateTime())
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime())


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_user_id_status", "user_id", "status"),
        Index("ix_games_status_updated", "status", "updated"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    session_id: Mapped[str | None] = mapped_column(
        ForeignKey("sessions.id", ondelete="SET NULL"), index=True
    )
    """The guest browser that plays it, while no account owns it."""
    difficulty: Mapped[str] = mapped_column(String(10))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_name: Mapped[str] = mapped_column(String(20))
    seed: Mapped[int] = mapped_column(BigInteger)
    actions: Mapped[list[Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))
    ranked: Mapped[bool] = mapped_column(Boolean)
    created: Mapped[datetime] = mapped_column(UTCDateTime())
    updated: Mapped[datetime] = mapped_column(UTCDateTime())
    finished: Mapped[datetime | None] = mapped_column(UTCDateTime())


class Table(Base):
    """A match between two people: its record, who sits where, and its clock.

    Seat 0 is whoever made the table, seat 1 whoever sat down at it; a seat belongs to
    an account, or to a guest's browser session. ``version`` counts the actions taken
    and every other change (a seat taken, a timeout, a resignation, a rematch offer),
    so that of two writes racing on one table, on any server process, only the first
    lands.
    """

    __tablename__ = "tables"
    __table_args__ = (Index("ix_tables_status_deadline", "status", "deadline"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    """The short code a player reads out to a friend (the link carries ``id``)."""
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_name: Mapped[str] = mapped_column(String(20))
    ranked: Mapped[bool] = mapped_column(Boolean)
    seed: Mapped[int] = mapped_column(BigInteger)
    actions: Mapped[list[Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))
    """``open`` (waiting for a second player), ``playing`` or ``over``."""
    ending: Mapped[str | None] = mapped_column(String(10))
    """How a match ended: ``played`` to its end, ``resigned``, ``forfeit`` (the clock),
    or ``cancelled`` (closed before anyone sat down)."""
    winner: Mapped[int | None] = mapped_column(Integer)
    seat0_user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    seat0_session_id: Mapped[str | None] = mapped_column(
        ForeignKey("sessions.id", ondelete="SET NULL"), index=True
    )
    seat1_user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    seat1_session_id: Mapped[str | None] = mapped_column(
        ForeignKey("sessions.id", ondelete="SET NULL"), index=True
    )
    move_seconds: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime())
    """When the seat to move runs out of time (none while nobody is to move)."""
    timeouts: Mapped[list[int]] = mapped_column(JSON)
    """Each seat's timeouts in a row: the clock moved for them, and too many forfeit."""
    rematch: Mapped[list[bool]] = mapped_column(JSON)
    """Which seats, once the match is over, have offered to play again."""
    next_id: Mapped[str | None] = mapped_column(String(32))
    """The rematch's table, once both seats wanted one."""
    created: Mapped[datetime] = mapped_column(UTCDateTime())
    updated: Mapped[datetime] = mapped_column(UTCDateTime())
    finished: Mapped[datetime | None] = mapped_column(UTCDateTime())


class QueueEntry(Base):
    """A player waiting for a quick match under a preset, ranked (signed in) or
    friendly (a guest); ``table_id`` is set when the queue pairs them."""

    __tablename__ = "match_queue"
    __table_args__ = (Index("ix_match_queue_rules_name_joined", "rules_name", "joined"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), unique=True
    )
    session_id: Mapped[str | None] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), unique=True
    )
    rules_name: Mapped[str] = mapped_column(String(20))
    ranked: Mapped[bool] = mapped_column(Boolean)
    rating: Mapped[float] = mapped_column(Float)
    joined: Mapped[datetime] = mapped_column(UTCDateTime())
    seen: Mapped[datetime] = mapped_column(UTCDateTime())
    """When the player's page last asked: a page that stopped asking has left."""
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))


class MatchResult(Base):
    """What a finished match meant for one seated account (koikoi.server.results):
    written once, by one function, in the transaction that stores the ending."""

    __tablename__ = "match_results"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        Index("ix_match_results_user_id_finished", "user_id", "finished"),
        Index("ix_match_results_rules_name_ranked", "rules_name", "ranked"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(String(32))
    """The game's or the table's id."""
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    opponent: Mapped[str] = mapped_column(String(10))
    """``computer``, ``person`` or ``practice``."""
    opponent_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    """The other seat's account, between people (None: a guest, or gone)."""
    level: Mapped[str | None] = mapped_column(String(10))
    """The computer's level, against the computer."""
    rules_name: Mapped[str] = mapped_column(String(20))
    ranked: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(10))
    """``won``, ``lost``, ``drawn``, ``resigned`` or ``aborted`` (counts in no total)."""
    ending: Mapped[str] = mapped_column(String(10))
    # Match totals can outgrow 32 bits under house rules that double per call; the rule
    # set's bounds keep them within 64.
    score: Mapped[int] = mapped_column(BigInteger)
    opponent_score: Mapped[int] = mapped_column(BigInteger)
    points: Mapped[int] = mapped_column(Integer)
    """Ranking points the match earned (awarded once, when the server saw it won)."""
    rating_before: Mapped[float | None] = mapped_column(Float)
    rating_after: Mapped[float | None] = mapped_column(Float)
    """The rating in the match's rule set around it, where it moved one."""
    yaku: Mapped[dict[str, int]] = mapped_column(JSON)
    """How many rounds the player won with each yaku: the profile's statistics."""
    finished: Mapped[datetime] = mapped_column(UTCDateTime())


class AddressEvent(Base):
    """Something an address did that is counted for a while (koikoi.server.throttle):
    an account made, a table code that named no open table."""

    __tablename__ = "address_events"
    __table_args__ = (Index("ix_address_events_kind_address", "kind", "address"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    address: Mapped[str] = mapped_column(String(64))
    """The kind and address's SHA-256 (no address is stored)."""
    at: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class Rating(Base):
    """A player's skill rating in one rule set (see koikoi.server.rating)."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    rules_name: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)


class PasswordThrottle(Base):
    """Password checks counted for one scope (a name and an address, a name, an address,
    or a recognised device): each check is counted before the password is read, and
    past a few free ones each further check must wait longer (``blocked_until``)."""

    __tablename__ = "password_throttle"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The scope's SHA-256: names and addresses of any length fit, and none is stored."""
    checks: Mapped[int] = mapped_column(Integer)
    blocked_until: Mapped[datetime] = mapped_column(UTCDateTime())
    last_check: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)


class HealthCheck(Base):
    """One row the health check writes and commits: proof that a move could be
    stored (the disk has room, the database takes writes)."""

    __tablename__ = "health"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    checked: Mapped[datetime] = mapped_column(UTCDateTime())


class ServerSecret(Base):
    """Secrets the server makes once and keeps (the cookie-signing key)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class Review(Base):
    """The coach's review of a finished match against the computer, kept once made
    (see koikoi.server.reviews)."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    coach: Mapped[str] = mapped_column(String(16), primary_key=True)
    """The coach's version that made it (:data:`koikoi.coach.COACH_VERSION`)."""
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(UTCDateTime())


class TableReview(Base):
    """The coach's review of one seat of a finished match between people."""

    __tablename__ = "table_reviews"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    coach: Mapped[str] = mapped_column(String(16), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(UTCDateTime())
