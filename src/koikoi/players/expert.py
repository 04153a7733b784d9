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

from koikoi.cards import CARD_VALUES, MONTH_MASK_OF, CardSet, ids
from koikoi.players.baseline import Seed, generator
from koikoi.players.heuristic import open_yaku, stop_loses_match, totals_after
from koikoi.round import (
    CAPTURE_BASE,
    KOIKOI,
    STOP,
    Action,
    MatchView,
    Observation,
    Phase,
    Round,
    RoundResult,
)
from koikoi.rules import RuleSet

DEFAULT_ROLLOUTS = 2000
"""Rollouts per decision at the default budget, shared among the legal actions."""

ROUND_SPREAD = 6.0
"""A typical spread (standard deviation) of one round's point difference."""

_PLAY, _HAND_CHOICE, _DRAW_CHOICE, _DECISION, _OVER = Phase

TakeValues = tuple[tuple[float, ...], tuple[float, ...]]
"""For each seat, what taking each card is worth to it (the rollout policy's guide)."""


def take_values(captured: tuple[CardSet, CardSet], rules: RuleSet) -> TakeValues:
    """What each card is worth to each seat, from the piles as they stand.

    A card's traditional value, plus a bonus for every yaku it belongs to that the
    seat can still make (more the more of it the seat holds), plus half of what it is
    worth to the opponent: a card taken is a card denied.
    """
    own: list[list[float]] = []
    for seat in (0, 1):
        values = [float(v) for v in CARD_VALUES]
        mine, theirs = captured[seat], captured[1 - seat]
        for cards, needed, points in open_yaku(theirs, rules):
            bonus = 2.0 * points * (1 + (mine & cards).bit_count()) / needed
            for card in ids(cards & ~mine & ~theirs):
                values[card] += bonus
        own.append(values)
    return (
        tuple(a + b / 2 for a, b in zip(own[0], own[1], strict=True)),
        tuple(a + b / 2 for a, b in zip(own[1], own[0], strict=True)),
    )


def rollout_action(game: Round, noise: Callable[[], float], values: TakeValues) -> Action:
    """The fast policy both sides follow inside a rollout.

    Take what is worth most to the mover (``values``), give away what is worth least
    to the opponent, take the better of two field cards, and stop at once on a yaku.
    It looks only at what the mover could see. ``noise`` keeps rollouts varied.
    """
    phase = game.phase
    seat = game.turn
    if phase is _PLAY:
        field = game.field
        mine, theirs = values[seat], values[1 - seat]
        best, best_score = -1, -1e9
        # With forced_capture the legal plays are the matching cards, when there are any.
        hand = game.legal_actions() if game.rules.forced_capture else ids(game.hands[seat])
        for card in hand:
            matches = field & MONTH_MASK_OF[card]
            score: float
            if not matches:
                score = -theirs[card]
            elif matches.bit_count() == 2:
                score = mine[card] + max(mine[c] for c in ids(matches))
            else:
                score = mine[card] + sum(mine[c] for c in ids(matches))
            score += noise() * 4
            if score > best_score:
                best, best_score = card, score
        return best
    if phase is _DECISION:
        return STOP
    mine = values[seat]
    return max(game.legal_actions(), key=lambda a: mine[a - CAPTURE_BASE] + noise())


def play_out(game: Round, noise: Callable[[], float], values: TakeValues) -> RoundResult:
    while game.phase is not _OVER:
        game.apply(rollout_action(game, noise, values))
    assert game.result is not None
    return game.result


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def match_chance(
    seat: int, points: tuple[int, int], match: MatchView | None, zero_sum: bool = False
) -> float:
    """The chance that ``seat`` wins the match once a round ends with ``points``.

    In a match: estimated from the totals after this round (``zero_sum``: the points
    move from one seat to the other), with the rounds left and the target score.
    Outside a match (a single deal) the chance of coming out of the round ahead, from
    its points squashed so that one lucky world cannot outweigh the rest.
    """
    diff = points[seat] - points[1 - seat]
    if match is None:
        return normal_cdf(diff / ROUND_SPREAD)
    totals, over = totals_after(match, points, zero_sum)
    mine, theirs = totals[seat], totals[1 - seat]
    if over:
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    target = match.target_score
    rounds_left = match.rounds_left
    if target:
        # Near the target the match will end sooner than its round count says.
        closest = target - max(mine, theirs)
        rounds_left = min(rounds_left, max(1, math.ceil(closest / (ROUND_SPREAD / 2))))
    # Zero-sum, a round moves the lead by twice its points.
    spread = ROUND_SPREAD * (2 if zero_sum else 1)
    return normal_cdf((mine - theirs) / (spread * math.sqrt(rounds_left)))


def match_value(
    seat: int, points: tuple[int, int], match: MatchView | None, zero_sum: bool = False
) -> float:
    """What a round ending with ``points`` is worth to ``seat``, from 0 (a lost match) to 1:
    its :func:`match_chance`, and in a match a small term for the round's points that
    breaks ties between outcomes of equal match chances (a single deal's chance already
    grows with the points)."""
    chance = match_chance(seat, points, match, zero_sum)
    return chance if match is None else chance + 0.001 * (points[seat] - points[1 - seat])


def candidates(obs: Observation) -> tuple[Action, ...]:
    """The legal actions worth weighing: all of them but a stop that loses the match
    for certain (:func:`stop_loses_match`), which a koi-koi can do no worse than.

    Only that stop's loss is certain. When no sampled world of the koi-koi wins, the
    tie-break on round points would still rank the stop first, though worlds not
    sampled may win; the tie-break stays for every other choice, where more points
    are the best guide left to a win that the samples missed.
    """
    if obs.phase is _DECISION and stop_loses_match(obs):
        return (KOIKOI,)
    return obs.legal_actions


class ExpertPlayer:
    name = "expert"

    def __init__(
        self, seed: Seed, rollouts: int = DEFAULT_ROLLOUTS, budget_ms: float | None = None
    ) -> None:
        self._rng = generator(seed)
        self.rollouts = rollouts
        self.budget_ms = budget_ms

    def choose(self, observation: Observation) -> Action:
        obs = observation
        legal = candidates(obs)
        if len(legal) == 1:
            return legal[0]
        values = self.evaluate(obs)
        return max(legal, key=values.__getitem__)

    def evaluate(self, obs: Observation) -> dict[Action, float]:
        """The mean match value of each candidate action over the sampled worlds."""
        legal = candidates(obs)
        seat = obs.seat
        zero_sum = obs.rules.starting_points > 0
        worlds = max(1, self.rollouts // len(legal))
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        totals = dict.fromkeys(legal, 0.0)
        unseen = ids(obs.unseen)
        hand_size = obs.opponent_hand_size
        values = take_values(obs.captured, obs.rules)
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
                result = play_out(game, random.Random(world_seed).random, values)
                totals[action] += match_value(seat, result.points, obs.match, zero_sum)
            sampled += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return {action: total / sampled for action, total in totals.items()}
