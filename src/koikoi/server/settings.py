"""How a server is set up: one object, read from the environment in one place.

Every setting a deployment makes (the README's table of variables) is a field of
:class:`Settings`, and :meth:`Settings.from_environment` is the only code that reads
the environment for them; ``koikoi serve``'s options override fields, and tests build
the object they need. A value that is no value of its kind is refused by name.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from koikoi.server.throttle import SIGN_UPS_PER_HOUR

DATABASE_URL = "KOIKOI_DATABASE_URL"
SECRET_KEY = "KOIKOI_SECRET_KEY"
REDIS_URL = "KOIKOI_REDIS_URL"
THINKING_PROCESSES = "KOIKOI_THINKING_PROCESSES"
SECURE_COOKIES = "KOIKOI_SECURE_COOKIES"
FORWARDED_ALLOW_IPS = "KOIKOI_FORWARDED_ALLOW_IPS"


class SettingsError(ValueError):
    """An environment variable whose value cannot be used."""


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None
    """``sqlite:///PATH`` or ``postgresql://...``; None: a SQLite file in the user's
    data folder (koikoi.store.database.default_url)."""
    secret_key: str | None = None
    """Signs the cookies; None: a key made once and kept in the database."""
    redis_url: str | None = None
    """Carries tables' news between server processes; None: one process, in memory."""
    thinking_processes: int | None = None
    """Worker processes where the computer thinks; None: one per CPU."""
    secure_cookies: bool = False
    """Cookies for HTTPS only (behind an HTTPS proxy)."""
    forwarded_allow_ips: str | None = None
    """Proxies whose forwarded client addresses are believed; None: none."""
    sign_ups_per_hour: int = SIGN_UPS_PER_HOUR
    """Accounts one address may make in an hour (koikoi.server.throttle)."""

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment (``os.environ`` by default) gives; an empty
        variable is an unset one.

        >>> Settings.from_environment({"KOIKOI_THINKING_PROCESSES": "2"}).thinking_processes
        2
        >>> Settings.from_environment({"KOIKOI_SECURE_COOKIES": "1"}).secure_cookies
        True
        """
        found = os.environ if environ is None else environ

        def text(name: str) -> str | None:
            return found.get(name) or None

        return cls(
            database_url=text(DATABASE_URL),
            secret_key=text(SECRET_KEY),
            redis_url=text(REDIS_URL),
            thinking_processes=_processes(text(THINKING_PROCESSES)),
            secure_cookies=_switch(SECURE_COOKIES, text(SECURE_COOKIES)),
            forwarded_allow_ips=text(FORWARDED_ALLOW_IPS),
        )


def _processes(given: str | None) -> int | None:
    if given is None:
        return None
    try:
        processes = int(given)
    except ValueError:
        processes = 0
    if processes < 1:
        raise SettingsError(
            f"{THINKING_PROCESSES} must be a whole number of at least 1, not {given!r}"
        )
    return processes


def _switch(name: str, given: str | None) -> bool:
    if given in (None, "0"):
        return False
    if given == "1":
        return True
    raise SettingsError(f"{name} must be 1 (on) or 0 (off), not {given!r}")
