"""Observations, action masks, spaces and rewards shared by the environments.

An observation array is built from one seat's :class:`~koikoi.round.Observation` and
nothing else, so it can never hold a card that seat cannot see. It is written from
that seat's point of view ("own" and "opponent", not seat 0 and seat 1), so one policy
can play either seat. The layout, in order (:data:`LAYOUT` gives each part's slice):

==================  ====  =====================================================
part                size  value
==================  ====  =====================================================
``hand``              48  1 for each card in the own hand (bit i: card id i)
``field``             48  1 for each card face up on the field
``own_pile``          48  1 for each card the seat has captured
``opponent_pile``     48  1 for each card the opponent has captured
``seen``              48  1 for each card the seat has seen: hand, field, piles,
                          pending card (the rest is the opponent's hand and stock)
``pending``           48  1 for the played or drawn card waiting for a choice
``phase``              5  one-hot: play, hand-choice, draw-choice, decision, over
``calls``              2  koi-koi calls this round (own, opponent) / hand size
``yaku``               2  yaku points of each pile now (own, opponent) / 10
``decided``            2  yaku points at each player's last koi-koi / 10 (0: none)
``stock``              1  cards left in the stock / 48
``opponent_hand``      1  cards in the opponent's hand / hand size
``totals``             2  match totals (own, opponent) / 10 (below 0 in zero-sum matches)
``rounds_left``        1  rounds after this one / rounds in the match
``turn``               1  1 when it is this seat's turn
``dealer``             1  1 when this seat deals this round
``month``              1  the round's month / 12 (0: unknown)
==================  ====  =====================================================

Actions are the engine's integers (:data:`ACTION_COUNT` of them): ``0..47`` play the
hand card with that id, ``48..95`` take the field card ``action - 48`` when the played
or drawn card matches two, ``96`` koi-koi, ``97`` stop. The mask is 1 exactly for
``observation.legal_actions``.

>>> from koikoi.match import Match
>>> from koikoi.rules import PRESETS
>>> obs = Match(PRESETS["classic"], seed=7).observation(0)
>>> array = encode_observation(obs)
>>> array.shape, int(array[LAYOUT["hand"]].sum())
((307,), 8)
>>> int(action_mask(obs).sum()) == len(obs.legal_actions)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from koikoi.cards import CARD_COUNT, MONTH_COUNT, CardSet
from koikoi.match import Match
from koikoi.round import ACTION_COUNT, Observation, Phase, RoundResult
from koikoi.rules import RuleSet, largest_match_total, largest_pile_total, resolve_rules

__all__ = [
    "ACTION_COUNT",
    "LAYOUT",
    "OBSERVATION_SIZE",
    "POINTS_UNIT",
    "Rewards",
    "action_mask",
    "encode_observation",
    "observation_space",
    "rules_from",
]

POINTS_UNIT = 10.0
"""Points in an observation are divided by this, so usual scores stay near 0..1."""

PHASES = tuple(Phase)

_SIZES = {
    "hand": CARD_COUNT,
    "field": CARD_COUNT,
    "own_pile": CARD_COUNT,
    "opponent_pile": CARD_COUNT,
    "seen": CARD_COUNT,
    "pending": CARD_COUNT,
    "phase": len(PHASES),
    "calls": 2,
    "yaku": 2,
    "decided": 2,
    "stock": 1,
    "opponent_hand": 1,
    "totals": 2,
    "rounds_left": 1,
    "turn": 1,
    "dealer": 1,
    "month": 1,
}


def _layout() -> dict[str, slice]:
    layout, start = {}, 0
    for name, size in _SIZES.items():
        layout[name] = slice(start, start + size)
        start += size
    return layout


LAYOUT: Mapping[str, slice] = _layout()
"""Each part of an observation array and where it lies."""

OBSERVATION_SIZE = sum(_SIZES.values())

# Card sets unpack to arrays through their bytes: far cheaper than a loop over 48 bits.
_CARD_BYTES = (CARD_COUNT + 7) // 8


def _card_bits(cards: CardSet) -> npt.NDArray[np.uint8]:
    raw = np.frombuffer(cards.to_bytes(_CARD_BYTES, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:CARD_COUNT]


def encode_observation(observation: Observation) -> npt.NDArray[np.float32]:
    """The array of :data:`LAYOUT` for what ``observation``'s seat may know."""
    obs = observation
    me, them = obs.seat, 1 - obs.seat
    rules = obs.rules
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)

    def put(name: str, values: Any) -> None:
        out[LAYOUT[name]] = values

    pending = 0 if obs.pending_card is None else 1 << obs.pending_card
    put("hand", _card_bits(obs.hand))
    put("field", _card_bits(obs.field))
    put("own_pile", _card_bits(obs.captured[me]))
    put("opponent_pile", _card_bits(obs.captured[them]))
    put("seen", 1 - _card_bits(obs.unseen))
    put("pending", _card_bits(pending))
    out[LAYOUT["phase"].start + PHASES.index(obs.phase)] = 1
    put("calls", (obs.calls[me] / rules.hand_size, obs.calls[them] / rules.hand_size))
    put("yaku", [sum(obs.yaku[seat].values()) / POINTS_UNIT for seat in (me, them)])
    put(
        "decided",
        [sum((obs.decided[seat] or {}).values()) / POINTS_UNIT for seat in (me, them)],
    )
    put("stock", obs.stock_size / CARD_COUNT)
    put("opponent_hand", obs.opponent_hand_size / rules.hand_size)
    if obs.match is not None:
        put("totals", (obs.match.totals[me] / POINTS_UNIT, obs.match.totals[them] / POINTS_UNIT))
        put("rounds_left", obs.match.rounds_left / obs.match.rounds)
    put("turn", float(obs.turn == me and obs.phase is not Phase.OVER))
    put("dealer", float(obs.dealer == me))
    put("month", obs.month / MONTH_COUNT)
    return out


def action_mask(observation: Observation) -> npt.NDArray[np.int8]:
    """1 for each legal action of ``observation``'s seat, 0 elsewhere (all 0 off turn).

    ``int8``, the type :meth:`gymnasium.spaces.Discrete.sample` takes as a mask.
    """
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    mask[list(observation.legal_actions)] = 1
    return mask


def observation_space(rules: RuleSet) -> spaces.Dict:
    """``{"observation": Box, "action_mask": Box of 0/1}`` for a match under ``rules``.

    The bounds of the point features come from the rules: no pile or match total can
    pass :func:`~koikoi.rules.largest_pile_total` or
    :func:`~koikoi.rules.largest_match_total`.
    """
    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    high[LAYOUT["yaku"]] = high[LAYOUT["decided"]] = largest_pile_total(rules) / POINTS_UNIT
    high[LAYOUT["totals"]] = largest_match_total(rules) / POINTS_UNIT
    low = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    if rules.starting_points:  # zero-sum matches: a total can fall as far below zero
        low[LAYOUT["totals"]] = -high[LAYOUT["totals"]]
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
        }
    )


def rules_from(rules: str | RuleSet | Mapping[str, Any]) -> RuleSet:
    """A rule set from a preset name or rules file, a :class:`RuleSet` or a mapping."""
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        return resolve_rules(rules)
    return RuleSet.from_mapping(rules)


@dataclass(frozen=True)
class Rewards:
    """How a match pays out, the same for every seat and both environments.

    At each round's end a seat gets ``(own points - opponent's points) / points_scale``;
    at the match's end, also ``+win_bonus`` for the winner and ``-win_bonus`` for the
    loser (0 both for a tie). Rewards are zero-sum.
    """

    points_scale: float = 10.0
    win_bonus: float = 1.0

    def for_rounds(self, results: list[RoundResult], seat: int) -> float:
        """What ``seat`` earns for these finished rounds."""
        return sum(r.points[seat] - r.points[1 - seat] for r in results) / self.points_scale

    def for_end(self, match: Match, seat: int) -> float:
        """What ``seat`` earns for the match's result (0 while it goes on)."""
        if match.winner is None:
            return 0.0
        return self.win_bonus if match.winner == seat else -self.win_bonus
