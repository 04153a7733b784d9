"""The coach: hints that see only what the seat sees, a risk meter that counts right,
and reviews that anyone with the record can reproduce."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import combinations, pairwise, permutations

import pytest

from koikoi import coach
from koikoi.cards import ALL_CARDS, cards_from_slugs, ids, slugs
from koikoi.coach import Outlook, hint, review, risk
from koikoi.match import Match
from koikoi.players import make_player
from koikoi.players.expert import match_chance, play_out, rollout_guide
from koikoi.record import Record
from koikoi.round import (
    EXHAUSTED,
    KOIKOI,
    STOP,
    MatchView,
    Observation,
    Phase,
    Round,
    RoundResult,
    action_from_json,
)
from koikoi.rules import CLASSIC, PRESETS
from koikoi.yaku import scorer_for

ROLLOUTS = 120
"""Enough for the coach's choices to mean something, few enough for a quick test."""


def positions(seed: int, seat: int = 0) -> Iterator[tuple[Match, Observation]]:
    """Every position of a normal-against-normal classic match where ``seat`` has a choice."""
    match = Match(CLASSIC, seed)
    players = [make_player("normal", seed), make_player("normal", seed + 1)]
    while not match.is_over:
        obs = match.observation(match.turn)
        if match.turn == seat and len(obs.legal_actions) > 1:
            yield match, obs
        match.apply(players[match.turn].choose(obs))


def rearranged(game: Round, obs: Observation, seed: int) -> Observation:
    """The same seat's view of another round: the cards it cannot see dealt otherwise
    than in ``game``, the real one."""
    unseen = ids(obs.unseen)
    random.Random(seed).shuffle(unseen)
    hand = sum(1 << card for card in unseen[: obs.opponent_hand_size])
    other = Round.from_observation(obs, hand, unseen[obs.opponent_hand_size :])
    assert (other.hands[1 - obs.seat], other.stock_left) != (
        game.hands[1 - obs.seat],
        game.stock_left,
    )
    return other.observation(obs.seat, obs.match)


# -- hints ---------------------------------------------------------------------------------


def test_a_hint_is_the_same_whatever_the_hidden_cards_are() -> None:
    """The hint of a seat depends only on what it sees: the opponent's hand and the
    stock's order dealt three other ways, the same seed, the same hint (risk meter
    included at a decision)."""
    checked = {Phase.PLAY: 0, Phase.HAND_CHOICE: 0, Phase.DRAW_CHOICE: 0, Phase.DECISION: 0}
    for seed in range(6):
        for index, (match, obs) in enumerate(positions(seed)):
            if index % 5 and obs.phase is Phase.PLAY:
                continue  # every choice and decision, a fifth of the plays
            advice = coach.advice(obs, seed * 1000 + index, ROLLOUTS)
            for shuffle in range(3):
                other = rearranged(match.round, obs, shuffle)
                assert other == obs  # the seat's view itself is unchanged
                assert coach.advice(other, seed * 1000 + index, ROLLOUTS) == advice
            checked[obs.phase] += 1
    assert all(checked.values()), checked


def test_a_hint_names_a_legal_move_and_a_worse_runner_up() -> None:
    for _, obs in list(positions(3))[:12]:
        found = hint(obs, 1, ROLLOUTS)
        assert found.best in obs.legal_actions
        assert found.runner_up in obs.legal_actions
        assert found.runner_up != found.best
        assert found.loss >= 0
        assert 0 <= found.chance <= 1
        assert found.reasons, found


def test_the_reasons_describe_the_cards_as_the_seat_sees_them() -> None:
    """Taking the sake cup when the curtain and the moon are in the pile makes hanami
    and tsukimi; taking the curtain with the cup in the opponent's pile denies them
    hanami; a discard of a dead month says so."""
    sake = cards_from_slugs(["chrysanthemum-sake"])
    curtain_moon = cards_from_slugs(["cherry-curtain", "susuki-moon"])
    obs = view(
        hand=["chrysanthemum-plain-1", "pine-plain-1"],
        field=["chrysanthemum-sake", "plum-plain-1"],
        captured=(curtain_moon, 0),
        opponent_size=6,
    )
    facts = coach.card_facts(obs, cards_from_slugs(["chrysanthemum-plain-1"]).bit_length() - 1)
    kinds = {(fact.kind, fact.values.get("yaku")) for fact in facts}
    assert ("makes", "hanami") in kinds
    assert ("makes", "tsukimi") in kinds
    assert facts[0].values["cards"] == slugs(sake | cards_from_slugs(["chrysanthemum-plain-1"]))

    obs = view(
        hand=["cherry-plain-1", "pine-plain-1"],
        field=["cherry-curtain", "plum-plain-1"],
        captured=(0, sake),
        opponent_size=6,
    )
    facts = coach.card_facts(obs, cards_from_slugs(["cherry-plain-1"]).bit_length() - 1)
    denial = [fact for fact in facts if fact.kind == "denies" and fact.values["yaku"] == "hanami"]
    assert denial
    assert denial[0].values["held"] == ["chrysanthemum-sake"]
    assert denial[0].values["closes"] is True

    # Every other pine card in sight: a pine discarded cannot be taken by the opponent.
    pines = ["pine-crane", "pine-poetry", "pine-plain-2"]
    obs = view(
        hand=["pine-plain-1", "plum-plain-1"],
        field=["iris-plain-1"],
        captured=(cards_from_slugs(pines), 0),
        opponent_size=6,
    )
    pine = cards_from_slugs(["pine-plain-1"]).bit_length() - 1
    plum = cards_from_slugs(["plum-plain-1"]).bit_length() - 1
    assert coach.card_facts(obs, pine)[0].kind == "discard-dead"
    assert coach.card_facts(obs, plum)[0].kind == "discard"


def view(
    *,
    hand: list[str],
    field: list[str],
    captured: tuple[int, int],
    opponent_size: int,
    phase: Phase = Phase.PLAY,
    stock_size: int | None = None,
    match: MatchView | None = None,
) -> Observation:
    """Seat 0's view of a built position (the hidden cards: whatever is not named)."""
    own, table = cards_from_slugs(hand), cards_from_slugs(field)
    unseen = ALL_CARDS & ~(own | table | captured[0] | captured[1])
    scorer = scorer_for(CLASSIC)
    legal = (KOIKOI, STOP) if phase is Phase.DECISION else tuple(ids(own))
    return Observation(
        seat=0,
        rules=CLASSIC,
        phase=phase,
        turn=0,
        dealer=0,
        month=0,
        hand=own,
        opponent_hand_size=opponent_size,
        field=table,
        captured=captured,
        stock_size=unseen.bit_count() - opponent_size if stock_size is None else stock_size,
        pending_card=None,
        legal_actions=legal,
        calls=(0, 0),
        yaku=(scorer.score(captured[0], 0), scorer.score(captured[1], 0)),
        decided=(None, None),
        history=(),
        result=None,
        match=match,
    )


# -- the risk meter ------------------------------------------------------------------------

HAND = ["pine-plain-1", "cherry-poetry"]
FIELD = ["peony-plain-1", "clover-ribbon", "maple-plain-2", "willow-swallow"]
UNSEEN = [
    "peony-butterflies",
    "willow-rainman",
    "paulownia-plain-3",
    "pine-plain-2",
    "iris-plain-2",
]
OWN_PILE = [
    *("pine-crane", "cherry-curtain", "susuki-moon"),  # sanko: the yaku decided on
    *("plum-warbler", "susuki-geese", "iris-bridge"),
    *("pine-poetry", "wisteria-ribbon", "iris-ribbon", "peony-blue"),
    *("plum-plain-1", "plum-plain-2", "cherry-plain-1", "cherry-plain-2", "wisteria-plain-1"),
    *("wisteria-plain-2", "iris-plain-1", "peony-plain-2", "clover-plain-1"),
]


def small_decision(match: MatchView | None) -> Observation:
    """Seat 0 has just made sanko with five cards unseen: two in the opponent's hand,
    three in the stock. The opponent holds the boar and the deer (the butterflies are
    unseen) and nine plains (one more makes kasu)."""
    seen = cards_from_slugs(HAND + FIELD + UNSEEN + OWN_PILE)
    return view(
        hand=HAND,
        field=FIELD,
        captured=(cards_from_slugs(OWN_PILE), ALL_CARDS & ~seen),
        opponent_size=2,
        phase=Phase.DECISION,
        match=match,
    )


def scores_in_turn(game: Round, seat: int) -> bool:
    """Brute force, apart from the coach's search: every line of ``seat``'s turn."""
    if game.phase is Phase.OVER:
        assert game.result is not None
        return game.result.winner == seat and game.result.reason != EXHAUSTED
    if game.turn != seat:
        return False
    if game.phase is Phase.DECISION:
        return True
    outcomes = []
    for action in game.legal_actions():
        line = game.copy()
        line.apply(action)
        outcomes.append(scores_in_turn(line, seat))
    return any(outcomes)


def brute_force(obs: Observation) -> dict[str, float]:
    """Every arrangement of the unseen cards, counted by hand."""
    unseen = ids(obs.unseen)
    guide = rollout_guide(obs.captured, obs.rules)
    counts = {"worlds": 0, "next": 0, "before_end": 0, "own": 0, "points": 0, "chance": 0.0}
    stop_chance = 0.0
    for hand in combinations(unseen, obs.opponent_hand_size):
        for stock in permutations(sorted(set(unseen) - set(hand))):
            world = Round.from_observation(obs, sum(1 << card for card in hand), list(stock))
            stopped = world.copy()
            stopped.apply(STOP)
            assert stopped.result is not None
            stop_chance += match_chance(0, stopped.result.points, obs.match)
            world.apply(KOIKOI)
            threat = scores_in_turn(world.copy(), 1)
            result = play_out(world, coach.world_noise(sum(1 << c for c in hand), stock), guide)
            counts["worlds"] += 1
            counts["next"] += threat
            lost = result.winner == 1 and result.reason != EXHAUSTED
            counts["before_end"] += threat or lost
            counts["own"] += result.winner == 0 and result.reason != EXHAUSTED
            counts["points"] += result.points[0] - result.points[1]
            counts["chance"] += match_chance(0, result.points, obs.match)
    worlds = counts.pop("worlds")
    shares = {key: value / worlds for key, value in counts.items()}
    return {**shares, "worlds": worlds, "stop_chance": stop_chance / worlds}


@pytest.mark.parametrize(
    "match", [None, MatchView(round_number=12, rounds=12, totals=(30, 33), target_score=0)]
)
def test_the_risk_meter_counts_every_arrangement_of_a_small_position(
    match: MatchView | None,
) -> None:
    obs = small_decision(match)
    assert coach.arrangements(obs) == math.comb(5, 2) * math.factorial(3)
    meter = risk(obs)
    expected = brute_force(obs)
    assert meter.exact
    assert meter.worlds == expected["worlds"] == 60
    assert meter.next_turn == pytest.approx(expected["next"])
    assert meter.before_end == pytest.approx(expected["before_end"])
    assert meter.own_later == pytest.approx(expected["own"])
    assert meter.call_points == pytest.approx(expected["points"])
    assert meter.call_chance == pytest.approx(expected["chance"])
    assert meter.stop_chance == pytest.approx(expected["stop_chance"])
    assert meter.stop_points == 5  # sanko, and nothing else: the round ends at once
    # Neither certain nor impossible: the position is a real question.
    assert 0 < meter.next_turn < 1
    assert meter.next_turn <= meter.before_end < 1


def test_the_sampled_risk_meter_agrees_with_the_count(monkeypatch: pytest.MonkeyPatch) -> None:
    obs = small_decision(None)
    exact = risk(obs)
    monkeypatch.setattr(coach, "EXACT_WORLDS", 0)
    samples = 3000
    sampled = risk(obs, seed=5, samples=samples)
    assert not sampled.exact
    assert sampled.worlds == samples
    for name in ("next_turn", "before_end", "own_later"):
        p = getattr(exact, name)
        spread = math.sqrt(p * (1 - p) / samples)
        assert abs(getattr(sampled, name) - p) <= 4 * spread + 1e-9, name


def test_the_risk_meter_is_only_for_decisions() -> None:
    _, obs = next(positions(1))
    with pytest.raises(ValueError, match="stop-or-koi-koi"):
        risk(obs)


def test_a_hint_at_a_decision_follows_the_risk_meter() -> None:
    for seed in range(8):
        for _, obs in positions(seed):
            if obs.phase is Phase.DECISION:
                meter = risk(obs, 2)
                found = hint(obs, 2, ROLLOUTS)
                better = KOIKOI if meter.call_chance > meter.stop_chance else STOP
                assert found.best == better
                assert found.loss == pytest.approx(abs(meter.call_chance - meter.stop_chance))
                return
    raise AssertionError("no decision in eight matches")


# -- reviews -------------------------------------------------------------------------------


def played(seed: int) -> Record:
    match = Match(CLASSIC, seed)
    players = [make_player("easy", seed), make_player("normal", seed + 1)]
    while not match.is_over:
        match.apply(players[match.turn].choose(match.observation(match.turn)))
    return Record.from_match(match)


def test_a_review_is_reproducible_from_the_record() -> None:
    record = played(11)
    first = review(record, rollouts=60)
    again = review(Record.from_json(record.to_json()), rollouts=60)
    assert first == again
    assert first.to_json() == again.to_json()


def choices_of(record: Record, seat: int = 0) -> list[int]:
    """Where ``seat`` had a choice in a recorded match: the record's indices."""
    match = Match(record.rules, record.seed or 0)
    places = []
    for index, data in enumerate(record.actions):
        if match.turn == seat and len(match.legal_actions()) > 1:
            places.append(index)
        match.apply(action_from_json(data))
    return places


def test_a_review_judges_every_decision_with_a_choice() -> None:
    record = played(12)
    reviewed = review(record, rollouts=60)
    assert [decision.index for decision in reviewed.decisions] == choices_of(record)
    for decision in reviewed.decisions:
        # A move the expert dropped early was sampled less: its estimate may even
        # come out above the best's, which is then no loss.
        assert decision.loss == max(0.0, decision.best_chance - decision.chance)
        assert decision.mark == coach.mark(decision.loss)
        if decision.action == decision.best:
            assert decision.loss == 0
            assert decision.mark == "good"
    marks = {decision.mark for decision in reviewed.decisions}
    assert "good" in marks
    assert marks - {"good"}, marks  # easy makes some mistakes
    # The swings are the biggest moves of the chance between two decisions.
    swings = reviewed.swings
    assert len(swings) == coach.SWINGS
    assert list(swings) == sorted(set(swings))
    chances = [decision.chance for decision in reviewed.decisions]
    moves = [abs(after - before) for before, after in pairwise(chances)]
    smallest_swing = min(moves[i - 1] for i in swings)
    assert sum(move > smallest_swing for move in moves) < coach.SWINGS


def test_a_review_of_the_other_seat_judges_its_choices() -> None:
    record = played(13)
    reviewed = review(record, seat=1, rollouts=30)
    assert reviewed.seat == 1
    assert [decision.index for decision in reviewed.decisions] == choices_of(record, 1)


def test_outlooks_average_what_the_rounds_gave() -> None:
    _, obs = next(positions(0))
    outlook = Outlook()
    outlook.add(0, RoundResult(0, (6, 0), ({"sanko": 6}, {}), (0, 0), "stop"), obs)
    outlook.add(0, RoundResult(1, (0, 2), ({}, {"tan": 2}), (0, 0), "stop"), obs)
    outlook.add(0, RoundResult(None, (0, 0), ({}, {}), (0, 0), EXHAUSTED), obs)
    assert outlook.points == pytest.approx(4 / 3)
    assert outlook.own_yaku == outlook.their_yaku == pytest.approx(1 / 3)
    expected = [match_chance(0, points, obs.match) for points in ((6, 0), (0, 2), (0, 0))]
    assert outlook.chance == pytest.approx(sum(expected) / 3)


def test_every_preset_gets_hints() -> None:
    for name, rules in PRESETS.items():
        match = Match(rules, 4)
        player = make_player("normal", 4)
        while len(match.legal_actions()) < 2:
            match.apply(player.choose(match.observation(match.turn)))
        obs = match.observation(match.turn)
        assert hint(obs, 3, 40).best in obs.legal_actions, name
