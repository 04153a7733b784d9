"""The easy and normal computer players: rules of thumb, no look-ahead.

- easy captures loosely (often any capture, not the best one) and stops at its first
  yaku;
- normal takes the strongest capture, discards what helps the opponent least, and
  gambles koi-koi while the pot is small and cards remain, or when a stop would lose
  the match.

Here too is what normal and the expert share about the end of a match: a stop that
loses the match for certain (:func:`stop_loses_match`) is never worth taking while a
koi-koi is allowed (at a decision it always is).
"""

from __future__ import annotations

from collections.abc import Iterator

from koikoi.cards import (
    ANIMALS,
    BLUE_RIBBONS,
    BRIGHTS,
    CARD_VALUES,
    CHERRY_CURTAIN,
    GRASS_RIBBONS,
    INOSHIKACHO,
    MONTH_MASK_OF,
    PLAINS,
    POETRY_RIBBONS,
    RIBBONS,
    SAKE_CUP,
    SUSUKI_MOON,
    CardSet,
)
from koikoi.match import totals_after
from koikoi.players.baseline import Seed, generator, move_gain, taken_by
from koikoi.round import KOIKOI, STOP, Action, Observation, Phase
from koikoi.rules import RuleSet
from koikoi.yaku import (
    AKATAN,
    AOTAN,
    HANAMI,
    INOSHIKACHO_KEY,
    KASU,
    KUSATAN,
    SANKO,
    TAN,
    TANE,
    TSUKIMI,
    scorer_for,
)


class EasyPlayer:
    name = "easy"

    #: How often easy takes any capture instead of the best one.
    LOOSE = 0.4

    def __init__(self, seed: Seed) -> None:
        self._rng = generator(seed)

    def choose(self, observation: Observation) -> Action:
        obs = observation
        if obs.phase is Phase.DECISION:
            return STOP
        legal = obs.legal_actions
        if obs.phase is Phase.PLAY and self._rng.random() < self.LOOSE:
            capturing = [card for card in legal if obs.field & MONTH_MASK_OF[card]]
            if capturing:
                return self._rng.choice(capturing)
        return max(legal, key=lambda a: (move_gain(obs, a), self._rng.random()))


def yaku_sets(rules: RuleSet) -> tuple[tuple[CardSet, int, int, str], ...]:
    """(cards, how many are needed, points, the yaku) of each yaku a pile can grow toward."""
    sets = (
        (BRIGHTS, 3, rules.sanko or rules.shiko, SANKO),
        (INOSHIKACHO, 3, rules.inoshikacho, INOSHIKACHO_KEY),
        (POETRY_RIBBONS, 3, rules.akatan, AKATAN),
        (BLUE_RIBBONS, 3, rules.aotan, AOTAN),
        (GRASS_RIBBONS, 3, rules.kusatan, KUSATAN),
        (SUSUKI_MOON | SAKE_CUP, 2, rules.tsukimi, TSUKIMI),
        (CHERRY_CURTAIN | SAKE_CUP, 2, rules.hanami, HANAMI),
        (ANIMALS, rules.tane_min, rules.tane, TANE),
        (RIBBONS, rules.tan_min, rules.tan, TAN),
        (PLAINS, rules.kasu_min, rules.kasu, KASU),
    )
    return tuple(entry for entry in sets if entry[2])


def open_yaku(opponent: CardSet, rules: RuleSet) -> Iterator[tuple[CardSet, int, int]]:
    """The yaku a seat can still make: those the opponent's pile has not made impossible."""
    for cards, needed, points, _ in yaku_sets(rules):
        if (cards & ~opponent).bit_count() >= needed:
            yield cards, needed, points


def potential(own: CardSet, opponent: CardSet, rules: RuleSet) -> float:
    """How far a pile is along the yaku still open to it, in rough points.

    Each yaku adds its points times the square of the share of its cards held (so
    the last cards of a set count most); a yaku the opponent has made impossible
    adds nothing.
    """
    total = 0.0
    for cards, needed, points in open_yaku(opponent, rules):
        held = min((own & cards).bit_count(), needed)
        total += points * (held / needed) ** 2
    return total


def discard_cost(obs: Observation, card: int) -> int:
    """What leaving ``card`` on the field risks: nothing once its month is dead.

    When every other card of its month is already in sight, the opponent cannot
    capture it (only this seat could, with a card of its own hand).
    """
    live = obs.unseen & MONTH_MASK_OF[card]
    return CARD_VALUES[card] if live else 0


def stop_points(obs: Observation) -> tuple[int, int]:
    """The round's points if the seat at a decision stops now: its yaku total, doubled
    at ``double_at``, times the koi-koi multiplier, plus any bonus; nothing for the
    other seat (the stop ends the round at once, as in :meth:`Round.apply`)."""
    seat = obs.seat
    total = sum(obs.yaku[seat].values())
    score = scorer_for(obs.rules).final(total, obs.calls[seat], obs.calls[1 - seat])
    return (score, 0) if seat == 0 else (0, score)


def stop_loses_match(obs: Observation) -> bool:
    """Whether stopping at this decision ends the match with the seat behind.

    The stop's points are known exactly, so this is a certain loss, while a koi-koi
    can be no worse (a draw is not a loss). Only the last round can end so: a stop
    that reaches the target score, or empties a zero-sum opponent, wins the match.
    A round played on its own, outside a match, has no match to lose.
    """
    if obs.match is None:
        return False
    seat = obs.seat
    totals, over = totals_after(obs.match, stop_points(obs), obs.rules.starting_points > 0)
    return over and totals[seat] < totals[1 - seat]


class NormalPlayer:
    name = "normal"

    #: Normal calls koi-koi while its yaku are worth at most this many points...
    SMALL_POT = 5
    #: ...and it still holds at least this many cards.
    CARDS_LEFT = 4

    def __init__(self, seed: Seed) -> None:
        self._rng = generator(seed)

    def choose(self, observation: Observation) -> Action:
        obs = observation
        if obs.phase is Phase.DECISION:
            return KOIKOI if self._gamble(obs) else STOP
        # Random tie-breaks keep normal from being fully predictable.
        return max(obs.legal_actions, key=lambda a: (self._value(obs, a), self._rng.random()))

    def _value(self, obs: Observation, action: Action) -> float:
        """Yaku made now first, then progress toward own yaku and away from theirs."""
        yaku, values = move_gain(obs, action)
        if obs.phase is Phase.PLAY and not obs.field & MONTH_MASK_OF[action]:
            return -discard_cost(obs, action) / 10
        taken = taken_by(obs, action)
        own, opponent = obs.captured[obs.seat], obs.captured[1 - obs.seat]
        rules = obs.rules
        progress = potential(own | taken, opponent, rules) - potential(own, opponent, rules)
        # A card taken is a card the opponent cannot have.
        denial = potential(opponent | taken, own, rules) - potential(opponent, own, rules)
        return 10 * yaku + progress + denial / 2 + values / 100

    def _gamble(self, obs: Observation) -> bool:
        if stop_loses_match(obs):
            return True
        pot = sum(obs.yaku[obs.seat].values())
        opponent_threat = bool(obs.yaku[1 - obs.seat])
        cards_left = obs.hand.bit_count()
        return pot <= self.SMALL_POT and cards_left >= self.CARDS_LEFT and not opponent_threat
