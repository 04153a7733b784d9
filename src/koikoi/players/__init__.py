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
from collections.abc import Callable, Sequence
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


class LegalActionsPlayer(Player, Protocol):
    """A player whose choice reads nothing of its observation but the legal actions.

    Game loops (:func:`koikoi.sim.play_out`) then call ``choose_legal`` with the
    seat's legal actions alone and build no observation for it; ``choose`` must pick
    exactly as ``choose_legal(observation.legal_actions)`` does.
    """

    def choose_legal(self, legal_actions: Sequence[Action]) -> Action:
        """One of ``legal_actions``, the legal actions of the seat to move."""
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
