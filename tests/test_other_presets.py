"""The rule sets other AIs play (``nintendo``, ``koikoi-japan``) and the fields they
brought: each test is written from the rule as the README's "Rule sets" states it."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest

from deals import build
from koikoi.cards import card_from_slug, cards_from_slugs
from koikoi.match import Match
from koikoi.round import (
    EXHAUSTED,
    KOIKOI,
    NO_CALL_ALLOWED,
    STOP,
    DealError,
    Phase,
    Round,
    _deal_from,
    _dealing,
    _field_redeals,
    _hand_redeals,
    shuffled_deck,
)
from koikoi.rules import (
    CLASSIC,
    PRESETS,
    RulesError,
    RuleSet,
    _standing_share,
    deal_chance,
    resolve_rules,
)
from koikoi.sim import Tally, simulate
from koikoi.yaku import koikoi_bonus, score_pile, scorer_for

NINTENDO = PRESETS["nintendo"]
JAPAN = PRESETS["koikoi-japan"]


def rules_with(base: RuleSet = CLASSIC, **overrides: Any) -> RuleSet:
    return base.with_overrides(overrides)


def score(slugs: list[str], rules: RuleSet, **kwargs: Any) -> dict[str, int]:
    return scorer_for(rules).score(cards_from_slugs(slugs), **kwargs)


def play(slug: str) -> int:
    return card_from_slug(slug)


SIX_RIBBONS = [
    "pine-poetry", "plum-poetry", "cherry-poetry",
    "peony-blue", "chrysanthemum-blue", "maple-blue",
]  # fmt: skip
BRIGHTS = ["pine-crane", "cherry-curtain", "susuki-moon", "willow-rainman", "paulownia-phoenix"]
INOSHIKACHO = ["clover-boar", "maple-deer", "peony-butterflies"]
TSUKIMI = ["susuki-moon", "chrysanthemum-sake"]
HANAMI = ["cherry-curtain", "chrysanthemum-sake"]


# -- redeals at the deal ----------------------------------------------------------------


def test_three_of_a_month_on_the_field_is_redealt_only_under_its_rule() -> None:
    field = ["plum-warbler", "plum-poetry", "plum-plain-1"]
    build(CLASSIC, field=field)
    with pytest.raises(DealError, match="redeal"):
        build(rules_with(redeal_three_of_month=True), field=field)
    # Two of a month is no redeal.
    build(rules_with(redeal_three_of_month=True), field=field[:2])


def test_a_hand_with_a_whole_month_or_four_pairs_is_redealt_under_its_rule() -> None:
    whole_month = ["plum-warbler", "plum-poetry", "plum-plain-1", "plum-plain-2"]
    pairs = [
        "susuki-moon", "susuki-geese", "chrysanthemum-sake", "chrysanthemum-blue",
        "maple-deer", "maple-blue", "willow-rainman", "willow-swallow",
    ]  # fmt: skip
    build(CLASSIC, hands=(whole_month, ()))
    with pytest.raises(DealError, match="hand 0"):
        build(rules_with(redeal_hand_four_of_month=True), hands=(whole_month, ()))
    with pytest.raises(DealError, match="hand 1"):
        build(rules_with(redeal_hand_four_pairs=True), hands=((), pairs))
    # Each condition alone: four pairs are no whole month, and the reverse.
    build(rules_with(redeal_hand_four_of_month=True), hands=((), pairs))
    build(rules_with(redeal_hand_four_pairs=True), hands=(whole_month, ()))


@pytest.mark.parametrize("preset", ["nintendo", "koikoi-japan"])
def test_the_presets_never_deal_what_they_redeal(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(7)
    for _ in range(300):
        game = Round.deal(rules, rng, dealer=0)
        assert not game.is_over  # a redealt hand yaku never ends a round at the deal
        field_counts = [(game.field >> (4 * m) & 15).bit_count() for m in range(12)]
        assert max(field_counts) < (3 if rules.redeal_three_of_month else 4)
        if rules.redeal_four_pairs:
            assert field_counts.count(2) < 4
        for hand in game.hands:
            counts = [(hand >> (4 * m) & 15).bit_count() for m in range(12)]
            assert 4 not in counts
            if rules.redeal_hand_four_pairs:
                assert counts.count(2) < 4


def test_a_hand_yaku_that_is_redealt_cannot_also_score() -> None:
    with pytest.raises(RulesError, match="'redeal_hand_four_of_month' and 'teshi'"):
        RuleSet.from_mapping({"preset": "traditional", "redeal_hand_four_of_month": True})
    with pytest.raises(RulesError, match="'redeal_hand_four_pairs' and 'kuttsuki'"):
        resolve_rules("nintendo", ["kuttsuki=4"])


@pytest.mark.parametrize(
    ("overrides", "fullest"),
    [
        ({"redeal_three_of_month": True}, 24),  # two of every month
        ({"redeal_three_of_month": True, "redeal_four_pairs": True}, 15),  # 3 pairs + 9
        ({"redeal_four_of_month": True, "redeal_four_pairs": True}, 36),
    ],
)
def test_a_field_too_large_for_its_redeals_is_refused(
    overrides: dict[str, Any], fullest: int
) -> None:
    with pytest.raises(RulesError, match=f"at most {fullest} cards meet none"):
        RuleSet.from_mapping({**overrides, "hand_size": 1, "field_size": fullest + 1})
    # The fullest field that can stand is a rare deal: refused for that instead.
    with pytest.raises(RulesError, match="only about"):
        RuleSet.from_mapping({**overrides, "hand_size": 1, "field_size": fullest})


# -- scoring fields --------------------------------------------------------------------


def test_brights_score_independently_when_not_exclusive() -> None:
    independent = rules_with(brights_exclusive=False)
    assert score(BRIGHTS, CLASSIC) == {"goko": 10}
    assert score(BRIGHTS, independent) == {"goko": 10, "shiko": 8, "ame-shiko": 7, "sanko": 5}
    rain_and_three = ["pine-crane", "cherry-curtain", "susuki-moon", "willow-rainman"]
    assert score(rain_and_three, CLASSIC) == {"ame-shiko": 7}
    assert score(rain_and_three, independent) == {"ame-shiko": 7, "sanko": 5}
    # A level switched off stays off.
    assert score(BRIGHTS, rules_with(independent, shiko=0)) == {
        "goko": 10,
        "ame-shiko": 7,
        "sanko": 5,
    }


def test_viewing_points_rise_once_their_holder_has_called() -> None:
    assert score(TSUKIMI, JAPAN) == {"tsukimi": 1}
    assert score(TSUKIMI, JAPAN, called=True) == {"tsukimi": 3}
    assert score([*TSUKIMI, "cherry-curtain"], JAPAN, called=True) == {"tsukimi": 3, "hanami": 3}
    # A viewing yaku switched off stays off, and without the rule a call changes nothing.
    assert score(TSUKIMI, rules_with(JAPAN, tsukimi=0), called=True) == {}
    assert score(TSUKIMI, CLASSIC, called=True) == {"tsukimi": 5}
    # koikoi score: the own calls say whether the holder has called.
    pile = cards_from_slugs(TSUKIMI)
    assert score_pile(pile, JAPAN).final == 1
    assert score_pile(pile, JAPAN, own_calls=1).final == 3 + 1


def test_viewing_in_season_scores_only_in_its_month() -> None:
    seasonal = rules_with(viewing_in_season=True)
    both = [*TSUKIMI, "cherry-curtain"]
    assert score(both, seasonal, month=3) == {"hanami": 5}
    assert score(both, seasonal, month=8) == {"tsukimi": 5}
    assert score(both, seasonal, month=5) == {}
    assert score(both, seasonal) == {}  # month unknown: never in season
    assert score(both, CLASSIC, month=5) == {"tsukimi": 5, "hanami": 5}


@pytest.mark.parametrize(
    ("calls", "final"), [(0, 10), (1, 11), (2, 12), (3, 13), (4, 20), (5, 30), (7, 50)]
)
def test_the_additive_bonus_adds_a_point_a_call_then_multiplies(calls: int, final: int) -> None:
    scorer = scorer_for(JAPAN)
    assert scorer.final(10, calls, 0) == final
    # The opponent's calls change nothing.
    assert scorer.final(10, calls, 3) == final
    assert koikoi_bonus(JAPAN.multiplier, calls) == (calls if calls <= 3 else 0)


def test_koikoi_japan_adds_akatan_aotan_to_both_sets() -> None:
    # All six: akatan 5 + aotan 5 + akatan-aotan 10, and tan for six ribbons (1 + 1).
    assert score(SIX_RIBBONS, JAPAN) == {"akatan": 5, "aotan": 5, "akatan-aotan": 10, "tan": 2}
    # Inoshikacho stays flat and tane still counts beside it; the sake cup is an animal
    # and a plain at once.
    animals = [
        "clover-boar",
        "maple-deer",
        "peony-butterflies",
        "chrysanthemum-sake",
        "iris-bridge",
    ]
    assert score(animals, JAPAN) == {"inoshikacho": 5, "tane": 1}
    plains = [f"{month}-plain-1" for month in ("pine", "plum", "cherry", "wisteria", "iris")]
    plains += [f"{month}-plain-2" for month in ("pine", "plum", "cherry", "wisteria")]
    assert score([*plains, "chrysanthemum-sake"], JAPAN) == {"kasu": 1}


def test_nintendo_scores_one_yaku_per_category_with_extras() -> None:
    seven_ribbons = [*SIX_RIBBONS, "willow-ribbon"]
    # Akatan-aotan replaces both sets, +1 for the ribbon beyond six, and no tan.
    assert score(seven_ribbons, NINTENDO) == {"akatan-aotan": 11}
    assert score([*SIX_RIBBONS[:3], "willow-ribbon", "iris-ribbon"], NINTENDO) == {"akatan": 7}
    # Inoshikacho +1 an animal beyond three (the sake cup is one), and no tane.
    animals = [
        "clover-boar",
        "maple-deer",
        "peony-butterflies",
        "chrysanthemum-sake",
        "iris-bridge",
    ]
    assert score(animals, NINTENDO) == {"inoshikacho": 7}
    # x2 at 7 or more, x2 when the opponent called: x4 together; own calls add nothing.
    scorer = scorer_for(NINTENDO)
    assert scorer.final(6, 1, 0) == 6
    assert scorer.final(7, 0, 0) == 14
    assert scorer.final(7, 0, 1) == 28


# -- the round ---------------------------------------------------------------------------

# Seat 0 (the dealer) takes the moon and the sake cup on its first turn (tsukimi), calls
# koi-koi, and on its next turn takes only a plain.
VIEWING_DEAL: dict[str, Any] = {
    "hands": (
        ["susuki-moon", "pine-plain-1", "maple-plain-1", "maple-plain-2", "willow-swallow",
         "willow-ribbon", "paulownia-plain-1", "paulownia-plain-2"],
        ["wisteria-plain-1", "wisteria-plain-2", "maple-deer", "maple-blue",
         "willow-rainman", "willow-lightning", "paulownia-phoenix", "paulownia-plain-3"],
    ),
    "field": ["susuki-geese", "chrysanthemum-sake", "pine-plain-2", "plum-plain-1",
              "cherry-plain-1", "iris-plain-1", "peony-plain-1", "clover-plain-1"],
    "stock": ["chrysanthemum-plain-1", "chrysanthemum-blue", "chrysanthemum-plain-2"],
}  # fmt: skip


def test_the_raise_after_a_call_does_not_itself_reopen_the_choice() -> None:
    game = build(JAPAN, **VIEWING_DEAL)
    game.apply(play("susuki-moon"))
    assert game.phase is Phase.DECISION
    assert game.yaku(0) == {"tsukimi": 1}
    game.apply(KOIKOI)
    assert game.yaku(0) == {"tsukimi": 3}
    game.apply(play("wisteria-plain-1"))
    assert game.turn == 0
    game.apply(play("pine-plain-1"))  # a plain and a plain: no new yaku
    assert (game.phase, game.turn) == (Phase.PLAY, 1)


def test_a_stop_before_any_call_scores_the_viewing_unraised() -> None:
    game = build(JAPAN, **VIEWING_DEAL)
    game.apply(play("susuki-moon"))
    game.apply(STOP)
    assert game.result is not None
    assert game.result.points == (1, 0)


# -- zero-sum matches ----------------------------------------------------------------------


def test_a_zero_sum_match_starts_from_its_points_and_moves_each_rounds_points() -> None:
    for match in simulate(JAPAN, ["normal", "random"], seed=3, matches=20):
        assert sum(match.totals) == 2 * 30
        totals = [30, 30]
        for result in match.results:
            for seat in (0, 1):
                totals[seat] += result.points[seat] - result.points[1 - seat]
            if result.reason == EXHAUSTED:
                assert result.winner is not None
                assert sum(result.points) == 1
        assert match.totals == totals
        assert len(match.results) == JAPAN.rounds or min(match.totals) <= 0
        assert match.winner == (None if totals[0] == totals[1] else int(totals[1] > totals[0]))


def test_a_zero_sum_match_ends_when_a_player_has_no_points_left() -> None:
    rules = rules_with(JAPAN, starting_points=1)
    for match in simulate(rules, ["random", "random"], seed=5, matches=10):
        # Every round of koikoi-japan has a winner (an exhausted round is the dealer's),
        # so the first one leaves the other seat with nothing.
        assert len(match.results) == 1
        assert min(match.totals) <= 0


def test_the_tally_counts_points_won_not_the_starting_points() -> None:
    tally = Tally()
    for match in simulate(JAPAN, ["random", "random"], seed=1, matches=10):
        tally.add(match)
    assert tally.points[0] + tally.points[1] == 0


def test_a_given_deal_ignores_the_starting_points() -> None:
    game = build(JAPAN, **VIEWING_DEAL)
    match = Match.single(game)
    assert match.totals == [0, 0]
    match.apply(play("susuki-moon"))
    match.apply(STOP)
    assert match.totals == [1, 0]


def test_no_call_allowed_ends_the_round_for_the_other_seat_under_nintendo() -> None:
    # Over many games, every round ends with at most one call between both seats.
    for match in simulate(NINTENDO, ["random", "random"], seed=11, matches=20):
        for result in match.results:
            assert sum(result.calls) <= 1
            if result.reason == NO_CALL_ALLOWED:
                assert sum(result.calls) == 1


# -- rule sets whose deals would (nearly) all be redealt -------------------------------


def standing_by_enumeration(size: int, most: int, no_four_pairs: bool) -> float:
    """The share of every ``size``-card subset of the deck that meets no condition."""
    standing = total = 0
    for subset in itertools.combinations(range(48), size):
        counts = [0] * 12
        for card in subset:
            counts[card // 4] += 1
        total += 1
        standing += max(counts) <= most and not (no_four_pairs and counts.count(2) >= 4)
    return standing / total


@pytest.mark.parametrize(
    ("size", "most", "no_four_pairs"), [(3, 2, False), (4, 3, False), (4, 2, True), (8, 4, True)]
)
def test_the_share_of_standing_deals_is_exact(size: int, most: int, no_four_pairs: bool) -> None:
    if size == 8:
        # Four pairs from eight cards: choose the months, then two cards of each.
        expected = 1 - math.comb(12, 4) * math.comb(4, 2) ** 4 / math.comb(48, 8)
    else:
        expected = standing_by_enumeration(size, most, no_four_pairs)
    assert _standing_share(size, most, no_four_pairs) == pytest.approx(expected, rel=1e-12)


def test_the_deal_chance_agrees_with_shuffled_deals() -> None:
    rules = NINTENDO
    rng = random.Random(1)
    tries = 4000
    standing = 0
    for _ in range(tries):
        deck = shuffled_deck(rng)
        _, hand_sets, field, _ = _deal_from(deck, _dealing(rules), 0)
        standing += not (
            _field_redeals(field, rules) or any(_hand_redeals(hand, rules) for hand in hand_sets)
        )
    # Within four standard errors of the computed share (about 85%).
    spread = 4 * math.sqrt(deal_chance(rules) * (1 - deal_chance(rules)) / tries)
    assert abs(standing / tries - deal_chance(rules)) < spread


def test_rules_that_let_too_few_deals_stand_are_refused() -> None:
    # Sixteen-card hands are four pairs or more in over half of all deals, and a
    # fourteen-card field is three of a month or four pairs in 94% of them.
    with pytest.raises(RulesError, match=r"only about 0\.86% of deals") as caught:
        resolve_rules("nintendo", ["hand_size=16", "field_size=14"])
    assert "'redeal_hand_four_pairs'" in str(caught.value)
    # A 34-card field holds a whole month in over 99% of deals.
    with pytest.raises(RulesError, match="at least 5% must"):
        resolve_rules("traditional", ["hand_size=7", "field_size=34"])
    assert resolve_rules("traditional", ["hand_size=7", "field_size=30"]).field_size == 30
