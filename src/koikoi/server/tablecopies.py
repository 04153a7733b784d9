"""The tables a server process keeps as it last left them, to change without a read.

A move at a table this process changed last needs neither a read nor a replay: the
copy is the table. Another process's change to a kept table arrives as news on the
broker (what :func:`news_of` writes), and the copy catches up from it at its next
change (:func:`caught_up`), so two processes serving one table, a seat each, read
nothing for a move. A copy still behind (news lost, or not yet come) fails as stale
and the store reads the table afresh.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import astuple
from datetime import datetime
from typing import Any

from koikoi.server.tables import Seat, TableSession

KEPT_TABLES = 4096
"""Tables a process keeps as it last left them, to change without reading them."""
TABLE_CHANNEL = "table:"


def table_channel(table_id: str) -> str:
    return TABLE_CHANNEL + table_id


class TableCopies:
    """The newest :data:`KEPT_TABLES` tables this process changed, and the news other
    processes have published of them since; safe to use from any thread."""

    def __init__(self) -> None:
        self._copies: OrderedDict[str, TableSession] = OrderedDict()
        """The tables this process changed last, as it left them (newest last)."""
        self._news: dict[str, dict[str, Any]] = {}
        """What other processes have published of kept tables since (see heard)."""
        self._lock = threading.Lock()

    def take(self, table_id: str) -> TableSession | None:
        """The kept copy of a table, taken out (no other thread sees it while it
        changes), brought up to the newest news of it; None if none is kept."""
        with self._lock:
            copy = self._copies.pop(table_id, None)
            news = self._news.pop(table_id, None)
        if copy is not None and news is not None and news["version"] > copy.version:
            copy = caught_up(copy, news)
        return copy

    def keep(self, table: TableSession) -> None:
        """Keep a table as this process has just left it (forgetting the oldest)."""
        with self._lock:
            self._copies[table.id] = table
            while len(self._copies) > KEPT_TABLES:
                gone, _ = self._copies.popitem(last=False)
                self._news.pop(gone, None)

    def heard(self, channel: str, message: dict[str, Any]) -> None:
        """A change published by any process: kept as news of a table this process
        holds a copy of, if it is newer (the copy catches up at its next change)."""
        news = message.get("table")
        if news is None or not channel.startswith(TABLE_CHANNEL):
            return
        table_id = channel[len(TABLE_CHANNEL) :]
        with self._lock:
            copy = self._copies.get(table_id)
            if copy is None:
                return
            newest = self._news.get(table_id, {"version": copy.version})["version"]
            if news["version"] > newest:
                self._news[table_id] = news


CHANGING = ("version", "status", "ending", "winner", "timeouts", "rematch", "next_id", "ratings")
"""A table's columns that a change may set, besides its actions, seats and deadline."""


def news_of(table: TableSession, actions: list[Any]) -> dict[str, Any]:
    """What another process needs to bring its copy of the table up to this change
    (:func:`caught_up`): all that a change may set, as JSON."""
    return {
        "actions": actions,
        "seats": [None if seat is None else astuple(seat) for seat in table.seats],
        "deadline": None if table.deadline is None else table.deadline.isoformat(),
        **{name: getattr(table, name) for name in CHANGING},
    }


def caught_up(copy: TableSession, news: dict[str, Any]) -> TableSession:
    """An older copy of a table brought up to another process's change, as its news
    (:func:`news_of`) tells it, with only the actions it missed played on."""
    deadline = news["deadline"]
    return TableSession.restore(
        news["actions"],
        copy,
        id=copy.id,
        code=copy.code,
        rules=copy.rules,
        ranked=copy.ranked,
        seed=copy.seed,
        move_seconds=copy.move_seconds,
        seats=[None if seat is None else Seat(*seat) for seat in news["seats"]],
        deadline=None if deadline is None else datetime.fromisoformat(deadline),
        **{name: news[name] for name in CHANGING},
    )
