"""Properties of whole games under every preset and random house rules (docs/rules.md §2, §6, §7).

Each example draws a rule set (a preset plus random flow and scoring overrides) and a
seed, then plays several matches with random moves, checking at every step.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from koikoi.cards import ALL_CARDS, MONTH_MASKS
from koikoi.match import Match
from koikoi.record import Record, replay, replay_output, start_match
from koikoi.round import (
    EXHAUSTED,
    FINAL_TURN,
    HAND_YAKU,
    NO_CALL_ALLOWED,
    STOPPED,
    Observation,
    Round,
)
from koikoi.rules import PRESETS, RulesError, RuleSet
from koikoi.yaku import hand_yaku, scorer_for

FLOW_AND_SCORING: dict[str, st.SearchStrategy[Any]] = {
    "deal_in_pairs": st.booleans(),
    "first_dealer": st.sampled_from(["random", "card-draw", "seat-0"]),
    "next_dealer": st.sampled_from(["alternate", "winner"]),
    "draw_dealer": st.sampled_from(["keep", "pass"]),
    "redeal_four_of_month": st.booleans(),
    "redeal_four_pairs": st.booleans(),
    "forced_capture": st.booleans(),
    "teshi": st.sampled_from([0, 4, 6]),
    "kuttsuki": st.sampled_from([0, 3, 6]),
    "both_hand_yaku": st.sampled_from(["redeal", "dealer", "both", "ignore"]),
    "decision": st.sampled_from(["new-yaku", "higher-total"]),
    "max_koikoi": st.integers(0, 3),
    "koikoi_after_opponent": st.booleans(),
    "multiplier": st.sampled_from(
        ["none", "per-call", "any-called", "opponent-called", "per-opponent-call", "additive"]
    ),
    "double_at": st.sampled_from([0, 5, 7, 8]),
    "exhausted": st.sampled_from(["draw", "dealer"]),
    "exhausted_points": st.integers(0, 6),
    "rounds": st.integers(1, 4),
    "target_score": st.sampled_from([0, 5, 20]),
    "tane_min": st.integers(1, 6),
    "tan_min": st.integers(1, 6),
    "kasu_min": st.integers(1, 10),
    "tsukifuda": st.sampled_from([0, 3]),
    "tsukifuda_month": st.sampled_from(["round", "any"]),
    "viewing": st.sampled_from(["always", "off", "with-other-yaku"]),
    "best_per_category": st.sampled_from(["none", "animals", "ribbons", "both"]),
    "sake_cup": st.sampled_from(["animal", "plain", "both"]),
    "kusatan": st.sampled_from([0, 5]),
    "akatan_aotan": st.sampled_from([0, 10]),
    "redeal_three_of_month": st.booleans(),
    "redeal_hand_four_of_month": st.booleans(),
    "redeal_hand_four_pairs": st.booleans(),
    "brights_exclusive": st.booleans(),
    "viewing_after_koikoi": st.sampled_from([0, 3]),
    "viewing_in_season": st.booleans(),
    "starting_points": st.sampled_from([0, 10, 30]),
}

# (hand_size, field_size): the presets' sizes, small and odd ones, and deals whose
# stock runs out before the hands (12 + 12 + 20 leaves 4) or is nearly empty.
SIZES = [(8, 8), (10, 8), (1, 1), (2, 4), (3, 6), (5, 12), (12, 20), (16, 14), (6, 3)]


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = draw(st.fixed_dictionaries({}, optional=FLOW_AND_SCORING))
    sizes = draw(st.none() | st.sampled_from(SIZES))
    if sizes is not None:
        overrides["hand_size"], overrides["field_size"] = sizes
        if sizes[1] > 12:  # three-of-a-month and four-pairs redeals would take most deals
            overrides["redeal_three_of_month"] = False
    base = PRESETS[preset]
    # A hand redealt for a hand yaku cannot also score it: such rule sets are refused.
    for redeal, points in (
        ("redeal_hand_four_of_month", "teshi"),
        ("redeal_hand_four_pairs", "kuttsuki"),
    ):
        if overrides.get(redeal, getattr(base, redeal)):
            overrides[points] = 0
    try:
        return base.with_overrides(overrides)
    except RulesError:  # sizes whose deals these redeal rules would (nearly) all redeal
        assume(False)
        raise


def new_match(rules: RuleSet, seed: int) -> Match:
    try:
        return Match(rules, seed)
    except RulesError:  # redeal conditions these sizes (almost) always meet
        assume(False)
        raise


# -- checks ---------------------------------------------------------------------------


def check_cards(game: Round) -> None:
    """All 48 cards, each in exactly one place."""
    places = [game.hands[0], game.hands[1], game.field, game.captured[0], game.captured[1]]
    stock = game.stock_left
    stock_set = 0
    for card in stock:
        places.append(1 << card)
        stock_set |= 1 << card
    assert stock_set.bit_count() == len(stock)
    if game.pending_card is not None:
        places.append(1 << game.pending_card)
    seen = 0
    for place in places:
        assert seen & place == 0, "a card is in two places"
        seen |= place
    assert seen == ALL_CARDS
    assert sum(place.bit_count() for place in places) == 48
    # The counts the round adds up capture by capture for the scorer's quick no-yaku
    # test are those of its piles, counted afresh.
    scorer = scorer_for(game.rules)
    assert game._counts == [scorer.counts(game.captured[0]), scorer.counts(game.captured[1])]


def check_deal(game: Round) -> None:
    """A fresh deal meets no redeal condition of its rules."""
    rules = game.rules
    counts = [(game.field & MONTH_MASKS[m]).bit_count() for m in range(1, 13)]
    if rules.redeal_four_of_month:
        assert 4 not in counts
    if rules.redeal_three_of_month:
        assert max(counts) < 3
    if rules.redeal_four_pairs:
        assert counts.count(2) < 4
    for hand in game.hands:
        in_hand = [(hand & MONTH_MASKS[m]).bit_count() for m in range(1, 13)]
        if rules.redeal_hand_four_of_month:
            assert 4 not in in_hand
        if rules.redeal_hand_four_pairs:
            assert in_hand.count(2) < 4
    assert game.hands[0].bit_count() == game.hands[1].bit_count() == rules.hand_size
    assert game.field.bit_count() == rules.field_size
    holders = [hand_yaku(hand, rules) for hand in game.hands]
    if holders[0] and holders[1]:
        assert rules.both_hand_yaku != "redeal"
    if (holders[0] or holders[1]) and not (
        holders[0] and holders[1] and rules.both_hand_yaku == "ignore"
    ):
        assert game.is_over
        assert game.result is not None
        assert game.result.reason == HAND_YAKU
    else:
        assert not game.is_over


def check_result(game: Round) -> None:
    result = game.result
    assert result is not None
    rules = game.rules
    assert result.calls == (game.calls[0], game.calls[1])
    assert min(result.points) >= 0
    if result.reason in (STOPPED, FINAL_TURN, NO_CALL_ALLOWED):
        assert result.winner is not None
        loser = 1 - result.winner
        assert result.points[loser] == 0
        assert result.yaku[loser] == {}
        assert result.yaku[result.winner] == game.yaku(result.winner)
        assert result.points[result.winner] >= sum(result.yaku[result.winner].values()) > 0
    elif result.reason == EXHAUSTED:
        assert (not game.hands[0] and not game.hands[1]) or not game.stock_left
        if rules.exhausted == "dealer":
            assert result.winner == game.dealer
            assert result.points[game.dealer] == rules.exhausted_points
            assert result.points[1 - game.dealer] == 0
        else:
            assert result.winner is None
            assert result.points == (0, 0)
    else:
        assert result.reason == HAND_YAKU
        assert game.history == []


def check_observation(game: Round, obs: Observation, seat: int) -> None:
    opponent = game.hands[1 - seat]
    stock = 0
    for card in game.stock_left:
        stock |= 1 << card
    hidden = opponent | stock
    assert obs.seat == seat
    assert obs.hand == game.hands[seat]
    assert obs.unseen == hidden
    assert obs.opponent_hand_size == opponent.bit_count()
    assert obs.stock_size == len(game.stock_left)
    for visible in (obs.hand, obs.field, obs.captured[0], obs.captured[1]):
        assert visible & hidden == 0
    if obs.pending_card is not None:
        assert not hidden >> obs.pending_card & 1
    for event in obs.history:
        assert not (hidden >> event.card & 1)
        assert not (event.captured & hidden)
    if game.turn == seat and not game.is_over:
        assert obs.legal_actions == tuple(game.legal_actions())
    else:
        assert obs.legal_actions == ()


def max_actions(rules: RuleSet) -> int:
    """At most: per turn one play, two choices and one decision."""
    return 4 * 2 * rules.hand_size


def play_match(
    match: Match, rng: random.Random, observe: bool
) -> list[tuple[Observation, Observation]]:
    """Play to the end with random moves, checking every step; the observations seen."""
    seen: list[tuple[Observation, Observation]] = []
    checked = 0  # results checked so far
    game = match.round
    index = 0  # the index of game's result in match.results

    def adopt() -> None:
        """Check every result booked since the last call, and a new round's deal."""
        nonlocal checked, game, index
        if game.is_over:
            check_result(game)
            assert match.results[index] == game.result
        for later in range(checked, len(match.results)):
            if later != index:  # a round dealt and ended without a move: a hand yaku
                assert match.results[later].reason == HAND_YAKU
        checked = len(match.results)
        if match.round is not game:
            game = match.round
            index = len(match.results) - (1 if game.is_over else 0)
            check_deal(game)
            if game.is_over:
                check_result(game)
                assert match.results[index] == game.result

    index = len(match.results) - (1 if game.is_over else 0)
    check_deal(game)
    adopt()
    steps_in_round = 0
    while True:
        check_cards(match.round)
        if observe:
            pair = (match.observation(0), match.observation(1))
            for seat in (0, 1):
                check_observation(match.round, pair[seat], seat)
            seen.append(pair)
        if match.is_over:
            break
        legal = match.legal_actions()
        assert legal, "no legal action in a live round"
        assert not match.round.is_over
        before = match.round
        match.apply(rng.choice(legal))
        steps_in_round = 1 if match.round is not before else steps_in_round + 1
        assert steps_in_round <= max_actions(match.rules)
        adopt()
    assert checked == len(match.results)
    assert match.legal_actions() == []
    start = match.rules.starting_points
    # Zero-sum matches start from starting_points and move each round's points.
    won = [
        sum(r.points[seat] - (r.points[1 - seat] if start else 0) for r in match.results)
        for seat in (0, 1)
    ]
    assert match.totals == [start + won[0], start + won[1]]
    rules = match.rules
    assert len(match.results) <= rules.rounds
    if len(match.results) < rules.rounds:
        assert (rules.target_score and max(match.totals) >= rules.target_score) or (
            start and min(match.totals) <= 0
        )
    return seen


def replayed_match(match: Match) -> Match:
    data = json.loads(json.dumps(Record.from_match(match).to_json()))
    return replay(Record.from_json(data))


# -- properties -----------------------------------------------------------------------

GAMES_PER_EXAMPLE = 16
OBSERVED_GAMES_PER_EXAMPLE = 4


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant_and_replay(rules: RuleSet, seed: int) -> None:
    """Cards conserved, a legal action until the end, every round ends, results replay."""
    for offset in range(GAMES_PER_EXAMPLE):
        match = new_match(rules, seed + offset)
        play_match(match, random.Random(seed * 31 + offset), observe=False)
        again = replayed_match(match)
        assert again.results == match.results
        assert again.totals == match.totals
        assert replay_output(again) == replay_output(match)


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 2**32))
def test_observations_hide_cards_and_replay_step_by_step(rules: RuleSet, seed: int) -> None:
    for offset in range(OBSERVED_GAMES_PER_EXAMPLE):
        match = new_match(rules, seed + offset)
        seen = play_match(match, random.Random(seed + offset), observe=True)
        record = Record.from_json(json.loads(json.dumps(Record.from_match(match).to_json())))
        again = start_match(record)
        replay_seen = [(again.observation(0), again.observation(1))]
        for action in match.actions:
            again.apply(action)
            replay_seen.append((again.observation(0), again.observation(1)))
        assert replay_seen == seen
        assert again.results == match.results


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 2**32), dealer=st.integers(0, 1))
def test_given_deals_replay_and_hidden_cards_rebuild_the_round(
    rules: RuleSet, seed: int, dealer: int
) -> None:
    try:
        game = Round.deal(rules, seed, dealer)
    except RulesError:
        assume(False)
        raise
    data = game.deal_json()
    # The deal as given stands, and is the same round.
    given_game = Round.from_deal(rules, dealer, data["hands"], data["field"], data["stock"])
    assert given_game.observation(0) == game.observation(0)
    assert given_game.observation(1) == game.observation(1)
    match = Match.single(game)
    rng = random.Random(seed)
    while not match.is_over:
        round_now = match.round
        seat = round_now.turn
        # A seat's view plus the true hidden cards is the same round.
        obs = round_now.observation(seat)
        rebuilt = Round.from_observation(obs, round_now.hands[1 - seat], round_now.stock_left)
        action = rng.choice(match.legal_actions())
        assert rebuilt.legal_actions() == round_now.legal_actions()
        match.apply(action)
        rebuilt.apply(action)
        check_cards(rebuilt)
        for viewer in (0, 1):
            assert rebuilt.observation(viewer) == round_now.observation(viewer)
    assert len(match.results) == 1
    output = replay_output(match)
    assert output["totals"] == output["rounds"][0]["points"]
    again = replayed_match(match)
    assert replay_output(again) == output
