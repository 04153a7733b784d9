"""The coach's reviews of finished matches, made once and kept.

A finished match's record no longer changes and its review costs seconds of the
expert's thinking, so the first request makes it (in the thinking pool) and stores it;
every later one reads it back. A review made by an older coach (another
:data:`~koikoi.coach.COACH_VERSION`) is made again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from koikoi.coach import COACH_VERSION, REVIEW_ROLLOUTS, review_json
from koikoi.record import Record
from koikoi.server.thinking import Thinking
from koikoi.store.models import Base
from koikoi.store.rows import insert_new


class Reviews:
    """Reviews kept in ``sessions``' database, made in ``thinking`` at ``rollouts``."""

    def __init__(
        self, sessions: sessionmaker[Session], thinking: Thinking, rollouts: int = REVIEW_ROLLOUTS
    ) -> None:
        self.sessions = sessions
        self.thinking = thinking
        self.rollouts = rollouts

    def kept_or_made(
        self, model: type[Base], key: dict[str, Any], record: Record, seat: int, now: datetime
    ) -> dict[str, Any]:
        """The review of ``seat`` in ``record``, kept in ``model``'s table under ``key``
        (its columns but the coach's version)."""
        with self.sessions() as db:
            kept = db.get(model, {**key, "coach": COACH_VERSION})
            if kept is not None:
                data: dict[str, Any] = kept.data  # type: ignore[attr-defined]
                return data
        data = self.thinking.run(review_json, record, seat, self.rollouts)
        row = {**key, "coach": COACH_VERSION, "data": data, "created": now}
        with self.sessions.begin() as db:
            insert_new(db, model, [row])  # a review made meanwhile by another is the same
        return data
