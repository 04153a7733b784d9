"""Computer players (docs/rules.md §2 hidden information, §5 levels): honesty, legality, levels.

Positions are real rounds: a fresh deal from :func:`build`, or a mid-round position from
:func:`position`, which completes a chosen view of one seat with a guess of the hidden
cards through :meth:`Round.from_observation` (the engine's own constructor for search),
so the observation a player gets is always the engine's.
"""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from deals import build
from koikoi.cards import (
    ALL_CARDS,
    BRIGHTS,
    MONTH_MASK_OF,
    SLUGS,
    card_from_slug,
    cards_from_slugs,
    ids,
)
from koikoi.match import Match
from koikoi.players import PLAYERS, Player, UnknownPlayerError, make_player
from koikoi.players.baseline import RandomPlayer, move_gain
from koikoi.players.expert import ExpertPlayer, Worlds, discard_evidence, match_value, sample
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
    play,
)
from koikoi.rules import CLASSIC, PRESETS, RulesError, RuleSet
from koikoi.sim import play_out
from koikoi.tournament import run, schedule, tally
from koikoi.yaku import scorer_for

FAST = {"expert": {"rollouts": 20}}
"""Options that keep the expert quick where only legality or honesty is checked."""


def player(name: str, seed: int = 0) -> Player:
    return make_player(name, seed, **FAST.get(name, {}))


# -- building positions -----------------------------------------------------------------


def position(
    rules: RuleSet = CLASSIC,
    *,
    hand: Sequence[str],
    field: Sequence[str],
    captured: tuple[Sequence[str], Sequence[str]] = ((), ()),
    opponent_size: int,
    phase: Phase = Phase.PLAY,
    seat: int = 0,
    calls: tuple[int, int] = (0, 0),
    pending: str | None = None,
    match: MatchView | None = None,
    hidden_seed: int = 0,
) -> tuple[Round, Observation]:
    """A round in the middle, ``seat`` to act: the named cards where given, and the
    unseen rest shuffled by ``hidden_seed`` into the opponent's hand and the stock."""
    own, table = cards_from_slugs(hand), cards_from_slugs(field)
    piles = (cards_from_slugs(captured[0]), cards_from_slugs(captured[1]))
    pending_card = None if pending is None else card_from_slug(pending)
    seen = own | table | piles[0] | piles[1] | (0 if pending_card is None else 1 << pending_card)
    unseen = ids(ALL_CARDS & ~seen)
    random.Random(hidden_seed).shuffle(unseen)
    opponent = sum(1 << card for card in unseen[:opponent_size])
    stock = unseen[opponent_size:]
    scorer = scorer_for(rules)
    view = Observation(
        seat=seat,
        rules=rules,
        phase=phase,
        turn=seat,
        dealer=0,
        month=0,
        hand=own,
        opponent_hand_size=opponent_size,
        field=table,
        captured=piles,
        stock_size=len(stock),
        pending_card=pending_card,
        legal_actions=(),
        calls=calls,
        yaku=(scorer.score(piles[0], 0), scorer.score(piles[1], 0)),
        decided=(None, None),
        history=(),
        result=None,
        match=match,
    )
    game = Round.from_observation(view, opponent, stock)
    return game, game.observation(seat, match)


def hidden_of(game: Round, seat: int) -> tuple[int, tuple[int, ...]]:
    """What ``seat`` may not see: the opponent's hand and the stock order."""
    return game.hands[1 - seat], game.stock_left


def regrown(obs: Observation, rng: random.Random) -> Round:
    """The same view completed with another random guess of the hidden cards."""
    unseen = ids(obs.unseen)
    rng.shuffle(unseen)
    opponent = sum(1 << card for card in unseen[: obs.opponent_hand_size])
    return Round.from_observation(obs, opponent, unseen[obs.opponent_hand_size :])


def walk_positions(rules: RuleSet, seed: int, matches: int = 1) -> Iterator[tuple[Match, int]]:
    """Every position of random-move matches where a seat is to act: (match, seat)."""
    rng = random.Random(seed)
    for index in range(matches):
        match = Match(rules, seed * 1000 + index)
        while not match.is_over:
            seat = match.turn
            yield match, seat
            match.apply(rng.choice(match.legal_actions()))


def sample_positions(per_preset: int, seed: int = 0) -> list[tuple[Round, Observation]]:
    """Positions of every live phase, ``per_preset`` of each, from random matches under
    every preset (so each observation carries a match view): (round, acting seat's view)."""
    chosen: list[tuple[Round, Observation]] = []
    rng = random.Random(seed)
    for index, rules in enumerate(PRESETS.values()):
        wanted: dict[Phase, int] = {phase: per_preset for phase in Phase if phase is not Phase.OVER}
        for match, seat in walk_positions(rules, seed + index, matches=40):
            phase = match.round.phase
            if wanted[phase] and rng.random() < 0.3:
                wanted[phase] -= 1
                chosen.append((match.round.copy(), match.observation(seat)))
            if not any(wanted.values()):
                break
    return chosen


POSITIONS = sample_positions(per_preset=3)

# Seat 0 at a decision holding tsukimi (5 points), six cards in hand and many left in
# the stock, the opponent without a yaku: a small pot with much of the round to come.
POT_HAND = ["wisteria-plain-1", "pine-plain-2", "plum-warbler", "maple-plain-1",
            "paulownia-plain-1", "clover-boar"]  # fmt: skip
POT_FIELD = ["wisteria-ribbon", "cherry-plain-1", "iris-plain-1", "clover-plain-1",
             "willow-swallow", "peony-plain-1"]  # fmt: skip
POT_PILES = (
    ["susuki-moon", "susuki-plain-1", "chrysanthemum-sake", "chrysanthemum-plain-1"],
    ["peony-blue", "peony-plain-2", "maple-blue", "maple-plain-2"],
)


def small_pot(
    match: MatchView | None = None,
    *,
    hand: Sequence[str] = POT_HAND,
    field: Sequence[str] = POT_FIELD,
    captured: tuple[Sequence[str], Sequence[str]] = POT_PILES,
) -> tuple[Round, Observation]:
    return position(hand=hand, field=field, captured=captured, opponent_size=6,
                    phase=Phase.DECISION, match=match)  # fmt: skip


def test_small_pot_scenario_is_what_it_says() -> None:
    _, obs = small_pot()
    assert obs.phase is Phase.DECISION
    assert obs.legal_actions == (KOIKOI, STOP)
    assert obs.yaku == ({"tsukimi": 5}, {})
    assert obs.hand.bit_count() == 6
    assert obs.stock_size == 22


# -- the registry ---------------------------------------------------------------------------


def test_registry_names_every_level() -> None:
    assert set(PLAYERS) == {"random", "greedy", "easy", "normal", "expert"}
    for name in PLAYERS:
        made = make_player(name, seed=3)
        assert made.name == name
        assert made.choose(build().observation(0)) in build().legal_actions()


def test_unknown_player_is_an_error_naming_it_and_the_nearest() -> None:
    with pytest.raises(UnknownPlayerError, match="'expret'") as error:
        make_player("expret", seed=0)
    assert "did you mean 'expert'?" in str(error.value)
    assert "random" in str(error.value)


def test_expert_options_reach_the_expert() -> None:
    made = make_player("expert", seed=0, rollouts=77, budget_ms=12.5)
    assert isinstance(made, ExpertPlayer)
    assert (made.rollouts, made.budget_ms) == (77, 12.5)


# -- honesty: a player sees only its seat's observation -----------------------------------


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_same_view_other_hidden_cards_same_action(name: str) -> None:
    """Rounds that differ only in what the acting seat cannot see get the same move."""
    rng = random.Random(11)
    checked = 0
    for game, obs in POSITIONS:
        seat = obs.seat
        other = regrown(obs, rng)
        assert hidden_of(other, seat) != hidden_of(game, seat)
        other_obs = other.observation(seat, obs.match)
        assert other_obs == obs
        assert player(name, seed=5).choose(obs) == player(name, seed=5).choose(other_obs)
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_two_deals_with_other_hidden_cards_get_the_same_first_move(name: str) -> None:
    """Two given deals: the same hand and field for seat 0, another opponent and stock."""
    hand = ["pine-crane", "plum-plain-1", "cherry-poetry", "iris-plain-1",
            "peony-blue", "susuki-plain-1", "maple-deer", "paulownia-plain-1"]  # fmt: skip
    field = ["pine-plain-1", "plum-warbler", "cherry-plain-1", "iris-bridge",
             "susuki-moon", "willow-swallow", "clover-ribbon", "wisteria-plain-1"]  # fmt: skip
    first = build(hands=(hand, ()), field=field)
    hidden = [SLUGS[card] for card in ids(first.hands[1])] + [SLUGS[c] for c in first.stock]
    random.Random(4).shuffle(hidden)
    second = Round.from_deal(CLASSIC, 0, [hand, hidden[:8]], field, hidden[8:])
    assert first.hands[1] != second.hands[1]
    assert first.stock != second.stock
    assert first.observation(0) == second.observation(0)
    for seed in range(3):
        moves = [player(name, seed).choose(game.observation(0)) for game in (first, second)]
        assert moves[0] == moves[1]
        assert moves[0] in first.legal_actions()


def reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` through references, short of types, modules
    and code (which lead to the whole interpreter, not to data the root holds)."""
    stop = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
            types.CodeType, types.MethodType)  # fmt: skip
    seen: set[int] = set()
    todo = [root]
    while todo:
        item = todo.pop()
        if id(item) in seen or isinstance(item, stop):
            continue
        seen.add(id(item))
        yield item
        todo.extend(gc.get_referents(item))


def test_an_observation_holds_no_way_to_the_hidden_cards() -> None:
    checked = 0
    for game, obs in POSITIONS:
        seat = obs.seat
        opponent, stock = hidden_of(game, seat)
        stock_mask = sum(1 << card for card in stock)
        found = list(reachable(obs))
        assert obs in found
        assert not any(isinstance(item, Round) for item in found)
        if opponent.bit_count() >= 2:
            assert opponent not in [item for item in found if type(item) is int]
            checked += 1
        if len(stock) >= 2:
            assert stock_mask not in [item for item in found if type(item) is int]
            assert tuple(stock) not in [item for item in found if type(item) is tuple]
    assert checked >= 30


def test_observations_of_a_match_hold_no_round_either() -> None:
    match = Match(CLASSIC, seed=5)
    obs = match.observation(match.turn)
    assert obs.match is not None
    assert not any(isinstance(item, (Round, Match)) for item in reachable(obs))


# -- every player plays legally under every rule set ------------------------------------


def play_checked(rules: RuleSet, names: Sequence[str], seed: int) -> Match:
    """A whole match between two players, checking every action is legal."""
    match = Match(rules, seed)
    seats = [player(name, seed + seat) for seat, name in enumerate(names)]
    while not match.is_over:
        seat = match.turn
        obs = match.observation(seat)
        action = seats[seat].choose(obs)
        assert action in obs.legal_actions, (names[seat], rules.to_mapping())
        match.apply(action)
    return match


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_player_plays_whole_matches_under_every_preset(name: str, preset: str) -> None:
    rules = PRESETS[preset].with_overrides({"rounds": min(PRESETS[preset].rounds, 4)})
    for seed, opponent in enumerate(["random", name]):
        match = play_checked(rules, [name, opponent], seed)
        assert match.results


HOUSE_RULES: dict[str, list[Any]] = {
    "deal_in_pairs": [True, False],
    "first_dealer": ["random", "card-draw", "seat-0"],
    "next_dealer": ["alternate", "winner"],
    "redeal_four_of_month": [True, False],
    "redeal_four_pairs": [True, False],
    "forced_capture": [True, False],
    "teshi": [0, 6],
    "kuttsuki": [0, 6],
    "both_hand_yaku": ["redeal", "dealer", "both", "ignore"],
    "decision": ["new-yaku", "higher-total"],
    "max_koikoi": [0, 1, 2],
    "koikoi_after_opponent": [True, False],
    "multiplier": [
        "none",
        "per-call",
        "any-called",
        "opponent-called",
        "per-opponent-call",
        "additive",
    ],
    "double_at": [0, 7, 8],
    "exhausted": ["draw", "dealer"],
    "exhausted_points": [0, 4],
    "rounds": [1, 2, 3],
    "target_score": [0, 10, 30],
    "tane_min": [1, 3, 5],
    "tan_min": [1, 3, 5],
    "kasu_min": [2, 6, 10],
    "tsukifuda": [0, 4],
    "tsukifuda_month": ["round", "any"],
    "viewing": ["always", "off", "with-other-yaku"],
    "best_per_category": ["none", "animals", "ribbons", "both"],
    "sake_cup": ["animal", "plain", "both"],
    "kusatan": [0, 5],
    "akatan_aotan": [0, 10],
    "goko": [0, 10],
    "sanko": [0, 5],
    "tsukimi": [0, 5],
    "redeal_three_of_month": [True, False],
    "redeal_hand_four_of_month": [True, False],
    "redeal_hand_four_pairs": [True, False],
    "brights_exclusive": [True, False],
    "viewing_after_koikoi": [0, 3],
    "viewing_in_season": [True, False],
    "starting_points": [0, 10],
}
SIZES = [(8, 8), (10, 8), (2, 4), (3, 6), (5, 12), (12, 20), (16, 14), (6, 3)]


def house_rules(rng: random.Random) -> RuleSet:
    """A preset with random overrides (and sometimes odd deal sizes), drawn again
    until the rule set is one RuleSet accepts (some combinations contradict)."""
    while True:
        overrides = {
            key: rng.choice(values) for key, values in HOUSE_RULES.items() if rng.random() < 0.4
        }
        if rng.random() < 0.5:
            overrides["hand_size"], overrides["field_size"] = rng.choice(SIZES)
        overrides["rounds"] = overrides.get("rounds", 2)
        try:
            return PRESETS[rng.choice(sorted(PRESETS))].with_overrides(overrides)
        except RulesError:
            continue


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_player_plays_legally_under_random_house_rules(name: str) -> None:
    rng = random.Random(2024)
    played = 0
    for index in range(24):
        rules = house_rules(rng)
        try:
            match = play_checked(rules, [name, "random" if index % 2 else name], index)
        except RulesError:  # sizes that redeal forever: no match can start
            continue
        played += len(match.results)
    assert played >= 24


class ObservingRandom:
    """A random player with only ``choose``: game loops must build it an observation."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self._player = RandomPlayer(seed)

    def choose(self, obs: Observation) -> Action:
        return self._player.choose(obs)


def test_a_player_given_only_its_legal_actions_plays_as_one_given_observations() -> None:
    """play_out's two paths (``choose_legal`` with the legal actions alone, ``choose``
    with the whole observation) take the same actions under random house rules, in
    either seat and mixed with a player that reads its observation."""
    rng = random.Random(77)
    compared = 0
    for index in range(40):
        rules = house_rules(rng)
        try:
            Match(rules, index)
        except RulesError:  # sizes that redeal forever: no match can start
            continue
        fast = play_out(Match(rules, index), [RandomPlayer(index), RandomPlayer(index + 1)])
        slow = play_out(Match(rules, index), [ObservingRandom(index), ObservingRandom(index + 1)])
        mixed = play_out(Match(rules, index), [RandomPlayer(index), ObservingRandom(index + 1)])
        assert fast.actions == slow.actions == mixed.actions, rules.to_mapping()
        assert fast.results == slow.results == mixed.results
        compared += len(fast.actions)
    assert compared > 500


def test_the_legal_actions_of_a_round_are_those_its_mover_sees() -> None:
    """Round.legal_actions (its fast path for a play included) against the mover's
    observation, at every step of random matches under random house rules."""
    rng = random.Random(78)
    steps = 0
    for index in range(40):
        rules = house_rules(rng)
        try:
            match = Match(rules, index)
        except RulesError:
            continue
        while not match.is_over:
            legal = match.round.legal_actions()
            assert tuple(legal) == match.observation(match.turn).legal_actions
            legal.clear()  # a copy: the round's own lists stay as they were
            match.apply(rng.choice(match.legal_actions()))
            steps += 1
    assert steps > 500


# -- easy ---------------------------------------------------------------------------------------


def decision_positions() -> list[Observation]:
    found = [obs for _, obs in POSITIONS if obs.phase is Phase.DECISION]
    found.append(small_pot()[1])
    return found


@pytest.mark.parametrize("name", ["easy", "greedy"])
def test_easy_and_greedy_always_stop_at_a_decision(name: str) -> None:
    positions = decision_positions()
    assert len(positions) >= 5
    for obs in positions:
        for seed in range(5):
            assert make_player(name, seed).choose(obs) == STOP


def capture_positions(count: int) -> list[Observation]:
    """Positions where a hand card captures and another does not (free to discard)."""
    found: list[Observation] = []
    for match, seat in walk_positions(CLASSIC, seed=8, matches=60):
        obs = match.observation(seat)
        if obs.phase is Phase.PLAY:
            capturing = [a for a in obs.legal_actions if obs.field & MONTH_MASK_OF[a]]
            if capturing and len(capturing) < len(obs.legal_actions):
                found.append(obs)
                if len(found) == count:
                    break
    return found


def captures(obs: Observation, action: Action) -> bool:
    return action >= CAPTURE_BASE or bool(obs.field & MONTH_MASK_OF[action])


def test_easy_captures_when_it_can() -> None:
    positions = capture_positions(150)
    assert len(positions) == 150
    took = sum(
        captures(obs, make_player("easy", seed).choose(obs)) for seed, obs in enumerate(positions)
    )
    by_random = sum(
        captures(obs, make_player("random", seed).choose(obs)) for seed, obs in enumerate(positions)
    )
    assert took >= 0.9 * len(positions)
    assert took > by_random


def test_easy_captures_loosely_not_always_the_best() -> None:
    """Where captures differ in worth, easy often but not always takes the best one."""
    positions = []
    for obs in capture_positions(400):
        gains = {move_gain(obs, a) for a in obs.legal_actions if captures(obs, a)}
        if len(gains) >= 2:
            positions.append(obs)
    assert len(positions) >= 60
    best_easy = best_normal = 0
    for seed, obs in enumerate(positions):
        best = max(move_gain(obs, a) for a in obs.legal_actions)
        best_easy += move_gain(obs, make_player("easy", seed).choose(obs)) == best
        best_normal += move_gain(obs, make_player("greedy", seed).choose(obs)) == best
    assert best_normal == len(positions)  # greedy: the best one-step gain, always
    assert 0.4 * len(positions) <= best_easy <= 0.9 * len(positions)


def test_easy_stops_at_its_first_small_yaku_where_normal_gambles() -> None:
    _, obs = small_pot()
    assert [make_player("easy", seed).choose(obs) for seed in range(10)] == [STOP] * 10
    assert [make_player("normal", seed).choose(obs) for seed in range(10)] == [KOIKOI] * 10


# -- normal -------------------------------------------------------------------------------------


def test_normal_takes_the_play_that_completes_a_yaku() -> None:
    # Two brights held; the susuki plain takes the moon (sanko), the iris plain only
    # an animal, the maple plain a plain.
    _, obs = position(
        hand=["susuki-plain-1", "iris-plain-1", "maple-plain-1", "paulownia-plain-2"],
        field=["susuki-moon", "iris-bridge", "maple-plain-2", "willow-ribbon", "pine-plain-2"],
        captured=(["pine-crane", "pine-plain-1", "cherry-curtain", "cherry-plain-1"], []),
        opponent_size=4,
    )
    assert move_gain(obs, play("susuki-plain-1"))[0] == CLASSIC.sanko
    for seed in range(20):
        assert make_player("normal", seed).choose(obs) == play("susuki-plain-1")
        assert make_player("greedy", seed).choose(obs) == play("susuki-plain-1")


def test_normal_takes_a_bright_over_a_plain() -> None:
    _, obs = position(
        hand=["paulownia-plain-1", "pine-plain-2", "clover-plain-2", "iris-plain-1"],
        field=["paulownia-phoenix", "pine-plain-1", "clover-plain-1", "maple-plain-1"],
        opponent_size=4,
    )
    assert BRIGHTS & cards_from_slugs(["paulownia-phoenix"])
    for seed in range(20):
        assert make_player("normal", seed).choose(obs) == play("paulownia-plain-1")


def test_normal_chooses_the_better_of_two_field_cards() -> None:
    # A drawn willow card meets the rain man and the lightning: take the bright.
    _, obs = position(
        hand=["pine-plain-1", "plum-plain-1"],
        field=["willow-rainman", "willow-lightning", "iris-plain-1"],
        pending="willow-swallow",
        phase=Phase.DRAW_CHOICE,
        captured=(["susuki-moon", "susuki-plain-1"], []),
        opponent_size=3,
    )
    rainman, lightning = card_from_slug("willow-rainman"), card_from_slug("willow-lightning")
    assert set(obs.legal_actions) == {CAPTURE_BASE + rainman, CAPTURE_BASE + lightning}
    for seed in range(10):
        assert make_player("normal", seed).choose(obs) == CAPTURE_BASE + rainman


def test_normal_gambles_with_a_small_pot_and_many_cards() -> None:
    _, obs = small_pot()
    assert sum(obs.yaku[0].values()) <= 5
    for seed in range(10):
        assert make_player("normal", seed).choose(obs) == KOIKOI


def test_normal_stops_with_a_big_pot() -> None:
    _, obs = small_pot(
        captured=([*POT_PILES[0], "cherry-curtain", "cherry-plain-2"], POT_PILES[1]),
        field=[card for card in POT_FIELD if card != "cherry-plain-1"],
    )
    assert obs.yaku[0] == {"tsukimi": 5, "hanami": 5}
    assert obs.hand.bit_count() == 6
    for seed in range(10):
        assert make_player("normal", seed).choose(obs) == STOP


def test_normal_stops_with_few_cards_left() -> None:
    _, obs = small_pot(hand=["wisteria-plain-1", "pine-plain-2"])
    assert obs.yaku[0] == {"tsukimi": 5}
    assert obs.hand.bit_count() == 2
    for seed in range(10):
        assert make_player("normal", seed).choose(obs) == STOP


# -- expert: determinism and budgets ----------------------------------------------------------


def test_expert_same_seed_and_budget_same_move_and_values() -> None:
    for _, obs in POSITIONS[::4]:
        if len(obs.legal_actions) < 2:
            continue
        first, second = ExpertPlayer(9, rollouts=40), ExpertPlayer(9, rollouts=40)
        assert first.evaluate(obs) == second.evaluate(obs)
        assert first.choose(obs) == second.choose(obs)


def test_expert_keeps_its_own_sequence_of_worlds() -> None:
    """A game is repeatable: the same seed makes the same moves over a whole match."""
    matches = [play_checked(CLASSIC.with_overrides({"rounds": 2}), ["expert", "normal"], 4)
               for _ in range(2)]  # fmt: skip
    assert matches[0].actions == matches[1].actions
    assert matches[0].totals == matches[1].totals


def test_expert_wall_clock_cap_returns_a_legal_move() -> None:
    _, obs = small_pot()
    capped = ExpertPlayer(1, rollouts=5_000, budget_ms=1)
    assert capped.choose(obs) in obs.legal_actions
    for _, position_obs in POSITIONS[:8]:
        assert ExpertPlayer(2, rollouts=2_000, budget_ms=1).choose(position_obs) in (
            position_obs.legal_actions
        )


def test_expert_evaluates_every_legal_action() -> None:
    _, obs = small_pot(MatchView(1, 12, (0, 0), 50))
    found = ExpertPlayer(0, rollouts=60).evaluate(obs)
    assert set(found) == set(obs.legal_actions)
    assert all(found.values())
    assert all(result.winner in (0, 1, None) for results in found.values() for result in results)


def test_sequential_halving_spends_the_budget_on_the_contenders() -> None:
    """Eight plays: three phases, each dropping the worse half; the choice is among the
    last two, which were sampled most, and the budget is not exceeded."""
    for _, obs in POSITIONS:
        if obs.phase is Phase.PLAY and len(obs.legal_actions) == 8:
            break
    else:
        raise AssertionError("no position with eight plays")
    found = sample(obs, random.Random(3), 480)
    counts = sorted((len(results) for results in found.values()), reverse=True)
    assert counts == [20 + 40 + 80] * 2 + [20 + 40] * 2 + [20] * 4
    assert sum(counts) <= 480
    best = ExpertPlayer(3, rollouts=480).choose(obs)
    assert len(found[best]) == counts[0]


def test_an_opponent_discard_makes_the_months_then_on_the_field_unlikely_in_its_hand() -> None:
    """The opponent threw a plain on a field that held a cherry: a guess that gives it a
    cherry card supposes it passed up a capture, so such guesses are rare."""
    match = Match(CLASSIC, 5)
    while True:
        obs = match.observation(match.turn)
        discards = [
            event
            for event in obs.history
            if event.seat != match.turn and event.source == PLAYED and not event.captured
        ]
        if discards and match.turn == 0 and obs.phase is Phase.PLAY:
            break
        match.apply(make_player("normal", 5).choose(obs))
    evidence = discard_evidence(obs)
    assert evidence
    assert all(cards and not cards & ~obs.unseen for cards in evidence)
    worlds = Worlds(obs, random.Random(1))
    guesses = [worlds.guess()[0] for _ in range(400)]
    uniform = Worlds(obs, random.Random(1))
    uniform.evidence = ()
    plain = [uniform.guess()[0] for _ in range(400)]
    suspicious = sum(any(hand & cards for cards in evidence) for hand in guesses)
    before = sum(any(hand & cards for cards in evidence) for hand in plain)
    assert suspicious < before / 2, (suspicious, before)


# -- expert: choosing by match value -----------------------------------------------------------

LAST_ROUND = 12


@pytest.mark.parametrize("totals", [(0, 3), (20, 24), (30, 34)])
def test_expert_stops_when_stopping_wins_the_match(totals: tuple[int, int]) -> None:
    """Last round: the small pot puts seat 0 ahead for good; a koi-koi only risks it."""
    _, obs = small_pot(MatchView(LAST_ROUND, 12, totals, 50))
    assert totals[0] + 5 > totals[1]
    for seed in range(3):
        assert ExpertPlayer(seed, rollouts=300).choose(obs) == STOP


def test_expert_stops_when_stopping_reaches_the_target_first() -> None:
    """Mid-match, but stopping reaches the target score ahead: the match is won."""
    _, obs = small_pot(MatchView(3, 12, (46, 44), 50))
    for seed in range(3):
        assert ExpertPlayer(seed, rollouts=300).choose(obs) == STOP


@pytest.mark.parametrize("totals", [(0, 8), (20, 27), (10, 16)])
def test_expert_calls_koikoi_when_stopping_cannot_win_the_last_round(
    totals: tuple[int, int],
) -> None:
    """Last round, behind by more than the pot: stopping loses the match for sure,
    while a koi-koi (doubling under classic) can still win it with cards to come."""
    _, obs = small_pot(MatchView(LAST_ROUND, 12, totals, 50))
    assert totals[0] + 5 < totals[1] < totals[0] + 2 * 6
    assert obs.stock_size >= 20
    for seed in range(3):
        assert ExpertPlayer(seed, rollouts=300).choose(obs) == KOIKOI


def test_expert_changes_its_call_with_the_match_alone() -> None:
    """The same cards, two match scores: only match value tells the calls apart."""
    ahead = small_pot(MatchView(LAST_ROUND, 12, (0, 3), 50))[1]
    behind = small_pot(MatchView(LAST_ROUND, 12, (0, 8), 50))[1]
    assert (ahead.hand, ahead.field, ahead.captured) == (behind.hand, behind.field, behind.captured)
    expert_ahead, expert_behind = ExpertPlayer(7, rollouts=300), ExpertPlayer(7, rollouts=300)
    assert (expert_ahead.choose(ahead), expert_behind.choose(behind)) == (STOP, KOIKOI)


# -- match_value ---------------------------------------------------------------------------------


VIEWS = [
    None,
    MatchView(1, 12, (0, 0), 50),
    MatchView(6, 12, (20, 25), 50),
    MatchView(11, 12, (12, 4), 0),
    MatchView(12, 12, (30, 31), 50),
    MatchView(1, 1, (0, 0), 0),
]


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("seat", [0, 1])
def test_match_value_grows_with_own_points(seat: int, view: MatchView | None) -> None:
    for theirs in (0, 3, 12):
        values = []
        for mine in range(0, 40):
            points = (mine, theirs) if seat == 0 else (theirs, mine)
            values.append(match_value(seat, points, view))
        assert values == sorted(values)
        assert values[-1] > values[0]
        # ... and shrinks with the opponent's
        opposite = [match_value(seat, (5, t) if seat == 0 else (t, 5), view) for t in range(0, 40)]
        assert opposite == sorted(opposite, reverse=True)


@pytest.mark.parametrize("view", VIEWS)
def test_match_value_is_the_same_from_either_seat(view: MatchView | None) -> None:
    for points in [(0, 0), (5, 0), (0, 7), (3, 3)]:
        mirrored = None
        if view is not None:
            totals = (view.totals[1], view.totals[0])
            mirrored = MatchView(view.round_number, view.rounds, totals, view.target_score)
        assert match_value(0, points, view) == pytest.approx(
            match_value(1, (points[1], points[0]), mirrored)
        )


def test_match_value_outside_a_match_splits_the_round() -> None:
    for points in [(0, 0), (6, 0), (0, 10), (4, 2)]:
        total = match_value(0, points, None) + match_value(1, points, None)
        assert total == pytest.approx(1.0)
    assert match_value(0, (0, 0), None) == pytest.approx(0.5)


def test_match_value_in_the_last_round_is_win_or_lose() -> None:
    last = MatchView(12, 12, (10, 12), 50)
    assert last.rounds_left == 0
    assert match_value(0, (3, 0), last) == pytest.approx(1.0, abs=0.01)  # 13 > 12
    assert match_value(0, (2, 0), last) == pytest.approx(0.5, abs=0.01)  # 12 = 12
    assert match_value(0, (1, 0), last) == pytest.approx(0.0, abs=0.01)  # 11 < 12
    assert match_value(0, (0, 5), last) == pytest.approx(0.0, abs=0.01)
    # Earlier in the match the same round is worth a chance, not a certainty.
    early = MatchView(2, 12, (10, 12), 50)
    assert 0.1 < match_value(0, (3, 0), early) < 0.9
    assert 0.1 < match_value(0, (1, 0), early) < 0.9


def test_match_value_reaching_the_target_ends_the_match() -> None:
    near = MatchView(3, 12, (46, 44), 50)
    assert match_value(0, (5, 0), near) == pytest.approx(1.0, abs=0.01)  # 51: won
    assert match_value(0, (0, 6), near) == pytest.approx(0.0, abs=0.01)  # they reach 50
    # Without a target the same totals leave the match open.
    open_match = MatchView(3, 12, (46, 44), 0)
    assert 0.1 < match_value(0, (0, 6), open_match) < 0.5  # 46 against 50, 9 rounds left
    assert match_value(0, (0, 6), open_match) > match_value(0, (0, 6), near)


def test_match_value_counts_a_zero_sum_round_both_ways() -> None:
    """koikoi-japan, last round: 26 + 5 against 34 - 5 is a won match, 28 + 2 against
    32 - 2 a drawn one, and 10 + 5 against 50 - 5 a lost one."""
    last = MatchView(8, 8, (26, 34), 0)
    assert match_value(0, (5, 0), last, zero_sum=True) == pytest.approx(1.0, abs=0.01)
    assert match_value(0, (5, 0), last) == pytest.approx(0.0, abs=0.01)  # not zero-sum
    drawn = MatchView(8, 8, (28, 32), 0)
    assert match_value(0, (2, 0), drawn, zero_sum=True) == pytest.approx(0.5, abs=0.01)
    lost = MatchView(8, 8, (10, 50), 0)
    assert match_value(0, (5, 0), lost, zero_sum=True) == pytest.approx(0.0, abs=0.01)
    # A seat left without points ends the match, rounds left or not.
    emptied = MatchView(3, 8, (55, 5), 0)
    assert match_value(0, (5, 0), emptied, zero_sum=True) == pytest.approx(1.0, abs=0.01)
    assert match_value(1, (5, 0), emptied, zero_sum=True) == pytest.approx(0.0, abs=0.01)


def test_match_value_a_lead_counts_more_with_fewer_rounds_left() -> None:
    leads = [match_value(0, (4, 0), MatchView(r, 12, (20, 18), 0)) for r in range(1, 13)]
    assert leads == sorted(leads)
    assert leads[-1] == pytest.approx(1.0, abs=0.01)
    assert leads[0] < 0.9


# -- strength -----------------------------------------------------------------------------------


def test_expert_beats_random_over_paired_matches() -> None:
    games = schedule(CLASSIC, [("expert", "random")], games=8, seed=1,
                     options={"expert": {"rollouts": 50}})  # fmt: skip
    (result,) = tally(run(games))
    assert result.matches == 8
    assert result.a_wins >= 6
    assert sum(result.a_points) > 2 * sum(result.b_points)


def test_the_levels_beat_random_on_single_deals() -> None:
    rules = PRESETS["single-deal"]
    pairs = [(name, "random") for name in ("greedy", "easy", "normal")]
    games = schedule(rules, pairs, games=40, seed=2, single_round=True)
    for result in tally(run(games)):
        assert sum(result.a_points) > sum(result.b_points), result.a
