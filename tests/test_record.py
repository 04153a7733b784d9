"""Records and replay: the contracts of docs/rules.md §7, and ``koikoi replay`` / ``simulate``."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from deals import FOUR_PAIRS, KUTTSUKI_HAND
from koikoi.cards import SLUGS
from koikoi.cli import cli
from koikoi.match import Match
from koikoi.players import make_player
from koikoi.record import (
    Record,
    RecordError,
    load_record,
    replay,
    replay_output,
    start_match,
)
from koikoi.round import Round
from koikoi.rules import CLASSIC, PRESETS
from koikoi.sim import game_seeds, play_out, simulate
from worked_examples import example, refused_examples, replay_examples

KOIKOI_SCRIPT = Path(sys.executable).parent / "koikoi"
# Two worked examples of docs/examples/ that the tests below change. Both have a koi-koi
# call: by the player who then loses the round (who holds {} in "yaku"), and by the
# player who then wins it.
CALLER_LOSES = example("deal-single-deal-caller-loses")
CALLER_WINS = example("deal-ten-card-caller-wins")


def replayed(data: Any) -> dict[str, Any]:
    """The §7 output of replaying a record given as JSON data."""
    return replay_output(replay(Record.from_json(data)))


def refused(data: Any) -> RecordError:
    """The error replaying a bad record raises (from reading it or from replaying it)."""
    with pytest.raises(RecordError) as info:
        replay(Record.from_json(data))
    return info.value


def example_record() -> dict[str, Any]:
    """A single-deal given deal, dealer 1, whose first decision (a koi-koi) comes after
    action 4 and whose last action is the winner's stop."""
    return copy.deepcopy(CALLER_LOSES["record"])


def never_played() -> str:
    """A card no action of the example record can play: the stock's last, never drawn."""
    stock: list[str] = CALLER_LOSES["record"]["stock"]
    return stock[-1]


def play_random(match: Match, seed: int, players: str = "random,random") -> Match:
    names = players.split(",")
    return play_out(match, [make_player(names[seat], seed + seat) for seat in (0, 1)])


# -- the worked examples ----------------------------------------------------------------


@pytest.mark.parametrize("path", replay_examples(), ids=lambda path: path.stem)
def test_every_worked_example_replays_to_its_output(path: Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    assert replayed(example["record"]) == example["replay_output"]
    # With the output stored as the record's result, the replay checks and accepts it.
    stored = {**example["record"], "result": example["replay_output"], "version": 1}
    assert replayed(stored) == example["replay_output"]


@pytest.mark.parametrize("path", refused_examples(), ids=lambda path: path.stem)
def test_every_refused_example_is_refused_as_its_output_says(path: Path) -> None:
    example = json.loads(path.read_text(encoding="utf-8"))
    error = refused(example["record"])
    assert str(error) == example["replay_output"]["error"]
    assert error.index == example["replay_output"].get("index")


def test_the_loser_who_called_holds_nothing() -> None:
    output = replayed(CALLER_LOSES["record"])
    (only,) = output["rounds"]
    assert only["calls"] == [0, 1]
    assert only["winner"] == 0
    assert only["yaku"][1] == {}
    assert output["totals"] == only["points"]


# -- round trips ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_seeded_match_round_trips_through_its_record(preset: str) -> None:
    for seed in range(6):
        rules = PRESETS[preset].with_overrides({"rounds": 3})
        match = play_random(Match(rules, seed), seed)
        assert match.is_over
        record = Record.from_match(match)
        data = json.loads(json.dumps(record.to_json()))
        assert data["version"] == 1
        assert data["seed"] == seed
        assert data["rules"] == rules.to_mapping()
        again = Record.from_json(data)
        assert again == record
        replayed_match = replay(again)
        assert replay_output(replayed_match) == replay_output(match) == data["result"]
        assert replayed_match.results == match.results
        assert "finished" not in data["result"]


def test_house_rules_travel_in_the_record() -> None:
    rules = PRESETS["traditional"].with_overrides(
        {"max_koikoi": 1, "exhausted": "dealer", "exhausted_points": 2, "rounds": 2}
    )
    match = play_random(Match(rules, 5), 5)
    data = json.loads(json.dumps(Record.from_match(match).to_json()))
    assert data["rules"]["max_koikoi"] == 1
    assert replay(Record.from_json(data)).rules == rules
    assert replayed(data) == replay_output(match)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_given_deal_round_trips_through_its_record(preset: str) -> None:
    for seed in range(6):
        game = Round.deal(PRESETS[preset], seed, seed % 2)
        match = play_random(Match.single(game), seed, "greedy,random")
        data = json.loads(json.dumps(Record.from_match(match).to_json()))
        assert "seed" not in data
        assert data["dealer"] == seed % 2
        assert len(data["stock"]) == 48 - 2 * PRESETS[preset].hand_size - 8
        assert replayed(data) == data["result"] == replay_output(match)
        assert data["result"]["totals"] == data["result"]["rounds"][0]["points"]


def test_a_given_deal_ignores_rounds_target_and_first_dealer() -> None:
    record = example_record()
    record["rules"] = {
        "preset": "single-deal",
        "rounds": 7,
        "target_score": 1,
        "first_dealer": "seat-0",
    }
    output = replayed(record)
    assert output == CALLER_LOSES["replay_output"]  # dealer 1 still deals
    assert len(output["rounds"]) == 1


def test_a_round_that_ends_at_the_deal_takes_no_action() -> None:
    field = [
        "pine-poetry",
        "cherry-poetry",
        "wisteria-ribbon",
        "iris-ribbon",
        "peony-blue",
        "clover-ribbon",
        "susuki-geese",
        "maple-blue",
    ]
    hand1 = [
        "peony-butterflies",
        "clover-boar",
        "susuki-moon",
        "chrysanthemum-sake",
        "maple-deer",
        "willow-rainman",
        "paulownia-phoenix",
        "pine-plain-1",
    ]
    record = given_deal({"preset": "single-deal"}, TESHI_HAND, hand1, field)
    record["dealer"] = 1
    assert replayed(record) == {
        "rounds": [{"winner": 0, "points": [6, 0], "yaku": [{"teshi": 6}, {}], "calls": [0, 0]}],
        "totals": [6, 0],
        "winner": 0,
    }
    error = refused({**record, "actions": [{"play": "pine-plain-1"}]})
    assert error.index == 0
    assert "over" in str(error)


# -- refused actions --------------------------------------------------------------------


KOIKOI_INDEX = CALLER_LOSES["record"]["actions"].index({"koikoi": True})


@pytest.mark.parametrize("index", [0, 3, KOIKOI_INDEX, len(CALLER_LOSES["record"]["actions"]) - 1])
def test_an_illegal_action_is_refused_with_its_index(index: int) -> None:
    record = example_record()
    # A card no hand holds: never legal to play (nor in place of a choice or a decision).
    record["actions"][index] = {"play": never_played()}
    error = refused(record)
    assert error.index == index
    assert f"action {index}" in str(error)
    assert never_played() in str(error)


def test_a_stop_with_no_decision_is_refused() -> None:
    record = example_record()
    record["actions"][2] = {"stop": True}
    error = refused(record)
    assert error.index == 2
    assert "legal now" in str(error)


def test_an_action_after_the_game_is_over_is_illegal_at_its_index() -> None:
    record = example_record()
    count = len(record["actions"])
    record["actions"].append({"koikoi": True})
    error = refused(record)
    assert error.index == count
    assert "over" in str(error)


@pytest.mark.parametrize(
    "bad",
    [
        {"play": "pine-crain"},
        {"koikoi": False},
        {"stop": "yes"},
        {"play": "maple-deer", "capture": "maple-blue"},
        "stop",
        ["play", "maple-deer"],
        None,
        {},
    ],
)
def test_a_malformed_action_is_refused_with_its_index(bad: Any) -> None:
    record = example_record()
    record["actions"][5] = bad
    error = refused(record)
    assert error.index == 5
    assert "action 5" in str(error)


def test_an_unfinished_record_replays_as_far_as_it_goes() -> None:
    record = example_record()
    record["actions"] = record["actions"][:-1]  # the stop is missing
    output = replayed(record)
    assert output == {"rounds": [], "totals": [0, 0], "winner": None, "finished": False}
    seeded = Record.from_match(play_random(Match(CLASSIC.with_overrides({"rounds": 3}), 2), 2))
    data = seeded.to_json()
    del data["result"]
    first_round_actions = len(data["actions"]) // 2
    data["actions"] = data["actions"][:first_round_actions]
    output = replayed(data)
    assert output["finished"] is False
    assert output["winner"] is None
    assert len(output["rounds"]) < 3


def test_a_stored_result_must_match_the_replay() -> None:
    record = example_record()
    wrong = copy.deepcopy(CALLER_LOSES["replay_output"])
    wrong["rounds"][0]["points"] = [2, 0]
    wrong["totals"] = [2, 0]
    error = refused({**record, "result": wrong})
    assert "stored result" in str(error)
    assert error.index is None
    # An unfinished record's stored result says so.
    short = {**record, "actions": record["actions"][:4]}
    with pytest.raises(RecordError, match="stored result"):
        replay(Record.from_json({**short, "result": CALLER_LOSES["replay_output"]}))
    unfinished = {"rounds": [], "totals": [0, 0], "winner": None, "finished": False}
    assert replayed({**short, "result": unfinished}) == unfinished


# -- bad records ----------------------------------------------------------------------


def with_changes(**changes: Any) -> dict[str, Any]:
    record = example_record()
    record.update(changes)
    return record


def swapped_hand_card() -> dict[str, Any]:
    record = example_record()
    record["hands"][0][0] = record["hands"][1][0]  # that card twice, one missing
    return record


def short_hand() -> dict[str, Any]:
    record = example_record()
    record["stock"].append(record["hands"][0].pop())
    return record


@pytest.mark.parametrize(
    ("data", "needles"),
    [
        (with_changes(extra=1), ["unknown record key", "extra"]),
        (with_changes(version=2), ["version", "2"]),
        (with_changes(version="1"), ["version"]),
        (with_changes(version=True), ["version"]),
        (with_changes(dealer=2), ["dealer", "2"]),
        (with_changes(dealer="0"), ["dealer"]),
        (with_changes(dealer=True), ["dealer"]),
        (with_changes(dealer=1.0), ["dealer"]),
        (with_changes(dealer=None), ["dealer"]),
        (with_changes(field=["pine-crain", *example_record()["field"][1:]]), ["pine-crain"]),
        (swapped_hand_card(), ["twice"]),
        (short_hand(), ["hand 0", "7", "8"]),
        (with_changes(hands=[example_record()["hands"][0]]), ["hands"]),
        (with_changes(field="pine-crane"), ["field"]),
        (with_changes(stock=[1, 2]), ["stock"]),
        (with_changes(actions={"play": "maple-deer"}), ["actions", "list"]),
        (with_changes(result=[1]), ["result"]),
        (with_changes(rules={"preset": "classik"}), ["rules", "preset"]),
        (with_changes(rules={"goko": -1}), ["goko"]),
        (with_changes(seed=3), ["seed", "deal"]),
        ({"rules": {}, "actions": []}, ["seed", "deal"]),
        ({"seed": -1, "actions": []}, ["seed"]),
        ({"seed": "1", "actions": []}, ["seed"]),
        ([], ["object"]),
    ],
)
def test_bad_records_give_clear_errors(data: Any, needles: list[str]) -> None:
    error = refused(data)
    assert error.index is None
    for needle in needles:
        assert needle in str(error)


def given_deal(
    rules: dict[str, Any], hand0: list[str], hand1: list[str], field: list[str]
) -> dict[str, Any]:
    """A given-deal record with no actions; the stock is the other cards in order."""
    used = {*hand0, *hand1, *field}
    stock = [slug for slug in SLUGS if slug not in used]
    return {
        "rules": rules,
        "dealer": 0,
        "hands": [hand0, hand1],
        "field": field,
        "stock": stock,
        "actions": [],
    }


ONE_PER_MONTH = [  # eight months, one card each: no hand yaku
    "pine-crane",
    "peony-butterflies",
    "clover-boar",
    "susuki-moon",
    "chrysanthemum-sake",
    "maple-deer",
    "willow-rainman",
    "paulownia-phoenix",
]
ONE_PER_MONTH_TOO = [
    "pine-poetry",
    "peony-blue",
    "clover-ribbon",
    "susuki-geese",
    "chrysanthemum-blue",
    "maple-blue",
    "willow-swallow",
    "paulownia-plain-1",
]
TESHI = ["plum-warbler", "plum-poetry", "plum-plain-1", "plum-plain-2"]
TESHI_HAND = [*TESHI, "pine-crane", "cherry-curtain", "wisteria-cuckoo", "iris-bridge"]


def test_a_given_deal_that_would_be_redealt_is_refused() -> None:
    pairs = given_deal({"preset": "single-deal"}, ONE_PER_MONTH, ONE_PER_MONTH_TOO, FOUR_PAIRS)
    error = refused(pairs)
    assert "redeal" in str(error)
    assert error.index is None
    # traditional does not redeal four pairs: the same deal stands.
    standing = {**pairs, "rules": {"preset": "traditional"}}
    assert replayed(standing)["finished"] is False

    month_field = [*TESHI, "cherry-curtain", "wisteria-cuckoo", "iris-bridge", "iris-ribbon"]
    whole_month = given_deal(
        {"preset": "traditional"}, ONE_PER_MONTH, ONE_PER_MONTH_TOO, month_field
    )
    assert "redeal" in str(refused(whole_month))
    assert replayed({**whole_month, "rules": {"preset": "classic"}})["finished"] is False


def test_a_given_deal_with_two_hand_yaku_under_redeal_is_refused() -> None:
    field = [
        "pine-poetry",
        "cherry-poetry",
        "wisteria-ribbon",
        "iris-ribbon",
        "peony-butterflies",
        "clover-boar",
        "paulownia-phoenix",
        "peony-blue",
    ]
    record = given_deal({"preset": "single-deal"}, TESHI_HAND, KUTTSUKI_HAND, field)
    assert "redeal" in str(refused(record))
    both = {**record, "rules": {"preset": "single-deal", "both_hand_yaku": "both"}}
    assert replayed(both) == {
        "rounds": [
            {
                "winner": None,
                "points": [6, 6],
                "yaku": [{"teshi": 6}, {"kuttsuki": 6}],
                "calls": [0, 0],
            }
        ],
        "totals": [6, 6],
        "winner": None,
    }


NEVER_DEALS = {"hand_size": 1, "field_size": 46, "redeal_four_of_month": True}
"""Rules whose field (46 cards) always holds a whole month: every deal is redealt."""


def test_a_seeded_record_whose_rules_cannot_deal_is_an_error() -> None:
    error = refused({"rules": NEVER_DEALS, "seed": 4, "actions": []})
    assert "rules" in str(error)
    assert "redeal" in str(error)
    assert error.index is None


RARELY_DEALS = {"hand_size": 6, "field_size": 36, "redeal_four_of_month": True}
"""Rules whose field (36 cards) avoids a whole month once in about 4,000 deals: refused,
since a seeded match would soon find no deal within the engine's limit of redeals."""


def test_a_record_whose_rules_would_redeal_almost_every_deal_is_an_error() -> None:
    error = refused({"rules": RARELY_DEALS, "seed": 4, "actions": []})
    assert str(error).startswith("record rules: rules 'hand_size', 'field_size'")
    assert "only about 0.02% of deals" in str(error)
    assert error.index is None


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b'{"seed": 1, "actions": [{"play": "pine-crane\xff"}]}', "UTF-8"),
        ('{"seed": 1, "rules": {"preset": "caf\u00e9"}}'.encode("latin-1"), "UTF-8"),
        (b'{"actions": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "digits"),
    ],
)
def test_a_record_that_is_not_text_or_too_deep_or_too_large_is_a_record_error(
    tmp_path: Path, content: bytes, needle: str
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    with pytest.raises(RecordError) as caught:
        load_record(path)
    assert repr(str(path)) in str(caught.value)
    assert needle in str(caught.value)
    assert caught.value.index is None


@pytest.mark.parametrize(
    ("rules", "key"),
    [({"teshi": 2**31}, "teshi"), ({"rounds": 121}, "rounds"), ({"max_koikoi": 25}, "max_koikoi")],
)
def test_a_record_whose_rules_are_out_of_bounds_is_refused(rules: dict[str, Any], key: str) -> None:
    error = refused({"rules": rules, "seed": 1, "actions": []})
    assert f"'{key}'" in str(error)
    assert "is not allowed" in str(error)


def test_a_record_error_shows_a_huge_value_briefly() -> None:
    error = refused({"seed": 1, "actions": [], "version": 10**4000})
    assert "version" in str(error)
    assert len(str(error)) < 300


def test_load_record_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    with pytest.raises(RecordError, match="cannot read"):
        load_record(missing)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not JSON"):
        load_record(broken)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(example_record()), encoding="utf-8")
    record = load_record(good)
    assert replay_output(replay(record)) == CALLER_LOSES["replay_output"]
    assert start_match(record).actions == []


# -- the command line -----------------------------------------------------------------


def run_koikoi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KOIKOI_SCRIPT), *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_replay_command_prints_the_json_output(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(CALLER_WINS["record"]), encoding="utf-8")
    done = run_koikoi("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == CALLER_WINS["replay_output"]
    table = run_koikoi("replay", str(path))
    assert table.returncode == 0
    (only,) = CALLER_WINS["replay_output"]["rounds"]
    for key in only["yaku"][only["winner"]]:
        assert key in table.stdout


def test_replay_command_reports_an_illegal_action_with_its_index(tmp_path: Path) -> None:
    record = example_record()
    record["actions"][7] = {"play": never_played()}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = run_koikoi("replay", str(path), "--json")
    assert done.returncode == 1
    output = json.loads(done.stdout)
    assert set(output) == {"error", "index"}
    assert output["index"] == 7
    assert never_played() in output["error"]
    assert never_played() in done.stderr


def test_replay_command_reports_a_bad_record_without_index(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_changes(version=9)), encoding="utf-8")
    done = run_koikoi("replay", str(path), "--json")
    assert done.returncode == 1
    output = json.loads(done.stdout)
    assert set(output) == {"error"}
    assert "version" in output["error"]
    plain = run_koikoi("replay", str(path))
    assert plain.returncode == 1
    assert plain.stdout == ""
    assert "version" in plain.stderr


def test_replay_command_reports_rules_that_cannot_deal(tmp_path: Path) -> None:
    path = tmp_path / "never.json"
    path.write_text(json.dumps({"rules": NEVER_DEALS, "seed": 0, "actions": []}))
    done = run_koikoi("replay", str(path), "--json")
    assert done.returncode == 1
    output = json.loads(done.stdout)
    assert set(output) == {"error"}
    assert "redeal" in output["error"]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "content",
    [
        b'{"seed": 1, "actions": [{"play": "pine-crane\xff"}]}',
        b'{"actions": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"seed": ' + b"9" * 5000 + b"}",
        b'{"seed": 1, "actions": [' + b"[" * 900 + b"]" * 900 + b"]}",
    ],
    ids=["not-utf-8", "too-deep", "too-many-digits", "deep-action"],
)
def test_replay_command_reports_a_file_no_reader_can_take(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    result = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    error = json.loads(result.stdout)
    assert set(error) <= {"error", "index"}
    assert error["error"] in result.stderr


def test_replay_command_unfinished(tmp_path: Path) -> None:
    record = example_record()
    record["actions"] = record["actions"][:3]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = run_koikoi("replay", str(path), "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout)["finished"] is False


def test_simulate_writes_records_that_replay_to_their_results(tmp_path: Path) -> None:
    out = tmp_path / "records"
    done = run_koikoi(
        "simulate", "--players", "greedy,random", "--matches", "3", "--seed", "1",
        "--out", str(out), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 3
    assert summary["players"] == ["greedy", "random"]
    files = sorted(out.glob("*.json"))
    assert [path.name for path in files] == [f"match-{n:05d}.json" for n in (1, 2, 3)]
    rounds = 0
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert "seed" in data
        assert data["result"].get("finished", True) is True
        record = load_record(path)
        assert record.result is not None
        assert replay_output(replay(record)) == data["result"]
        rounds += len(data["result"]["rounds"])
        replay_done = run_koikoi("replay", str(path), "--json") if path == files[0] else None
        if replay_done is not None:
            assert json.loads(replay_done.stdout) == data["result"]
    assert summary["rounds"] == rounds


def test_simulate_single_deals_write_given_deal_records(tmp_path: Path) -> None:
    out = tmp_path / "deals"
    done = run_koikoi(
        "simulate", "--rules", "traditional", "--rounds", "4", "--seed", "3",
        "--out", str(out), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    files = sorted(out.glob("round-*.json"))
    assert len(files) == 4
    for index, path in enumerate(files):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["dealer"] == index % 2
        assert replay_output(replay(load_record(path))) == data["result"]


def test_a_seed_deals_the_same_single_deals_to_any_players() -> None:
    """The deals of ``simulate --rounds`` come from the seed alone, so players can be
    compared on the same cards; another seed deals others."""

    def deals(players: list[str], seed: int = 4) -> list[object]:
        return [
            match.round.deal_json() for match in simulate(CLASSIC, players, seed=seed, rounds=30)
        ]

    assert deals(["random", "random"]) == deals(["normal", "easy"]) == deals(["greedy", "normal"])
    assert deals(["random", "random"]) != deals(["random", "random"], seed=5)


@pytest.mark.parametrize("names", [["random", "greedy"], ["normal", "easy"]])
def test_simulated_games_are_those_of_players_made_for_each_game(names: list[str]) -> None:
    """simulate keeps one pair of built-in players for all its games; each game is
    played exactly as by a pair made for it on the same generator."""

    def records(matches: list[Match]) -> list[object]:
        return [Record.from_match(match).to_json() for match in matches]

    deals, choices = random.Random(6), random.Random(7)
    fresh_rounds = [
        play_out(
            Match.single(Round.deal(CLASSIC, deals, dealer=index % 2)),
            [make_player(name, choices) for name in names],
        )
        for index in range(40)
    ]
    assert records(list(simulate(CLASSIC, names, seed=6, rounds=40))) == records(fresh_rounds)

    fresh_matches = []
    for game_seed in game_seeds(6, 3):
        rng = random.Random(game_seed + 1)
        players = [make_player(name, rng) for name in names]
        fresh_matches.append(play_out(Match(CLASSIC, game_seed), players))
    assert records(list(simulate(CLASSIC, names, seed=6, matches=3))) == records(fresh_matches)
