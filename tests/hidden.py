"""What a seat could not see at each moment of a table, for tests that crawl every
answer and message a player received for cards they should never have been told of."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from koikoi.cards import SLUGS
from koikoi.match import Match
from koikoi.round import Round
from koikoi.server.tablestore import restore_table
from koikoi.store.models import Table


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys too, but for the cards each yaku still needs
    (``progress``), which the rules name whatever lies where."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            if key != "progress":
                yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def hidden_by_version(database_url: str, table_id: str) -> dict[int, list[list[set[str]]]]:
    """For each version the table went through, what each seat could not see then:
    the other's hand and the stock (replayed from the stored record). Two sets a seat:
    as the round that the change was made in stood after it (what its events may
    name), and as the table stands after it (what the state may show; a new deal)."""
    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    with Session(engine) as db:
        row = db.get(Table, table_id)
        assert row is not None
        table = restore_table(row, [None, None])
    engine.dispose()
    match = Match(table.rules, table.seed)

    def unseen(game: Round) -> list[set[str]]:
        stock = sum(1 << card for card in game.stock_left)
        return [
            {SLUGS[c] for c in range(48) if (game.hands[1 - seat] | stock) >> c & 1}
            for seat in (0, 1)
        ]

    # Versions count the sitting down (the change before the first action), then actions.
    hidden = {0: [unseen(match.round)] * 2, 1: [unseen(match.round)] * 2}
    for version, action in enumerate(table.match.actions, 2):
        game = match.round
        match.apply(action)
        hidden[version] = [unseen(game), unseen(match.round)]
    return hidden


def leaks(hidden: dict[int, list[list[set[str]]]], seat: int, data: Any) -> set[str]:
    """The cards a received answer or message names that ``seat`` could not see at
    the version it carries (nothing for data about no table state)."""
    state = data.get("state") if isinstance(data, dict) else None
    if not isinstance(state, dict) or "version" not in state:
        return set()
    during, after = hidden[state["version"]]
    return (during[seat] & set(strings(data.get("events", [])))) | (
        after[seat] & set(strings(state))
    )
