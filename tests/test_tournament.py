"""Tournaments: paired seeds, parallel play, statistics and ``koikoi tournament``."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from koikoi.cli import cli
from koikoi.record import load_record, replay, replay_output, start_match
from koikoi.rules import CLASSIC, PRESETS
from koikoi.tournament import (
    Game,
    Outcome,
    PairResult,
    elo_ratings,
    mean_interval,
    play_game,
    round_robin,
    run,
    schedule,
    tally,
    wilson_interval,
)

KOIKOI_SCRIPT = Path(sys.executable).parent / "koikoi"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FAST = {"expert": {"rollouts": 20}}


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["tournament", *args])


def run_koikoi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KOIKOI_SCRIPT), *args], capture_output=True, text=True, timeout=120, check=False
    )


# -- schedule ----------------------------------------------------------------------------------


def test_schedule_pairs_each_seed_with_swapped_seats() -> None:
    games = schedule(CLASSIC, [("easy", "normal")], games=6, seed=4)
    assert len(games) == 6
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first.seed == second.seed
        assert (first.a_seat, second.a_seat) == (0, 1)
        assert (first.a, first.b) == (second.a, second.b) == ("easy", "normal")
    assert len({game.seed for game in games}) == 3
    assert all(not game.single_round and game.out is None for game in games)


def test_schedule_rounds_an_odd_count_up_and_gives_every_pair_the_same_seeds() -> None:
    pairs = [("random", "greedy"), ("random", "easy"), ("greedy", "easy")]
    games = schedule(PRESETS["single-deal"], pairs, games=3, seed=9, single_round=True)
    assert len(games) == 3 * 4
    seeds = [[game.seed for game in games if (game.a, game.b) == pair] for pair in pairs]
    assert seeds[0] == seeds[1] == seeds[2]
    assert all(game.single_round for game in games)
    assert schedule(CLASSIC, pairs, games=3, seed=9) != schedule(CLASSIC, pairs, games=3, seed=10)
    assert [g.seed for g in schedule(CLASSIC, pairs, games=3, seed=9)] == [
        g.seed for g in schedule(CLASSIC, pairs, games=3, seed=9)
    ]


def test_schedule_names_a_record_file_per_game(tmp_path: Path) -> None:
    games = schedule(CLASSIC, [("random", "greedy")], games=4, seed=0, out=tmp_path)
    names = [Path(game.out).name for game in games if game.out is not None]
    assert names == [f"random-greedy-0000{k}.json" for k in range(1, 5)]
    assert all(Path(game.out).parent == tmp_path for game in games if game.out is not None)


def test_round_robin_meets_every_pair_once() -> None:
    assert round_robin(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert round_robin(["a"]) == []
    assert len(round_robin(["random", "greedy", "easy", "normal", "expert"])) == 10


# -- playing games -------------------------------------------------------------------------------


def swapped_pair(tmp_path: Path, *, single_round: bool) -> tuple[list[Game], list[Outcome]]:
    rules = PRESETS["single-deal"] if single_round else CLASSIC.with_overrides({"rounds": 3})
    games = schedule(
        rules, [("greedy", "random")], games=2, seed=5, single_round=single_round, out=tmp_path
    )
    return games, [play_game(game) for game in games]


def test_swapped_seats_play_the_same_single_deal(tmp_path: Path) -> None:
    games, outcomes = swapped_pair(tmp_path, single_round=True)
    records = [load_record(game.out) for game in games if game.out is not None]
    assert len(records) == 2
    deals = [record.deal for record in records]
    assert deals[0] is not None
    assert deals[0] == deals[1]
    # ... from opposite seats: each outcome reads the points of the seat ``a`` took.
    for game, outcome, record in zip(games, outcomes, records, strict=True):
        match = replay(record)
        assert outcome.a_points == tuple(r.points[game.a_seat] for r in match.results)
        assert outcome.b_points == tuple(r.points[1 - game.a_seat] for r in match.results)
        winner = match.winner
        expected = None if winner is None else ("a" if winner == game.a_seat else "b")
        assert outcome.winner == expected


def test_swapped_seats_play_the_same_first_deal_of_a_match(tmp_path: Path) -> None:
    games, outcomes = swapped_pair(tmp_path, single_round=False)
    records = [load_record(game.out) for game in games if game.out is not None]
    assert records[0].seed == records[1].seed == games[0].seed
    first_deals = [start_match(record).round.deal_json() for record in records]
    assert first_deals[0] == first_deals[1]
    # The players did swap: the moves differ although the cards are the same.
    assert records[0].actions != records[1].actions
    for game, outcome, record in zip(games, outcomes, records, strict=True):
        match = replay(record)
        assert match.is_over
        assert outcome.a_points == tuple(r.points[game.a_seat] for r in match.results)


def test_results_are_the_same_with_one_or_two_workers() -> None:
    pairs = [("expert", "random"), ("easy", "normal"), ("greedy", "expert")]
    games = schedule(CLASSIC.with_overrides({"rounds": 2}), pairs, games=4, seed=13, options=FAST)
    serial = list(run(games, workers=1))
    parallel = list(run(games, workers=2))
    assert serial == parallel
    assert [(o.a, o.b) for o in serial] == [(g.a, g.b) for g in games]
    assert serial == list(run(games, workers=1))


def test_options_reach_the_named_player_only() -> None:
    """A budget for the expert changes its games, not the others'."""
    pairs = [("expert", "random"), ("easy", "random")]
    rules = PRESETS["single-deal"]
    small = schedule(rules, pairs, games=6, seed=3, single_round=True,
                     options={"expert": {"rollouts": 2}})  # fmt: skip
    large = schedule(rules, pairs, games=6, seed=3, single_round=True,
                     options={"expert": {"rollouts": 60}})  # fmt: skip
    small_out, large_out = list(run(small)), list(run(large))
    assert small_out[6:] == large_out[6:]  # easy against random: untouched
    assert small_out[:6] != large_out[:6]


def test_tally_gathers_outcomes_by_pair() -> None:
    outcomes = [
        Outcome("x", "y", "a", (3, 0), (0, 1)),
        Outcome("x", "y", None, (0,), (0,)),
        Outcome("y", "z", "b", (0,), (6,)),
        Outcome("x", "y", "b", (0,), (5,)),
    ]
    calls: list[int] = []
    results = tally(outcomes, lambda: calls.append(1))
    assert len(calls) == 4
    assert [(r.a, r.b) for r in results] == [("x", "y"), ("y", "z")]
    xy, yz = results
    assert (xy.matches, xy.a_wins, xy.b_wins, xy.draws, xy.rounds) == (3, 1, 1, 1, 4)
    assert xy.a_points == [3, 0, 0, 0]
    assert xy.b_points == [0, 1, 0, 5]
    assert xy.a_score == pytest.approx(0.5)
    assert (yz.a_wins, yz.b_wins, yz.a_score) == (0, 1, 0.0)
    data = xy.to_json()
    assert data["a_points_per_round"] == pytest.approx(0.75)
    assert data["b_points_per_round"] == pytest.approx(1.5)
    low, high = data["a_score_ci95"]
    assert low < 0.5 < high


# -- statistics -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (80, 100, 0.7112, 0.8666),
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 2, 0.0945, 0.9055),
    ],
)
def test_wilson_interval_known_values(successes: int, trials: int, low: float, high: float) -> None:
    interval = wilson_interval(successes, trials)
    assert interval == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_of_nothing_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(2.5, 5)  # draws count half
    assert low == pytest.approx(1 - high)


def test_mean_interval_known_values() -> None:
    assert mean_interval([]) == (0.0, 0.0)
    assert mean_interval([4]) == (4.0, 0.0)
    assert mean_interval([2, 2, 2]) == (2.0, 0.0)
    mean, half = mean_interval([1, 2, 3, 4, 5])
    assert mean == 3.0
    assert half == pytest.approx(1.959964 * math.sqrt(2.5 / 5), abs=1e-5)
    assert half == pytest.approx(1.3859, abs=1e-4)


def pair(a: str, b: str, a_wins: int, b_wins: int, draws: int = 0) -> PairResult:
    return PairResult(a, b, matches=a_wins + b_wins + draws, a_wins=a_wins, b_wins=b_wins,
                      draws=draws)  # fmt: skip


def test_elo_orders_the_stronger_above() -> None:
    results = [pair("a", "b", 8, 2), pair("b", "c", 8, 2), pair("a", "c", 9, 1)]
    elo = elo_ratings(results)
    assert elo["a"] > elo["b"] > elo["c"]
    assert sum(elo.values()) / 3 == pytest.approx(1500, abs=0.5)


def test_elo_of_equals_is_equal_and_a_sweep_is_finite() -> None:
    even = elo_ratings([pair("x", "y", 4, 4, 2)])
    assert even["x"] == pytest.approx(even["y"], abs=0.2)
    assert even["x"] == pytest.approx(1500, abs=0.2)
    sweep = elo_ratings([pair("x", "y", 10, 0)])
    assert math.isfinite(sweep["x"])
    assert sweep["x"] > sweep["y"]
    closer = elo_ratings([pair("x", "y", 6, 4)])
    assert sweep["x"] - sweep["y"] > closer["x"] - closer["y"] > 0
    assert elo_ratings([]) == {}


def test_elo_reads_the_pair_from_either_side() -> None:
    forward = elo_ratings([pair("x", "y", 7, 3)])
    backward = elo_ratings([pair("y", "x", 3, 7)])
    assert forward == pytest.approx(backward, abs=0.2)


# -- koikoi tournament ---------------------------------------------------------------------------

PROMISED: dict[str, type | tuple[type, ...]] = {
    "a": str,
    "b": str,
    "matches": int,
    "rounds": int,
    "a_wins": int,
    "b_wins": int,
    "draws": int,
    "a_points_per_round": (int, float),
    "b_points_per_round": (int, float),
}


def check_summary(summary: Any, players: set[str]) -> None:
    """The shape ``--json`` promises."""
    assert isinstance(summary, dict)
    assert {"rules", "pairs", "elo"} <= set(summary)
    assert isinstance(summary["rules"], dict)
    assert isinstance(summary["pairs"], list)
    assert summary["pairs"]
    for entry in summary["pairs"]:
        for key, kind in PROMISED.items():
            assert isinstance(entry[key], kind), key
            assert not isinstance(entry[key], bool), key
        assert entry["a_wins"] + entry["b_wins"] + entry["draws"] == entry["matches"]
        assert entry["rounds"] >= entry["matches"]
    assert set(summary["elo"]) == players
    assert all(isinstance(value, float) for value in summary["elo"].values())


def test_tournament_json_shape() -> None:
    result = invoke("--players", "random,greedy", "--matches", "4", "--seed", "3", "--json",
                    "--workers", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    check_summary(summary, {"random", "greedy"})
    assert summary["rules"] == {"preset": "classic"}
    (entry,) = summary["pairs"]
    assert (entry["a"], entry["b"], entry["matches"]) == ("random", "greedy", 4)
    # The ladder is the Elo fit of the printed results.
    fitted = elo_ratings(
        [pair("random", "greedy", entry["a_wins"], entry["b_wins"], entry["draws"])]
    )
    assert summary["elo"] == pytest.approx(fitted, abs=0.11)


def test_console_script_gives_the_same_results_in_parallel() -> None:
    """The installed script, with its default workers (all cores), agrees with one."""
    args = ["--players", "random,greedy", "--matches", "4", "--seed", "3", "--json"]
    done = run_koikoi("tournament", *args)
    assert done.returncode == 0, done.stderr
    serial = invoke(*args, "--workers", "1")
    assert json.loads(done.stdout) == json.loads(serial.stdout)


def test_tournament_rounds_rules_and_pairs() -> None:
    result = invoke("--pairs", "normal:random,easy:greedy", "--rounds", "6", "--rules",
                    "ten-card", "--set", "tane=2", "--json", "--workers", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    check_summary(summary, {"normal", "random", "easy", "greedy"})
    assert summary["rules"] == {"preset": "ten-card", "tane": 2}
    assert [(e["a"], e["b"]) for e in summary["pairs"]] == [
        ("normal", "random"),
        ("easy", "greedy"),
    ]
    for entry in summary["pairs"]:
        assert entry["matches"] == entry["rounds"] == 6  # single deals


def test_round_robin_of_three_and_the_expert_budget() -> None:
    result = invoke("--players", "expert,normal,random", "--rounds", "2", "--rollouts", "10",
                    "--rules", "single-deal", "--json", "--workers", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    check_summary(summary, {"expert", "normal", "random"})
    pairs = [(e["a"], e["b"]) for e in summary["pairs"]]
    assert pairs == [("expert", "normal"), ("expert", "random"), ("normal", "random")]


def test_tournament_table_output() -> None:
    result = invoke("--players", "random,greedy", "--matches", "2", "--workers", "1")
    assert result.exit_code == 0, result.output
    for needle in ("Pairs", "Ladder", "Elo", "random", "greedy", "±"):
        assert needle in result.stdout


def test_tournament_plot_writes_a_png(tmp_path: Path) -> None:
    path = tmp_path / "ladder.png"
    result = invoke("--players", "random,greedy,easy", "--rounds", "2", "--plot", str(path),
                    "--json", "--workers", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    assert path.stat().st_size > 1000


def test_tournament_out_writes_records_that_replay(tmp_path: Path) -> None:
    out = tmp_path / "records"
    result = invoke("--players", "random,normal", "--matches", "4", "--seed", "7", "--out",
                    str(out), "--json", "--workers", "1", "--set", "rounds=3")  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == [f"random-normal-0000{k}.json" for k in range(1, 5)]
    a_points: list[int] = []
    for index, path in enumerate(files):
        record = load_record(path)
        assert record.result is not None
        match = replay(record)  # checks every action and the stored result
        assert match.is_over
        assert replay_output(match) == record.result
        a_seat = index % 2
        a_points += [r.points[a_seat] for r in match.results]
    (entry,) = json.loads(result.stdout)["pairs"]
    assert entry["rounds"] == len(a_points)
    assert entry["a_points_per_round"] == pytest.approx(sum(a_points) / len(a_points), abs=1e-4)


# -- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--players", "random,nobody", "--matches", "2"], "nobody"),
        (["--pairs", "random:expret", "--matches", "2"], "expret"),
        (["--pairs", "random-greedy", "--matches", "2"], "random-greedy"),
        (["--players", "random,random", "--matches", "2"], "random:random"),
        (["--pairs", "easy:easy", "--matches", "2"], "easy:easy"),
        (["--players", "random", "--matches", "2"], "random"),
        (["--players", "random,greedy", "--matches", "2", "--rounds", "2"], "--rounds"),
        (["--players", "random,greedy"], "--matches"),
        (["--matches", "2"], "--players"),
        (["--players", "random,greedy", "--matches", "0"], "0"),
        (["--players", "random,greedy", "--matches", "2", "--rules", "nosuch"], "nosuch"),
    ],
)
def test_bad_input_exits_1_naming_the_bad_value(args: list[str], needle: str) -> None:
    done = run_koikoi("tournament", *args)
    assert done.returncode == 1
    assert needle in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_input_with_json_answers_an_error_object() -> None:
    done = run_koikoi("tournament", "--players", "random,nobody", "--matches", "2", "--json")
    assert done.returncode == 1
    error = json.loads(done.stdout)
    assert set(error) == {"error"}
    assert "nobody" in error["error"]
