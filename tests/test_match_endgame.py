"""The end of a match (issue #16): no computer player stops into a certain match loss.

At a stop-or-koi-koi decision the stop's points are known: the round ends at once with
the seat's yaku and multipliers. When that stop also ends the match (its last round, or
the target score or a zero-sum seat's last point reached) with the seat still behind,
the match is lost for certain, while a koi-koi can be no worse. Normal and the expert
then call koi-koi; everywhere else they choose as before (easy always stops).

Positions are built by hand (:func:`test_players.position`) inside a real match
(:func:`staged`), so that what a stop does to the match is what the engine's own
:class:`Match` books, never a copy of its rules.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest

from koikoi.match import Match
from koikoi.players import make_player
from koikoi.players.expert import DEFAULT_ROLLOUTS, ExpertPlayer
from koikoi.players.heuristic import stop_loses_match, stop_points
from koikoi.round import KOIKOI, STOP, Observation, Phase, Round, RoundResult
from koikoi.rules import CLASSIC, PRESETS, RuleSet
from test_js_players import Twin
from test_parity import house_rules
from test_players import POT_FIELD, POT_HAND, POT_PILES, position, walk_positions

JAPAN = PRESETS["koikoi-japan"]
"""The zero-sum preset: both start with 30 and a round's points move from loser to winner."""

_BOOKED = RoundResult(None, (0, 0), ({}, {}), (0, 0), "exhausted")


def staged(rules: RuleSet, game: Round, round_number: int, totals: tuple[int, int]) -> Match:
    """A seeded match under ``rules`` standing at ``game`` in round ``round_number``
    with these totals: booking the round is then the engine's own business."""
    match = Match(rules, seed=0)
    match.round = game
    match.results = [_BOOKED] * (round_number - 1)
    match.totals = list(totals)
    match._view = None  # the view is built again from the state set here
    return match


def stop_outcome(match: Match, seat: int) -> str:
    """What stopping now does to the match, as the engine books it."""
    after = copy.deepcopy(match)
    after.apply(STOP)
    if not after.is_over:
        return "open"
    if after.winner is None:
        return "drawn"
    return "won" if after.winner == seat else "lost"


# Seat 0's piles and hands at a decision (the small pot of test_players, and variants).
FEW = POT_HAND[:2]  # two cards left: normal stops
BIG_PILES = ([*POT_PILES[0], "cherry-curtain", "cherry-plain-2"], POT_PILES[1])  # 10 points
BIG_FIELD = [card for card in POT_FIELD if card != "cherry-plain-1"]
BOAR_DEER_BUTTERFLIES = (
    ["clover-boar", "clover-plain-1", "maple-deer", "maple-plain-1", "peony-butterflies",
     "peony-plain-1"],
    ["pine-poetry", "pine-plain-1", "iris-ribbon", "iris-plain-2"],
)  # fmt: skip
"""Inoshikacho: 5 points under koikoi-japan (a small pot there is tsukimi's 1)."""
IDS_HAND = ["wisteria-plain-1", "pine-plain-2", "plum-warbler", "susuki-plain-2",
            "paulownia-plain-1", "chrysanthemum-plain-2"]  # fmt: skip
IDS_FIELD = ["wisteria-ribbon", "cherry-plain-1", "iris-plain-1", "clover-plain-2",
             "willow-swallow", "susuki-plain-1"]  # fmt: skip


@dataclass(frozen=True)
class Case:
    name: str
    rules: RuleSet
    round_number: int
    totals: tuple[int, int]
    outcome: str  # what a stop does to the match
    hand: Sequence[str] = tuple(POT_HAND)
    field: Sequence[str] = tuple(POT_FIELD)
    captured: tuple[Sequence[str], Sequence[str]] = POT_PILES
    calls: tuple[int, int] = (0, 0)

    def build(self) -> tuple[Match, Observation]:
        game, _ = position(
            self.rules,
            hand=self.hand,
            field=self.field,
            captured=self.captured,
            opponent_size=len(self.hand),
            phase=Phase.DECISION,
            calls=self.calls,
        )
        match = staged(self.rules, game, self.round_number, self.totals)
        obs = match.observation(0)
        assert obs.phase is Phase.DECISION
        assert obs.legal_actions == (KOIKOI, STOP)
        assert stop_outcome(match, 0) == self.outcome
        return match, obs


LOST = [
    # classic: 12 rounds, target 50; the stop's 5 points (10 with the pot) leave seat 0 behind.
    Case("classic-small-pot", CLASSIC, 12, (0, 45), "lost"),
    Case("classic-few-cards", CLASSIC, 12, (0, 45), "lost", hand=FEW),
    Case("classic-big-pot", CLASSIC, 12, (0, 45), "lost", field=BIG_FIELD, captured=BIG_PILES),
    Case("classic-after-a-call", CLASSIC, 12, (4, 49), "lost", hand=FEW, calls=(1, 0)),
    Case("classic-short-of-a-draw", CLASSIC, 12, (10, 16), "lost", hand=FEW),
    # koikoi-japan, zero-sum: 8 rounds; a stop for p moves p across (30 vs 30 is a draw).
    Case("japan-small-pot", JAPAN, 8, (5, 55), "lost"),
    Case("japan-few-cards", JAPAN, 8, (5, 55), "lost", hand=FEW),
    Case("japan-inoshikacho", JAPAN, 8, (10, 50), "lost", hand=IDS_HAND, field=IDS_FIELD,
         captured=BOAR_DEER_BUTTERFLIES),
]  # fmt: skip
"""Positions where the stop loses the match for certain."""

NOT_LOST = [
    Case("classic-stop-wins", CLASSIC, 12, (0, 3), "won", hand=FEW),
    Case("classic-stop-draws", CLASSIC, 12, (0, 5), "drawn", hand=FEW),
    Case("classic-rounds-left", CLASSIC, 11, (0, 45), "open", hand=FEW),
    Case("classic-stop-reaches-the-target", CLASSIC, 3, (46, 44), "won", hand=FEW),
    # Zero-sum: 27 + 5 against 33 - 5 wins, though 27 + 5 is short of 33.
    Case("japan-stop-wins", JAPAN, 8, (27, 33), "won", hand=IDS_HAND[:2], field=IDS_FIELD,
         captured=BOAR_DEER_BUTTERFLIES),
    Case("japan-stop-draws", JAPAN, 8, (28, 32), "drawn", hand=FEW, field=BIG_FIELD,
         captured=BIG_PILES),
    Case("japan-stop-empties-the-opponent", JAPAN, 3, (55, 5), "won", hand=IDS_HAND[:2],
         field=IDS_FIELD, captured=BOAR_DEER_BUTTERFLIES),
    Case("japan-rounds-left", JAPAN, 7, (5, 55), "open", hand=FEW),
]  # fmt: skip
"""Positions where it does not: a win, a draw, or a match that goes on."""

WON = [case for case in NOT_LOST if case.outcome == "won"]


def names(cases: list[Case]) -> list[str]:
    return [case.name for case in cases]


# -- the players -----------------------------------------------------------------------


@pytest.mark.parametrize("case", LOST, ids=names(LOST))
def test_normal_calls_koikoi_rather_than_lose_the_match(case: Case) -> None:
    _, obs = case.build()
    for seed in range(5):
        assert make_player("normal", seed).choose(obs) == KOIKOI


@pytest.mark.parametrize("case", LOST, ids=names(LOST))
@pytest.mark.parametrize("rollouts", [30, 300, DEFAULT_ROLLOUTS])
def test_the_expert_calls_koikoi_rather_than_lose_the_match(case: Case, rollouts: int) -> None:
    _, obs = case.build()
    for seed in range(3 if rollouts < DEFAULT_ROLLOUTS else 1):
        assert ExpertPlayer(seed, rollouts=rollouts).choose(obs) == KOIKOI


@pytest.mark.parametrize("case", LOST, ids=names(LOST))
def test_easy_still_stops_at_its_first_yaku(case: Case) -> None:
    _, obs = case.build()
    assert make_player("easy", 0).choose(obs) == STOP


@pytest.mark.parametrize("case", NOT_LOST, ids=names(NOT_LOST))
def test_normal_still_stops_when_the_stop_does_not_lose_the_match(case: Case) -> None:
    """Each of these positions is one where normal stops anyway (two cards left)."""
    _, obs = case.build()
    for seed in range(5):
        assert make_player("normal", seed).choose(obs) == STOP


@pytest.mark.parametrize("case", WON, ids=names(WON))
@pytest.mark.parametrize("rollouts", [300, DEFAULT_ROLLOUTS])
def test_the_expert_takes_a_stop_that_wins_the_match(case: Case, rollouts: int) -> None:
    _, obs = case.build()
    for seed in range(3 if rollouts < DEFAULT_ROLLOUTS else 1):
        assert ExpertPlayer(seed, rollouts=rollouts).choose(obs) == STOP


@pytest.mark.parametrize("case", LOST + NOT_LOST, ids=names(LOST + NOT_LOST))
def test_the_javascript_players_choose_the_same(node: str, case: Case) -> None:
    """js:normal and js:expert through the engine protocol, against the Python players."""
    _, obs = case.build()
    for level, options in (("normal", {}), ("expert", {"rollouts": 300})):
        for seed in range(2):
            twin = Twin(node, level, seed, options)
            try:
                chosen = twin.choose(obs)  # raises unless both choose the same
            finally:
                twin.js.close()
            if case.outcome == "lost":
                assert chosen == KOIKOI


# -- the rule, against the engine --------------------------------------------------------


def decisions(rules: RuleSet, seed: int, matches: int) -> Iterator[tuple[Match, int]]:
    """Stop-or-koi-koi decisions of random-move matches: (match, seat)."""
    for match, seat in walk_positions(rules, seed, matches):
        if match.round.phase is Phase.DECISION:
            yield match, seat


def rule_sets() -> list[RuleSet]:
    rng = random.Random("endgame house rules")
    return [*PRESETS.values(), *(house_rules(rng) for _ in range(12))]


def test_stop_points_are_what_the_engine_scores_a_stop() -> None:
    checked = 0
    for index, rules in enumerate(rule_sets()):
        for match, seat in decisions(rules, index, matches=2):
            game = match.round.copy()
            game.apply(STOP)
            assert game.result is not None
            assert stop_points(match.observation(seat)) == game.result.points
            checked += 1
    assert checked > 100


def test_stop_loses_match_is_what_the_engine_books() -> None:
    """Every decision restaged in the last rounds of its match, at totals around the
    stop's points: the rule says lost exactly when the engine's match says so."""
    outcomes: dict[str, int] = {}
    for index, rules in enumerate(rule_sets()):
        for match, seat in decisions(rules, 100 + index, matches=1):
            points = stop_points(match.observation(seat))[seat]
            for round_number in {1, max(1, rules.rounds - 1), rules.rounds}:
                for mine, theirs in around_the_stop(rules, points):
                    totals = (mine, theirs) if seat == 0 else (theirs, mine)
                    game = staged(rules, match.round.copy(), round_number, totals)
                    outcome = stop_outcome(game, seat)
                    lost = stop_loses_match(game.observation(seat))
                    assert lost == (outcome == "lost"), (rules, round_number, totals, outcome)
                    outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert set(outcomes) >= {"lost", "drawn", "won", "open"}, outcomes


def around_the_stop(rules: RuleSet, points: int) -> Iterator[tuple[int, int]]:
    """Live totals (the seat's, the other's) with leads on either side of what a stop
    of ``points`` turns into a loss, a draw or a win."""
    leads = {-2 * points - 2, -2 * points, -2 * points + 2, -points - 1, -points, -points + 1, 0}
    start, target = rules.starting_points, rules.target_score
    for lead in sorted(leads):
        if start:  # zero-sum: the totals add up to twice the start, each above 0
            if lead % 2 or abs(lead) // 2 >= start:
                continue
            yield start + lead // 2, start - lead // 2
        elif not target or max(0, -lead) + max(0, lead) < target:
            yield max(0, lead), max(0, -lead)


def test_stop_loses_match_outside_a_match_is_never_true() -> None:
    """A round played on its own has no match to lose: no match view, or a given deal
    (a match of that one round, which the stopper wins)."""
    game, _ = position(hand=FEW, field=POT_FIELD, captured=POT_PILES, opponent_size=2,
                       phase=Phase.DECISION)  # fmt: skip
    assert not stop_loses_match(game.observation(0))
    for rules in (CLASSIC, JAPAN):
        given = Match.single(position(rules, hand=FEW, field=POT_FIELD, captured=POT_PILES,
                                      opponent_size=2, phase=Phase.DECISION)[0])  # fmt: skip
        assert not stop_loses_match(given.observation(0))
        assert stop_outcome(given, 0) == "won"


# -- the expert's evaluation ----------------------------------------------------------


def test_the_expert_does_not_weigh_a_stop_that_loses_the_match() -> None:
    """Its evaluation leaves out the stop: a koi-koi can be no worse."""
    _, obs = LOST[0].build()
    values = ExpertPlayer(0, rollouts=60).evaluate(obs)
    assert set(values) == {KOIKOI}
