"""Sessions and accounts: sign up, sign in, sign out, change the password, delete."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import Field
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from koikoi.server import ranking
from koikoi.server.context import (
    DEVICE_COOKIE,
    Browser,
    Checked,
    Parts,
    Services,
    Strict,
    client_address,
    set_cookie,
)
from koikoi.server.credentials import (
    NAME_INPUT,
    check_name,
    check_password,
    name_key,
    name_shape,
    name_skeleton,
)
from koikoi.server.ranked import POINTS_PRESETS, RANKED_PRESETS, RANKING_POINTS
from koikoi.server.sessions import SessionInfo
from koikoi.server.throttle import count_sign_up
from koikoi.store.models import Game, User

router = APIRouter(prefix="/api", tags=["accounts"])


class Credentials(Strict):
    name: str = Field(max_length=NAME_INPUT)
    password: str = Field(max_length=1000)


class NewPassword(Strict):
    current: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class Confirmation(Strict):
    password: str = Field(max_length=1000)


def session_json(parts: Services, info: SessionInfo) -> dict[str, Any]:
    user = None
    if info.user_id is not None:
        with parts.database.begin() as db:
            user = {"name": info.user_name, "points": ranking.user_points(db, info.user_id)}
    return {
        "user": user,
        "csrf": info.csrf,
        "ranking_points": RANKING_POINTS,
        "ranked_presets": list(RANKED_PRESETS),
        "points_presets": list(POINTS_PRESETS),
    }


def answer(parts: Services, response: Response, new: SessionInfo, cookie: str) -> dict[str, Any]:
    """The answer to a request that changed the session: its cookie and token."""
    set_cookie(response, parts, cookie)
    return session_json(parts, new)


def password_is_right(
    parts: Services, request: Request, key: str, user: User | None, password: str
) -> bool:
    """Check a password against ``user`` (None: a name with no account), throttled.

    The check is counted before the password is read and is refused (429) while its
    scopes must wait; only then does argon2 run, outside any transaction.
    """
    address = client_address(request)
    device = parts.sessions.device(request.cookies.get(DEVICE_COOKIE), user)
    scopes = parts.throttle.scopes(key, address, device)
    with parts.database.begin() as db:
        parts.throttle.count(db, scopes)
    right = parts.passwords.verify(user.password_hash if user else None, password)
    if right:
        with parts.database.begin() as db:
            parts.throttle.cleared(db, scopes)
    return right


def taken_by_look_alike(parts: Services, name: str, key: str, skeleton: str) -> None:
    """Refuse (409) a new name that looks like an account's name without being it."""
    with parts.database() as db:
        alike = db.scalar(
            select(User.name).where(User.name_skeleton == skeleton, User.name_key != key)
        )
    if alike is not None:
        raise HTTPException(
            409, f"the name {name!r} looks like {alike!r}, a player's already; choose another"
        )


def signed_in_here(parts: Services, response: Response, user: User) -> None:
    """Mark this browser as a device the account uses (see :class:`Throttle`)."""
    set_cookie(response, parts, parts.sessions.device_cookie(user), DEVICE_COOKIE)


def signed_in_user(parts: Services, info: SessionInfo) -> User:
    with parts.database() as db:
        user = db.get(User, info.user_id) if info.user_id is not None else None
    if user is None:
        raise HTTPException(401, "sign in first")
    return user


@router.get("/session")
def get_session(parts: Parts, info: Browser) -> dict[str, Any]:
    """Who is signed in here, and the CSRF token for this browser's next requests."""
    return session_json(parts, info)


@router.post("/account", status_code=201)
def sign_up(
    body: Credentials, parts: Parts, info: Checked, request: Request, response: Response
) -> dict[str, Any]:
    """Create an account and sign in; a match in progress comes along. An address
    makes at most a few accounts an hour (429, Retry-After)."""
    name = check_name(body.name)
    check_password(body.password)
    with parts.database.begin() as db:
        count_sign_up(db, client_address(request), parts.clock(), parts.settings.sign_ups_per_hour)
    key, skeleton = name_key(name), name_skeleton(name)
    taken_by_look_alike(parts, name, key, skeleton)  # before the hash is paid for
    hashed = parts.passwords.hash(body.password)
    try:
        with parts.database.begin() as db:
            user = User(
                name=name,
                name_key=key,
                name_skeleton=skeleton,
                password_hash=hashed,
                created=parts.clock(),
            )
            db.add(user)
            db.flush()
            new, cookie = parts.sessions.switch(db, info, user)
    except IntegrityError:
        raise HTTPException(409, f"the name {name!r} is taken; choose another") from None
    signed_in_here(parts, response, user)
    return answer(parts, response, new, cookie)


@router.post("/session")
def sign_in(
    body: Credentials, parts: Parts, info: Checked, request: Request, response: Response
) -> dict[str, Any]:
    """Sign in; repeated wrong passwords make further tries wait (429, Retry-After)."""
    key = name_key(name_shape(body.name))
    with parts.database() as db:
        user = db.scalar(select(User).where(User.name_key == key))
    if not password_is_right(parts, request, key, user, body.password):
        raise HTTPException(401, "wrong name or password")
    assert user is not None
    with parts.database.begin() as db:
        user = db.merge(user)
        if parts.passwords.hasher.check_needs_rehash(user.password_hash):
            user.password_hash = parts.passwords.hash(body.password)
        new, cookie = parts.sessions.switch(db, info, user)
    signed_in_here(parts, response, user)
    return answer(parts, response, new, cookie)


@router.delete("/session")
def sign_out(parts: Parts, info: Checked, response: Response) -> dict[str, Any]:
    """End this session; the browser goes on as a new guest."""
    with parts.database.begin() as db:
        new, cookie = parts.sessions.switch(db, info, None)
    return answer(parts, response, new, cookie)


@router.post("/account/password")
def change_password(
    body: NewPassword, parts: Parts, info: Checked, request: Request, response: Response
) -> dict[str, Any]:
    """A new password; every other session of the account ends."""
    check_password(body.new)
    user = signed_in_user(parts, info)
    if not password_is_right(parts, request, user.name_key, user, body.current):
        raise HTTPException(401, "the password is wrong")
    with parts.database.begin() as db:
        user = db.merge(user)
        user.password_hash = parts.passwords.hash(body.new)
        parts.sessions.end_all(db, user.id)
        new, cookie = parts.sessions.open(db, user)
    return answer(parts, response, new, cookie)


@router.delete("/account")
def delete_account(
    body: Confirmation, parts: Parts, info: Checked, request: Request, response: Response
) -> dict[str, Any]:
    """Delete the account with its games and sessions."""
    user = signed_in_user(parts, info)
    if not password_is_right(parts, request, user.name_key, user, body.password):
        raise HTTPException(401, "the password is wrong")
    with parts.database.begin() as db:
        user = db.merge(user)
        db.execute(delete(Game).where(Game.user_id == user.id))
        parts.sessions.end_all(db, user.id)
        db.delete(user)
        db.flush()
        new, cookie = parts.sessions.open(db)
    return answer(parts, response, new, cookie)
