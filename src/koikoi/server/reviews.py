"""The coach's reviews of finished matches, made once and kept.

A finished match's record no longer changes and its review costs seconds of the
expert's thinking, so the first request makes it (in the thinking pool) and stores it;
every later one reads it back. A review made by an older coach (another
:data:`~koikoi.coach.COACH_VERSION`) is made again.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from koikoi.coach import COACH_VERSION, REVIEW_ROLLOUTS, review_json
from koikoi.record import Record
from koikoi.server.thinking import Thinking
from koikoi.server.throttle import REVIEWS, count_address, held_address
from koikoi.store.models import Base
from koikoi.store.rows import insert_new, table_of


class Reviews:
    """Reviews kept in ``sessions``' database, made in ``thinking`` at ``rollouts``."""

    def __init__(
        self, sessions: sessionmaker[Session], thinking: Thinking, rollouts: int = REVIEW_ROLLOUTS
    ) -> None:
        self.sessions = sessions
        self.thinking = thinking
        self.rollouts = rollouts
        self._making: dict[tuple[Any, ...], Future[dict[str, Any]]] = {}
        """Reviews being made in this process, for whoever else asks meanwhile."""
        self._making_lock = threading.Lock()

    def kept_or_made(
        self,
        model: type[Base],
        key: dict[str, Any],
        record: Record,
        seat: int,
        now: datetime,
        address: str,
    ) -> dict[str, Any]:
        """The review of ``seat`` in ``record``, kept in ``model``'s table under ``key``
        (its columns but the coach's version). One not made yet is made once however
        many ask at once (each waits for the one being made), in the coach's lane;
        asking for one is counted per ``address`` (REVIEWS)."""
        kept = self._kept(model, key)
        if kept is not None:
            return kept
        with self.sessions.begin() as db:
            count_address(db, REVIEWS, held_address(db, REVIEWS, address, now), now)
        flight = (table_of(model).name, *sorted(key.items()))
        with self._making_lock:
            making = self._making.get(flight)
            mine = making is None
            if making is None:
                making = self._making[flight] = Future()
        if not mine:
            return making.result()
        try:
            # Made and kept by another request between the first look and this one?
            data = self._kept(model, key) or self.thinking.coach(
                review_json, record, seat, self.rollouts
            )
            row = {**key, "coach": COACH_VERSION, "data": data, "created": now}
            with self.sessions.begin() as db:
                insert_new(db, model, [row])  # one made meanwhile by another process is the same
            making.set_result(data)
            return data
        except BaseException as error:
            making.set_exception(error)
            raise
        finally:
            with self._making_lock:
                del self._making[flight]

    def _kept(self, model: type[Base], key: dict[str, Any]) -> dict[str, Any] | None:
        with self.sessions() as db:
            kept = db.get(model, {**key, "coach": COACH_VERSION})
            return None if kept is None else kept.data  # type: ignore[attr-defined]
