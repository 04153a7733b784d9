"""One round (deal) of Koi-Koi: docs/rules.md §2 and the deal and flow fields of §6.

Most tests build a hand-made deal with :func:`build` (the named cards where they are
asked for, the rest filled in canonical order) and walk it turn by turn, asserting
every step, so a scenario that stops meaning what it says fails loudly.
"""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
from collections.abc import Iterator, Sequence
from enum import Enum
from typing import Any

import pytest

from deals import FOUR_PAIRS, KUTTSUKI_HAND, build
from koikoi.cards import (
    ALL_CARDS,
    MONTH_MASKS,
    SLUGS,
    card_from_slug,
    cards_from_slugs,
    ids,
    slugs,
)
from koikoi.round import (
    EXHAUSTED,
    FINAL_TURN,
    HAND_YAKU,
    KOIKOI,
    NO_CALL_ALLOWED,
    STOP,
    STOPPED,
    DealError,
    IllegalActionError,
    Observation,
    Phase,
    Round,
    _order,
    action_from_json,
    action_name,
    action_to_json,
    capture,
    play,
    shuffled_deck,
)
from koikoi.rules import CLASSIC, PRESETS, RulesError, RuleSet

# -- building deals -------------------------------------------------------------------


def rules_with(base: RuleSet = CLASSIC, **overrides: Any) -> RuleSet:
    return base.with_overrides(overrides)


def cs(*names: str) -> int:
    """A card set from slugs."""
    return cards_from_slugs(names)


def snapshot(game: Round) -> tuple[object, ...]:
    """Everything observable about a round, to check that nothing changed."""
    return (
        game.observation(0),
        game.observation(1),
        game.stock_left,
        tuple(game.hands),
        tuple(game.captured),
        game.field,
        game.phase,
        game.turn,
        game.pending_card,
        tuple(game.calls),
        tuple(game.history),
        game.result,
        tuple(game.legal_actions()),
    )


def phase_of(game: Round) -> Phase:
    """The phase, read through a call so that type checkers do not narrow it across moves."""
    return game.phase


def check_conservation(game: Round) -> None:
    parts = [game.hands[0], game.hands[1], game.field, game.captured[0], game.captured[1]]
    parts += [1 << card for card in game.stock_left]
    if game.pending_card is not None:
        parts.append(1 << game.pending_card)
    union = 0
    for part in parts:
        assert union & part == 0, f"card(s) in two places: {slugs(union & part)}"
        union |= part
    assert union == ALL_CARDS


# -- the hand step and the draw step (§2.3) ---------------------------------------------

FLOW_FIELD = [
    "pine-plain-1",
    "pine-plain-2",  # pine: two on the field
    "plum-plain-1",  # plum: one
    "cherry-poetry",
    "cherry-plain-1",
    "cherry-plain-2",  # cherry: three
    "wisteria-plain-1",
    "iris-plain-1",
]  # peony, willow: none


def flow_round(
    hand: Sequence[str], stock_top: str, rules: RuleSet = CLASSIC, month: int = 0
) -> Round:
    return build(rules, hands=(hand, ()), field=FLOW_FIELD, stock=[stock_top], month=month)


@pytest.mark.parametrize(
    ("card", "taken"),
    [
        ("peony-butterflies", ()),  # no match: stays on the field
        ("plum-warbler", ("plum-plain-1",)),  # one: both captured
        ("cherry-curtain", ("cherry-poetry", "cherry-plain-1", "cherry-plain-2")),  # three
    ],
)
def test_hand_step_zero_one_or_three_matches(card: str, taken: tuple[str, ...]) -> None:
    game = flow_round(["peony-butterflies", "plum-warbler", "cherry-curtain"], "willow-lightning")
    field_before = game.field
    game.apply(play(card))
    # The draw (willow-lightning, no willow on the field) stays on the field too.
    assert game.turn == 1
    assert game.phase is Phase.PLAY
    assert not game.hands[0] & cs(card)
    if taken:
        assert game.captured[0] == cs(card, *taken)
        assert game.field == (field_before & ~cs(*taken)) | cs("willow-lightning")
    else:
        assert game.captured[0] == 0
        assert game.field == field_before | cs(card, "willow-lightning")
    assert game.history[0] == (0, "play", card_from_slug(card), cs(*taken))
    check_conservation(game)


def test_hand_step_two_matches_asks_which_even_between_two_plains() -> None:
    game = flow_round(["pine-crane"], "willow-lightning")
    game.apply(play("pine-crane"))
    assert game.phase is Phase.HAND_CHOICE
    assert game.turn == 0
    assert game.pending_card == card_from_slug("pine-crane")
    assert game.legal_actions() == [capture("pine-plain-1"), capture("pine-plain-2")]
    # The played card is on its way: in no hand, not on the field, not yet drawn.
    assert not game.hands[0] & cs("pine-crane")
    assert not game.field & cs("pine-crane")
    assert game.stock_left[0] == card_from_slug("willow-lightning")
    obs = game.observation(0)
    assert obs.phase is Phase.HAND_CHOICE
    assert obs.pending_card == card_from_slug("pine-crane")
    assert obs.legal_actions == (capture("pine-plain-1"), capture("pine-plain-2"))
    check_conservation(game)

    game.apply(capture("pine-plain-2"))
    assert game.captured[0] == cs("pine-crane", "pine-plain-2")
    assert game.field & cs("pine-plain-1")
    assert game.turn == 1
    assert phase_of(game) is Phase.PLAY
    check_conservation(game)


def test_hand_choice_between_two_plains_with_a_plain() -> None:
    game = flow_round(["pine-poetry"], "willow-lightning")
    game.apply(play("pine-poetry"))
    assert game.phase is Phase.HAND_CHOICE
    game.apply(capture("pine-plain-1"))
    assert game.captured[0] == cs("pine-poetry", "pine-plain-1")


@pytest.mark.parametrize(
    ("top", "taken"),
    [
        ("willow-lightning", ()),  # no match
        ("plum-poetry", ("plum-plain-1",)),  # one
        ("cherry-curtain", ("cherry-poetry", "cherry-plain-1", "cherry-plain-2")),  # three
        ("peony-blue", ("peony-butterflies",)),  # the card just played in the hand step
    ],
)
def test_draw_step_zero_one_or_three_matches(top: str, taken: tuple[str, ...]) -> None:
    game = flow_round(["peony-butterflies"], top)
    game.apply(play("peony-butterflies"))
    assert game.turn == 1
    assert game.phase is Phase.PLAY
    assert len(game.stock_left) == 24 - 1
    drawn = game.history[-1]
    assert drawn == (0, "draw", card_from_slug(top), cs(*taken))
    if taken:
        assert game.captured[0] == cs(top, *taken)
        assert not game.field & cs(top, *taken)
    else:
        assert game.captured[0] == 0
        assert game.field & cs(top, "peony-butterflies") == cs(top, "peony-butterflies")
    check_conservation(game)


def test_draw_step_two_matches_asks_which() -> None:
    game = flow_round(["peony-butterflies"], "pine-poetry")
    game.apply(play("peony-butterflies"))
    assert game.phase is Phase.DRAW_CHOICE
    assert game.turn == 0
    assert game.pending_card == card_from_slug("pine-poetry")
    assert game.legal_actions() == [capture("pine-plain-1"), capture("pine-plain-2")]
    assert len(game.stock_left) == 23  # the drawn card left the stock
    obs = game.observation(0)
    assert obs.pending_card == card_from_slug("pine-poetry")
    assert obs.stock_size == 23
    assert game.observation(1).legal_actions == ()
    check_conservation(game)

    game.apply(capture("pine-plain-1"))
    assert game.captured[0] == cs("pine-poetry", "pine-plain-1")
    assert game.field & cs("pine-plain-2", "peony-butterflies") == cs(
        "pine-plain-2", "peony-butterflies"
    )
    assert game.turn == 1
    assert phase_of(game) is Phase.PLAY
    assert game.history[-1] == (0, "draw", card_from_slug("pine-poetry"), cs("pine-plain-1"))
    check_conservation(game)


def test_a_choice_in_both_steps_of_one_turn() -> None:
    game = build(
        hands=(["pine-crane"], ()),
        field=[*FLOW_FIELD[:6], "willow-ribbon", "willow-lightning"],
        stock=["willow-swallow"],
    )
    game.apply(play("pine-crane"))
    assert game.phase is Phase.HAND_CHOICE
    game.apply(capture("pine-plain-1"))
    assert phase_of(game) is Phase.DRAW_CHOICE
    assert game.legal_actions() == [capture("willow-ribbon"), capture("willow-lightning")]
    game.apply(capture("willow-lightning"))
    assert game.captured[0] == cs(
        "pine-crane", "pine-plain-1", "willow-swallow", "willow-lightning"
    )
    assert game.turn == 1


def test_dealer_moves_first_and_turns_alternate() -> None:
    game = flow_round(["peony-butterflies"], "willow-lightning")
    assert game.turn == 0
    other = build(
        hands=((), ["peony-butterflies"]), field=FLOW_FIELD, stock=["willow-lightning"], dealer=1
    )
    assert other.turn == 1
    assert other.dealer == 1
    assert other.legal_actions() == ids(other.hands[1])
    other.apply(play("peony-butterflies"))
    assert other.turn == 0


# -- illegal actions ----------------------------------------------------------------------


def test_illegal_play_names_it_and_the_legal_ones_and_changes_nothing() -> None:
    game = flow_round(["pine-crane"], "willow-lightning")
    before = snapshot(game)
    legal = game.legal_actions()
    opponent_card = ids(game.hands[1])[0]
    with pytest.raises(IllegalActionError) as info:
        game.apply(play(opponent_card))
    message = str(info.value)
    assert f"play {SLUGS[opponent_card]}" in message
    for action in legal:
        assert action_name(action) in message
    assert info.value.legal == tuple(legal)
    assert info.value.action == opponent_card
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "bad",
    [
        capture("pine-plain-1"),
        KOIKOI,
        STOP,
        -1,
        STOP + 1,
        10**6,
        True,
        "pine-crane",
        None,
        float(card_from_slug("pine-crane")),
    ],
)
@pytest.mark.parametrize("forced", [False, True], ids=["free", "forced_capture"])
def test_other_illegal_actions_in_the_play_phase(bad: Any, forced: bool) -> None:
    # Under forced_capture a card's month is looked up before it is played: a number
    # that is no hand card must be refused before that, not looked up.
    game = flow_round(["pine-crane"], "willow-lightning", rules_with(forced_capture=forced))
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="legal now: play"):
        game.apply(bad)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "bad",
    [
        capture("cherry-plain-1"),  # a field card of another month
        capture("pine-poetry"),  # the right month, not on the field
        play("pine-plain-1"),
        KOIKOI,
        STOP,
        "capture pine-plain-1",
    ],
)
def test_illegal_actions_at_a_choice(bad: Any) -> None:
    game = flow_round(["pine-crane"], "willow-lightning")
    game.apply(play("pine-crane"))
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.apply(bad)
    assert "capture pine-plain-1, capture pine-plain-2" in str(info.value)
    assert snapshot(game) == before
    game.apply(capture("pine-plain-1"))  # still playable afterwards
    assert game.turn == 1


def test_illegal_actions_at_a_decision_and_after_the_end() -> None:
    game = brights_round()
    walk_to_sanko(game)
    assert game.phase is Phase.DECISION
    before = snapshot(game)
    for bad in (play(ids(game.hands[0])[0]), capture("pine-plain-1"), STOP + 1):
        with pytest.raises(IllegalActionError, match="legal now: koikoi, stop"):
            game.apply(bad)
        assert snapshot(game) == before
    game.apply(STOP)
    assert game.is_over
    over = snapshot(game)
    for bad in (STOP, KOIKOI, play(ids(game.hands[1])[0])):
        with pytest.raises(IllegalActionError, match=r"none \(the round is over\)"):
            game.apply(bad)
        assert snapshot(game) == over


# -- forced_capture -----------------------------------------------------------------------


def test_forced_capture_allows_only_matching_cards_while_one_matches() -> None:
    hand = ["peony-butterflies", "plum-warbler", "pine-crane", "willow-rainman"]
    free = flow_round(hand, "willow-lightning")
    assert set(free.legal_actions()) == set(ids(free.hands[0]))
    forced = flow_round(hand, "willow-lightning", rules_with(forced_capture=True))
    matching = [card for card in ids(forced.hands[0]) if forced.field & MONTH_MASKS[card // 4 + 1]]
    assert matching  # the scenario has both kinds of cards
    assert len(matching) < 8
    assert forced.legal_actions() == matching
    before = snapshot(forced)
    with pytest.raises(IllegalActionError):
        forced.apply(play("peony-butterflies"))
    assert snapshot(forced) == before
    forced.apply(play("plum-warbler"))
    assert forced.captured[0] & cs("plum-warbler")


def test_forced_capture_allows_any_card_when_none_matches() -> None:
    rules = rules_with(forced_capture=True)
    # Months on the field: pine, plum, cherry, wisteria, iris; the hand holds none of them.
    hand = [
        "peony-butterflies",
        "peony-blue",
        "clover-boar",
        "susuki-moon",
        "chrysanthemum-sake",
        "maple-deer",
        "willow-rainman",
        "paulownia-phoenix",
    ]
    game = flow_round(hand, "willow-lightning", rules)
    assert sorted(game.legal_actions()) == sorted(play(card) for card in hand)
    game.apply(play("peony-butterflies"))
    assert game.field & cs("peony-butterflies")


def test_forced_capture_presets() -> None:
    assert PRESETS["traditional"].forced_capture
    assert not CLASSIC.forced_capture


# -- redeals of the field (§2.2) ----------------------------------------------------------


def month_counts(cards: int) -> list[int]:
    return [(cards & MONTH_MASKS[m]).bit_count() for m in range(1, 13)]


def test_from_deal_refuses_a_field_that_would_be_redealt() -> None:
    four_pine = ["pine-crane", "pine-poetry", "pine-plain-1", "pine-plain-2"]
    month_rules = rules_with(redeal_four_of_month=True)
    pairs_rules = rules_with(redeal_four_pairs=True)
    with pytest.raises(DealError, match="redeal"):
        build(month_rules, field=[*four_pine, "susuki-moon"])
    with pytest.raises(DealError, match="redeal"):
        build(pairs_rules, field=FOUR_PAIRS)
    # Each condition only under its own rule.
    assert build(CLASSIC, field=[*four_pine, "susuki-moon"]).phase is Phase.PLAY
    assert build(pairs_rules, field=[*four_pine, "susuki-moon"]).phase is Phase.PLAY
    assert build(month_rules, field=FOUR_PAIRS).phase is Phase.PLAY
    assert build(CLASSIC, field=FOUR_PAIRS).phase is Phase.PLAY
    for preset in ("single-deal", "traditional"):
        with pytest.raises(DealError):
            build(PRESETS[preset], field=[*four_pine, "susuki-moon"])
    with pytest.raises(DealError):
        build(PRESETS["single-deal"], field=FOUR_PAIRS)
    assert build(PRESETS["traditional"], field=FOUR_PAIRS).phase is Phase.PLAY


@pytest.mark.parametrize(
    ("key", "condition"),
    [
        ("redeal_four_of_month", lambda field: 4 in month_counts(field)),
        ("redeal_four_pairs", lambda field: month_counts(field).count(2) >= 4),
    ],
)
def test_seeded_deals_redeal_the_field_and_keep_the_dealer(key: str, condition: Any) -> None:
    redeal = CLASSIC.with_overrides({key: True})
    redealt = 0
    for seed in range(4000):
        dealer = seed % 2
        plain = Round.deal(CLASSIC, seed, dealer)
        game = Round.deal(redeal, seed, dealer)
        assert not condition(game.field)
        assert game.dealer == dealer
        assert game.turn == dealer
        if condition(plain.field):
            redealt += 1
            assert game.field != plain.field
        else:  # no redeal: the same shuffle gives the same deal
            assert game.deal_json() == plain.deal_json()
        if redealt >= 3:
            break
    assert redealt >= 3, "no seed met the condition; the test shows nothing"


def test_a_redeal_loop_that_can_never_deal_ends_with_an_error() -> None:
    # A field of 36 cards almost always holds a whole month, so no rule set has one
    # with that redeal (deal_chance); the engine's own limit stays, and gives up rather
    # than loop, should its rules let through one that cannot deal. Such rules can only
    # be made by going around RuleSet's checks.
    with pytest.raises(RulesError, match=r"0\.02% of deals"):
        rules_with(hand_size=6, field_size=36, redeal_four_of_month=True)
    rules = rules_with(hand_size=6, field_size=30, redeal_four_of_month=True)
    object.__setattr__(rules, "field_size", 36)
    with pytest.raises(RulesError, match="redeal 1000 times"):
        Round.deal(rules, 0, 0)


# -- teshi and kuttsuki (§2.2, §6) ------------------------------------------------------

TESHI_HAND = [
    "pine-crane",
    "pine-poetry",
    "pine-plain-1",
    "pine-plain-2",
    "plum-warbler",
    "cherry-curtain",
    "wisteria-cuckoo",
    "iris-bridge",
]
TESHI_AND_TWO_PAIRS = [
    "pine-crane",
    "pine-poetry",
    "pine-plain-1",
    "pine-plain-2",
    "plum-warbler",
    "plum-poetry",
    "cherry-curtain",
    "cherry-poetry",
]
PLAIN_HAND = [  # eight months, one card each
    "peony-butterflies",
    "clover-boar",
    "susuki-plain-1",
    "chrysanthemum-plain-1",
    "maple-plain-1",
    "willow-lightning",
    "paulownia-phoenix",
    "iris-plain-1",
]
HAND_YAKU_RULES = rules_with(teshi=6, kuttsuki=4, double_at=1, multiplier="per-call")


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("dealer", [0, 1])
@pytest.mark.parametrize(
    ("hand", "key", "points"),
    [(TESHI_HAND, "teshi", 6), (KUTTSUKI_HAND, "kuttsuki", 4), (TESHI_AND_TWO_PAIRS, "teshi", 6)],
)
def test_a_hand_yaku_wins_the_round_at_once(
    hand: list[str], key: str, points: int, seat: int, dealer: int
) -> None:
    hands = (hand, PLAIN_HAND) if seat == 0 else (PLAIN_HAND, hand)
    game = build(HAND_YAKU_RULES, hands=hands, dealer=dealer)
    assert game.is_over
    assert game.legal_actions() == []
    assert game.observation(dealer).legal_actions == ()
    result = game.result
    assert result is not None
    assert result.winner == seat
    expected_points = [0, 0]
    expected_points[seat] = points  # no multiplier, no double_at (double_at is 1 here)
    assert result.points == tuple(expected_points)
    held: list[dict[str, int]] = [{}, {}]
    held[seat] = {key: points}
    assert result.yaku == tuple(held)
    assert result.calls == (0, 0)
    assert result.reason == HAND_YAKU
    assert game.history == []


def test_hand_yaku_off_by_default_and_when_zero() -> None:
    game = build(CLASSIC, hands=(TESHI_HAND, KUTTSUKI_HAND))
    assert game.phase is Phase.PLAY
    only_kuttsuki = build(rules_with(kuttsuki=4), hands=(TESHI_HAND, PLAIN_HAND))
    assert only_kuttsuki.phase is Phase.PLAY  # teshi 0: four of a month is nothing
    # With teshi off, four of a month plus two pairs is not four pairs either.
    still_nothing = build(rules_with(kuttsuki=4), hands=(TESHI_AND_TWO_PAIRS, PLAIN_HAND))
    assert still_nothing.phase is Phase.PLAY


@pytest.mark.parametrize("dealer", [0, 1])
def test_both_hands_with_hand_yaku(dealer: int) -> None:
    hands = (TESHI_HAND, KUTTSUKI_HAND)
    held = ({"teshi": 6}, {"kuttsuki": 4})

    with pytest.raises(DealError, match="both hands"):
        build(HAND_YAKU_RULES, hands=hands, dealer=dealer)  # both_hand_yaku = redeal

    game = build(rules_with(HAND_YAKU_RULES, both_hand_yaku="dealer"), hands=hands, dealer=dealer)
    assert game.result is not None
    assert game.result.winner == dealer
    assert game.result.points == ((6, 0) if dealer == 0 else (0, 4))
    assert game.result.yaku == held  # hand yaku included, scored or not

    game = build(rules_with(HAND_YAKU_RULES, both_hand_yaku="both"), hands=hands, dealer=dealer)
    assert game.result is not None
    assert game.result.winner is None
    assert game.result.points == (6, 4)
    assert game.result.yaku == held

    game = build(rules_with(HAND_YAKU_RULES, both_hand_yaku="ignore"), hands=hands, dealer=dealer)
    assert game.result is None
    assert game.phase is Phase.PLAY
    assert game.turn == dealer


def test_seeded_deals_redeal_two_hand_yaku_under_redeal() -> None:
    # Big hands make hand yaku common, so both hands often hold one.
    base = rules_with(hand_size=14, field_size=4, teshi=6, kuttsuki=6)
    both = rules_with(base, both_hand_yaku="both")
    seen_both = 0
    for seed in range(200):
        game = Round.deal(base, seed, 1)
        assert not (game.hand_yaku[0] and game.hand_yaku[1])
        assert game.dealer == 1
        other = Round.deal(both, seed, 1)
        if other.hand_yaku[0] and other.hand_yaku[1]:
            seen_both += 1
            assert other.deal_json() != game.deal_json()
    assert seen_both >= 5


# -- decisions: stop or koi-koi (§2.4) -------------------------------------------------

# A scripted classic deal, dealer 0. Seat 0 takes a bright on turns 1, 2, 3 (sanko),
# 4 (shiko) and 5 (goko, the rain man); seat 1 only takes plains meanwhile.
BRIGHTS_HANDS = (
    ["pine-crane", "cherry-curtain", "susuki-moon", "paulownia-phoenix", "willow-rainman"],
    ["iris-plain-2", "peony-plain-2", "clover-plain-2", "maple-plain-2"],
)
BRIGHTS_FIELD = [
    "pine-plain-1",
    "cherry-plain-1",
    "susuki-plain-1",
    "paulownia-plain-1",
    "iris-plain-1",
    "peony-plain-1",
    "clover-plain-1",
    "maple-plain-1",
]
BRIGHTS_STOCK = [
    "wisteria-plain-1",  # seat 0, turn 1: no match
    "iris-ribbon",  # seat 1: no match
    "willow-lightning",  # seat 0, turn 2: no match
    "chrysanthemum-plain-1",  # seat 1: no match
    "chrysanthemum-plain-2",  # seat 0, turn 3: takes chrysanthemum-plain-1
    "pine-poetry",  # seat 1: no match
    "plum-plain-1",  # seat 0, turn 4: no match
    "cherry-plain-2",  # seat 1: no match
    "pine-plain-2",  # seat 0, turn 5: takes pine-poetry
]


def brights_round(rules: RuleSet = CLASSIC) -> Round:
    return build(rules, hands=BRIGHTS_HANDS, field=BRIGHTS_FIELD, stock=BRIGHTS_STOCK)


def turn(game: Round, card: str) -> None:
    """A turn whose steps need no choice."""
    seat = game.turn
    assert game.phase is Phase.PLAY
    game.apply(play(card))
    assert phase_of(game) is not Phase.HAND_CHOICE
    assert phase_of(game) is not Phase.DRAW_CHOICE
    if game.phase is Phase.PLAY:
        assert game.turn == 1 - seat


def walk_to_sanko(game: Round) -> None:
    turn(game, "pine-crane")
    turn(game, "iris-plain-2")
    turn(game, "cherry-curtain")
    turn(game, "peony-plain-2")
    assert game.phase is Phase.PLAY
    assert game.yaku(0) == {}
    turn(game, "susuki-moon")  # the first yaku: a decision
    assert game.turn == 0
    assert game.yaku(0) == {"sanko": 5}


def walk_to_shiko(game: Round) -> None:
    walk_to_sanko(game)
    game.apply(KOIKOI)
    turn(game, "clover-plain-2")
    turn(game, "paulownia-phoenix")
    assert game.yaku(0) == {"shiko": 8}


def walk_to_goko(game: Round) -> None:
    walk_to_shiko(game)
    assert game.phase is Phase.DECISION
    game.apply(KOIKOI)
    turn(game, "maple-plain-2")
    turn(game, "willow-rainman")
    assert game.yaku(0) == {"goko": 10}


def test_the_first_yaku_offers_the_decision() -> None:
    game = brights_round()
    walk_to_sanko(game)
    assert game.phase is Phase.DECISION
    assert game.legal_actions() == [KOIKOI, STOP]
    obs = game.observation(0)
    assert obs.legal_actions == (KOIKOI, STOP)
    assert obs.yaku[0] == {"sanko": 5}
    assert obs.decided == (None, None)
    assert game.observation(1).legal_actions == ()


def test_koikoi_plays_on_and_is_counted() -> None:
    game = brights_round()
    walk_to_sanko(game)
    game.apply(KOIKOI)
    assert game.calls == (1, 0)
    assert game.phase is Phase.PLAY
    assert game.turn == 1
    obs = game.observation(1)
    assert obs.calls == (1, 0)  # both players see the call
    assert obs.decided == ({"sanko": 5}, None)


def test_stop_ends_the_round_and_the_stopper_scores() -> None:
    game = brights_round()
    walk_to_sanko(game)
    game.apply(STOP)
    assert game.is_over
    assert game.result is not None
    assert game.result.winner == 0
    assert game.result.points == (5, 0)
    assert game.result.yaku == ({"sanko": 5}, {})
    assert game.result.calls == (0, 0)
    assert game.result.reason == STOPPED
    assert game.legal_actions() == []


@pytest.mark.parametrize("decision", ["new-yaku", "higher-total"])
def test_sanko_to_shiko_reopens_the_decision_under_both_triggers(decision: str) -> None:
    game = brights_round(rules_with(decision=decision))
    walk_to_shiko(game)
    assert game.phase is Phase.DECISION
    game.apply(STOP)
    assert game.result is not None
    assert game.result.points == (16, 0)  # 8 x 2 for one call (classic: per-call)
    assert game.result.yaku == ({"shiko": 8}, {})
    assert game.result.calls == (1, 0)


# A scripted classic deal, dealer 0: seat 0 reaches tane with five animals on turn 3,
# calls koi-koi, and takes a sixth animal (the sake cup) on turn 4.
TANE_HANDS = (
    ["plum-warbler", "iris-bridge", "willow-swallow", "chrysanthemum-sake"],
    ["pine-plain-2", "cherry-plain-2", "maple-plain-2"],
)
TANE_FIELD = [
    "plum-plain-1",
    "wisteria-plain-1",
    "iris-plain-1",
    "susuki-plain-1",
    "willow-lightning",
    "chrysanthemum-plain-1",
    "pine-plain-1",
    "cherry-plain-1",
]
TANE_STOCK = [
    "wisteria-cuckoo",  # seat 0, turn 1: takes wisteria-plain-1
    "paulownia-plain-1",  # seat 1: no match
    "susuki-geese",  # seat 0, turn 2: takes susuki-plain-1
    "paulownia-plain-2",  # seat 1: takes paulownia-plain-1
    "maple-plain-1",  # seat 0, turn 3: no match
    "clover-plain-1",  # seat 1: no match
    "clover-plain-2",  # seat 0, turn 4: takes clover-plain-1
]


def tane_round(decision: str) -> Round:
    rules = rules_with(decision=decision)
    game = build(rules, hands=TANE_HANDS, field=TANE_FIELD, stock=TANE_STOCK)
    turn(game, "plum-warbler")
    turn(game, "pine-plain-2")
    turn(game, "iris-bridge")
    turn(game, "cherry-plain-2")
    turn(game, "willow-swallow")
    assert game.phase is Phase.DECISION
    assert game.yaku(0) == {"tane": 1}
    game.apply(KOIKOI)
    turn(game, "maple-plain-2")
    assert game.turn == 0
    turn(game, "chrysanthemum-sake")
    assert game.yaku(0) == {"tane": 2}
    return game


def test_more_points_for_the_same_yaku_reopen_only_under_higher_total() -> None:
    higher = tane_round("higher-total")
    assert higher.phase is Phase.DECISION
    assert higher.turn == 0
    new = tane_round("new-yaku")
    assert new.phase is Phase.PLAY
    assert new.turn == 1
    assert new.calls == (1, 0)
    assert new.observation(1).decided == ({"tane": 1}, None)


def test_no_new_capture_no_new_decision() -> None:
    # After a koi-koi, a turn that adds nothing to the yaku does not ask again.
    game = brights_round()
    walk_to_sanko(game)
    game.apply(KOIKOI)
    turn(game, "clover-plain-2")
    assert game.turn == 0
    assert game.hands[0] & cs("wisteria-cuckoo")  # a filler card
    game.apply(play("wisteria-cuckoo"))  # takes wisteria-plain-1: an animal, a plain
    assert game.captured[0] & cs("wisteria-cuckoo", "wisteria-plain-1")
    assert game.yaku(0) == {"sanko": 5}
    assert game.phase is Phase.PLAY
    assert game.turn == 1


# -- max_koikoi and koikoi_after_opponent --------------------------------------------------


def test_max_koikoi_stops_the_player_when_no_call_is_left() -> None:
    game = brights_round(rules_with(max_koikoi=1))
    walk_to_shiko(game)
    assert game.is_over  # no decision was offered
    result = game.result
    assert result is not None
    assert result.reason == NO_CALL_ALLOWED
    assert result.winner == 0
    assert result.points == (16, 0)  # scored as a stop: 8 x 2 for the one call
    assert result.yaku == ({"shiko": 8}, {})
    with pytest.raises(IllegalActionError):
        game.apply(STOP)
    with pytest.raises(IllegalActionError):
        game.apply(KOIKOI)


def test_max_koikoi_two_allows_two_calls() -> None:
    game = brights_round(rules_with(max_koikoi=2))
    walk_to_shiko(game)
    assert game.phase is Phase.DECISION
    game.apply(KOIKOI)
    assert game.calls == (2, 0)


def test_max_koikoi_zero_is_unlimited() -> None:
    game = brights_round(rules_with(max_koikoi=0))
    walk_to_goko(game)
    assert game.phase is Phase.DECISION
    assert game.calls == (2, 0)


# A scripted classic deal, dealer 0: seat 0 makes tsukimi on turn 1 and calls koi-koi;
# seat 1 makes akatan on its turn 2.
VIEW_HANDS = (["susuki-moon", "maple-plain-2"], ["pine-poetry", "cherry-poetry"])
VIEW_FIELD = [
    "susuki-plain-1",
    "chrysanthemum-plain-1",
    "pine-plain-1",
    "plum-plain-1",
    "cherry-plain-1",
    "maple-plain-1",
    "iris-plain-1",
    "peony-plain-1",
]
VIEW_STOCK = [
    "chrysanthemum-sake",  # seat 0, turn 1: takes chrysanthemum-plain-1
    "plum-poetry",  # seat 1, turn 1: takes plum-plain-1
    "willow-lightning",  # seat 0, turn 2: no match
    "wisteria-plain-1",  # seat 1, turn 2: no match
]


def akatan_round(rules: RuleSet = CLASSIC) -> Round:
    game = build(rules, hands=VIEW_HANDS, field=VIEW_FIELD, stock=VIEW_STOCK)
    turn(game, "susuki-moon")
    assert game.phase is Phase.DECISION
    assert game.yaku(0) == {"tsukimi": 5}
    game.apply(KOIKOI)
    turn(game, "pine-poetry")
    turn(game, "maple-plain-2")  # tsukimi still 5: no new decision
    assert game.turn == 1
    turn(game, "cherry-poetry")
    assert game.yaku(1) == {"akatan": 5}
    return game


def test_the_stop_takes_the_round_from_a_player_who_called() -> None:
    game = akatan_round()
    assert game.phase is Phase.DECISION
    assert game.turn == 1
    game.apply(STOP)
    result = game.result
    assert result is not None
    assert result.winner == 1
    assert result.points == (0, 10)  # 5 x 2: seat 0's call counts under per-call
    # The loser who called koi-koi holds nothing (as the worked examples show).
    assert result.yaku == ({}, {"akatan": 5})
    assert result.calls == (1, 0)


def test_koikoi_after_opponent_false_stops_the_other_player() -> None:
    game = akatan_round(rules_with(koikoi_after_opponent=False))
    assert game.is_over
    result = game.result
    assert result is not None
    assert result.reason == NO_CALL_ALLOWED
    assert result.winner == 1
    assert result.points == (0, 10)
    with pytest.raises(IllegalActionError):
        game.apply(STOP)


def test_koikoi_after_opponent_false_still_lets_the_caller_call_again() -> None:
    game = brights_round(rules_with(koikoi_after_opponent=False))
    walk_to_shiko(game)
    assert game.phase is Phase.DECISION  # only the opponent's calls bar a call


# -- multipliers and double_at on a real round -----------------------------------------


@pytest.mark.parametrize(
    ("multiplier", "goko_points", "akatan_points"),
    [
        ("none", 10, 5),
        ("per-call", 40, 10),  # seat 0: its own 2 calls; seat 1: the opponent's 1
        ("any-called", 20, 10),
        ("opponent-called", 10, 10),
        ("per-opponent-call", 10, 10),
    ],
)
def test_each_multiplier_on_a_stop(multiplier: str, goko_points: int, akatan_points: int) -> None:
    goko = brights_round(rules_with(multiplier=multiplier))
    walk_to_goko(goko)
    goko.apply(STOP)
    assert goko.result is not None
    assert goko.result.points == (goko_points, 0)
    assert goko.result.calls == (2, 0)
    assert goko.result.yaku == ({"goko": 10}, {})

    akatan = akatan_round(rules_with(multiplier=multiplier))
    akatan.apply(STOP)
    assert akatan.result is not None
    assert akatan.result.points == (0, akatan_points)


@pytest.mark.parametrize(
    ("double_at", "points"),
    [(0, 40), (10, 80), (11, 40), (1, 80)],
)
def test_double_at_on_a_real_round(double_at: int, points: int) -> None:
    game = brights_round(rules_with(double_at=double_at))
    walk_to_goko(game)
    game.apply(STOP)
    assert game.result is not None
    assert game.result.points == (points, 0)  # doubled, then x4 for two calls


def test_traditional_scoring_of_a_stop() -> None:
    # traditional: x2 at 8 points or more, x2 once if the opponent called.
    game = akatan_round(
        PRESETS["traditional"]
    )  # traditional reopens on new yaku; akatan is seat 1's first
    game.apply(STOP)
    assert game.result is not None
    assert game.result.points == (0, 10)  # 5 < 8, opponent called: x2


@pytest.mark.parametrize(("month", "scores"), [(3, True), (4, False), (0, False)])
def test_tsukifuda_counts_the_rounds_month(month: int, scores: bool) -> None:
    rules = rules_with(tsukifuda=4, tsukifuda_month="round")
    game = flow_round(["cherry-curtain"], "willow-lightning", rules, month=month)
    assert game.month == month
    game.apply(play("cherry-curtain"))  # takes the other three: all of March
    assert game.captured[0] == MONTH_MASKS[3]
    if scores:
        assert game.yaku(0) == {"tsukifuda": 4}
        assert game.phase is Phase.DECISION
    else:  # another month, or unknown (0): never scores
        assert game.yaku(0) == {}
        assert game.phase is Phase.PLAY
        assert game.turn == 1
    any_month = flow_round(
        ["cherry-curtain"], "willow-lightning", rules_with(rules, tsukifuda_month="any"), month
    )
    any_month.apply(play("cherry-curtain"))
    assert any_month.yaku(0) == {"tsukifuda": 4}


# -- the final turn (§2.4) --------------------------------------------------------------


def final_hand_round(rules: RuleSet) -> Round:
    """Two-card hands: seat 0's second turn empties its hand and makes tsukimi."""
    pine_plum = [f"{flower}-{s}" for flower in ("pine", "plum") for s in ("plain-1", "plain-2")]
    field = [
        "pine-crane",
        "pine-poetry",
        *pine_plum[:2],
        "plum-warbler",
        "plum-poetry",
        *pine_plum[2:],
    ]
    game = build(
        rules,
        hands=(["susuki-moon", "chrysanthemum-sake"], ["cherry-plain-1", "iris-plain-1"]),
        field=field,
        stock=["susuki-plain-1", "chrysanthemum-plain-1", "peony-plain-1", "clover-plain-1"],
    )
    turn(game, "susuki-moon")  # the draw takes the moon back with susuki-plain-1
    assert game.captured[0] == cs("susuki-moon", "susuki-plain-1")
    turn(game, "cherry-plain-1")
    assert game.turn == 0
    return game


@pytest.mark.parametrize(("double_at", "points"), [(0, 5), (5, 10)])
def test_a_yaku_on_the_final_turn_scores_at_once(double_at: int, points: int) -> None:
    game = final_hand_round(rules_with(hand_size=2, double_at=double_at))
    game.apply(play("chrysanthemum-sake"))
    assert game.hands[0] == 0
    assert game.is_over  # no decision offered, no action taken
    assert game.legal_actions() == []
    result = game.result
    assert result is not None
    assert result.reason == FINAL_TURN
    assert result.winner == 0
    assert result.points == (points, 0)
    assert result.yaku == ({"tsukimi": 5}, {})
    with pytest.raises(IllegalActionError):
        game.apply(STOP)


def stock_end_round(rules: RuleSet, dealer: int = 0) -> Round:
    """Hands of 12, a field of 20 (five whole months), a stock of 4: the non-dealer's
    second turn empties the stock. The non-dealer makes tsukimi on its first turn and
    calls koi-koi."""
    maker = 1 - dealer
    hands: list[list[str]] = [[], []]
    hands[dealer] = ["chrysanthemum-plain-1", "peony-plain-1"]
    hands[maker] = ["susuki-moon", "peony-butterflies"]
    field = [SLUGS[card] for card in range(20)]  # pine to iris, all four cards each
    game = build(
        rules_with(rules, hand_size=12, field_size=20),
        hands=(hands[0], hands[1]),
        field=field,
        stock=["susuki-plain-1", "chrysanthemum-sake", "clover-plain-1", "maple-plain-1"],
        dealer=dealer,
    )
    turn(game, "chrysanthemum-plain-1")
    turn(game, "susuki-moon")
    assert game.phase is Phase.DECISION
    assert game.yaku(maker) == {"tsukimi": 5}
    game.apply(KOIKOI)
    turn(game, "peony-plain-1")
    assert game.turn == maker
    assert len(game.stock_left) == 1
    return game


@pytest.mark.parametrize(("double_at", "points"), [(0, 12), (6, 24)])
def test_a_higher_total_on_the_turn_that_empties_the_stock_scores_at_once(
    double_at: int, points: int
) -> None:
    game = stock_end_round(rules_with(tane_min=2, double_at=double_at))
    game.apply(play("peony-butterflies"))  # takes peony-plain-1: two animals, tane
    assert game.stock_left == ()
    assert game.hands[0]
    assert game.hands[1]
    assert game.is_over
    result = game.result
    assert result is not None
    assert result.reason == FINAL_TURN
    assert result.winner == 1
    assert result.yaku == ({}, {"tsukimi": 5, "tane": 1})
    assert result.points == (0, points)  # (6, doubled at 6) x2 for seat 1's own call


# -- exhausted rounds (§2.5) -----------------------------------------------------------


def exhausted_round(rules: RuleSet, dealer: int) -> Round:
    """The stock runs out with no stop; the non-dealer called koi-koi on tsukimi."""
    game = stock_end_round(rules, dealer)
    last = ids(game.hands[game.turn] & ~cs("peony-butterflies"))[-1]
    game.apply(play(last))
    assert game.is_over
    return game


@pytest.mark.parametrize("dealer", [0, 1])
def test_an_exhausted_round_is_a_draw(dealer: int) -> None:
    game = exhausted_round(CLASSIC, dealer)
    result = game.result
    assert result is not None
    assert result.reason == EXHAUSTED
    assert result.winner is None
    assert result.points == (0, 0)  # even though a player called koi-koi
    assert sum(result.calls) == 1
    assert {"tsukimi": 5} in result.yaku  # held, not scored


@pytest.mark.parametrize("dealer", [0, 1])
def test_an_exhausted_round_goes_to_the_dealer_under_exhausted_dealer(dealer: int) -> None:
    rules = rules_with(exhausted="dealer", exhausted_points=3, double_at=1)
    game = exhausted_round(rules, dealer)
    result = game.result
    assert result is not None
    assert result.reason == EXHAUSTED
    assert result.winner == dealer
    expected = [0, 0]
    expected[dealer] = 3  # no multiplier (a call was made), no double_at
    assert result.points == tuple(expected)


def test_exhausted_dealer_with_zero_points_still_has_a_winner() -> None:
    game = exhausted_round(rules_with(exhausted="dealer", exhausted_points=0), 1)
    assert game.result is not None
    assert game.result.winner == 1
    assert game.result.points == (0, 0)


def test_both_hands_empty_ends_the_round() -> None:
    rules = rules_with(hand_size=1, field_size=4)
    game = build(
        rules,
        hands=(["susuki-plain-1"], ["maple-plain-1"]),
        field=["pine-crane", "pine-poetry", "pine-plain-1", "pine-plain-2"],
        stock=["peony-plain-1", "clover-plain-1"],
    )
    game.apply(play("susuki-plain-1"))
    assert game.turn == 1
    assert not game.is_over
    game.apply(play("maple-plain-1"))
    assert game.is_over
    assert len(game.stock_left) == 48 - 2 - 4 - 2
    assert game.result is not None
    assert game.result.reason == EXHAUSTED


# -- copies ---------------------------------------------------------------------------


def random_actions(game: Round, rng: random.Random, steps: int) -> list[int]:
    done = []
    for _ in range(steps):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        game.apply(action)
        done.append(action)
    return done


@pytest.mark.parametrize("seed", range(20))
def test_copy_is_independent(seed: int) -> None:
    rng = random.Random(seed)
    game = Round.deal(PRESETS["classic"], seed, seed % 2)
    random_actions(game, rng, rng.randrange(0, 20))
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    moves = random_actions(twin, random.Random(seed + 1000), 100)
    assert twin.is_over
    assert snapshot(game) == before  # the original did not move
    for action in moves:
        game.apply(action)
    assert snapshot(game) == snapshot(twin)
    assert game.result == twin.result


# -- what a seat sees (§2, hidden information) --------------------------------------------


OBSERVATION_FIELDS = {
    "seat",
    "rules",
    "phase",
    "turn",
    "dealer",
    "month",
    "hand",
    "opponent_hand_size",
    "field",
    "captured",
    "stock_size",
    "pending_card",
    "legal_actions",
    "calls",
    "yaku",
    "decided",
    "history",
    "result",
    "match",
}


def reachable(root: object) -> Iterator[tuple[str, object]]:
    """Every object an attribute path from ``root`` reaches, with the path: through
    slots (private ones too), instance dicts, and the items of containers."""
    seen: set[int] = set()
    stack: list[tuple[str, object]] = [("obs", root)]
    while stack:
        path, value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        yield path, value
        if isinstance(value, (type, Enum, str, bytes, int, float)) or value is None:
            continue
        if isinstance(value, dict):
            stack.extend((f"{path}[{key!r}]", item) for key, item in value.items())
            stack.extend((f"{path} key", key) for key in value)
        elif isinstance(value, (tuple, list, set, frozenset)):
            stack.extend((f"{path}[{index}]", item) for index, item in enumerate(value))
        else:
            slots = [n for cls in type(value).__mro__ for n in getattr(cls, "__slots__", ())]
            stack.extend((f"{path}.{n}", getattr(value, n)) for n in slots if hasattr(value, n))
            stack.extend(
                (f"{path}.{n}", item) for n, item in getattr(value, "__dict__", {}).items()
            )


def check_no_path_to_hidden(game: Round, seat: int, obs: Observation) -> None:
    """Nothing reachable from ``obs`` is the round, a mutable part of it, the opponent's
    hand or the stock order."""
    opponent = game.hands[1 - seat]
    stock_set = sum(1 << card for card in game.stock_left)
    # Small card sets could equal a count by chance; the bigger ones cannot.
    hidden_sets = {cards for cards in (opponent, stock_set) if cards >= 1 << 16}
    for path, value in reachable(obs):
        assert not isinstance(value, (Round, list)), path
        assert value is not game.stock, path
        if isinstance(value, int):
            assert value not in hidden_sets, path
        if isinstance(value, tuple) and len(game.stock_left) >= 3:
            assert value != game.stock_left, path


def check_observation(game: Round, seat: int) -> None:
    obs = game.observation(seat)
    opponent = game.hands[1 - seat]
    stock = sum(1 << card for card in game.stock_left)
    assert obs.seat == seat
    assert obs.hand == game.hands[seat]
    assert obs.opponent_hand_size == opponent.bit_count()
    assert obs.stock_size == len(game.stock_left)
    assert obs.unseen == opponent | stock
    hidden = opponent | stock
    for visible in (obs.hand, obs.field, obs.captured[0], obs.captured[1]):
        assert visible & hidden == 0
    if obs.pending_card is not None:
        assert not hidden >> obs.pending_card & 1
    for event in obs.history:
        assert not hidden >> event.card & 1
        assert event.captured & hidden == 0
    # Every attribute is one of these; a new one must be checked here before it passes.
    public = {name for name in dir(obs) if not name.startswith("_")}
    assert public == OBSERVATION_FIELDS | {"unseen", "to_move"}
    check_no_path_to_hidden(game, seat, obs)
    for name in public:
        getattr(obs, name)  # the lazy attributes, now computed and stored
    check_no_path_to_hidden(game, seat, obs)
    if game.turn == seat and not game.is_over:
        assert obs.legal_actions == tuple(game.legal_actions())
    else:
        assert obs.legal_actions == ()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_observations_never_show_hidden_cards(preset: str) -> None:
    for seed in range(15):
        game = Round.deal(PRESETS[preset], seed, seed % 2)
        rng = random.Random(seed)
        while True:
            check_observation(game, 0)
            check_observation(game, 1)
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))


def test_the_walk_finds_a_path_to_hidden_cards() -> None:
    """The check above notices a reference to the round or its hidden parts."""
    game = Round.deal(CLASSIC, 3, 0)
    leaks = [game, game.hands, (game.hands[1],), {"order": game.stock_left}, game.stock]
    for leak in leaks:
        obs = game.observation(0)
        object.__setattr__(obs, "match", leak)  # what a careless change could store
        with pytest.raises(AssertionError):
            check_no_path_to_hidden(game, 0, obs)


def test_observations_are_read_only_values() -> None:
    game = Round.deal(CLASSIC, 5, 1)
    random_actions(game, random.Random(5), 6)
    obs = game.observation(game.turn)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.hand = 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        del obs.field
    # Built in full, it equals the lazy one; copies and pickles are equal too.
    given = Observation(**{name: getattr(obs, name) for name in OBSERVATION_FIELDS})
    assert given == obs
    assert pickle.loads(pickle.dumps(obs)) == obs
    assert obs != game.observation(1 - game.turn)
    assert repr(obs).startswith(f"Observation(seat={game.turn}, rules=RuleSet(")


@pytest.mark.parametrize("seed", range(30))
def test_from_observation_with_the_true_hidden_cards_reproduces_the_round(seed: int) -> None:
    rng = random.Random(seed)
    rules = PRESETS[sorted(PRESETS)[seed % 4]]
    game = Round.deal(rules, seed, seed % 2)
    random_actions(game, rng, rng.randrange(0, 25))
    for seat in (0, 1):
        obs = game.observation(seat)
        rebuilt = Round.from_observation(obs, game.hands[1 - seat], game.stock_left)
        original = game.copy()
        assert rebuilt.observation(0) == original.observation(0)
        assert rebuilt.observation(1) == original.observation(1)
        moves = random.Random(seed * 7 + seat)
        while not original.is_over:
            action = moves.choice(original.legal_actions())
            assert rebuilt.legal_actions() == original.legal_actions()
            original.apply(action)
            rebuilt.apply(action)
            assert rebuilt.observation(0) == original.observation(0)
            assert rebuilt.observation(1) == original.observation(1)
        assert rebuilt.is_over
        assert rebuilt.result == original.result


def test_from_observation_refuses_a_wrong_guess() -> None:
    game = Round.deal(CLASSIC, 3, 0)
    obs = game.observation(0)
    with pytest.raises(ValueError, match="unseen"):
        Round.from_observation(obs, game.hands[0], game.stock_left)
    with pytest.raises(ValueError, match="unseen"):
        Round.from_observation(obs, game.hands[1], game.stock_left[1:])


# -- deals and actions in record form ---------------------------------------------------


def test_deal_json_is_the_given_deal() -> None:
    game = Round.deal(CLASSIC, 11, 1)
    data = game.deal_json()
    again = Round.from_deal(CLASSIC, data["dealer"], data["hands"], data["field"], data["stock"])
    assert again.observation(0) == game.observation(0)
    assert again.stock_left == game.stock_left
    assert len(data["hands"][0]) == len(data["hands"][1]) == 8
    assert len(data["field"]) == 8
    assert len(data["stock"]) == 24


def test_a_shuffled_deck_is_the_order_its_draw_stands_for() -> None:
    """The table-driven decoding agrees with the plain one, its draw is randrange(48!)'s
    (redrawn alike where the first is too big, then the generator goes on alike), and a
    seed's deck never changes (records and the browser's engine replay from seeds)."""
    for seed in range(200):
        plain, tabled = random.Random(seed), random.Random(seed)
        for _ in range(3):
            assert shuffled_deck(tabled) == _order(plain.randrange(math.factorial(48)), 48)
        assert tabled.random() == plain.random()
    assert shuffled_deck(random.Random(2026)) == [
        9, 44, 19, 38, 14, 3, 5, 41, 47, 21, 31, 32, 24, 17, 36, 7, 39, 20, 0, 45, 28, 15, 8, 25,
        4, 26, 27, 10, 13, 12, 23, 2, 11, 46, 42, 29, 35, 43, 18, 6, 33, 22, 40, 16, 30, 37, 34, 1,
    ]  # fmt: skip


def place(cards: Sequence[int], where: tuple[int, int, int]) -> list[int]:
    """For each card, the index of the set in ``where`` that holds it."""
    return [next(i for i, part in enumerate(where) if part >> card & 1) for card in cards]


def test_deal_in_pairs_deals_two_by_two() -> None:
    pairs = rules_with(deal_in_pairs=True)
    for seed in range(10):
        deck = shuffled_deck(random.Random(seed))
        game = Round.deal(pairs, random.Random(seed), seed % 2)
        singles = Round.deal(CLASSIC, random.Random(seed), seed % 2)
        places = (game.hands[0], game.hands[1], game.field)
        spots = place(deck[:24], places)
        assert all(spots[i] == spots[i + 1] for i in range(0, 24, 2))
        single_spots = place(deck[:24], (singles.hands[0], singles.hands[1], singles.field))
        assert all(len(set(single_spots[i : i + 3])) == 3 for i in range(0, 24, 3))
        assert game.stock_left == tuple(deck[24:]) == singles.stock_left


@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"play": "pine-crane"}, play("pine-crane")),
        ({"capture": "maple-deer"}, capture("maple-deer")),
        ({"koikoi": True}, KOIKOI),
        ({"stop": True}, STOP),
    ],
)
def test_actions_in_record_form(data: dict[str, Any], action: int) -> None:
    assert action_from_json(data) == action
    assert action_to_json(action) == data


@pytest.mark.parametrize(
    "data",
    [
        {"play": "pine-crain"},
        {"koikoi": False},
        {"stop": 1},
        {"play": "pine-crane", "stop": True},
        ["play", "pine-crane"],
        "stop",
        {},
        {"pass": True},
    ],
)
def test_malformed_actions_are_refused(data: Any) -> None:
    with pytest.raises(ValueError, match="action"):
        action_from_json(data)


def test_from_deal_refuses_bad_deals() -> None:
    good = build()
    data = good.deal_json()
    hands, field, stock = data["hands"], data["field"], data["stock"]
    for dealer in (2, -1, True, 1.0, "0", None):
        with pytest.raises(DealError, match="dealer"):
            Round.from_deal(CLASSIC, dealer, hands, field, stock)  # type: ignore[arg-type]
    with pytest.raises(DealError, match="hand 0 has 7"):
        Round.from_deal(CLASSIC, 0, [hands[0][:-1], hands[1]], field, [hands[0][-1], *stock])
    with pytest.raises(DealError, match="field has 9"):
        Round.from_deal(CLASSIC, 0, hands, [*field, stock[0]], stock[1:])
    with pytest.raises(DealError, match="pine-crain"):
        Round.from_deal(CLASSIC, 0, hands, field, ["pine-crain", *stock[1:]])
    with pytest.raises(DealError, match="twice"):
        Round.from_deal(CLASSIC, 0, hands, field, [*stock[:-1], field[0]])
    with pytest.raises(DealError, match="missing"):
        Round.from_deal(CLASSIC, 0, hands, field, stock[:-1])
    with pytest.raises(DealError):
        Round.from_deal(CLASSIC, 0, [hands[0]], field, stock)
