"""The engine protocol (README, "The engine protocol"): programs as players, what they
are sent, and forfeits for every way of breaking it."""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from koikoi.cli import cli
from koikoi.match import Match
from koikoi.players import make_player
from koikoi.players.baseline import RandomPlayer
from koikoi.players.protocol import PlayerError, ProcessPlayer, observation_to_json
from koikoi.round import Action, Observation, Round
from koikoi.rules import PRESETS
from koikoi.sim import play_out
from koikoi.tournament import play_games, schedule

PROGRAM = Path(__file__).parent / "programs" / "protocol_player.py"


def cmd(mode: str, *extra: str) -> str:
    return "cmd:" + shlex.join([sys.executable, str(PROGRAM), mode, *extra])


class FirstLegal:
    """What the program's ``first`` mode does, in process."""

    name = "first"

    def choose(self, observation: Observation) -> Action:
        return observation.legal_actions[0]


def test_a_program_plays_exactly_as_the_same_player_in_process(tmp_path: Path) -> None:
    rules = PRESETS["classic"].with_overrides({"rounds": 3})
    log = tmp_path / "seen.jsonl"
    outside = play_out(Match(rules, 5), [make_player(cmd("first", str(log)), 1), RandomPlayer(9)])
    inside = play_out(Match(rules, 5), [FirstLegal(), RandomPlayer(9)])
    assert outside.actions == inside.actions
    assert outside.totals == inside.totals
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["type"] == "start"
    assert lines[0]["protocol"] == 1
    assert isinstance(lines[0]["seed"], int)
    assert lines[-1] == {"type": "end", "totals": outside.totals, "winner": outside.winner}
    observations = [line for line in lines if line["type"] == "observation"]
    assert observations
    assert all(line["seat"] == 0 and line["turn"] == 0 for line in observations)


@pytest.mark.parametrize(("player", "preset"), [("expert", "classic"), ("normal", "koikoi-japan")])
def test_an_earlier_commits_player_run_through_the_protocol_plays_as_it_does_in_process(
    player: str, preset: str
) -> None:
    """``bench/past_player.py`` (how a new expert is measured against the one it
    replaces): pointed at this checkout, it must play exactly as the built-in player,
    so the observation it rebuilds from the protocol is the one the referee holds."""
    rules = PRESETS[preset].with_overrides({"rounds": 2})
    past = Path(__file__).parents[1] / "bench" / "past_player.py"
    src = Path(__file__).parents[1] / "src"
    options = {"rollouts": 60} if player == "expert" else {}
    budget = ["--rollouts", "60"] if options else []
    name = "cmd:" + shlex.join(
        [sys.executable, str(past), "--src", str(src), "--player", player, *budget]
    )
    outside_player = make_player(name, 3)
    assert isinstance(outside_player, ProcessPlayer)
    # The seed the referee sends it, which the built-in player takes as its own.
    inside_player = make_player(player, outside_player.seed, **options)
    outside = play_out(Match(rules, 8), [outside_player, make_player("normal", 4)])
    inside = play_out(Match(rules, 8), [inside_player, make_player("normal", 4)])
    assert len(outside.actions) > 20
    assert outside.actions == inside.actions
    assert outside.totals == inside.totals


def test_the_observation_is_the_documented_form_of_what_the_seat_may_know() -> None:
    match = Match(PRESETS["traditional"], 3)
    rng = random.Random(4)
    for _ in range(9):
        match.apply(rng.choice(match.legal_actions()))
    obs = match.observation(match.turn)
    data = observation_to_json(obs)
    assert set(data) == {
        "type", "seat", "turn", "dealer", "rules", "phase", "month", "hand", "field",
        "captured", "opponent_hand", "stock", "pending", "legal", "calls", "yaku",
        "decided", "history", "match",
    }  # fmt: skip
    assert data["rules"] == PRESETS["traditional"].to_mapping(full=True)
    assert data["opponent_hand"] == obs.opponent_hand_size
    assert data["stock"] == obs.stock_size
    assert data["match"]["totals"] == list(match.totals)
    json.dumps(data)  # plain JSON throughout


@pytest.mark.parametrize("seed", range(6))
def test_the_observation_is_the_same_for_every_arrangement_of_hidden_cards(seed: int) -> None:
    match = Match(PRESETS["classic"], seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 20)):
        if match.is_over:
            break
        match.apply(rng.choice(match.legal_actions()))
    game = match.round
    seat = game.turn
    obs = game.observation(seat)
    shown = json.dumps(observation_to_json(obs))
    unseen = [card for card in range(48) if obs.unseen >> card & 1]
    for _ in range(5):
        rng.shuffle(unseen)
        hand = sum(1 << card for card in unseen[: obs.opponent_hand_size])
        other = Round.from_observation(obs, hand, unseen[obs.opponent_hand_size :])
        assert json.dumps(observation_to_json(other.observation(seat))) == shown


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("garbage", r"line 1 of its output: not JSON"),
        ("illegal", r"line 1 of its output: koikoi is not legal now; legal: play "),
        ("exit", r"exited with status 3 after line 0 of its output"),
    ],
)
def test_a_program_that_breaks_the_protocol_raises_an_error_naming_it(
    mode: str, message: str
) -> None:
    player = ProcessPlayer(f"cmd:{mode}", shlex.split(cmd(mode)[4:]), 1)
    match = Match(PRESETS["classic"], 1)
    with pytest.raises(PlayerError, match=rf"player 'cmd:{mode}': .*{message}|{message}"):
        player.choose(match.observation(match.turn))
    player.close()


def test_a_program_that_does_not_answer_in_time_forfeits() -> None:
    player = ProcessPlayer("cmd:slow", shlex.split(cmd("slow")[4:]), 1, move_timeout=0.5)
    match = Match(PRESETS["classic"], 1)
    with pytest.raises(PlayerError, match=r"no answer within 0.5 s"):
        player.choose(match.observation(match.turn))


def test_a_program_that_cannot_run_forfeits_with_its_name() -> None:
    player = make_player("cmd:/no/such/program --flag", 1)
    match = Match(PRESETS["classic"], 1)
    with pytest.raises(PlayerError, match=r"cannot run '/no/such/program'"):
        player.choose(match.observation(match.turn))


@pytest.mark.parametrize("mode", ["garbage", "illegal", "exit"])
def test_a_tournament_scores_a_broken_program_as_a_forfeit_and_goes_on(mode: str) -> None:
    broken = cmd(mode)
    games = schedule(PRESETS["classic"], [("random", broken)], games=2, seed=1)
    played = play_games(games)
    assert len(played) == 2
    for outcome, record in played:
        assert outcome.winner == "a"
        assert outcome.forfeit is not None
        assert broken in outcome.forfeit
        assert record is None


def test_the_tournament_command_reports_forfeits_and_finishes() -> None:
    result = CliRunner().invoke(
        cli,
        ["tournament", "--pairs", f"random:{cmd('garbage')}", "--matches", "2",
         "--workers", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    (pair,) = summary["pairs"]
    assert (pair["a_wins"], pair["b_wins"], pair["forfeits"]) == (2, 0, 2)
    assert result.stderr.count("koikoi: forfeit: player 'cmd:") == 2


def test_programs_and_built_in_players_meet_in_a_tournament() -> None:
    result = CliRunner().invoke(
        cli,
        ["tournament", "--players", f"random,{cmd('first')}", "--matches", "2",
         "--workers", "2", "--json", "--set", "rounds=2"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (pair,) = json.loads(result.stdout)["pairs"]
    assert pair["matches"] == 2
    assert pair["forfeits"] == 0


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("random,cmd:", "cmd: needs a program to run"),
        ("random,cmd:'unclosed", "cannot split the command"),
    ],
)
def test_a_bad_program_name_is_a_usage_error(players: str, message: str) -> None:
    result = CliRunner().invoke(cli, ["tournament", "--players", players, "--matches", "2"])
    assert result.exit_code != 0
    assert message in result.output


def test_a_simulation_with_a_broken_program_stops_with_its_error() -> None:
    result = CliRunner().invoke(
        cli, ["simulate", "--players", f"random,{cmd('illegal')}", "--matches", "3"]
    )
    assert result.exit_code == 1
    assert "koikoi: error: player 'cmd:" in result.stderr
    assert "is not legal now" in result.stderr
    assert "stopped after 0 games" in result.stderr
