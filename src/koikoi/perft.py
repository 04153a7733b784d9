"""Perft: the action sequences from a position, counted as chess engines count moves
(docs/perft.md).

``perft(round, depth)`` is the number of sequences of ``depth`` actions that can be
played from a round. A round that ends before ``depth`` actions counts as one sequence,
cut short: so a count sees every ending (an engine that misses the end of a round, or
ends one too soon, counts differently). ``divide`` gives the count under each legal
first action, keyed by the action in record form as JSON text (``{"play":
"pine-crane"}``), in the order of :meth:`Round.legal_actions`.

The browser's engine has the same functions (``web/engine/perft.js``), and
``docs/perft.jsonl`` holds vectors, positions with their counts, that both engines must
reproduce; checking them, and finding where two engines part, is
:mod:`koikoi.perftvectors`'s (it runs Node.js, which the engine never does).

>>> from koikoi.rules import PRESETS
>>> game = Round.deal(PRESETS["classic"], seed=1, dealer=0)
>>> [perft(game, depth) for depth in range(5)]
[1, 8, 64, 448, 3136]
>>> list(divide(game, 2).items())[:2]
[('{"play": "wisteria-plain-1"}', 8), ('{"play": "iris-bridge"}', 8)]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from koikoi.record import Record, replay
from koikoi.round import (
    Action,
    Phase,
    Round,
    action_to_json,
)

__all__ = [
    "PerftResult",
    "action_key",
    "divide",
    "perft",
    "perft_output",
    "perft_text",
    "position",
    "run",
]


def action_key(action: Action) -> str:
    """An action as a divide key: its record form as JSON text (``json.dumps``).

    >>> from koikoi.round import KOIKOI
    >>> action_key(KOIKOI)
    '{"koikoi": true}'
    """
    return json.dumps(action_to_json(action))


def perft(game: Round, depth: int) -> int:
    """The number of sequences of ``depth`` actions from ``game`` (which is unchanged).

    A round that ends before ``depth`` actions counts as one sequence, the actions up to
    its end; a round already over, or depth 0, is one sequence (of no actions).
    """
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    return _count(game, depth)


def _count(game: Round, depth: int) -> int:
    """:func:`perft` without the check of its depth, for the recursion."""
    if depth == 0 or game.phase is Phase.OVER:
        return 1
    actions = game.legal_actions()
    if depth == 1:  # each action is one sequence, whether or not it ends the round
        return len(actions)
    total = 0
    for action in actions:
        child = game.copy()
        child.apply(action)
        total += _count(child, depth - 1)
    return total


def divide(game: Round, depth: int) -> dict[str, int]:
    """The perft count under each legal first action (:func:`action_key` its key), in
    the order of ``legal_actions()``; empty at depth 0 or once the round is over (their
    count is 1, the empty sequence). Otherwise the counts add up to ``perft(game,
    depth)``."""
    if depth < 0:
        raise ValueError(f"depth must be 0 or more, not {depth}")
    if depth == 0 or game.phase is Phase.OVER:
        return {}
    counts = {}
    for action in game.legal_actions():
        child = game.copy()
        child.apply(action)
        counts[action_key(action)] = _count(child, depth - 1)
    return counts


@dataclass(frozen=True)
class PerftResult:
    """A position's count and (when asked for) its divide."""

    count: int
    divide: dict[str, int]


def run(game: Round, depth: int, *, with_divide: bool = True) -> PerftResult:
    """:func:`perft`, and :func:`divide` when asked for (the count is then their sum)."""
    if not with_divide:
        return PerftResult(perft(game, depth), {})
    counts = divide(game, depth)
    return PerftResult(sum(counts.values()) if counts else 1, counts)


def position(record: Record) -> Round:
    """The round a record stands at once its actions are replayed (a copy): a given
    deal's round, or a seeded match's current round (its last once the match is over).
    Raises :class:`RecordError` as ``koikoi replay`` reports it."""
    return replay(record).round.copy()


def perft_output(result: PerftResult, depth: int, *, with_divide: bool) -> dict[str, Any]:
    """What ``koikoi perft --json`` prints: ``{"depth", "count"}`` and ``"divide"``."""
    output: dict[str, Any] = {"depth": depth, "count": result.count}
    if with_divide:
        output["divide"] = dict(result.divide)
    return output


def perft_text(result: PerftResult, depth: int, *, with_divide: bool, over: bool) -> str:
    """What ``koikoi perft`` prints: each first action's count (with ``--divide``), then
    ``perft(DEPTH) = COUNT``; the browser engine's program prints the same text."""
    lines = [f"{key}: {count}" for key, count in result.divide.items()] if with_divide else []
    note = " (the round is over)" if over else ""
    lines.append(f"perft({depth}) = {result.count}{note}")
    return "".join(line + "\n" for line in lines)
