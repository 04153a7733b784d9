"""Throttles: password checks slowed per scope, and sign-ups counted per address.

Both are kept in the database, so every server process and every restart sees the
same counts, and both count under a lock, so requests racing in parallel are counted
one after another and none slips past a limit.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from koikoi.server.clock import Clock
from koikoi.server.credentials import digest
from koikoi.server.errors import AccountError, AddressThrottled
from koikoi.store.models import AddressEvent, PasswordThrottle
from koikoi.store.rows import insert_new


@dataclass(frozen=True)
class Scope:
    """What one password check is counted against: ``kind`` is a key of
    :data:`FREE_CHECKS`; ``key`` names it (an account, an address, a device)."""

    kind: str
    key: str

    @property
    def digest(self) -> str:
        return digest(f"{self.kind}\0{self.key}")


FREE_CHECKS = {"device": 5, "pair": 5, "name": 20, "address": 50}
"""Checks each kind of scope allows before they slow down: a name from one address
(``pair``) or a known device gets a few tries; a name from everywhere and an address
for every name get more, since many people may share them."""
FIRST_DELAY = timedelta(seconds=1)
MAX_DELAY = timedelta(minutes=15)
FORGET_AFTER = timedelta(hours=1)
"""A scope without a check for this long starts afresh."""


def _delay(checks: int, free: int) -> timedelta:
    """How long the next check waits after ``checks`` in a scope that allows ``free``.

    >>> [_delay(n, 5).total_seconds() for n in (4, 5, 6, 7, 20)]
    [0.0, 1.0, 2.0, 4.0, 900.0]
    """
    if checks < free:
        return timedelta(0)
    return min(MAX_DELAY, FIRST_DELAY * (1 << min(checks - free, 20)))


class Throttle:
    """Password checks slowed per scope, counted before each password is read.

    A check names its scopes (:meth:`scopes`). Each scope allows a few checks freely;
    past them, each further check must wait twice as long as the one before, up to
    :data:`MAX_DELAY`. So an attacker gets a handful of guesses and then a trickle,
    while an owner who mistypes waits seconds, never a lock-out: on a device where
    they have signed in before (the device cookie), only that device's own count
    applies, whatever strangers do to their name or whoever shares their address.

    A check is counted in a transaction whose first statement takes the scopes' rows
    for writing (SQLite: the database's write lock; PostgreSQL: the rows, in key
    order), so checks racing in parallel are counted one after another and none
    slips past the limit. Kept in the database, every worker and every restart sees
    the same counts.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    @staticmethod
    def scopes(key: str, address: str, device: str | None) -> list[Scope]:
        """The scopes of a check on the account ``key`` from ``address``; ``device`` is
        the token of this account's device cookie, when the request carries one."""
        if device is not None:
            return [Scope("device", device)]
        return [Scope("pair", f"{key}\0{address}"), Scope("name", key), Scope("address", address)]

    def count(self, db: Session, scopes: list[Scope]) -> None:
        """Count a check in each scope, or refuse it (429) while any scope must wait.

        ``db`` must be a fresh transaction: its first statement takes the write lock.
        """
        now = self.clock()
        by_digest = {scope.digest: scope for scope in scopes}
        keys = sorted(by_digest)
        insert_new(
            db,
            PasswordThrottle,
            [{"key": key, "checks": 0, "blocked_until": now, "last_check": now} for key in keys],
        )
        rows = db.scalars(
            select(PasswordThrottle)
            .where(PasswordThrottle.key.in_(keys))
            .order_by(PasswordThrottle.key)
            .with_for_update()
        ).all()
        wait = max(row.blocked_until - now for row in rows)
        if wait > timedelta(0):
            seconds = math.ceil(wait.total_seconds())
            raise AccountError(
                429,
                f"too many wrong passwords; try again in {seconds} seconds",
                retry_after=seconds,
            )
        for row in rows:
            checks = 0 if now - row.last_check > FORGET_AFTER else row.checks
            row.checks = checks + 1
            row.last_check = now
            row.blocked_until = now + _delay(row.checks, FREE_CHECKS[by_digest[row.key].kind])

    def cleared(self, db: Session, scopes: list[Scope]) -> None:
        """The password was right: a known device starts afresh, and every other scope
        takes this check back. (They are not reset, or one right password among many
        guesses would end the guesses' slowdown; the browser has a device cookie from
        now on anyway.)"""
        digests = [scope.digest for scope in scopes]
        db.execute(
            delete(PasswordThrottle).where(
                PasswordThrottle.key.in_(
                    [scope.digest for scope in scopes if scope.kind == "device"]
                )
            )
        )
        db.execute(
            update(PasswordThrottle)
            .where(PasswordThrottle.key.in_(digests), PasswordThrottle.checks > 0)
            .values(checks=PasswordThrottle.checks - 1)
        )

    def sweep(self, db: Session) -> None:
        """Forget scopes nobody has checked for a while."""
        forgotten = self.clock() - FORGET_AFTER
        db.execute(delete(PasswordThrottle).where(PasswordThrottle.last_check < forgotten))


@dataclass(frozen=True)
class Allowance:
    """How many of one kind of event an address may cause in a window of time."""

    kind: str
    limit: int
    window: timedelta
    counted: str
    """What is counted, as a sentence's subject: "{n} {counted} in the last ..."."""
    span: str
    """The window in words."""
    per: str = "address"
    """Who is counted, in words (an address, a browser)."""


SIGN_UPS_PER_HOUR = 5
"""Accounts one address may make in an hour: enough for a family or a classroom
behind one address in an evening, too few to farm a rating with."""
SIGN_UPS = Allowance(
    "sign-up",
    SIGN_UPS_PER_HOUR,
    timedelta(hours=1),
    "accounts were made from your address",
    "hour",
)
CODE_MISSES = Allowance(
    "code-miss",
    20,
    timedelta(minutes=1),
    "table codes from your address named no open table",
    "minute",
)
"""Table codes that name no open table, from one address: a friend mistypes a few; a
guesser of codes gets a trickle (32^6 codes, so guessing one takes years)."""
HINTS = Allowance(
    "hint",
    60,
    timedelta(minutes=1),
    "hints were worked out for this browser",
    "minute",
    "browser",
)
"""Hints worked out for one browser: a player asks for one a move at most, and a move
takes seconds (the same position's hint again comes from the cache, uncounted)."""
REVIEWS = Allowance(
    "review",
    10,
    timedelta(minutes=1),
    "reviews not made yet were asked for from your address",
    "minute",
)
"""Reviews asked for that are not made yet (each costs seconds of the coach), from one
address; a review made is read back for nothing."""
KEPT = max(SIGN_UPS.window, CODE_MISSES.window, HINTS.window, REVIEWS.window)


def held_address(db: Session, allowance: Allowance, address: str, now: datetime) -> str:
    """Check that ``address`` may still cause the allowance's events, or refuse it
    (429, with the seconds until it may); the address's key, for :func:`count_address`.

    ``db`` must be a fresh transaction: one address's events are counted one after
    another (PostgreSQL: a lock on the address and kind; SQLite: the write lock its
    first statement takes), so none slips past the limit."""
    key = digest(f"{allowance.kind}\0{address}")
    if db.get_bind().dialect.name == "postgresql":
        db.execute(select(func.pg_advisory_xact_lock(int(key[:15], 16))))
    kind, window = AddressEvent.kind == allowance.kind, now - allowance.window
    # A write first: on SQLite it takes the database's write lock.
    db.execute(
        delete(AddressEvent).where(kind, AddressEvent.address == key, AddressEvent.at <= window)
    )
    recent = db.scalars(
        select(AddressEvent.at).where(kind, AddressEvent.address == key).order_by(AddressEvent.at)
    ).all()
    if len(recent) >= allowance.limit:
        seconds = max(1, math.ceil((recent[0] + allowance.window - now).total_seconds()))
        raise AddressThrottled(
            f"{len(recent)} {allowance.counted} in the last {allowance.span}, the most for"
            f" one {allowance.per}; try again in {seconds} seconds",
            retry_after=seconds,
        )
    return key


def count_address(db: Session, allowance: Allowance, key: str, now: datetime) -> None:
    """Count one event of the allowance's kind for the address :func:`held_address` held."""
    db.add(AddressEvent(kind=allowance.kind, address=key, at=now))


def count_sign_up(db: Session, address: str, now: datetime, limit: int = SIGN_UPS_PER_HOUR) -> None:
    """Count a new account made from ``address``, or refuse it (429) where it has made
    ``limit`` in the last hour; ``db`` a fresh transaction (see :func:`held_address`)."""
    allowance = dataclasses.replace(SIGN_UPS, limit=limit)
    count_address(db, allowance, held_address(db, allowance, address, now), now)


def sweep_addresses(db: Session, now: datetime) -> None:
    """Forget events older than any window (no address is kept longer)."""
    db.execute(delete(AddressEvent).where(AddressEvent.at <= now - KEPT))
