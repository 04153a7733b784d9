"""Browser sessions: who a request comes from, and their CSRF token.

Sessions live in the database; the cookie only carries a random token, signed, whose
SHA-256 is the session's key, so a copy of the database holds no usable cookie. Ending
a session row ends it everywhere at once: sign out, a new password, a deleted account.
Each session has its own CSRF token, which every state-changing request must echo.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from itsdangerous import BadSignature, Signer
from sqlalchemy import bindparam, delete, event, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from koikoi.server.clock import Clock
from koikoi.server.credentials import digest
from koikoi.server.live import ENDED, Broker, session_channel
from koikoi.server.results import Status
from koikoi.store.models import BrowserSession, Game, ServerSecret, User
from koikoi.store.rows import insert_new, table_of

SESSION_IDLE = timedelta(days=30)
"""A session that changed nothing for this long has ended."""
TOUCH_EVERY = timedelta(minutes=5)


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


def _account(user: User) -> str:
    """What names one account for ever: its id and the moment it was made."""
    return f"{user.id}.{round(user.created.timestamp() * 1_000_000)}"


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
        row = db.connection().execute(FIND_SESSION, {"id": digest(token)}).one_or_none()
        if row is None:
            if not visitor:
                return None
            csrf = self._visitor_csrf.get_signature(token).decode()
            return SessionInfo(digest(token), csrf, None, None, stored=False)
        if self.clock() - row.last_seen > SESSION_IDLE:
            return None
        return SessionInfo(row.id, row.csrf, row.user_id, row.name, last_seen=row.last_seen)

    def named(self, cookie: str | None) -> str | None:
        """The id of the session a cookie names, its signature checked (whether that
        session is live is for :meth:`find` to read)."""
        token = self._token(cookie)
        return None if token is None else digest(token)

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
        return SessionInfo(digest(token), csrf, None, None, stored=False), self.cookie_value(token)

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

    def device_cookie(self, user: User) -> str:
        """A device cookie's value: this browser has signed in to ``user``."""
        return self._devices.sign(f"{_account(user)}.{secrets.token_urlsafe(16)}").decode()

    def device(self, cookie: str | None, user: User | None) -> str | None:
        """The device token of ``cookie`` if it is this account's, else None: the
        account itself, not only its id (an account made later with the same id, or
        the same name, is another account)."""
        if not cookie or user is None:
            return None
        try:
            value = self._devices.unsign(cookie).decode()
        except BadSignature:
            return None
        owner, _, _ = value.rpartition(".")
        return value if owner == _account(user) else None

    def open(self, db: Session, user: User | None = None) -> tuple[SessionInfo, str]:
        """A new session; returns it and the cookie value that names it."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        row = BrowserSession(
            id=digest(token),
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
                    .where(Game.session_id == old.id, Game.status == Status.PLAYING)
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
