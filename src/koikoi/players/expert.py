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
from itertools import combinations
from typing import NamedTuple

from koikoi.cards import CARD_VALUES, MONTH_MASK_OF, MONTH_MASKS, CardSet, ids
from koikoi.match import totals_after
from koikoi.players.baseline import Seed, generator
from koikoi.players.heuristic import open_yaku, stop_loses_match
from koikoi.round import (
    CAPTURE_BASE,
    KOIKOI,
    PLAYED,
    STOP,
    Action,
    MatchView,
    Observation,
    Phase,
    Round,
    RoundResult,
)
from koikoi.rules import RuleSet

DEFAULT_ROLLOUTS = 4000
"""Rollouts per decision at the default budget, shared among the legal actions: as
many as keep a decision's 95th percentile well inside 300 ms on one core (about
230 ms in ``bench/players.py timing``)."""

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


class Guide(NamedTuple):
    """What the rollout policy goes by: each seat's :func:`take_values`, and for each
    seat what a capture of each set of a month's field cards brings it (the sum of
    their values, or with two to choose from the better one's), looked up rather than
    added up at every move of every rollout."""

    values: TakeValues
    captures: tuple[dict[CardSet, float], dict[CardSet, float]]


def rollout_guide(captured: tuple[CardSet, CardSet], rules: RuleSet) -> Guide:
    values = take_values(captured, rules)
    return Guide(values, (_capture_gains(values[0]), _capture_gains(values[1])))


_MONTH_TAKES = tuple(
    (sum(1 << card for card in taken), taken)
    for month_mask in MONTH_MASKS[1:]
    for size in (1, 2, 3)
    for taken in combinations(ids(month_mask), size)
)
"""Every set of one month's cards that a capture can take (as a set, and lowest first)."""


def _capture_gains(mine: tuple[float, ...]) -> dict[CardSet, float]:
    gains: dict[CardSet, float] = {}
    for cards, taken in _MONTH_TAKES:
        if len(taken) == 2:
            gain = max(mine[taken[0]], mine[taken[1]])
        else:
            # Added one by one, not by sum(): from Python 3.12 sum() rounds floats
            # otherwise, and the browser's port adds them one by one.
            gain = 0.0
            for card in taken:
                gain += mine[card]
        gains[cards] = gain
    return gains


def rollout_action(game: Round, noise: Callable[[], float], guide: Guide) -> Action:
    """The fast policy both sides follow inside a rollout.

    Take what is worth most to the mover (``guide``), give away what is worth least
    to the opponent, take the better of two field cards, and stop at once on a yaku.
    It looks only at what the mover could see. ``noise`` keeps rollouts varied.
    """
    phase = game.phase
    seat = game.turn
    if phase is _PLAY:
        field = game.field
        mine, theirs = guide.values[seat], guide.values[1 - seat]
        gains = guide.captures[seat]
        best, best_score = -1, -1e9
        # With forced_capture the legal plays are the matching cards, when there are any.
        hand = game.legal_actions() if game.rules.forced_capture else game.hand_cards[seat]
        for card in hand:
            matches = field & MONTH_MASK_OF[card]
            score = (mine[card] + gains[matches] if matches else -theirs[card]) + noise() * 1.5
            if score > best_score:
                best, best_score = card, score
        return best
    if phase is _DECISION:
        return STOP
    mine = guide.values[seat]
    return max(game.legal_actions(), key=lambda a: mine[a - CAPTURE_BASE] + noise())


def play_out(game: Round, noise: Callable[[], float], guide: Guide) -> RoundResult:
    apply = game.apply
    while game.phase is not _OVER:
        apply(rollout_action(game, noise, guide))
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


DISCARD_LIKELIHOOD = 0.1
"""How much less likely a world is for each of the opponent's discards in it that left a
capture in the opponent's hand: players who could take a card nearly always do."""
MAX_DRAWS = 20
"""Worlds drawn at most for one sample before the last is taken, however unlikely."""


def discard_evidence(obs: Observation) -> tuple[CardSet, ...]:
    """For each of the opponent's discards this round (a hand card that took nothing),
    the unseen cards that would have taken something from the field as it was then.

    The opponent's hand then was its hand now plus the cards it has played since; only
    the first part is unknown, and a guess that puts one of these cards in it supposes
    the opponent passed up a capture.
    """
    opponent = 1 - obs.seat
    unseen = obs.unseen
    field = obs.field
    evidence = []
    # Back through the round from the field as it is: each event undone gives the
    # field it was played onto.
    for seat, source, card, captured in reversed(obs.history):
        if captured:
            field |= captured
        else:
            field &= ~(1 << card)
        if seat == opponent and source == PLAYED and not captured:
            months = 0
            for on_field in ids(field):
                months |= MONTH_MASK_OF[on_field]
            if months & unseen:
                evidence.append(months & unseen)
    return tuple(evidence)


class Worlds:
    """Guesses of the cards a seat cannot see, drawn as likely as its observation makes
    them: uniformly, then kept with the likelihood of the opponent's discards in them
    (:data:`DISCARD_LIKELIHOOD` for each that passed up a capture)."""

    def __init__(self, obs: Observation, rng: random.Random) -> None:
        self.obs = obs
        self.rng = rng
        self.unseen = ids(obs.unseen)
        self.evidence = discard_evidence(obs)

    def likelihood(self, hand: CardSet) -> float:
        """How likely the opponent's discards were, were ``hand`` its hand (at most 1)."""
        passed = sum(1 for cards in self.evidence if hand & cards)
        return DISCARD_LIKELIHOOD**passed if passed else 1.0

    def guess(self) -> tuple[CardSet, list[int]]:
        """One guess: the opponent's hand, and the stock top first."""
        rng, unseen = self.rng, self.unseen
        hand_size = self.obs.opponent_hand_size
        for _ in range(MAX_DRAWS):
            rng.shuffle(unseen)
            hand = sum(1 << card for card in unseen[:hand_size])
            likelihood = self.likelihood(hand)
            if likelihood == 1.0 or rng.random() < likelihood:
                break
        return hand, unseen[hand_size:]

    def draw(self) -> Round:
        """One guess, as the round it makes."""
        return Round.from_observation(self.obs, *self.guess())


Sampled = dict[Action, list[RoundResult]]
"""How each action's rounds ended in the sampled worlds (the last phase's have most)."""


def sample(
    obs: Observation, rng: random.Random, rollouts: int, deadline: float | None = None
) -> Sampled:
    """The candidate actions' rounds in the sampled worlds, by sequential halving.

    The budget is split into phases (one per halving: three for eight actions); each
    phase plays every action still in the running in the same new worlds (common random
    numbers), then drops the worse half by mean match value. So the close contenders
    get most of the rollouts, and the best of them is the action sampled most.
    """
    legal = candidates(obs)
    seat, match = obs.seat, obs.match
    zero_sum = obs.rules.starting_points > 0
    worlds = Worlds(obs, rng)
    guide = rollout_guide(obs.captured, obs.rules)
    results: Sampled = {action: [] for action in legal}
    alive = list(legal)
    phases = max(1, math.ceil(math.log2(len(legal))))
    for phase in range(phases):
        for _ in range(max(1, rollouts // (phases * len(alive)))):
            world = worlds.draw()
            world_seed = rng.getrandbits(32)
            for action in alive:
                game = world.copy()
                game.apply(action)
                # The same noise in every action's rollout: common random numbers.
                results[action].append(play_out(game, random.Random(world_seed).random, guide))
            if deadline is not None and time.perf_counter() > deadline:
                return results
        if phase < phases - 1:
            means = {a: mean_value(seat, results[a], match, zero_sum) for a in alive}
            alive.sort(key=means.__getitem__, reverse=True)  # stable: ties keep their order
            alive = alive[: (len(alive) + 1) // 2]
    return results


def mean_value(
    seat: int, results: list[RoundResult], match: MatchView | None, zero_sum: bool
) -> float:
    total = 0.0
    # Worked out once for each outcome: most rollouts end in a few of them.
    seen: dict[tuple[int, int], float] = {}
    for result in results:  # not sum(): see _capture_gains
        points = result.points
        value = seen.get(points)
        if value is None:
            value = seen[points] = match_value(seat, points, match, zero_sum)
        total += value
    return total / len(results)


def ranked(obs: Observation, found: Sampled) -> list[Action]:
    """The sampled actions best first: those sampled most (the last phase's), by mean
    match value."""
    zero_sum = obs.rules.starting_points > 0

    def key(action: Action) -> tuple[int, float]:
        return len(found[action]), mean_value(obs.seat, found[action], obs.match, zero_sum)

    return sorted(found, key=key, reverse=True)


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
        return ranked(obs, self.evaluate(obs))[0]

    def evaluate(self, obs: Observation) -> Sampled:
        """How each candidate action's round ended in the worlds this move samples."""
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        return sample(obs, self._rng, self.rollouts, deadline)
