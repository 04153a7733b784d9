"""The RL environments: PettingZoo's and Gymnasium's own checks, what observations may
hold, masks, rewards, seeding, and the training example."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from click.testing import CliRunner
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from koikoi.cards import ALL_CARDS, CARD_COUNT, ids
from koikoi.match import Match
from koikoi.players import make_player
from koikoi.rl import (
    ACTION_COUNT,
    ENV_ID,
    LAYOUT,
    OBSERVATION_SIZE,
    KoiKoiEnv,
    Rewards,
    action_mask,
    encode_observation,
    env,
    observation_space,
    raw_env,
)
from koikoi.rl.train import LinearPolicy, PolicyPlayer, evaluate, main, train
from koikoi.round import CAPTURE_BASE, KOIKOI, STOP, IllegalActionError, Round
from koikoi.rules import PRESETS, RuleSet
from koikoi.sim import simulate

PRESET_NAMES = list(PRESETS)

# api_test's advice for observations that are dicts: it names PettingZoo's own
# dict-observation environments as exceptions, so every other such environment gets it.
DICT_OBSERVATION_ADVICE = {
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
}


def random_masked_action(observation: dict[str, Any], rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def cards_in(array: np.ndarray, part: str) -> int:
    """The card set a 48-card part of an observation array holds."""
    return sum(1 << int(card) for card in np.flatnonzero(array[LAYOUT[part]]))


def match_mid_game(seed: int, moves: int) -> Match:
    """A classic match after ``moves`` random moves (fewer if it ends first)."""
    match = Match(PRESETS["classic"], seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    return match


# -- PettingZoo ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_aec_passes_pettingzoo_api_test(rules: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(rules=rules), num_cycles=300)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_ADVICE


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_aec_passes_pettingzoo_seed_test(rules: str) -> None:
    seed_test(functools.partial(env, rules=rules), num_cycles=200)


def test_aec_reset_seed_deals_the_engines_match() -> None:
    game = env(rules="classic")
    game.reset(seed=11)
    expected = Match(PRESETS["classic"], seed=11)
    seat = expected.turn
    assert game.agent_selection == f"player_{seat}"
    observation, *_ = game.last()
    np.testing.assert_array_equal(
        observation["observation"], encode_observation(expected.observation(seat))
    )
    np.testing.assert_array_equal(
        observation["action_mask"], action_mask(expected.observation(seat))
    )


def test_aec_resets_without_a_seed_follow_the_seeded_generator() -> None:
    def firsts(seed: int) -> list[np.ndarray]:
        game = env()
        game.reset(seed=seed)
        out = []
        for _ in range(3):
            game.reset()
            out.append(game.observe(game.agent_selection)["observation"])
        return out

    first, again, other = firsts(5), firsts(5), firsts(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        ("traditional", PRESETS["traditional"]),
        (PRESETS["ten-card"], PRESETS["ten-card"]),
        ({"preset": "classic", "rounds": 2}, dataclasses.replace(PRESETS["classic"], rounds=2)),
    ],
)
def test_aec_takes_rules_as_a_name_a_rule_set_or_a_mapping(rules: Any, expected: RuleSet) -> None:
    game = raw_env(rules=rules)
    game.reset(seed=1)
    assert game.rules == expected


def test_aec_plays_a_whole_match_with_zero_sum_rewards_that_add_up() -> None:
    payout = Rewards(points_scale=5.0, win_bonus=2.0)
    game = env(rules="classic", rewards=payout)
    game.reset(seed=3)
    unwrapped = game.unwrapped
    rng = random.Random(3)
    earned = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        earned[agent] += reward
        game.step(None if terminated or truncated else random_masked_action(observation, rng))
    match = unwrapped.match
    assert match.is_over
    bonus = {None: (0.0, 0.0), 0: (2.0, -2.0), 1: (-2.0, 2.0)}[match.winner]
    for seat, agent in enumerate(game.possible_agents):
        difference = match.totals[seat] - match.totals[1 - seat]
        assert earned[agent] == pytest.approx(difference / 5.0 + bonus[seat])
    assert sum(earned.values()) == pytest.approx(0.0)


def test_aec_refuses_an_illegal_action_and_changes_nothing() -> None:
    game = env()
    game.reset(seed=2)
    before = game.observe(game.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        game.step(illegal)
    after = game.observe(game.agent_selection)
    np.testing.assert_array_equal(before["observation"], after["observation"])


def test_aec_agent_off_turn_sees_an_empty_mask() -> None:
    game = env()
    game.reset(seed=4)
    waiting = next(a for a in game.possible_agents if a != game.agent_selection)
    assert not game.observe(waiting)["action_mask"].any()
    assert game.observe(game.agent_selection)["action_mask"].any()


def test_aec_renders_the_table_as_text() -> None:
    game = env(render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert isinstance(text, str)
    assert "round 1/12" in text
    assert "seat 0 hand:" in text
    quiet = env()
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        env(render_mode="human")


# -- Gymnasium -------------------------------------------------------------------------


@pytest.mark.parametrize("render_mode", [None, "ansi"])
@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_gym_env_passes_gymnasiums_check_env(rules: str, render_mode: str | None) -> None:
    made = gymnasium.make(ENV_ID, opponent="normal", rules=rules, render_mode=render_mode)
    check_env(made.unwrapped)


def test_gym_env_is_registered_with_the_given_opponent_and_rules() -> None:
    made = gymnasium.make(ENV_ID, opponent="greedy", rules="ten-card")
    inner = made.unwrapped
    assert isinstance(inner, KoiKoiEnv)
    assert inner.rules == PRESETS["ten-card"]
    made.reset(seed=0)
    assert inner.opponent is not None
    assert inner.opponent.name == "greedy"


def test_gym_env_mask_is_in_the_observation_and_the_info() -> None:
    game = KoiKoiEnv(opponent="random", rules="classic", seat=1)
    observation, info = game.reset(seed=9)
    assert game.match is not None
    expected = game.match.observation(1)
    assert game.match.turn == 1  # the opponent's moves are played before the agent's turn
    np.testing.assert_array_equal(observation["action_mask"], info["action_mask"])
    np.testing.assert_array_equal(info["action_mask"], action_mask(expected))
    np.testing.assert_array_equal(game.action_masks(), info["action_mask"])
    assert info["seat"] == 1


@pytest.mark.parametrize("seat", [0, 1, None])
def test_gym_episode_rewards_add_up_to_the_match_result(seat: int | None) -> None:
    game = KoiKoiEnv(opponent="normal", rules="classic", seat=seat)
    observation, _ = game.reset(seed=21)
    rng = random.Random(21)
    total, terminated = 0.0, False
    while not terminated:
        observation, reward, terminated, truncated, _ = game.step(
            random_masked_action(observation, rng)
        )
        assert isinstance(reward, float)
        assert not truncated
        total += reward
    match = game.match
    assert match is not None
    me = game.seat
    bonus = 0.0 if match.winner is None else (1.0 if match.winner == me else -1.0)
    assert total == pytest.approx((match.totals[me] - match.totals[1 - me]) / 10.0 + bonus)
    assert not observation["action_mask"].any()


def test_gym_illegal_action_costs_the_penalty_and_changes_nothing() -> None:
    game = KoiKoiEnv(opponent="random", rules="classic", illegal_penalty=0.5)
    observation, _ = game.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    for bad in (illegal, 1.5, "koikoi", ACTION_COUNT):
        after, reward, terminated, truncated, info = game.step(bad)
        assert (reward, terminated, truncated, info["illegal_action"]) == (-0.5, False, False, True)
        np.testing.assert_array_equal(after["observation"], observation["observation"])


def test_gym_illegal_action_can_raise_instead() -> None:
    game = KoiKoiEnv(opponent="random", illegal_action="raise")
    observation, _ = game.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        game.step(illegal)


def test_gym_env_takes_a_player_object_as_opponent() -> None:
    opponent = make_player("greedy", seed=0)
    game = KoiKoiEnv(opponent=opponent, seat=0)
    game.reset(seed=3)
    assert game.opponent is opponent


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"opponent": "grandmaster"}, "unknown player"),
        ({"seat": 2}, "seat"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_gym_env_refuses_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        KoiKoiEnv(**options)


def test_gym_reset_seed_deals_the_engines_match_and_repeats() -> None:
    game = KoiKoiEnv(opponent="random", seat=0)
    first, _ = game.reset(seed=17)
    assert game.match is not None
    assert game.match.seed == 17
    again, _ = game.reset(seed=17)
    np.testing.assert_array_equal(first["observation"], again["observation"])


# -- observations and actions ----------------------------------------------------------


def test_layout_covers_the_array_once_in_order() -> None:
    covered: list[int] = []
    for part in LAYOUT.values():
        covered.extend(range(OBSERVATION_SIZE)[part])
    assert covered == list(range(OBSERVATION_SIZE))


@pytest.mark.parametrize("seed", range(6))
def test_observation_holds_the_seats_public_state(seed: int) -> None:
    match = match_mid_game(seed, moves=7 * seed)
    for seat in (0, 1):
        obs = match.observation(seat)
        array = encode_observation(obs)
        assert array.dtype == np.float32
        assert observation_space(match.rules).contains(
            {"observation": array, "action_mask": action_mask(obs)}
        )

        assert cards_in(array, "hand") == obs.hand
        assert cards_in(array, "field") == obs.field
        assert cards_in(array, "own_pile") == obs.captured[seat]
        assert cards_in(array, "opponent_pile") == obs.captured[1 - seat]
        assert cards_in(array, "seen") == ALL_CARDS & ~obs.unseen
        assert array[LAYOUT["phase"]].sum() == 1
        assert array[LAYOUT["turn"]][0] == float(obs.turn == seat and not match.is_over)
        assert array[LAYOUT["dealer"]][0] == float(obs.dealer == seat)


def test_zero_sum_totals_below_zero_stay_in_the_observation_space() -> None:
    rules = PRESETS["koikoi-japan"]
    space = observation_space(rules)
    below = 0
    for match in simulate(rules, ["normal", "random"], seed=2, matches=10):
        obs = match.observation(1)
        assert space.contains(
            {"observation": encode_observation(obs), "action_mask": action_mask(obs)}
        )
        below += match.totals[1] < 0
    assert below  # the losing seat's total went below zero in some of them


@pytest.mark.parametrize("seed", range(8))
def test_observation_never_encodes_the_opponents_hand(seed: int) -> None:
    match = match_mid_game(seed, moves=3 * seed)
    for seat in (0, 1):
        array = encode_observation(match.observation(seat))
        card_parts = array[: 6 * CARD_COUNT].reshape(6, CARD_COUNT)
        hidden = match.round.hands[1 - seat]
        assert hidden  # the test means something only while the opponent holds cards
        for card in ids(hidden):
            assert not card_parts[:, card].any()


@pytest.mark.parametrize("seed", range(8))
def test_hidden_cards_arranged_otherwise_give_the_same_observation(seed: int) -> None:
    match = match_mid_game(seed, moves=2 * seed + 1)
    seat = 1 - match.turn  # the seat not to move: its view has a hand the other holds
    obs = match.observation(seat)
    hidden = ids(obs.unseen)
    rng = random.Random(seed)
    arrays, hands = [], set()
    for _ in range(2):
        rng.shuffle(hidden)
        opponent_hand = sum(1 << card for card in hidden[: obs.opponent_hand_size])
        guessed = Round.from_observation(obs, opponent_hand, hidden[obs.opponent_hand_size :])
        hands.add(opponent_hand)
        arrays.append(encode_observation(guessed.observation(seat, match.view())))
    assert len(hands) == 2  # two different arrangements
    np.testing.assert_array_equal(arrays[0], arrays[1])
    np.testing.assert_array_equal(arrays[0], encode_observation(obs))


def test_action_space_covers_every_engine_action() -> None:
    assert ACTION_COUNT == 2 * CARD_COUNT + 2
    assert (CAPTURE_BASE, KOIKOI, STOP) == (48, 96, 97)
    space = raw_env().action_space("player_0")
    assert isinstance(space, gymnasium.spaces.Discrete)
    assert space.n == ACTION_COUNT


@pytest.mark.parametrize("seed", range(4))
def test_mask_is_exactly_the_legal_actions(seed: int) -> None:
    match = Match(PRESETS["traditional"], seed)
    rng = random.Random(seed)
    while not match.is_over:
        obs = match.observation(match.turn)
        assert list(np.flatnonzero(action_mask(obs))) == sorted(obs.legal_actions)
        match.apply(rng.choice(obs.legal_actions))


# -- the training example --------------------------------------------------------------


def test_training_updates_the_policy_deterministically_under_a_seed() -> None:
    first = train(updates=3, batch=2, rules="single-deal", seed=4)
    again = train(updates=3, batch=2, rules="single-deal", seed=4)
    other = train(updates=3, batch=2, rules="single-deal", seed=5)
    assert np.any(first.policy.weights != LinearPolicy().weights)
    np.testing.assert_array_equal(first.policy.weights, again.policy.weights)
    assert first.mean_returns == again.mean_returns
    assert len(first.mean_returns) == 3
    assert not np.array_equal(first.policy.weights, other.policy.weights)


def test_policy_player_plays_legal_moves_and_is_evaluated() -> None:
    policy = train(updates=2, batch=1, rules="single-deal", seed=1).policy
    outcome = evaluate(PolicyPlayer(policy), "random", matches=6, rules="single-deal")
    assert outcome.matches == 6
    assert outcome.wins + outcome.draws + outcome.losses == 6
    low, high = outcome.to_json()["score_ci95"]
    assert 0 <= low <= outcome.score <= high <= 1


def test_training_command_prints_its_report_as_json() -> None:
    arguments = ["--updates", "2", "--batch", "1", "--rules", "single-deal", "--eval-matches", "2"]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["matches_trained"] == 2
    assert set(report["trained_greedy"]) >= {"wins", "score", "score_ci95"}
