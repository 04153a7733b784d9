"""Accounts, browser sessions and sign-in throttling.

Sessions live in the database; the cookie only carries a random token, signed, whose
SHA-256 is the session's key, so a copy of the database holds no usable cookie. Ending
a session row ends it everywhere at once: sign out, a new password, a deleted account.
Each session has its own CSRF token, which every state-changing request must echo.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from itsdangerous import BadSignature, Signer
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from koikoi.store.models import BrowserSession, Game, ServerSecret, SignInFailure, User

Clock = Callable[[], datetime]

NAME_LENGTH = (2, 20)
"""Two characters are a whole name in Chinese or Japanese."""
PASSWORD_LENGTH = (8, 128)
SESSION_IDLE = timedelta(days=30)
"""A session unused this long has ended."""
THROTTLE_WINDOW = timedelta(minutes=15)
FAILURES_PER_NAME = 5
FAILURES_PER_ADDRESS = 20

# Letters and digits of any script, and _ . - inside; no spaces, no look-alike tricks
# with symbols, and nothing a page could mistake for markup.
_NAME = re.compile(r"[^\W_](?:[\w.-]*[^\W_])?")


class AccountError(ValueError):
    """A refused account request; ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def normalise_name(name: str) -> str:
    """The name as stored: NFKC, so look-alike forms of one letter are one name.

    >>> normalise_name("\uff28\uff41\uff4e\uff41")  # full-width letters
    'Hana'
    """
    return unicodedata.normalize("NFKC", name).strip()


def check_name(name: str) -> str:
    """The normalised name, or an error that says what is wrong with it."""
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


def name_key(name: str) -> str:
    return normalise_name(name).casefold()


def check_password(password: str) -> str:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise AccountError(422, f"a password must be {low} to {high} characters long")
    return password


class Passwords:
    """argon2id hashing; a verification against a throwaway hash when the name is unknown
    keeps the answer time from telling which names exist."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._decoy = self.hasher.hash(secrets.token_urlsafe(16))

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
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


class Sessions:
    """Opening, finding, rotating and ending browser sessions."""

    def __init__(self, key: str, clock: Clock) -> None:
        self._signer = Signer(key, salt="koikoi.session")
        self.clock = clock

    def cookie_value(self, token: str) -> str:
        return self._signer.sign(token).decode()

    def find(self, db: Session, cookie: str | None) -> SessionInfo | None:
        """The live session the cookie names, touched; None for a bad or ended one."""
        if not cookie:
            return None
        try:
            token = self._signer.unsign(cookie).decode()
        except BadSignature:
            return None
        row = db.get(BrowserSession, _digest(token))
        now = self.clock()
        if row is None or now - row.last_seen > SESSION_IDLE:
            return None
        if now - row.last_seen > timedelta(minutes=5):  # spare a write per request
            row.last_seen = now
        user = db.get(User, row.user_id) if row.user_id is not None else None
        return SessionInfo(row.id, row.csrf, row.user_id, user.name if user else None)

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
        return new, cookie

    def sweep(self, db: Session) -> None:
        """Forget sessions that have ended by disuse (their guests' games move on to
        being resigned a week after their last move)."""
        db.execute(
            delete(BrowserSession).where(BrowserSession.last_seen < self.clock() - SESSION_IDLE)
        )

    def end_all(self, db: Session, user_id: int) -> None:
        """End every session of an account, on every device."""
        db.execute(delete(BrowserSession).where(BrowserSession.user_id == user_id))


class Throttle:
    """Failed sign-ins counted per name and per address over a sliding window.

    Kept in the database rather than in memory so that every worker and every
    restart sees the same count, and read against the injected clock.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    def check(self, db: Session, key: str, address: str) -> None:
        """Refuse (429) while either count is at its limit."""
        since = self.clock() - THROTTLE_WINDOW
        for column, value, limit in (
            (SignInFailure.name_key, key, FAILURES_PER_NAME),
            (SignInFailure.address, address, FAILURES_PER_ADDRESS),
        ):
            count, oldest = db.execute(
                select(func.count(), func.min(SignInFailure.at)).where(
                    column == value, SignInFailure.at > since
                )
            ).one()
            if count >= limit:
                wait = oldest + THROTTLE_WINDOW - self.clock()
                raise AccountError(
                    429,
                    "too many failed sign-ins; try again in"
                    f" {max(1, int(wait.total_seconds()) // 60 + 1)} minutes",
                    retry_after=max(1, int(wait.total_seconds()) + 1),
                )

    def failed(self, db: Session, key: str, address: str) -> None:
        now = self.clock()
        db.execute(delete(SignInFailure).where(SignInFailure.at <= now - THROTTLE_WINDOW))
        db.add(SignInFailure(name_key=key, address=address, at=now))

    def succeeded(self, db: Session, key: str) -> None:
        db.execute(delete(SignInFailure).where(SignInFailure.name_key == key))
