"""A match: rounds with a dealer, running totals and an end (docs/rules.md §5, §6).

A match is driven one action at a time, like a round: :meth:`Match.apply` forwards to
the current round and, when it ends, books its points and deals the next. All
randomness comes from the match's seed, so a seed and the actions replay the match.

>>> from koikoi.rules import PRESETS
>>> game = Match(PRESETS["single-deal"], seed=3)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[-1])
>>> len(game.results), sum(game.totals) == sum(game.results[0].points)
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from koikoi.cards import MONTH_OF
from koikoi.round import (
    Action,
    MatchView,
    Observation,
    Phase,
    Round,
    RoundResult,
    shuffled_deck,
)
from koikoi.rules import DrawDealer, FirstDealer, NextDealer, RuleSet

_OVER = Phase.OVER
_GIVEN_DEAL_VIEW = MatchView(round_number=1, rounds=1, totals=(0, 0), target_score=0)
"""What :meth:`Match.view` builds for a given deal while it is played: views are
frozen, so all given deals share this one (building one costs a fiftieth of a
simulated deal)."""


def month_of_round(round_number: int) -> int:
    """Round ``r`` (1-based) is played in month ``((r - 1) mod 12) + 1``.

    >>> month_of_round(1), month_of_round(12), month_of_round(13)
    (1, 12, 1)
    """
    return (round_number - 1) % 12 + 1


def draw_for_dealer(rng: random.Random) -> int:
    """``first_dealer = card-draw``: each seat draws a card, the earlier month deals.

    Seat 0 draws first; on the same month both draw again from a fresh deck.
    """
    while True:
        deck = shuffled_deck(rng)
        first, second = MONTH_OF[deck[0]], MONTH_OF[deck[1]]
        if first != second:
            return 0 if first < second else 1


def round_gains(points: tuple[int, int], zero_sum: bool) -> tuple[int, int]:
    """What a round ending with ``points`` adds to each seat's total: its points, or
    zero-sum (``starting_points``) its points less what the other seat scored."""
    if zero_sum:
        return points[0] - points[1], points[1] - points[0]
    return points


def match_ends(totals: Sequence[int], rounds_left: int, target_score: int, zero_sum: bool) -> bool:
    """Whether a match stands over at ``totals`` with ``rounds_left`` rounds still to
    deal: none left, a seat at the target score (0: none), or zero-sum, a seat left
    with no points."""
    return (
        rounds_left <= 0
        or bool(target_score and max(totals) >= target_score)
        or (zero_sum and min(totals) <= 0)
    )


def totals_after(
    match: MatchView, points: tuple[int, int], zero_sum: bool
) -> tuple[tuple[int, int], bool]:
    """Each seat's match total after a round ending with ``points``, and whether the
    match ends with that round, as :class:`Match` books it (what a player can work out
    from its view of the match)."""
    gains = round_gains(points, zero_sum)
    totals = (match.totals[0] + gains[0], match.totals[1] + gains[1])
    return totals, match_ends(totals, match.rounds_left, match.target_score, zero_sum)


class Match:
    """Rounds between seats 0 and 1 until ``rounds`` are played or ``target_score`` is met.

    Built from a seed (every deal shuffled from it), or with :meth:`single` as one
    given deal: then ``rounds``, ``target_score``, ``starting_points`` and
    ``first_dealer`` do not apply and the match is that single round.

    With ``starting_points`` both seats start with those points and each round's
    points move from the other seat (zero-sum); the match ends early when a seat has
    none left.
    """

    seed: int | None
    """The seed every deal is shuffled from; None for a given deal."""

    def __init__(self, rules: RuleSet, seed: int) -> None:
        rng = random.Random(seed)
        self._begin(rules, seed, rng)
        self.totals = [rules.starting_points, rules.starting_points]
        if rules.first_dealer is FirstDealer.SEAT_0:
            dealer = 0
        elif rules.first_dealer is FirstDealer.CARD_DRAW:
            dealer = draw_for_dealer(rng)
        else:
            dealer = rng.randrange(2)
        self.round = self._deal(dealer)
        self.book_round()

    @classmethod
    def single(cls, round: Round) -> Match:
        """A match of one round that has just been dealt (recorded as a given deal).

        ``Match.single(Round.from_deal(...))`` is the match of a given-deal record.
        """
        game = object.__new__(cls)
        game._begin(round.rules, None, None)
        game.round = round
        game._view = _GIVEN_DEAL_VIEW
        game.book_round()
        return game

    def _begin(self, rules: RuleSet, seed: int | None, rng: random.Random | None) -> None:
        self.rules = rules
        self.seed = seed
        self._rng = rng  # None: a given deal, which deals nothing more
        self.results: list[RoundResult] = []
        self.totals = [0, 0]
        self.actions: list[Action] = []
        self._view: MatchView | None = None

    # -- state -------------------------------------------------------------------------

    @property
    def deal(self) -> dict[str, object] | None:
        """The given deal in record form; None for a seeded match."""
        # Built when asked for (by records): most simulated deals are never recorded.
        return None if self._rng is not None else self.round.deal_json()

    @property
    def round_number(self) -> int:
        """The current round, 1-based (the last one once the match is over)."""
        return len(self.results) + (0 if self.round.is_over else 1)

    @property
    def starting_points(self) -> int:
        """What each seat's total started from (``starting_points``; 0 for a given deal)."""
        return self.rules.starting_points if self._rng is not None else 0

    def gains(self, result: RoundResult) -> tuple[int, int]:
        """What a finished round adds to each seat's total (:func:`round_gains`)."""
        return round_gains(result.points, bool(self.starting_points))

    @property
    def is_over(self) -> bool:
        # The phase, not Round.is_over: a simulation asks before every move.
        return self.round.phase is _OVER and not self._continues()

    @property
    def winner(self) -> int | None:
        """The seat with the higher total once the match is over; None for a tie."""
        if not self.is_over or self.totals[0] == self.totals[1]:
            return None
        return 0 if self.totals[0] > self.totals[1] else 1

    def view(self) -> MatchView:
        """The match around the current round (one view, shared until a round is booked)."""
        if self._view is None:
            given = self._rng is None
            self._view = MatchView(
                round_number=self.round_number,
                rounds=1 if given else self.rules.rounds,
                totals=(self.totals[0], self.totals[1]),
                target_score=0 if given else self.rules.target_score,
            )
        return self._view

    def observation(self, seat: int) -> Observation:
        return self.round.observation(seat, self.view())

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self.round.legal_actions()

    @property
    def turn(self) -> int:
        return self.round.turn

    # -- moves -------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply an action of the current round; when it ends, book it and deal on."""
        game = self.round
        game.apply(action)
        self.actions.append(action)
        if game.phase is _OVER:
            self.book_round()

    def _continues(self) -> bool:
        if self._rng is None:
            return False
        rules = self.rules
        rounds_left = rules.rounds - len(self.results)
        return not match_ends(
            self.totals, rounds_left, rules.target_score, bool(rules.starting_points)
        )

    def book_round(self) -> None:
        """Book the current round if it is over and deal on (for callers that apply
        actions to ``round`` themselves, as :func:`koikoi.sim.play_out` does)."""
        # Rounds can end without an action (hand yaku), so keep dealing until one is live.
        # (The phase, not Round.is_over: this runs twice for every simulated deal.)
        while self.round.phase is _OVER:
            result = self.round.result
            assert result is not None
            self.results.append(result)
            won = self.gains(result)
            self.totals[0] += won[0]
            self.totals[1] += won[1]
            self._view = None
            if not self._continues():
                return
            self.round = self._deal(self._next_dealer(result))

    def _next_dealer(self, result: RoundResult) -> int:
        dealer = self.round.dealer
        if result.winner is None:
            return dealer if self.rules.draw_dealer is DrawDealer.KEEP else 1 - dealer
        if self.rules.next_dealer is NextDealer.WINNER:
            return result.winner
        return 1 - dealer

    def _deal(self, dealer: int) -> Round:
        assert self._rng is not None
        month = month_of_round(len(self.results) + 1)
        return Round.deal(self.rules, self._rng, dealer, month)
