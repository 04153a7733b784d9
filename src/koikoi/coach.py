"""The coach: the expert's evaluation turned into advice a player can read.

Everything here starts from one seat's :class:`~koikoi.round.Observation`, never from
the hidden cards: the same observation and seed give the same advice whatever the
opponent holds and however the stock lies.

- :func:`hint`: the move the expert prefers, the runner-up and how much match win
  chance it gives away, and the reasons, as facts (a kind and its values) that the
  browser words in each language;
- :func:`risk`: at a stop-or-koi-koi decision, how likely the opponent is to make a
  yaku before this seat's next turn and before the round ends if the seat calls, and
  what stopping and calling are each worth in points and in match win chance;
- :func:`review`: every decision a seat took in a finished match, against the best,
  marked by the win chance it gave away, with the chance through the match and its
  biggest swings.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise, permutations
from typing import Any

from koikoi.cards import (
    MONTH_MASK_OF,
    CardSet,
    ids,
    slugs,
)
from koikoi.players.baseline import taken_by
from koikoi.players.expert import (
    DEFAULT_ROLLOUTS,
    Worlds,
    match_chance,
    play_out,
    ranked,
    rollout_guide,
    sample,
    take_values,
)
from koikoi.players.heuristic import yaku_sets
from koikoi.record import Record, start_match
from koikoi.round import (
    EXHAUSTED,
    KOIKOI,
    STOP,
    Action,
    Observation,
    Phase,
    Round,
    RoundResult,
    action_from_json,
    action_to_json,
)

HINT_ROLLOUTS = DEFAULT_ROLLOUTS
"""Rollouts per hint: the expert's own budget, so the hint is the move it would make."""
REVIEW_ROLLOUTS = 400
"""Rollouts per reviewed decision: a tenth of a hint's, since a match has a hundred."""
RISK_WORLDS = 400
"""Arrangements of the unseen cards the risk meter samples when there are more."""
EXACT_WORLDS = 5040
"""Up to this many arrangements, the risk meter counts every one (7 unseen cards)."""

REVIEW_SEED = 0xC0AC_0000
"""A review's decision at the record's index ``i`` is evaluated from seed this plus ``i``."""

INACCURACY = 0.02
"""A move that gives away at least this much match win chance is an inaccuracy..."""
MISTAKE = 0.06
"""...and at least this much, a mistake."""
SWINGS = 3
"""How many of the biggest swings of the win chance a review points at."""
MIN_SWING = 0.01
"""The least move of the win chance a review calls a swing, one point: a smaller one
reads "from 45% to 45%", no swing to the reader."""
CLEAR = 0.03
"""A difference in a yaku's chance worth telling the player about."""


# -- what the sampled worlds say ---------------------------------------------------------


@dataclass(slots=True)
class Outlook:
    """What one action leads to, summed over sampled worlds (read the means)."""

    weight: float = 0.0  # the worlds, each counted by its likelihood
    chance_sum: float = 0.0  # match win chance (a single deal: of coming out ahead)
    points_sum: float = 0.0  # this seat's round points less the opponent's
    scores: float = 0.0  # worlds in which this seat takes the round with a yaku
    concedes: float = 0.0  # ...in which the opponent does

    def add(self, seat: int, result: RoundResult, obs: Observation, weight: float = 1.0) -> None:
        self.weight += weight
        zero_sum = obs.rules.starting_points > 0
        self.chance_sum += weight * match_chance(seat, result.points, obs.match, zero_sum)
        self.points_sum += weight * (result.points[seat] - result.points[1 - seat])
        if result.winner is not None and result.reason != EXHAUSTED:
            if result.winner == seat:
                self.scores += weight
            else:
                self.concedes += weight

    @property
    def chance(self) -> float:
        return self.chance_sum / self.weight

    @property
    def points(self) -> float:
        return self.points_sum / self.weight

    @property
    def own_yaku(self) -> float:
        return self.scores / self.weight

    @property
    def their_yaku(self) -> float:
        return self.concedes / self.weight


def outlooks(
    obs: Observation, rollouts: int, seed: int
) -> tuple[list[Action], dict[Action, Outlook]]:
    """The expert's own evaluation of ``obs`` from ``seed``: the actions it sampled,
    best first as it ranks them (its choice first), and each one's outlook."""
    found = sample(obs, random.Random(seed), rollouts)
    summed = {}
    for action, results in found.items():
        outlook = summed[action] = Outlook()
        for result in results:
            outlook.add(obs.seat, result, obs)
    return ranked(obs, found), summed


# -- hints -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fact:
    """One reason, as a kind and its values: the browser words it in each language."""

    kind: str
    values: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.values}


@dataclass(frozen=True, slots=True)
class Hint:
    best: Action
    chance: float  # the match win chance with the best move
    reasons: tuple[Fact, ...]
    runner_up: Action | None  # None: the only legal move
    loss: float  # the win chance the runner-up gives away
    runner_up_reasons: tuple[Fact, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "best": action_to_json(self.best),
            # No chance with a single legal move: nothing was weighed.
            "chance": None if math.isnan(self.chance) else round(self.chance, 4),
            "reasons": [fact.to_json() for fact in self.reasons],
            "runner_up": None if self.runner_up is None else action_to_json(self.runner_up),
            "loss": round(self.loss, 4),
            "runner_up_reasons": [fact.to_json() for fact in self.runner_up_reasons],
        }


def taken_cards(obs: Observation, action: Action) -> CardSet:
    """The cards ``action`` puts on this seat's pile at once (none for a discard): a
    played card that matches two field cards takes the one worth more to the seat, as
    the expert values them (the choice comes next); the stock's card is unknown."""
    return taken_by(obs, action, take_values(obs.captured, obs.rules)[obs.seat])


def card_facts(obs: Observation, action: Action) -> list[Fact]:
    """What ``action`` does with the cards, as the seat can see it (nothing, at a
    stop-or-koi-koi decision: the risk meter tells that choice)."""
    if obs.phase is Phase.DECISION:
        return []
    seat = obs.seat
    mine, theirs = obs.captured[seat], obs.captured[1 - seat]
    taken = taken_cards(obs, action)
    if obs.phase is Phase.PLAY and not taken:
        live = obs.unseen & MONTH_MASK_OF[action]
        # A card whose month is all in sight can only ever come back to this seat.
        return [Fact("discard-dead" if not live else "discard", {"card": slugs(1 << action)[0]})]
    facts = [Fact("takes", {"cards": slugs(taken)})]
    made: list[Fact] = []
    toward: list[tuple[int, Fact]] = []
    denies: list[tuple[int, Fact]] = []
    for cards, needed, _, key in yaku_sets(obs.rules):
        if not taken & cards:
            continue
        if (cards & ~theirs).bit_count() >= needed:  # still open to this seat
            before = (mine & cards).bit_count()
            after = ((mine | taken) & cards).bit_count()
            if before < needed <= after:
                made.append(Fact("makes", {"yaku": key}))
            elif needed - 2 <= after < needed:
                missing = needed - after
                toward.append((missing, Fact("toward", {"yaku": key, "missing": missing})))
        held = theirs & cards
        # The opponent is two cards or fewer from it, and it is still open to them.
        if held and held.bit_count() >= needed - 2 and (cards & ~mine).bit_count() >= needed:
            # Taking one of its cards may close it, or only slow it.
            closes = (cards & ~(mine | taken)).bit_count() < needed
            denies.append(
                (
                    -held.bit_count() - 2 * closes,
                    Fact("denies", {"yaku": key, "held": slugs(held), "closes": closes}),
                )
            )
    facts += made
    facts += [fact for _, fact in sorted(toward, key=lambda pair: pair[0])[:1]]
    facts += [fact for _, fact in sorted(denies, key=lambda pair: pair[0])[:1]]
    return facts


def discard_facts(obs: Observation, best: Action, other: Action) -> list[Fact]:
    """Between two discards: the other card would be worth more to the opponent."""
    if obs.phase is not Phase.PLAY or taken_cards(obs, best) or taken_cards(obs, other):
        return []
    worth = take_values(obs.captured, obs.rules)[1 - obs.seat]
    if worth[other] <= worth[best]:
        return []
    return [Fact("gives-less", {"card": slugs(1 << best)[0], "other": slugs(1 << other)[0]})]


def chance_facts(best: Outlook, other: Outlook) -> list[Fact]:
    """How the best move changes the round's yaku chances, where the change is clear."""
    facts = []
    theirs, mine = (best.their_yaku, other.their_yaku), (best.own_yaku, other.own_yaku)
    if theirs[1] - theirs[0] >= CLEAR:
        facts.append(Fact("safer", {"chance": round(theirs[0], 3), "other": round(theirs[1], 3)}))
    if mine[0] - mine[1] >= CLEAR:
        facts.append(Fact("stronger", {"chance": round(mine[0], 3), "other": round(mine[1], 3)}))
    return facts


def judged(
    obs: Observation, seed: int, rollouts: int, meter: Risk | None = None
) -> tuple[list[Action], dict[Action, Outlook]]:
    """The legal actions best first, and each one's outlook: at a decision by the risk
    meter's match chances (``meter``, if already counted), else as the expert ranks them."""
    if obs.phase is Phase.DECISION:
        found = (meter or risk(obs, seed)).outlooks
        order = sorted(obs.legal_actions, key=lambda action: found[action].chance, reverse=True)
        return order, found
    return outlooks(obs, rollouts, seed)


def hint(
    obs: Observation, seed: int, rollouts: int = HINT_ROLLOUTS, meter: Risk | None = None
) -> Hint:
    """The move the expert prefers at ``obs`` (the seat's turn), and why. ``meter``, a
    :func:`risk` of this decision already counted, spares counting it again."""
    legal = obs.legal_actions
    if not legal:
        raise ValueError("a hint is for the seat to move; this seat is waiting")
    if len(legal) == 1:
        return Hint(legal[0], math.nan, tuple(card_facts(obs, legal[0])), None, 0.0, ())
    order, found = judged(obs, seed, rollouts, meter)
    best, second = order[0], order[1]
    reasons = card_facts(obs, best) + discard_facts(obs, best, second)
    reasons += chance_facts(found[best], found[second])
    return Hint(
        best,
        found[best].chance,
        tuple(reasons),
        second,
        found[best].chance - found[second].chance,
        tuple(card_facts(obs, second)),
    )


# -- the koi-koi risk meter --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Risk:
    """What calling koi-koi risks at a decision, against stopping now."""

    next_turn: float  # the opponent can make a yaku on the turn right after the call
    before_end: float  # ...can then, or makes one later in the round
    own_later: float  # this seat makes a higher yaku later in the round
    stop_points: int  # what the stop scores, less nothing: the round ends
    call_points: float  # the mean of this seat's points less the opponent's after a call
    stop_chance: float  # match win chance after the stop
    call_chance: float  # ...after the call
    worlds: int  # arrangements of the unseen cards counted
    exact: bool  # every arrangement was counted
    outlooks: dict[Action, Outlook]

    def to_json(self) -> dict[str, Any]:
        return {
            "next_turn": round(self.next_turn, 4),
            "before_end": round(self.before_end, 4),
            "own_later": round(self.own_later, 4),
            "stop_points": self.stop_points,
            "call_points": round(self.call_points, 2),
            "stop_chance": round(self.stop_chance, 4),
            "call_chance": round(self.call_chance, 4),
            "worlds": self.worlds,
            "exact": self.exact,
        }


def arrangements(obs: Observation) -> int:
    """How many ways the unseen cards can lie: the opponent's hand, then the stock's order."""
    unseen = obs.unseen.bit_count()
    return math.comb(unseen, obs.opponent_hand_size) * math.factorial(obs.stock_size)


def worlds(obs: Observation, seed: int, count: int) -> Iterator[tuple[CardSet, list[int], float]]:
    """Every arrangement of the unseen cards with its likelihood when there are at most
    ``EXACT_WORLDS``, else ``count`` of them drawn as the expert draws them (as likely as
    the opponent's discards make them, so each counts once): (the opponent's hand, the
    stock top first, its weight)."""
    guesses = Worlds(obs, random.Random(seed))
    if arrangements(obs) > EXACT_WORLDS:
        for _ in range(count):
            hand, stock = guesses.guess()
            yield hand, list(stock), 1.0
        return
    unseen = ids(obs.unseen)
    for cards in combinations(unseen, obs.opponent_hand_size):
        hand = sum(1 << card for card in cards)
        likelihood = guesses.likelihood(hand)
        for order in permutations([card for card in unseen if card not in cards]):
            yield hand, list(order), likelihood


def scores_this_turn(game: Round, seat: int) -> bool:
    """Whether ``seat``, to play, can end its turn with a yaku (trying every choice)."""
    if game.phase is Phase.OVER:
        result = game.result
        assert result is not None
        return result.winner == seat and result.reason != EXHAUSTED
    if game.turn != seat:
        return False
    if game.phase is Phase.DECISION:
        return True
    for action in game.legal_actions():
        tried = game.copy()
        tried.apply(action)
        if scores_this_turn(tried, seat):
            return True
    return False


NOISE_MODULUS = 2**61 - 1
"""A prime: an arrangement's noise seed is a polynomial of its cards modulo it."""


def world_noise(hand: CardSet, stock: Sequence[int]) -> Callable[[], float]:
    """The rollout noise of one arrangement, fixed by the arrangement itself, so that a
    count over every arrangement gives one answer however they are visited (and the
    browser's coach, computing the same polynomial, the same one)."""
    seed = hand % NOISE_MODULUS
    for card in stock:
        seed = (seed * 49 + card + 1) % NOISE_MODULUS
    return random.Random(seed).random


def risk(obs: Observation, seed: int = 0, samples: int = RISK_WORLDS) -> Risk:
    """The koi-koi risk meter at a decision of ``obs.seat``.

    In each arrangement of the unseen cards the call is made and the round played out
    with the expert's rollout policy (both sides stop at their next yaku); the turn
    right after the call is searched in full, so ``next_turn`` is the chance that the
    opponent *can* score at once. Small positions count every arrangement.
    """
    if obs.phase is not Phase.DECISION or not obs.legal_actions:
        raise ValueError("the risk meter is for a stop-or-koi-koi decision of this seat")
    seat, opponent = obs.seat, 1 - obs.seat
    guide = rollout_guide(obs.captured, obs.rules)
    stop, call = Outlook(), Outlook()
    threats = conceded = 0.0
    counted = 0
    for hand, stock, weight in worlds(obs, seed, samples):
        world = Round.from_observation(obs, hand, stock)
        stopped = world.copy()
        stopped.apply(STOP)
        assert stopped.result is not None
        stop.add(seat, stopped.result, obs, weight)
        called = world.copy()
        called.apply(KOIKOI)
        threat = scores_this_turn(called.copy(), opponent)
        result = play_out(called, world_noise(hand, stock), guide)
        call.add(seat, result, obs, weight)
        if threat:
            threats += weight
        # An opponent who can score at once is counted as doing so, whatever the rollout.
        if threat or (result.winner == opponent and result.reason != EXHAUSTED):
            conceded += weight
        counted += 1
    return Risk(
        next_turn=threats / call.weight,
        before_end=conceded / call.weight,
        own_later=call.own_yaku,
        stop_points=round(stop.points),
        call_points=call.points,
        stop_chance=stop.chance,
        call_chance=call.chance,
        worlds=counted,
        exact=arrangements(obs) <= EXACT_WORLDS,
        outlooks={STOP: stop, KOIKOI: call},
    )


# -- reviews -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision: the move made against the expert's best."""

    index: int  # the action's place in the record
    round: int
    action: Action
    best: Action
    chance: float  # win chance after the move made
    best_chance: float
    mark: str  # good, inaccuracy or mistake

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chance - self.chance)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "round": self.round,
            "action": action_to_json(self.action),
            "best": action_to_json(self.best),
            "chance": round(self.chance, 4),
            "best_chance": round(self.best_chance, 4),
            "loss": round(self.loss, 4),
            "mark": self.mark,
        }


def mark(loss: float) -> str:
    return "mistake" if loss >= MISTAKE else "inaccuracy" if loss >= INACCURACY else "good"


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    decisions: tuple[Decision, ...]
    swings: tuple[int, ...]  # places in ``decisions`` where the chance moved most since the last

    def to_json(self) -> dict[str, Any]:
        marks = [decision.mark for decision in self.decisions]
        return {
            "seat": self.seat,
            "decisions": [decision.to_json() for decision in self.decisions],
            "swings": list(self.swings),
            "counts": {kind: marks.count(kind) for kind in ("good", "inaccuracy", "mistake")},
        }


def review(record: Record, seat: int = 0, rollouts: int = REVIEW_ROLLOUTS) -> Review:
    """Every decision ``seat`` took in a recorded match, judged from what it saw then.

    Each decision with a choice is evaluated from the seat's observation with a seed
    that depends only on its place in the record, so anyone with the record gets the
    same marks. Swings are measured between consecutive decisions: what the draws, the
    opponent and the seat's own move did to its chances in between.
    """
    match = start_match(record)
    decisions: list[Decision] = []
    for index, data in enumerate(record.actions):
        action = action_from_json(data)
        if match.turn == seat and len(match.legal_actions()) > 1:
            obs = match.observation(seat)
            order, found = judged(obs, REVIEW_SEED + index, rollouts)
            best = order[0]
            made, top = found[action].chance, found[best].chance
            decisions.append(
                Decision(index, match.round_number, action, best, made, top, mark(top - made))
            )
        match.apply(action)
    return Review(seat, tuple(decisions), swings([d.chance for d in decisions]))


def swings(chances: Sequence[float]) -> tuple[int, ...]:
    """The places of the ``SWINGS`` biggest moves of the win chance from one decision to
    the next (the later decision's place), in order; a move under ``MIN_SWING`` is none.

    >>> swings([0.5, 0.8, 0.8, 0.804, 0.3, 0.35])
    (1, 4, 5)
    >>> swings([0.5, 0.5, 0.503])
    ()
    """
    moves = [abs(after - before) for before, after in pairwise(chances)]
    biggest = sorted(range(len(moves)), key=lambda i: moves[i], reverse=True)
    top = [i for i in biggest if moves[i] >= MIN_SWING][:SWINGS]
    return tuple(sorted(i + 1 for i in top))


# -- what the server sends ---------------------------------------------------------------

COACH_VERSION = "1"
"""Changes when the coach judges differently: a stored review of an older one is redone."""


def advice(obs: Observation, seed: int, rollouts: int = HINT_ROLLOUTS) -> dict[str, Any]:
    """A hint for the seat to move, with the risk meter at a decision (JSON)."""
    meter = risk(obs, seed) if obs.phase is Phase.DECISION else None
    found = hint(obs, seed, rollouts, meter)
    return {"hint": found.to_json(), "risk": None if meter is None else meter.to_json()}


def review_json(record: Record, seat: int, rollouts: int = REVIEW_ROLLOUTS) -> dict[str, Any]:
    return {"coach": COACH_VERSION, **review(record, seat, rollouts).to_json()}
