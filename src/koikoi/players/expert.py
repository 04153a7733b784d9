"""The expert: imperfect-information search by sampling and rollouts.

For each decision the expert deals out many *worlds*: the cards it cannot see (the
opponent's hand and the stock) shuffled at random, which is all the observation says
about them. In every world it tries each legal action on a copy of the engine's own
round (:meth:`Round.from_observation`), plays the round out with a fast rollout
policy, and scores the outcome by what it is worth *for the match*: the chance of
winning it given the totals, the rounds left and the target score, not just the
round's points. The same worlds serve every action (common random numbers), so the
comparison between actions is much less noisy than the rollouts themselves.

The think budget is a number of rollouts, so a seed and a budget give the same move
on any machine; ``budget_ms`` adds a wall-clock cap for live play.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from koikoi.cards import CARD_VALUES, MONTH_MASK_OF, ids
from koikoi.round import (
    CAPTURE_BASE,
    STOP,
    Action,
    MatchView,
    Observation,
    Phase,
    Round,
    RoundResult,
)

DEFAULT_ROLLOUTS = 2000
"""Rollouts per decision at the default budget, shared among the legal actions."""

ROUND_SPREAD = 6.0
"""A typical spread (standard deviation) of one round's point difference."""

_PLAY, _HAND_CHOICE, _DRAW_CHOICE, _DECISION, _OVER = Phase

# What a captured set of cards is worth to the rollout policy, by id: the traditional
# values, so that brights and animals are chased before plains.
_VALUE = CARD_VALUES


def _mask_value(cards: int) -> int:
    return sum(_VALUE[card] for card in ids(cards))


def rollout_action(game: Round, noise: Callable[[], float]) -> Action:
    """The fast policy both sides follow inside a rollout (it may see the whole world).

    Capture the most valuable cards, discard the least valuable one, take the better
    of two field cards, and stop at once on a yaku. ``noise`` breaks ties and keeps
    rollouts varied.
    """
    phase = game.phase
    if phase is _PLAY:
        field = game.field
        best, best_score = -1, -1e9
        # With forced_capture the legal plays are the matching cards, when there are any.
        hand = game.legal_actions() if game.rules.forced_capture else ids(game.hands[game.turn])
        for card in hand:
            matches = field & MONTH_MASK_OF[card]
            score: float
            if matches:
                score = _VALUE[card] + (
                    max(_VALUE[c] for c in ids(matches))
                    if matches.bit_count() == 2
                    else _mask_value(matches)
                )
            else:
                score = -_VALUE[card]
            score += noise() * 4
            if score > best_score:
                best, best_score = card, score
        return best
    if phase is _DECISION:
        return STOP
    return max(game.legal_actions(), key=lambda a: _VALUE[a - CAPTURE_BASE] + noise())


def play_out(game: Round, noise: Callable[[], float]) -> RoundResult:
    while game.phase is not _OVER:
        game.apply(rollout_action(game, noise))
    assert game.result is not None
    return game.result


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def match_value(seat: int, points: tuple[int, int], match: MatchView | None) -> float:
    """What a round ending with ``points`` is worth to ``seat``, from 0 (a lost match) to 1.

    In a match: the estimated chance of winning it from the totals after this round,
    with the rounds left and the target score. Outside a match the points themselves
    count, squashed to keep one lucky world from outweighing the rest. A small term
    for the round's points breaks ties between outcomes of equal match chances.
    """
    diff = points[seat] - points[1 - seat]
    if match is None:
        return normal_cdf(diff / ROUND_SPREAD)
    mine = match.totals[seat] + points[seat]
    theirs = match.totals[1 - seat] + points[1 - seat]
    target = match.target_score
    rounds_left = match.rounds_left
    if (target and max(mine, theirs) >= target) or rounds_left <= 0:
        chance = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    else:
        if target:
            # Near the target the match will end sooner than its round count says.
            closest = target - max(mine, theirs)
            rounds_left = min(rounds_left, max(1, math.ceil(closest / (ROUND_SPREAD / 2))))
        chance = normal_cdf((mine - theirs) / (ROUND_SPREAD * math.sqrt(rounds_left)))
    return chance + 0.001 * diff


class ExpertPlayer:
    name = "expert"

    def __init__(
        self, seed: int, rollouts: int = DEFAULT_ROLLOUTS, budget_ms: float | None = None
    ) -> None:
        self._rng = random.Random(seed)
        self.rollouts = rollouts
        self.budget_ms = budget_ms

    def choose(self, observation: Observation) -> Action:
        obs = observation
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        values = self.evaluate(obs)
        return max(legal, key=values.__getitem__)

    def evaluate(self, obs: Observation) -> dict[Action, float]:
        """The mean match value of each legal action over the sampled worlds."""
        legal = obs.legal_actions
        seat = obs.seat
        worlds = max(1, self.rollouts // len(legal))
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        totals = dict.fromkeys(legal, 0.0)
        unseen = ids(obs.unseen)
        hand_size = obs.opponent_hand_size
        sampled = 0
        for _ in range(worlds):
            self._rng.shuffle(unseen)
            opponent_hand = sum(1 << card for card in unseen[:hand_size])
            world = Round.from_observation(obs, opponent_hand, unseen[hand_size:])
            world_seed = self._rng.getrandbits(32)
            for action in legal:
                game = world.copy()
                game.apply(action)
                # The same noise in every action's rollout: common random numbers.
                result = play_out(game, random.Random(world_seed).random)
                totals[action] += match_value(seat, result.points, obs.match)
            sampled += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return {action: total / sampled for action, total in totals.items()}
