"""Accounts, browser sessions and sign-in throttling.

Sessions live in the database; the cookie only carries a random token, signed, whose
SHA-256 is the session's key, so a copy of the database holds no usable cookie. Ending
a session row ends it everywhere at once: sign out, a new password, a deleted account.
Each session has its own CSRF token, which every state-changing request must echo.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import secrets
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import regex
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from confusable_homoglyphs import categories
from itsdangerous import BadSignature, Signer
from sqlalchemy import bindparam, delete, event, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from koikoi.server.errors import Refused
from koikoi.server.live import ENDED, Broker, session_channel
from koikoi.store.models import (
    BrowserSession,
    Game,
    PasswordThrottle,
    ServerSecret,
    SignUp,
    User,
)
from koikoi.store.rows import insert_new, table_of

Clock = Callable[[], datetime]

NAME_LENGTH = (2, 20)
"""Two characters are a whole name in Chinese or Japanese."""
PASSWORD_LENGTH = (8, 128)
SESSION_IDLE = timedelta(days=30)
"""A session that changed nothing for this long has ended."""
TOUCH_EVERY = timedelta(minutes=5)

# Letters and digits of any script, and _ . - inside; no spaces, no look-alike tricks
# with symbols, and nothing a page could mistake for markup.
_NAME = re.compile(r"[^\W_](?:[\w.-]*[^\W_])?")


class AccountError(Refused):
    """A refused account request; ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message, status=status, retry_after=retry_after)


def normalise_name(name: str) -> str:
    """The name as stored: NFKC, so look-alike forms of one letter are one name.

    >>> normalise_name("\uff28\uff41\uff4e\uff41")  # full-width letters
    'Hana'
    """
    return unicodedata.normalize("NFKC", name).strip()


def name_shape(name: str) -> str:
    """The normalised name if it has the shape every account's name has (length and
    characters); the check of a name given to sign in."""
    name = normalise_name(name)
    low, high = NAME_LENGTH
    if not low <= len(name) <= high:
        raise AccountError(422, f"name {name!r} must be {low} to {high} characters long")
    if not _NAME.fullmatch(name):
        raise AccountError(
            422,
            f"name {name!r} may hold only letters, digits, '_', '.' and '-',"
            " and must begin and end with a letter or digit",
        )
    return name


# Scripts one name may mix, as Unicode's "highly restrictive" profile (UTS #39) has
# it: Japanese and Chinese writing mix Han with kana or bopomofo, Korean with Hangul,
# and all of them with Latin letters. Any other mix is how "admin" with a Cyrillic
# "a" (U+0430) passes for "admin".
_SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def check_name(name: str) -> str:
    """A new account's name, normalised, or an error that says what is wrong with it:
    besides the shape, no invisible characters and no look-alike mix of scripts."""
    name = name_shape(name)
    invisible = _INVISIBLE.search(name)
    if invisible:
        raise AccountError(
            422, f"name {name!r} holds an invisible character (U+{ord(invisible[0]):04X})"
        )
    scripts = {categories.alias(letter) for letter in name} - {"COMMON", "INHERITED"}
    if len(scripts) > 1 and not any(scripts <= mix for mix in _SCRIPT_MIXES):
        raise AccountError(
            422,
            f"name {name!r} mixes the scripts {', '.join(sorted(scripts)).lower()};"
            " write a name in one script, so it cannot pass for another",
        )
    return name


def name_key(name: str) -> str:
    return normalise_name(name).casefold()


def check_password(password: str) -> str:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise AccountError(422, f"a password must be {low} to {high} characters long")
    return password


HASHING_AT_ONCE = 4
"""Password hashes (sign-ups, sign-ins, new passwords) one process computes at once:
each takes tens of milliseconds of a core and 64 MiB, so a flood of them waits its
turn instead of taking every core and the memory from the game. (No count of all
sign-ups anywhere: that an attacker could fill to shut everyone else out.)"""


class Passwords:
    """argon2id hashing, a few at a time; a verification against a throwaway hash when
    the name is unknown keeps the answer time from telling which names exist."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._decoy = self.hasher.hash(secrets.token_urlsafe(16))
        self._turns = threading.BoundedSemaphore(HASHING_AT_ONCE)

    def hash(self, password: str) -> str:
        with self._turns:
            return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        with self._turns:
            try:
                return self.hasher.verify(stored or self._decoy, password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False


@dataclass(frozen=True)
class SessionInfo:
    """The session a request runs in."""

    id: str
    csrf: str
    user_id: int | None
    user_name: str | None
    stored: bool = True
    """False for a visitor who has changed nothing yet: their session has no row."""
    last_seen: datetime | None = None
    """When the stored session was last marked as in use (as read with it)."""


def hold(db: Session, user_id: int | None, session_id: str | None = None) -> bool:
    """Lock a player's row (their account's, else their guest session's) until ``db``'s
    transaction ends, and say whether it exists. A statement that writes takes the lock
    on every database (SQLite: the database's write lock; PostgreSQL: the row's, with
    no key changed, so rows that refer to it may still be added), so requests that
    count a player's things and then add one run one after another, and none slips
    past a limit."""
    if user_id is not None:
        held = db.execute(update(User).where(User.id == user_id).values(name=User.name))
    else:
        held = db.execute(
            update(BrowserSession)
            .where(BrowserSession.id == session_id)
            .values(csrf=BrowserSession.csrf)
        )
    return bool(held.rowcount)  # type: ignore[attr-defined]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def signing_key(db: Session, configured: str | None) -> str:
    """``configured`` (KOIKOI_SECRET_KEY), else a key made once and kept in the database,
    so cookies, and the guests' games behind them, survive a restart."""
    if configured:
        return configured
    stored = db.get(ServerSecret, "cookie-key")
    if stored is None:
        try:
            with db.begin_nested():  # another worker may be making it right now
                stored = ServerSecret(name="cookie-key", value=secrets.token_urlsafe(48))
                db.add(stored)
        except IntegrityError:
            stored = db.get(ServerSecret, "cookie-key", populate_existing=True)
            assert stored is not None
    return stored.value


VISITOR = "v."
"""Marks the cookie of a visitor's session, whose row is made at their first change."""


_SESSIONS, _USERS = table_of(BrowserSession), table_of(User)
FIND_SESSION = (
    select(
        _SESSIONS.c.id, _SESSIONS.c.csrf, _SESSIONS.c.user_id, _SESSIONS.c.last_seen, _USERS.c.name
    )
    .select_from(_SESSIONS.outerjoin(_USERS))
    .where(_SESSIONS.c.id == bindparam("id"))
)
"""A session with its account's name: every request reads it, so it is one Core
statement built once (two ORM loads cost a request a fifth of its time)."""


class Sessions:
    """Opening, finding, rotating and ending browser sessions.

    A visitor's first page makes no row: their cookie carries a fresh token marked
    as a visitor's, and their CSRF token is derived from it. The row is made when
    they first change something (start a match, sign in), so crawlers and visitors
    who only look cost nothing. Only visitor tokens live without a row: the token of
    a session that was ended (signed out, expired) is never taken up again.

    A session ended by a player (signed out, or all of an account's by a new password)
    is announced on its channel on ``broker`` once that is stored, so that the table
    sockets open in it, on every process, close at once.
    """

    def __init__(self, key: str, clock: Clock, broker: Broker | None = None) -> None:
        self._signer = Signer(key, salt="koikoi.session")
        self._visitor_csrf = Signer(key, salt="koikoi.visitor-csrf", digest_method=hashlib.sha256)
        self._devices = Signer(key, salt="koikoi.device")
        self.clock = clock
        self.broker = broker or Broker()

    def cookie_value(self, token: str) -> str:
        return self._signer.sign(token).decode()

    def find(self, db: Session, cookie: str | None) -> SessionInfo | None:
        """The live session the cookie names (a visitor's too); None for a bad or
        ended one. Only reads."""
        token = self._token(cookie)
        if token is None:
            return None
        visitor = token.startswith(VISITOR)
        row = db.connection().execute(FIND_SESSION, {"id": _digest(token)}).one_or_none()
        if row is None:
            if not visitor:
                return None
            csrf = self._visitor_csrf.get_signature(token).decode()
            return SessionInfo(_digest(token), csrf, None, None, stored=False)
        if self.clock() - row.last_seen > SESSION_IDLE:
            return None
        return SessionInfo(row.id, row.csrf, row.user_id, row.name, last_seen=row.last_seen)

    def named(self, cookie: str | None) -> str | None:
        """The id of the session a cookie names, its signature checked (whether that
        session is live is for :meth:`find` to read)."""
        token = self._token(cookie)
        return None if token is None else _digest(token)

    def _token(self, cookie: str | None) -> str | None:
        if not cookie:
            return None
        try:
            return self._signer.unsign(cookie).decode()
        except BadSignature:
            return None

    def visit(self) -> tuple[SessionInfo, str]:
        """A new visitor's session (no row yet) and the cookie value that names it."""
        token = VISITOR + secrets.token_urlsafe(32)
        csrf = self._visitor_csrf.get_signature(token).decode()
        return SessionInfo(_digest(token), csrf, None, None, stored=False), self.cookie_value(token)

    def keep(self, db: Session, info: SessionInfo) -> SessionInfo:
        """The session of a request that changes something: stored (a visitor's row is
        made now) and marked as in use."""
        now = self.clock()
        if not info.stored:
            row = {"id": info.id, "user_id": None, "csrf": info.csrf}
            insert_new(db, BrowserSession, [{**row, "created": now, "last_seen": now}])
            return dataclasses.replace(info, stored=True)
        if self.kept_lately(info):
            return info
        db.execute(  # a write per five minutes, not per request
            update(BrowserSession)
            .where(BrowserSession.id == info.id, BrowserSession.last_seen < now - TOUCH_EVERY)
            .values(last_seen=now)
        )
        return dataclasses.replace(info, last_seen=now)

    def kept_lately(self, info: SessionInfo) -> bool:
        """Whether :meth:`keep` would leave the session as it is: stored, and marked
        as in use lately (as its read showed)."""
        return (
            info.stored
            and info.last_seen is not None
            and info.last_seen >= self.clock() - TOUCH_EVERY
        )

    def device_cookie(self, user_id: int) -> str:
        """A device cookie's value: this browser has signed in to ``user_id``."""
        return self._devices.sign(f"{user_id}.{secrets.token_urlsafe(16)}").decode()

    def device(self, cookie: str | None, user_id: int | None) -> str | None:
        """The device token of ``cookie`` if it is this account's, else None."""
        if not cookie or user_id is None:
            return None
        try:
            value = self._devices.unsign(cookie).decode()
        except BadSignature:
            return None
        owner, _, _ = value.partition(".")
        return value if owner == str(user_id) else None

    def open(self, db: Session, user: User | None = None) -> tuple[SessionInfo, str]:
        """A new session; returns it and the cookie value that names it."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        row = BrowserSession(
            id=_digest(token),
            user_id=user.id if user else None,
            csrf=secrets.token_urlsafe(32),
            created=now,
            last_seen=now,
        )
        db.add(row)
        db.flush()
        info = SessionInfo(row.id, row.csrf, row.user_id, user.name if user else None)
        return info, self.cookie_value(token)

    def switch(
        self, db: Session, old: SessionInfo | None, user: User | None
    ) -> tuple[SessionInfo, str]:
        """A fresh session for ``user`` (None: a guest) in place of ``old``.

        A new token on every change of who is signed in, so a token seen before
        sign-in is worth nothing after it. A guest's match in progress moves along.
        """
        new, cookie = self.open(db, user)
        if old is not None:
            if old.user_id is None and user is not None:
                db.execute(
                    update(Game)
                    .where(Game.session_id == old.id, Game.status == "playing")
                    .values(user_id=user.id, session_id=None)
                )
            db.execute(delete(BrowserSession).where(BrowserSession.id == old.id))
            self._announce(db, [old.id])
        return new, cookie

    def sweep(self, db: Session) -> None:
        """Forget sessions that have ended by disuse (their guests' games move on to
        being resigned a week after their last move)."""
        db.execute(
            delete(BrowserSession).where(BrowserSession.last_seen < self.clock() - SESSION_IDLE)
        )

    def end_all(self, db: Session, user_id: int) -> None:
        """End every session of an account, on every device."""
        ended = db.scalars(
            delete(BrowserSession)
            .where(BrowserSession.user_id == user_id)
            .returning(BrowserSession.id)
        ).all()
        self._announce(db, list(ended))

    def _announce(self, db: Session, ended: list[str]) -> None:
        """Tell every process of these sessions' end once the transaction that ends
        them commits (a socket told sooner could open again in time to miss it)."""

        def committed(_db: Session) -> None:
            for session_id in ended:
                self.broker.publish(session_channel(session_id), ENDED)

        event.listen(db, "after_commit", committed, once=True)


@dataclass(frozen=True)
class Scope:
    """What one password check is counted against: ``kind`` is a key of
    :data:`FREE_CHECKS`; ``key`` names it (an account, an address, a device)."""

    kind: str
    key: str

    @property
    def digest(self) -> str:
        return _digest(f"{self.kind}\0{self.key}")


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


SIGN_UPS_PER_HOUR = 5
"""Accounts one address may make in an hour: enough for a family or a classroom
behind one address in an evening, too few to farm a rating with."""
SIGN_UP_WINDOW = timedelta(hours=1)


def count_sign_up(db: Session, address: str, now: datetime, limit: int = SIGN_UPS_PER_HOUR) -> None:
    """Count a new account made from ``address``, or refuse it (429, with the seconds
    until the address may make one again) where it has made SIGN_UPS_PER_HOUR in the
    last hour (``limit`` of them). ``db`` must be a fresh transaction: sign-ups from one address are
    counted one after another (PostgreSQL: a lock on the address; SQLite: the write
    lock its first statement takes), so none slips past the limit."""
    key = _digest(f"sign-up\0{address}")
    if db.get_bind().dialect.name == "postgresql":
        db.execute(select(func.pg_advisory_xact_lock(int(key[:15], 16))))
    db.execute(delete(SignUp).where(SignUp.address == key, SignUp.at <= now - SIGN_UP_WINDOW))
    recent = db.scalars(select(SignUp.at).where(SignUp.address == key).order_by(SignUp.at)).all()
    if len(recent) >= limit:
        seconds = max(1, math.ceil((recent[0] + SIGN_UP_WINDOW - now).total_seconds()))
        raise AccountError(
            429,
            f"{len(recent)} accounts were made from your address in the last hour, the most"
            f" one address may make; try again in {seconds} seconds",
            retry_after=seconds,
        )
    db.add(SignUp(address=key, at=now))


def sweep_sign_ups(db: Session, now: datetime) -> None:
    """Forget sign-ups older than the window (no address is kept longer)."""
    db.execute(delete(SignUp).where(SignUp.at <= now - SIGN_UP_WINDOW))
