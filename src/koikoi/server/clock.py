"""The time, as the server tells it: injected, so tests can move it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
"""Tells the time (timezone-aware UTC)."""


def utc_now() -> datetime:
    return datetime.now(UTC)
