"""Players: anything that picks an action from what its seat may see.

A player gets only an :class:`~koikoi.round.Observation`, never the round itself,
so it cannot reach the opponent's hand or the stock order. Players are built by name
with a seed, so a seed makes a game repeatable.

>>> player = make_player("greedy", seed=1)
>>> player.name
'greedy'
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any, Protocol

from koikoi.players.baseline import GreedyPlayer, RandomPlayer, Seed
from koikoi.players.expert import ExpertPlayer
from koikoi.players.heuristic import EasyPlayer, NormalPlayer
from koikoi.players.protocol import ProcessPlayer, command_for
from koikoi.round import Action, Observation


class Player(Protocol):
    name: str

    def choose(self, observation: Observation) -> Action:
        """One of ``observation.legal_actions``."""
        ...


PLAYERS: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "expert": ExpertPlayer,
}
"""Player factories by name; each takes a seed or a generator (the expert a budget too)."""


class UnknownPlayerError(ValueError):
    pass


def make_player(name: str, seed: Seed, **options: Any) -> Player:
    """A player by name; ``options`` go to its factory (``budget_ms`` for the expert).

    ``seed`` is an int, or a ``random.Random`` to draw from (it may be shared).
    ``cmd:PROGRAM ARGS`` and ``js:LEVEL`` name programs that speak the engine protocol
    (:mod:`koikoi.players.protocol`).
    """
    # Built-in names first, and a plain call where there are no options: a simulation
    # makes two players for every deal.
    factory = PLAYERS.get(name)
    if factory is not None:
        return factory(seed, **options) if options else factory(seed)
    command = command_for(name)
    if command is not None:
        return ProcessPlayer(name, command, seed, **options)
    message = f"unknown player {name!r}; players: {', '.join(PLAYERS)}"
    close = difflib.get_close_matches(name, PLAYERS, n=1)
    raise UnknownPlayerError(message + (f" (did you mean {close[0]!r}?)" if close else ""))
