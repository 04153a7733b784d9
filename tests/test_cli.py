"""The ``koikoi score`` and ``koikoi rules`` commands: the contracts of docs/rules.md §7."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from koikoi import __version__
from koikoi.cli import cli
from koikoi.rules import PRESETS, RuleSet
from worked_examples import batch_example

FIVE_BRIGHTS = [
    "pine-crane",
    "cherry-curtain",
    "susuki-moon",
    "willow-rainman",
    "paulownia-phoenix",
]
FOUR_NO_RAIN = ["pine-crane", "cherry-curtain", "susuki-moon", "paulownia-phoenix"]
THREE_NO_RAIN = ["pine-crane", "cherry-curtain", "susuki-moon"]
PINE = ["pine-crane", "pine-poetry", "pine-plain-1", "pine-plain-2"]

# docs/examples/score-batch.{in,out}.jsonl: lines of every preset and scoring field, with
# the answers koikoi gave them (three of the lines are bad, answered with an error).
EXAMPLE_IN, EXAMPLE_OUT = batch_example("score-batch")


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def json_out(result: Result) -> Any:
    return json.loads(result.stdout)


def batch(lines: list[str], *args: str) -> tuple[Result, list[Any]]:
    result = invoke("score", "--batch", *args, input="".join(line + "\n" for line in lines))
    return result, [json.loads(line) for line in result.stdout.splitlines()]


def koikoi_executable() -> Path:
    """The installed console script, next to the interpreter running the tests."""
    return Path(sys.executable).parent / "koikoi"


# -- koikoi score, one pile ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("single-deal", {"yaku": {"goko": 15}, "total": 15, "final": 15}),
        ("classic", {"yaku": {"goko": 10}, "total": 10, "final": 10}),
        ("ten-card", {"yaku": {"goko": 10}, "total": 10, "final": 10}),
        ("traditional", {"yaku": {"goko": 10}, "total": 10, "final": 20}),
    ],
)
def test_score_five_brights(preset: str, expected: dict[str, Any]) -> None:
    result = invoke("score", "--rules", preset, "--json", *FIVE_BRIGHTS)
    assert result.exit_code == 0, result.output
    assert json_out(result) == expected
    assert len(result.stdout.strip().splitlines()) == 1


def test_score_defaults_to_classic() -> None:
    result = invoke("score", "--json", *FOUR_NO_RAIN)
    assert json_out(result) == {"yaku": {"shiko": 8}, "total": 8, "final": 8}


def test_score_with_nothing_captured() -> None:
    result = invoke("score", "--json")
    assert result.exit_code == 0
    assert json_out(result) == {"yaku": {}, "total": 0, "final": 0}


def test_score_set_overrides() -> None:
    result = invoke("score", "--rules", "single-deal", "--set", "goko=20", "--json", *FIVE_BRIGHTS)
    assert json_out(result)["yaku"] == {"goko": 20}
    result = invoke(
        "score",
        "--set",
        "goko=0",
        "--set",
        "shiko=0",
        "--json",
        *FIVE_BRIGHTS,
        "chrysanthemum-sake",
    )
    assert json_out(result)["yaku"] == {"ame-shiko": 7, "tsukimi": 5, "hanami": 5}
    result = invoke(
        "score",
        "--set",
        "viewing_cancelled_by=rainman,paulownia",
        "--json",
        "susuki-moon",
        "chrysanthemum-sake",
        "paulownia-plain-1",
    )
    assert json_out(result)["yaku"] == {}


def test_score_month() -> None:
    on = ["--set", "tsukifuda=4"]
    assert json_out(invoke("score", *on, "--month", "1", "--json", *PINE))["yaku"] == {
        "tsukifuda": 4
    }
    assert json_out(invoke("score", *on, "--month", "2", "--json", *PINE))["yaku"] == {}
    assert json_out(invoke("score", *on, "--json", *PINE))["yaku"] == {}


@pytest.mark.parametrize(
    ("preset", "own", "opponent", "final"),
    [
        ("classic", 0, 0, 5),
        ("classic", 1, 0, 10),
        ("classic", 1, 2, 40),
        ("single-deal", 2, 2, 6),
        ("traditional", 3, 0, 5),
        ("traditional", 0, 1, 10),
    ],
)
def test_score_calls(preset: str, own: int, opponent: int, final: int) -> None:
    result = invoke(
        "score",
        "--rules",
        preset,
        "--own-calls",
        str(own),
        "--opponent-calls",
        str(opponent),
        "--json",
        *THREE_NO_RAIN,
    )
    assert result.exit_code == 0
    assert json_out(result)["final"] == final


def test_score_rules_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "single-deal"\nsanko = 2\n', encoding="utf-8")
    result = invoke("score", "--rules", str(path), "--json", *THREE_NO_RAIN)
    assert json_out(result) == {"yaku": {"sanko": 2}, "total": 2, "final": 2}
    result = invoke("score", "--rules", str(path), "--set", "sanko=3", "--json", *THREE_NO_RAIN)
    assert json_out(result)["total"] == 3


def test_score_table_output() -> None:
    result = invoke("score", "--rules", "traditional", "--opponent-calls", "1", *FOUR_NO_RAIN)
    assert result.exit_code == 0
    out = result.stdout
    assert "shiko" in out
    assert "8" in out
    assert "32" in out  # 8, doubled at 8, doubled for the opponent's call
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


def test_score_table_output_without_yaku() -> None:
    result = invoke("score", "pine-plain-1")
    assert result.exit_code == 0
    assert "0" in result.stdout
    assert "goko" not in result.stdout


# -- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["pine-cran"], ["pine-cran", "pine-crane"]),
        (["pine-crane", "pine-crane"], ["pine-crane"]),
        (["--rules", "modern", "pine-crane"], ["modern", "classic"]),
        (["--set", "goko=lots", "pine-crane"], ["goko", "lots"]),
        (["--set", "gokoo=3", "pine-crane"], ["gokoo", "goko"]),
        (["--month", "13", "pine-crane"], ["13"]),
    ],
)
def test_score_errors_go_to_stderr_with_exit_1(args: list[str], needles: list[str]) -> None:
    plain = invoke("score", *args)
    assert plain.exit_code == 1
    assert plain.stdout == ""
    for needle in needles:
        assert needle in plain.stderr
    as_json = invoke("score", "--json", *args)
    assert as_json.exit_code == 1
    error = json_out(as_json)
    assert set(error) == {"error"}
    for needle in needles:
        assert needle in error["error"]
        assert needle in as_json.stderr


@pytest.mark.parametrize("option", ["--own-calls", "--opponent-calls"])
@pytest.mark.parametrize("value", ["25", "9" * 4000, "9" * 20_000])
def test_score_calls_beyond_a_round_are_a_usage_error(option: str, value: str) -> None:
    result = invoke("score", option, value, "--json", "pine-crane")
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert option in result.stderr
    done = run_koikoi("score", option, value, "--json", "pine-crane")
    assert done.returncode == 1
    assert option in json.loads(done.stdout)["error"]
    assert "Traceback" not in done.stderr


def test_score_takes_as_many_calls_as_a_round_allows() -> None:
    result = invoke("score", "--own-calls", "24", "--json", *THREE_NO_RAIN)
    assert result.exit_code == 0, result.output
    assert json_out(result)["final"] == 5 * 2**24


@pytest.mark.parametrize("value", ["9" * 4000, "-" + "9" * 4000])
def test_score_a_month_of_thousands_of_digits_is_a_short_error(value: str) -> None:
    result = invoke("score", "--month", value, "--json", "pine-crane")
    assert result.exit_code in (1, 2)
    assert isinstance(result.exception, SystemExit)
    assert "--month" in result.stderr
    assert len(result.stderr) < 500


@pytest.mark.parametrize("value", ["٣", "\uff15", "1_000", "+5", " 5", "9" * 20_000])
def test_score_set_takes_only_ascii_digits_for_a_number(value: str) -> None:
    result = invoke("score", "--set", f"goko={value}", "--json", *FIVE_BRIGHTS)
    assert result.exit_code == 1
    message = json_out(result)["error"]
    assert message.startswith("rule 'goko': ")
    assert repr(value)[:20] in message
    assert len(message) < 300


@pytest.mark.parametrize("value", ["2147483648", "1001"])
def test_score_set_beyond_a_bound_is_an_error(value: str) -> None:
    result = invoke("score", "--set", f"teshi={value}", "--json", "pine-crane")
    assert result.exit_code == 1
    assert "from 0 to 1000" in json_out(result)["error"]


def test_score_bad_rules_file_reports_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"goko": -1, "viewing": "never", "deal_in_pairs": "true"}', encoding="utf-8")
    result = invoke("score", "--rules", str(path), "--json", "pine-crane")
    assert result.exit_code == 1
    message = json_out(result)["error"]
    for needle in ("goko", "never", "deal_in_pairs"):
        assert needle in message


# -- koikoi score --batch -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["score-batch", "score-batch-traditional"])
def test_batch_worked_examples(name: str) -> None:
    lines, expected = batch_example(name)
    options = ["--rules", "traditional"] if name.endswith("traditional") else []
    result, answers = batch(lines, *options)
    assert result.exit_code == 0
    assert answers == expected


def test_batch_lines_print_one_compact_json_line_each() -> None:
    result, answers = batch(EXAMPLE_IN * 3)
    assert len(result.stdout.splitlines()) == 3 * len(EXAMPLE_IN)
    assert answers == EXAMPLE_OUT * 3
    assert result.stdout.splitlines()[: len(EXAMPLE_OUT)] == [
        json.dumps(answer) for answer in EXAMPLE_OUT
    ]


def test_batch_bad_lines_answer_an_error_and_the_rest_go_on() -> None:
    lines = [
        EXAMPLE_IN[0],
        "this is not json",
        '{"cards": ["pine-crane", "pine-cran"]}',
        '{"cards": ["pine-crane"], "rules": {"goko": -1}}',
        '{"cards": ["pine-crane"], "rules": {"preset": "modern"}}',
        '{"cards": ["pine-crane"], "rules": {"gokoo": 3}}',
        '{"cards": ["pine-crane"], "rules": {"deal_in_pairs": "true"}}',
        '["pine-crane"]',
        '{"rules": {"preset": "classic"}}',
        '{"cards": "pine-crane"}',
        '{"cards": ["pine-crane", "pine-crane"]}',
        '{"cards": ["pine-crane"], "own_calls": -1}',
        '{"cards": ["pine-crane"], "month": "one"}',
        EXAMPLE_IN[1],
    ]
    _, answers = batch(lines)
    assert len(answers) == len(lines)
    assert answers[0] == EXAMPLE_OUT[0]
    assert answers[-1] == EXAMPLE_OUT[1]
    for line, answer in zip(lines[1:-1], answers[1:-1], strict=True):
        assert set(answer) == {"error"}, line
        assert isinstance(answer["error"], str)
        assert answer["error"]
    assert "pine-cran" in answers[2]["error"]
    assert "goko" in answers[3]["error"]
    assert "modern" in answers[4]["error"]
    assert "'goko'" in answers[5]["error"]  # the suggestion
    assert "deal_in_pairs" in answers[6]["error"]


def test_batch_lines_no_reader_can_take_answer_an_error_and_the_rest_go_on() -> None:
    good = EXAMPLE_IN[0].encode()
    bad = [
        b'{"cards": ["pine-crane\xff"]}',  # not UTF-8
        b"\xff\xfe" + good,
        b"[" * 100_000 + b"]" * 100_000,  # nested beyond the recursion limit
        b'{"cards": [], "rules": {"goko": ' + b"[" * 900 + b"]" * 900 + b"}}",
        b'{"cards": [], "month": ' + b"9" * 5000 + b"}",  # more digits than int() takes
        b'{"cards": [], "month": ' + b"9" * 4000 + b"}",
        b'{"cards": [], "own_calls": 25}',
        b'{"cards": [], "opponent_calls": ' + b"9" * 4000 + b"}",
        b'{"cards": [], "rules": {"teshi": 2147483648}}',
        b'{"cards": [], "rules": {"hand_size": 1, "field_size": 46, "redeal_four_of_month": true}}',
        b'{"cards": [], "rules": '
        + json.dumps(dict.fromkeys(map(str, range(100_000)), 0)).encode()
        + b"}",
        b'{"cards": ["' + b"x" * 100_000 + b'"]}',
    ]
    stdin = b"".join(line + b"\n" + good + b"\n" for line in bad)
    started = time.perf_counter()
    result = CliRunner().invoke(cli, ["score", "--batch"], input=stdin)
    assert time.perf_counter() - started < 10
    assert result.exception is None, result.exception
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == 2 * len(bad)
    for line, answer, after in zip(bad, answers[::2], answers[1::2], strict=True):
        assert set(answer) == {"error"}, line[:80]
        assert after == EXAMPLE_OUT[0]
    # (The unknown card's message, made in koikoi.cards, repeats the slug in full.)
    assert all(len(answer["error"]) < 400 for answer in answers[:-2:2])
    assert "UTF-8" in answers[0]["error"]
    assert "UTF-8" in answers[2]["error"]
    assert "nested" in answers[4]["error"]
    assert "digits" in answers[8]["error"]
    assert "'month'" in answers[10]["error"]
    assert "'own_calls'" in answers[12]["error"]
    assert "'opponent_calls'" in answers[14]["error"]
    assert "'teshi'" in answers[16]["error"]
    assert "redeal_four_of_month" in answers[18]["error"]
    assert "100000 keys" in answers[20]["error"]
    assert "xxxx" in answers[22]["error"]


def test_batch_rules_and_set_apply_only_to_lines_without_rules() -> None:
    lines = [
        json.dumps({"cards": FIVE_BRIGHTS}),
        json.dumps({"cards": FIVE_BRIGHTS, "rules": {}}),
        json.dumps({"cards": FIVE_BRIGHTS, "rules": {"preset": "classic"}}),
        json.dumps({"cards": FIVE_BRIGHTS, "rules": {"preset": "ten-card"}}),
        json.dumps({"cards": FIVE_BRIGHTS, "rules": {"preset": "single-deal"}}),
    ]
    _, answers = batch(lines, "--rules", "single-deal")
    assert [answer["total"] for answer in answers] == [15, 10, 10, 10, 15]
    _, answers = batch(lines, "--rules", "single-deal", "--set", "goko=20")
    assert [answer["total"] for answer in answers] == [20, 10, 10, 10, 15]
    _, answers = batch(lines, "--set", "goko=3")
    assert [answer["total"] for answer in answers] == [3, 10, 10, 10, 15]
    _, answers = batch(lines)
    assert [answer["total"] for answer in answers] == [10, 10, 10, 10, 15]


def test_batch_line_rules_start_from_their_own_preset_else_classic() -> None:
    lines = [
        # No preset: classic plus the change, even under --rules single-deal.
        json.dumps({"cards": FOUR_NO_RAIN, "rules": {"goko": 12}}),
        json.dumps({"cards": FIVE_BRIGHTS, "rules": {"goko": 12}}),
        # A preset: that preset plus the change.
        json.dumps({"cards": FOUR_NO_RAIN, "rules": {"preset": "single-deal", "goko": 12}}),
        json.dumps(
            {"cards": FOUR_NO_RAIN, "rules": {"preset": "traditional", "double_at": 0}},
        ),
    ]
    _, answers = batch(lines, "--rules", "single-deal", "--set", "shiko=1")
    assert [answer["yaku"] for answer in answers] == [
        {"shiko": 8},
        {"goko": 12},
        {"shiko": 10},
        {"shiko": 8},
    ]
    assert answers[3]["final"] == 8


def test_batch_month_and_calls_per_line() -> None:
    lines = [
        json.dumps({"cards": PINE, "rules": {"tsukifuda": 4}, "month": 1}),
        json.dumps({"cards": PINE, "rules": {"tsukifuda": 4}, "month": 2}),
        json.dumps({"cards": PINE, "rules": {"tsukifuda": 4}}),
        json.dumps({"cards": THREE_NO_RAIN, "own_calls": 2}),
        json.dumps({"cards": THREE_NO_RAIN, "opponent_calls": 1, "own_calls": 1}),
        json.dumps(
            {"cards": THREE_NO_RAIN, "rules": {"preset": "traditional"}, "own_calls": 2},
        ),
        json.dumps(
            {"cards": THREE_NO_RAIN, "rules": {"preset": "traditional"}, "opponent_calls": 2},
        ),
    ]
    _, answers = batch(lines)
    assert answers[0] == {"yaku": {"tsukifuda": 4}, "total": 4, "final": 4}
    assert answers[1] == {"yaku": {}, "total": 0, "final": 0}
    assert answers[2] == {"yaku": {}, "total": 0, "final": 0}
    assert [answer["final"] for answer in answers[3:]] == [20, 20, 5, 10]


def test_batch_with_bad_default_rules_fails_with_a_json_error() -> None:
    result, answers = batch([EXAMPLE_IN[0]], "--set", "goko=-1")
    assert result.exit_code == 1
    assert set(answers[0]) == {"error"}
    assert "goko" in answers[0]["error"]
    assert "goko" in result.stderr


# -- koikoi --version ---------------------------------------------------------------------


def test_version() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert __version__ in result.stdout
    assert "koikoi" in result.stdout


# -- koikoi rules -------------------------------------------------------------------------


def test_rules_list_names_every_preset_and_its_changes() -> None:
    result = invoke("rules", "list")
    assert result.exit_code == 0
    for name in PRESETS:
        assert name in result.stdout
    for change in ("hand_size", "card-draw", "opponent-called", "double_at"):
        assert change in result.stdout


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rules_show_json_is_every_field(preset: str) -> None:
    result = invoke("rules", "show", "--rules", preset, "--json")
    assert result.exit_code == 0
    shown = json_out(result)
    assert shown == PRESETS[preset].to_mapping(full=True)
    assert RuleSet.from_mapping(shown) == PRESETS[preset]


def test_rules_show_applies_overrides() -> None:
    result = invoke(
        "rules", "show", "--rules", "ten-card", "--set", "goko=12", "--set", "viewing=off", "--json"
    )
    shown = json_out(result)
    assert shown["preset"] == "ten-card"
    assert shown["goko"] == 12
    assert shown["viewing"] == "off"
    assert shown["hand_size"] == 10


def test_rules_show_table() -> None:
    result = invoke("rules", "show", "--rules", "traditional", "--set", "goko=12")
    assert result.exit_code == 0
    for key in ("goko", "12", "double_at", "viewing_cancelled_by", "target_score", "traditional"):
        assert key in result.stdout


def test_rules_show_table_states_each_fields_bounds() -> None:
    result = CliRunner().invoke(cli, ["rules", "show"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    goko = next(line for line in result.stdout.splitlines() if " goko " in line)
    assert "an integer from 0 to 1000 (0 switches it off)" in goko
    target = next(line for line in result.stdout.splitlines() if " target_score " in line)
    assert "from 0 to 100000" in target


def test_rules_show_bad_set_is_an_error() -> None:
    result = invoke("rules", "show", "--set", "viewing=sometimes", "--json")
    assert result.exit_code == 1
    message = json_out(result)["error"]
    for needle in ("viewing", "sometimes", "always", "off", "with-other-yaku"):
        assert needle in message


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("full", [False, True])
def test_rules_export_round_trips(preset: str, full: bool, tmp_path: Path) -> None:
    options = ["--rules", preset, "--set", "sanko=4", "--set", "viewing_cancelled_by=willow"]
    expected = RuleSet.from_mapping(
        {"preset": preset, "sanko": 4, "viewing_cancelled_by": ["willow"]}
    )
    extra = ["--full"] if full else []
    as_toml = invoke("rules", "export", *options, *extra)
    assert as_toml.exit_code == 0
    data = tomllib.loads(as_toml.stdout)
    assert data["preset"] == preset
    assert data["sanko"] == 4
    assert RuleSet.from_mapping(data) == expected
    as_json = invoke("rules", "export", "--format", "json", *options, *extra)
    assert as_json.exit_code == 0
    assert RuleSet.from_mapping(json.loads(as_json.stdout)) == expected
    if full:
        assert set(data) == {"preset", *RuleSet.KEYS}
    else:
        assert set(data) == {"preset", "sanko", "viewing_cancelled_by"}
    # The exported file is a rules file again.
    path = tmp_path / "house.toml"
    path.write_text(as_toml.stdout, encoding="utf-8")
    assert RuleSet.from_file(path) == expected
    assert invoke("rules", "check", str(path)).exit_code == 0


def test_rules_check_accepts_good_files(tmp_path: Path) -> None:
    toml_path = tmp_path / "good.toml"
    toml_path.write_text('preset = "traditional"\ngoko = 12\n', encoding="utf-8")
    json_path = tmp_path / "good.json"
    json_path.write_text('{"preset": "ten-card", "viewing_cancelled_by": []}', encoding="utf-8")
    result = invoke("rules", "check", str(toml_path), str(json_path))
    assert result.exit_code == 0
    assert "good.toml" in result.stdout
    assert "good.json" in result.stdout


def test_rules_check_reports_every_problem_of_a_bad_file(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text("goko = 12\n", encoding="utf-8")
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'preset = "modern"\ngoko = -1\nviewing = "never"\nkasu_minimum = 3\n'
        'deal_in_pairs = "yes"\nhand_size = 30\n',
        encoding="utf-8",
    )
    result = invoke("rules", "check", str(good), str(bad))
    assert result.exit_code == 1
    for needle in ("modern", "goko", "never", "kasu_minimum", "kasu_min'", "deal_in_pairs", "yes"):
        assert needle in result.stderr, needle
    assert "bad.toml" in result.stderr
    assert "good.toml" in result.stdout


def test_rules_check_unreadable_and_broken_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("goko = = 1\n", encoding="utf-8")
    result = invoke("rules", "check", str(broken), str(tmp_path / "missing.json"))
    assert result.exit_code == 1
    assert "broken.toml" in result.stderr
    assert "missing.json" in result.stderr


def test_rules_check_reports_every_file_whatever_is_wrong_with_each(tmp_path: Path) -> None:
    files = {
        "latin1.toml": "goko = 3 # caf\xe9\n".encode("latin-1"),
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "huge.toml": b"goko = " + b"9" * 5000 + b"\n",
        "never.json": b'{"hand_size": 1, "field_size": 46, "redeal_four_of_month": true}',
        "good.toml": b"goko = 12\n",
    }
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    result = invoke("rules", "check", *(str(tmp_path / name) for name in files))
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert "good.toml: ok" in result.stdout
    for name, needle in [
        ("latin1.toml", "UTF-8"),
        ("deep.json", "nested"),
        ("huge.toml", "digits"),
        ("never.json", "redeal_four_of_month"),
    ]:
        assert f"{tmp_path / name}: 1 problem(s)" in result.stderr
        assert needle in result.stderr
    assert "4 of 5 rules file(s) have problems" in result.stderr


# -- koikoi simulate and tournament: folders and files they cannot write ------------------


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "{}"],
        ["watch", "{}"],
        ["rules", "check", "{}"],
        ["db", "backup", "{}"],
        ["simulate", "--rounds", "1", "--out", "{}"],
        ["tournament", "--players", "random,greedy", "--rounds", "1", "--plot", "{}"],
    ],
)
def test_a_file_name_no_file_can_have_is_a_usage_error(command: list[str]) -> None:
    """A lone surrogate cannot be a file name (the fuzz test found click's own check of
    it raising UnicodeEncodeError, a traceback)."""
    name = "records/\ud800"
    result = invoke(*(part.format(name) if part == "{}" else part for part in command))
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{name!r} is not a name a file can have" in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--rounds", "1"],
        ["tournament", "--players", "random,greedy", "--rounds", "1", "--workers", "1"],
    ],
)
def test_an_out_folder_that_cannot_be_made_is_an_error(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    out = tmp_path / "file" / "records"
    result = invoke(*command, "--out", str(out), "--json")
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    message = json_out(result)["error"]
    assert message == f"cannot make the folder {str(out)!r}: Not a directory"
    assert f"koikoi: error: {message}" in result.stderr


def test_a_plot_into_a_missing_folder_is_an_error_before_any_game(tmp_path: Path) -> None:
    plot = tmp_path / "missing" / "ladder.png"
    result = invoke(
        "tournament", "--players", "random,greedy", "--rounds", "1", "--workers", "1",
        "--plot", str(plot), "--json",
    )  # fmt: skip
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert json_out(result) == {"error": f"the folder {str(plot.parent)!r} for the plot is missing"}


def test_a_database_url_with_a_port_that_is_not_a_number_is_an_error() -> None:
    result = invoke("db", "upgrade", "--database", "postgresql://user@host:port/db")
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert "koikoi: error: database URL 'postgresql://user@host:port/db' is not valid" in (
        result.stderr
    )


# -- the installed console script ---------------------------------------------------------


def run_koikoi(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(koikoi_executable()), *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_koikoi_alone_shows_its_help() -> None:
    """No command is no error: the help, as ``--help`` shows it."""
    alone, asked = run_koikoi(), run_koikoi("--help")
    assert (alone.returncode, alone.stderr) == (0, "")
    assert alone.stdout == asked.stdout
    assert "Commands:" in alone.stdout


def test_console_script_scores() -> None:
    assert koikoi_executable().exists()
    done = run_koikoi("score", "--rules", "single-deal", "--json", *FIVE_BRIGHTS)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"yaku": {"goko": 15}, "total": 15, "final": 15}


def test_console_script_batch_and_errors() -> None:
    lines = [*EXAMPLE_IN, "not json"]
    done = run_koikoi("score", "--batch", input="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert answers[: len(EXAMPLE_OUT)] == EXAMPLE_OUT
    assert set(answers[-1]) == {"error"}
    failed = run_koikoi("score", "--json", "pine-cran")
    assert failed.returncode == 1
    error = json.loads(failed.stdout)
    assert set(error) == {"error"}
    assert "pine-crane" in error["error"]
    assert "pine-crane" in failed.stderr


def test_serving_settles_the_collector_before_it_takes_players() -> None:
    """What koikoi serve does to the cycle collector before serving: its start-up
    objects frozen out of every pass, young passes rarer (in a process of its own, so
    the test run's collector stays as it was)."""
    script = (
        "import gc\n"
        "from koikoi.cli.serve import COLLECTOR_THRESHOLDS, settle_collector\n"
        "before = gc.get_freeze_count()\n"
        "settle_collector()\n"
        "print(before, gc.get_freeze_count(), gc.get_threshold() == COLLECTOR_THRESHOLDS)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    before, frozen, thresholds = done.stdout.split()
    assert int(before) == 0
    assert int(frozen) > 10_000
    assert thresholds == "True"


SERVER_LIBRARIES = ("alembic", "fastapi", "sqlalchemy", "textual", "uvicorn")


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--rounds", "3", "--json"],
        ["score", "--json", *FIVE_BRIGHTS],
        ["rules", "list"],
        ["tournament", "--pairs", "greedy:random", "--matches", "2", "--workers", "1", "--json"],
    ],
    ids=lambda args: args[0],
)
def test_a_command_imports_no_more_than_it_runs(args: list[str]) -> None:
    """Each sub-command is imported when it runs: the game's own commands start without
    loading the server's or the terminal game's libraries (a third of a second)."""
    script = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from koikoi.cli import cli\n"
        "result = CliRunner().invoke(cli, sys.argv[1:])\n"
        "assert result.exit_code == 0, result.output\n"
        f"print(*sorted(set({SERVER_LIBRARIES!r}) & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == ""


def test_help_lists_every_command_and_each_one_runs() -> None:
    """The commands are imported when asked for, and help still lists them all."""
    section = invoke("--help").output.split("Commands:\n")[1]
    names = [line.split()[0] for line in section.splitlines() if line[2:3].isalpha()]
    assert names == [
        "db", "perft", "play", "replay", "rules", "score", "serve", "simulate", "tournament",
        "watch",
    ]  # fmt: skip
    for name in names:
        assert invoke(name, "--help").exit_code == 0
    unknown = invoke("simulat")
    assert unknown.exit_code != 0
    assert "simulat" in unknown.output


# -- output that cannot be written, input that never ends (0.6.3's tracebacks) --------------


@pytest.mark.parametrize(
    "args",
    [("rules", "list"), ("score", "pine-crane"), ("simulate", "--rounds", "2")],
)
def test_output_to_a_full_disk_is_an_error_not_a_traceback(args: tuple[str, ...]) -> None:
    full = Path("/dev/full")
    if not full.exists():
        pytest.skip("this system has no /dev/full")
    with full.open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "koikoi", *args],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr == "koikoi: error: cannot write output: No space left on device\n"


@pytest.mark.parametrize(
    ("args", "what"),
    [(("replay", "{}"), "record"), (("score", "--rules", "{}", "pine-crane"), "rules file")],
)
def test_a_file_that_never_ends_is_refused_before_it_is_read_whole(
    args: tuple[str, ...], what: str, tmp_path: Path
) -> None:
    """``koikoi replay /dev/zero`` grew to 5.8 GB in 0.6.3; a file past the cap (and a
    device that never ends) is refused by name."""
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (10 * 1024 * 1024 + 1))
    for source in (huge, Path("/dev/zero")):
        if not source.exists():
            continue
        done = run_koikoi(*(arg.format(source) for arg in args))
        assert done.returncode == 1
        assert f"{what} {str(source)!r} holds more than 10 MB" in done.stderr
        assert "Traceback" not in done.stderr
