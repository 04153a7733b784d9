"""Baseline players for tests and benchmarks: uniformly random, and one-ply greedy."""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import floor

from koikoi.cards import CARD_VALUES, MONTH_MASK_OF, CardSet, ids
from koikoi.round import CAPTURE_BASE, STOP, Action, Observation, Phase
from koikoi.yaku import scorer_for

Seed = int | random.Random
"""What a player is built from: a seed, or a generator it shares (with the other seat
of a simulated game, say: seeding one costs about a twentieth of a random round)."""


def generator(seed: Seed) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


class RandomPlayer:
    """Picks uniformly among the legal actions (and reads nothing else: a
    :class:`~koikoi.players.LegalActionsPlayer`)."""

    name = "random"

    def __init__(self, seed: Seed) -> None:
        self._random = generator(seed).random

    def choose(self, observation: Observation) -> Action:
        return self.choose_legal(observation.legal_actions)

    def choose_legal(self, legal_actions: Sequence[Action]) -> Action:
        # A third of the cost of random.choice; its bias, parts in 2**53, cannot show.
        # (floor, not int: the same for a product that is never negative, and cheaper.)
        return legal_actions[floor(self._random() * len(legal_actions))]


class GreedyPlayer:
    """Looks one step ahead: the play or capture that adds the most, and always stops.

    A move is worth the yaku points it adds (counted first) and then the card values
    it captures; a card that captures nothing costs its own value, as it is offered to
    the opponent. Ties go to the lowest action, so the player is deterministic.
    """

    name = "greedy"

    def __init__(self, seed: Seed) -> None:
        del seed  # deterministic; the seed keeps the factory signature common

    def choose(self, observation: Observation) -> Action:
        obs = observation
        if obs.phase is Phase.DECISION:
            return STOP
        return max(obs.legal_actions, key=lambda action: move_gain(obs, action))


def taken_by(obs: Observation, action: Action, worth: Sequence[float] = CARD_VALUES) -> CardSet:
    """The cards a play or capture puts in the pile (for a play meeting two field
    cards, with the one ``worth`` more, the first of equals); 0 for a play that
    captures nothing."""
    if action >= CAPTURE_BASE:
        assert obs.pending_card is not None
        return (1 << (action - CAPTURE_BASE)) | (1 << obs.pending_card)
    matches = obs.field & MONTH_MASK_OF[action]
    if not matches:
        return 0
    if matches.bit_count() == 2:
        matches = 1 << max(ids(matches), key=worth.__getitem__)
    return matches | (1 << action)


def move_gain(obs: Observation, action: Action) -> tuple[int, int]:
    """What a play or capture adds at once: (yaku points, card values captured).

    A play that captures nothing scores minus its own value: it is offered to the
    opponent. A play that meets two field cards counts the better one.
    """
    taken = taken_by(obs, action)
    if not taken:
        return 0, -CARD_VALUES[action]
    scorer = scorer_for(obs.rules)
    own = obs.captured[obs.seat]
    called = obs.calls[obs.seat] > 0
    gained = scorer.total(own | taken, obs.month, called) - scorer.total(own, obs.month, called)
    return gained, sum(CARD_VALUES[card] for card in ids(taken))
