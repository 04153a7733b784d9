"""A match: rounds, dealers, months, totals and the end (docs/rules.md §5, §6)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koikoi.cards import MONTH_MASKS, MONTH_OF
from koikoi.match import Match, draw_for_dealer, month_of_round
from koikoi.round import (
    EXHAUSTED,
    HAND_YAKU,
    IllegalActionError,
    MatchView,
    Round,
    shuffled_deck,
)
from koikoi.rules import CLASSIC, PRESETS, RuleSet

YAKU_POINTS = ("goko", "shiko", "ame_shiko", "sanko", "inoshikacho", "tane", "tan", "kasu")
NO_YAKU: dict[str, Any] = dict.fromkeys((*YAKU_POINTS, "akatan", "aotan", "tsukimi", "hanami"), 0)
"""Overrides that switch every yaku off: every round is played out and exhausted."""


def rules_with(base: RuleSet = CLASSIC, **overrides: Any) -> RuleSet:
    return base.with_overrides(overrides)


def play_match(match: Match, seed: int) -> list[int]:
    """Play a match with uniformly random moves; return the dealer of each round.

    Only for rules where every round needs an action (no hand yaku), so that each
    round's dealer is seen while it is live.
    """
    rng = random.Random(seed)
    dealers = [match.round.dealer]
    booked = len(match.results)
    assert booked == 0
    while not match.is_over:
        legal = match.legal_actions()
        assert legal
        match.apply(rng.choice(legal))
        if len(match.results) != booked:
            assert len(match.results) == booked + 1
            booked += 1
            if not match.is_over:
                assert not match.round.is_over
                dealers.append(match.round.dealer)
    assert len(dealers) == len(match.results)
    return dealers


def check_totals(match: Match) -> None:
    totals = [sum(result.points[seat] for result in match.results) for seat in (0, 1)]
    assert match.totals == totals
    if match.is_over:
        expected = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        assert match.winner == expected
    else:
        assert match.winner is None


# -- the end of a match ---------------------------------------------------------------


@pytest.mark.parametrize("rounds", [1, 2, 5])
def test_a_match_without_target_plays_its_rounds(rounds: int) -> None:
    rules = rules_with(rounds=rounds, target_score=0)
    for seed in range(5):
        match = Match(rules, seed)
        play_match(match, seed)
        assert match.is_over
        assert len(match.results) == rounds
        assert match.round_number == rounds
        assert match.legal_actions() == []
        check_totals(match)


def test_a_match_ends_when_a_player_reaches_the_target() -> None:
    rules = rules_with(rounds=12, target_score=8)
    ended_early = 0
    for seed in range(30):
        match = Match(rules, seed)
        play_match(match, seed)
        running = [0, 0]
        for number, result in enumerate(match.results, start=1):
            running = [running[0] + result.points[0], running[1] + result.points[1]]
            if number < len(match.results):
                assert max(running) < 8, "the match went on after the target was reached"
        assert max(running) >= 8 or len(match.results) == 12
        ended_early += len(match.results) < 12
        check_totals(match)
    assert ended_early >= 10


def test_target_zero_means_none() -> None:
    rules = rules_with(rounds=4, target_score=0)
    match = Match(rules, 1)
    play_match(match, 1)
    assert len(match.results) == 4


def test_nothing_is_legal_after_the_match() -> None:
    match = Match(rules_with(rounds=1), 2)
    play_match(match, 2)
    assert match.legal_actions() == []
    with pytest.raises(IllegalActionError):
        match.apply(0)


def test_the_winner_is_unknown_until_the_end() -> None:
    match = Match(rules_with(rounds=3, target_score=0), 4)
    rng = random.Random(4)
    while not match.is_over:
        assert match.winner is None
        match.apply(rng.choice(match.legal_actions()))
    check_totals(match)


# -- dealers --------------------------------------------------------------------------


@pytest.mark.parametrize("next_dealer", ["alternate", "winner"])
@pytest.mark.parametrize("draw_dealer", ["keep", "pass"])
def test_dealer_after_each_round(next_dealer: str, draw_dealer: str) -> None:
    # Fewer yaku, so that some rounds are exhausted draws.
    rules = rules_with(
        next_dealer=next_dealer,
        draw_dealer=draw_dealer,
        rounds=8,
        target_score=0,
        kasu=0,
        tan=0,
        tane=0,
    )
    seen = {"won": 0, "drawn": 0}
    for seed in range(12):
        match = Match(rules, seed)
        dealers = play_match(match, seed)
        for index, result in enumerate(match.results[:-1]):
            dealer, following = dealers[index], dealers[index + 1]
            if result.winner is None:
                seen["drawn"] += 1
                assert following == (dealer if draw_dealer == "keep" else 1 - dealer)
            else:
                seen["won"] += 1
                assert following == (result.winner if next_dealer == "winner" else 1 - dealer)
    assert seen["won"] >= 10
    assert seen["drawn"] >= 5


@pytest.mark.parametrize(("next_dealer", "totals"), [("alternate", [6, 6]), ("winner", None)])
def test_exhausted_dealer_wins_count_for_next_dealer(
    next_dealer: str, totals: list[int] | None
) -> None:
    # No yaku: every round is exhausted, and the dealer wins it (oya-ken).
    rules = rules_with(
        **NO_YAKU,
        exhausted="dealer",
        exhausted_points=3,
        next_dealer=next_dealer,
        draw_dealer="pass",
        rounds=4,
        target_score=0,
    )
    for seed in range(4):
        match = Match(rules, seed)
        dealers = play_match(match, seed)
        assert [result.winner for result in match.results] == dealers
        assert all(result.reason == EXHAUSTED for result in match.results)
        if next_dealer == "alternate":
            assert dealers == [dealers[0], 1 - dealers[0]] * 2
            assert match.totals == totals
            assert match.winner is None  # a tie
        else:
            assert dealers == [dealers[0]] * 4
            expected = [0, 0]
            expected[dealers[0]] = 12
            assert match.totals == expected
            assert match.winner == dealers[0]
        check_totals(match)


@pytest.mark.parametrize("draw_dealer", ["keep", "pass"])
def test_drawn_rounds_use_draw_dealer(draw_dealer: str) -> None:
    rules = rules_with(**NO_YAKU, draw_dealer=draw_dealer, rounds=5, target_score=0)
    match = Match(rules, 9)
    dealers = play_match(match, 9)
    assert all(result.winner is None for result in match.results)
    first = dealers[0]
    if draw_dealer == "keep":
        assert dealers == [first] * 5
    else:
        assert dealers == [first, 1 - first, first, 1 - first, first]
    assert match.totals == [0, 0]
    assert match.winner is None  # a tie


def test_first_dealer_seat_0() -> None:
    rules = rules_with(first_dealer="seat-0")
    assert all(Match(rules, seed).round.dealer == 0 for seed in range(30))


def test_first_dealer_random_is_either_seat_and_repeatable() -> None:
    rules = rules_with(first_dealer="random")
    dealers = [Match(rules, seed).round.dealer for seed in range(40)]
    assert set(dealers) == {0, 1}
    assert dealers == [Match(rules, seed).round.dealer for seed in range(40)]


def test_first_dealer_card_draw_uses_the_draw() -> None:
    rules = rules_with(first_dealer="card-draw")
    dealers = []
    for seed in range(40):
        dealer = Match(rules, seed).round.dealer
        assert dealer == draw_for_dealer(random.Random(seed))
        dealers.append(dealer)
    assert set(dealers) == {0, 1}
    assert PRESETS["traditional"].first_dealer == "card-draw"


def test_draw_for_dealer_earlier_month_deals_and_a_tie_draws_again() -> None:
    redraws = 0
    for seed in range(300):
        shadow = random.Random(seed)
        while True:  # each seat draws a card: seat 0 the first, seat 1 the second
            deck = shuffled_deck(shadow)
            months = MONTH_OF[deck[0]], MONTH_OF[deck[1]]
            if months[0] != months[1]:
                expected = 0 if months[0] < months[1] else 1
                break
            redraws += 1
        rng = random.Random(seed)
        assert draw_for_dealer(rng) == expected
        assert rng.getstate() == shadow.getstate()  # nothing more was drawn
    assert redraws > 0, "no seed drew the same month twice; the test shows nothing"


# -- months ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "month"), [(1, 1), (2, 2), (11, 11), (12, 12), (13, 1), (24, 12), (25, 1)]
)
def test_month_of_round(number: int, month: int) -> None:
    assert month_of_round(number) == month


def test_each_round_of_a_match_is_played_in_its_month() -> None:
    rules = rules_with(rounds=14, target_score=0)
    match = Match(rules, 5)
    rng = random.Random(5)
    months = [match.round.month]
    while not match.is_over:
        number = match.round_number
        assert match.round.month == month_of_round(number)
        assert match.observation(match.turn).month == month_of_round(number)
        match.apply(rng.choice(match.legal_actions()))
        if not match.is_over and match.round_number != number:
            months.append(match.round.month)
    assert months == [*range(1, 13), 1, 2]


def test_tsukifuda_counts_only_the_rounds_month_in_a_match() -> None:
    rules = rules_with(tsukifuda=4, tsukifuda_month="round", rounds=12, target_score=0)
    scored = 0
    for seed in range(15):
        match = Match(rules, seed)
        rng = random.Random(seed)
        while not match.is_over:
            game = match.round
            whole = MONTH_MASKS[month_of_round(match.round_number)]
            for seat in (0, 1):
                has = game.captured[seat] & whole == whole
                assert ("tsukifuda" in game.yaku(seat)) == has
                scored += has
            match.apply(rng.choice(match.legal_actions()))
    assert scored > 0


def test_a_given_deal_has_an_unknown_month() -> None:
    rules = rules_with(tsukifuda=4)
    data = Round.deal(rules, 3, 0).deal_json()
    match = Match.single(Round.from_deal(rules, 0, data["hands"], data["field"], data["stock"]))
    assert match.round.month == 0


# -- given deals and matches of hand-yaku rounds --------------------------------------


def test_a_given_deal_is_a_match_of_one_round() -> None:
    rules = rules_with(rounds=12, target_score=50, first_dealer="seat-0")
    data = Round.deal(rules, 8, 1).deal_json()
    match = Match.single(Round.from_deal(rules, 1, data["hands"], data["field"], data["stock"]))
    assert match.round.dealer == 1  # first_dealer does not apply
    assert match.view().rounds == 1
    assert match.view().target_score == 0
    # The view is shared by every live given deal; once booked, it is this match's own.
    assert match.view() == MatchView(match.round_number, 1, (0, 0), 0)
    play_match(match, 8)
    assert len(match.results) == 1
    assert match.totals == list(match.results[0].points)
    assert match.view() == MatchView(1, 1, (match.totals[0], match.totals[1]), 0)
    check_totals(match)


def test_rounds_that_end_at_the_deal_are_booked_and_the_match_goes_on() -> None:
    # Big hands: hand yaku in nearly every deal, and under "both" a round may have
    # no winner. Those rounds end with no action taken.
    rules = rules_with(
        hand_size=14, field_size=4, teshi=6, kuttsuki=6, both_hand_yaku="both", rounds=6
    )
    rules = rules_with(rules, target_score=0)
    hand_rounds = 0
    for seed in range(10):
        match = Match(rules, seed)
        rng = random.Random(seed)
        while not match.is_over:
            assert not match.round.is_over  # a live round is always waiting for a move
            match.apply(rng.choice(match.legal_actions()))
        assert len(match.results) == 6
        check_totals(match)
        for result in match.results:
            if result.reason == HAND_YAKU:
                hand_rounds += 1
                if result.yaku[0] and result.yaku[1]:  # both: each scores its own
                    assert result.winner is None
                    own = (sum(result.yaku[0].values()), sum(result.yaku[1].values()))
                    assert result.points == own
                else:
                    assert result.winner == (0 if result.yaku[0] else 1)
    assert hand_rounds >= 20


def test_the_match_view_in_observations() -> None:
    rules = rules_with(rounds=3, target_score=40)
    match = Match(rules, 6)
    rng = random.Random(6)
    while not match.is_over:
        view = match.observation(match.turn).match
        assert view is not None
        assert view.round_number == len(match.results) + 1
        assert view.rounds == 3
        assert view.rounds_left == 3 - view.round_number
        assert view.totals == tuple(match.totals)
        assert view.target_score == 40
        match.apply(rng.choice(match.legal_actions()))


def test_a_match_is_repeatable_from_its_seed() -> None:
    rules = PRESETS["ten-card"]
    first = Match(rules, 77)
    play_match(first, 1)
    second = Match(rules, 77)
    for action in first.actions:
        second.apply(action)
    assert second.is_over
    assert second.results == first.results
    assert second.totals == first.totals
