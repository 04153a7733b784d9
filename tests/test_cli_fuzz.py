"""Fuzzing every command's inputs: arguments, rules files, records, batch lines, paths.

Whatever comes in, a command answers as docs/rules.md §7 says: exit status 0, 1 (an error,
``koikoi: error: ...`` on standard error) or 2 (click's usage error), never a Python
traceback, and with ``--json`` one JSON object on standard output. Every command runs
in-process (click's CliRunner), so the examples are many and fast.

Text on a command line never holds a NUL character (the system cannot pass one), so
the generated arguments do not either.
"""

from __future__ import annotations

import contextlib
import json
import random
import tomllib
import traceback
from pathlib import Path
from typing import Any, TypeVar

import pytest
import tomli_w
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from koikoi.cards import SLUGS
from koikoi.cli import cli
from koikoi.rules import FIELDS, PRESET_NAMES, RuleSet

T = TypeVar("T")

FUZZ = settings(
    max_examples=150,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# -- what every answer must be ------------------------------------------------------------


def invoke(args: list[str], *, input: bytes | None = None) -> Result:
    return CliRunner().invoke(cli, args, input=input)


def check(result: Result, *, as_json: bool) -> Any:
    """The contract, whatever the input; the JSON answer when there is one."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(result.exception))
        pytest.fail(f"a traceback:\n{trace}")
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert result.exit_code in (0, 1, 2), output[-500:]
    event(f"exit status {result.exit_code}")  # --hypothesis-show-statistics: the mix
    if result.exit_code == 1:
        assert "koikoi: error: " in result.stderr
    if as_json and result.exit_code in (0, 1):
        answer = json.loads(result.stdout.splitlines()[-1])
        assert isinstance(answer, dict)
        if result.exit_code == 1:
            assert isinstance(answer["error"], str)
        return answer
    return None


# -- building blocks ----------------------------------------------------------------------

# Command-line text: any characters but NUL, with a bias to what numbers and keys look like.
arg_text = st.text(st.characters(blacklist_characters="\0"), max_size=30)
digits = st.integers(min_value=1, max_value=20_000).map(lambda n: "9" * n)
numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    digits,
    st.sampled_from(["٣", "\uff15", "1_000", "+5", " 5", "0x10", "1e3", "-0", "", "nan"]),
    arg_text,
)
rule_keys = st.one_of(st.sampled_from(sorted(FIELDS)), arg_text)
rule_values = st.one_of(
    numbers,
    st.sampled_from(["true", "false", "off", "rainman,willow", "", *PRESET_NAMES]),
    arg_text,
)
assignments = st.lists(
    st.builds(lambda key, value: f"{key}={value}", rule_keys, rule_values), max_size=4
)
presets_or_paths = st.one_of(st.sampled_from(PRESET_NAMES), arg_text)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(SLUGS),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=20,
)
rule_mappings = st.dictionaries(
    st.one_of(st.sampled_from(["preset", *FIELDS]), st.text(max_size=12)), json_values, max_size=8
)


def flip_bytes(data: bytes, rng: random.Random, count: int) -> bytes:
    """``data`` with ``count`` bytes changed, cut or repeated at random places."""
    mutable = bytearray(data)
    for _ in range(count):
        if not mutable:
            break
        at = rng.randrange(len(mutable))
        how = rng.randrange(4)
        if how == 0:
            mutable[at] = rng.randrange(256)
        elif how == 1:
            mutable[at] ^= 1 << rng.randrange(8)
        elif how == 2:
            del mutable[at : at + rng.randrange(1, 20)]
        else:
            mutable[at:at] = mutable[at : at + rng.randrange(1, 20)]
    return bytes(mutable)


def mutate_json(data: Any, rng: random.Random, replacement: Any) -> Any:
    """``data`` with one node (a random depth down) replaced."""
    if isinstance(data, dict) and data and rng.random() < 0.8:
        key = rng.choice(sorted(data))
        return {**data, key: mutate_json(data[key], rng, replacement)}
    if isinstance(data, list) and data and rng.random() < 0.8:
        at = rng.randrange(len(data))
        return [*data[:at], mutate_json(data[at], rng, replacement), *data[at + 1 :]]
    return replacement


# -- koikoi score -------------------------------------------------------------------------


@FUZZ
@given(
    st.lists(
        st.one_of(
            st.builds(lambda v: ["--month", v], numbers),
            st.builds(lambda v: ["--own-calls", v], numbers),
            st.builds(lambda v: ["--opponent-calls", v], numbers),
            st.builds(lambda v: ["--rules", v], presets_or_paths),
            assignments.map(lambda items: [part for item in items for part in ("--set", item)]),
        ),
        max_size=4,
    ),
    st.lists(st.one_of(st.sampled_from(SLUGS), arg_text), max_size=8),
    st.booleans(),
)
def test_score_arguments(options: list[list[str]], cards: list[str], as_json: bool) -> None:
    args = ["score", *(part for option in options for part in option)]
    answer = check(invoke([*args, *(["--json"] if as_json else []), "--", *cards]), as_json=as_json)
    if answer is not None and "error" not in answer:
        assert set(answer) == {"yaku", "total", "final"}


batch_lines = st.one_of(
    st.binary(max_size=80),
    st.builds(
        lambda cards, rules, extra: json.dumps({"cards": cards, "rules": rules, **extra}),
        st.lists(st.sampled_from(SLUGS), max_size=10),
        rule_mappings,
        st.dictionaries(st.sampled_from(["month", "own_calls", "opponent_calls"]), json_values),
    ).map(str.encode),
    json_values.map(lambda value: json.dumps(value).encode()),
)


@FUZZ
@given(st.lists(batch_lines, min_size=1, max_size=10), st.randoms(use_true_random=False))
def test_score_batch_lines(lines: list[bytes], rng: random.Random) -> None:
    # Some lines byte-flipped too; none may hold a newline, or it would be two lines.
    lines = [flip_bytes(line, rng, 2) if rng.random() < 0.3 else line for line in lines]
    lines = [line.replace(b"\n", b" ").replace(b"\r", b" ") for line in lines]
    result = invoke(["score", "--batch"], input=b"".join(line + b"\n" for line in lines))
    check(result, as_json=True)
    answers = [json.loads(text) for text in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    for answer in answers:
        assert isinstance(answer, dict)
        assert set(answer) in ({"error"}, {"yaku", "total", "final"})
        # A fault nobody foresaw is answered too; the fuzzing looks for those.
        assert not answer.get("error", "").startswith("cannot score this line"), answer


# -- koikoi rules -------------------------------------------------------------------------


@st.composite
def rules_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """A rules file: a real rule set's, random rules, or either with bytes flipped."""
    suffix = draw(st.sampled_from([".toml", ".json"]))
    if draw(st.booleans()):
        preset = draw(st.sampled_from(PRESET_NAMES))
        data: dict[str, Any] = RuleSet.from_mapping({"preset": preset}).to_mapping(
            full=draw(st.booleans())
        )
    else:
        data = draw(rule_mappings)
    try:
        text = json.dumps(data) if suffix == ".json" else tomli_w.dumps(data)
    except (TypeError, ValueError):  # TOML has no null, and no NaN in JSON's sense
        text = json.dumps(data)
    content = text.encode()
    flips = draw(st.integers(min_value=0, max_value=4))
    rng = draw(st.randoms(use_true_random=False))
    return suffix, flip_bytes(content, rng, flips)


@FUZZ
@given(st.lists(rules_files(), min_size=1, max_size=3), assignments, st.booleans())
def test_rules_commands_with_files_and_set(
    tmp_path_factory: pytest.TempPathFactory,
    files: list[tuple[str, bytes]],
    sets: list[str],
    as_json: bool,
) -> None:
    folder = tmp_path_factory.mktemp("rules")
    paths = []
    for number, (suffix, content) in enumerate(files):
        path = folder / f"rules-{number}{suffix}"
        path.write_bytes(content)
        paths.append(str(path))
    checked = invoke(["rules", "check", *paths])
    check(checked, as_json=False)
    assert checked.exit_code in (0, 1)
    for name in paths:  # every file reported, whatever the others held
        assert name in checked.stdout + checked.stderr
    set_args = [part for item in sets for part in ("--set", item)]
    shown = invoke(["rules", "show", "--rules", paths[0], *set_args, *(["--json"] * as_json)])
    answer = check(shown, as_json=as_json)
    if answer is not None and "error" not in answer:
        assert RuleSet.from_mapping(answer).to_mapping(full=True) == answer
    exported = invoke(["rules", "export", "--rules", paths[0], *set_args])
    check(exported, as_json=False)
    if exported.exit_code == 0:
        assert RuleSet.from_mapping(tomllib.loads(exported.stdout))


# -- koikoi replay ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_records(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """Records as ``koikoi simulate --out`` writes them: whole matches and given deals."""
    folder = tmp_path_factory.mktemp("records")
    for args in (
        ["--players", "greedy,random", "--matches", "2", "--set", "rounds=2"],
        ["--rules", "traditional", "--rounds", "2"],
    ):
        done = invoke(["simulate", *args, "--seed", "3", "--out", str(folder), "--json"])
        assert done.exit_code == 0, done.output
    return [path.read_bytes() for path in sorted(folder.glob("*.json"))]


@FUZZ
@given(
    st.integers(min_value=0, max_value=3),
    st.sampled_from(["bytes", "node", "random"]),
    json_values,
    st.randoms(use_true_random=False),
)
def test_replay_of_mutated_records(
    tmp_path_factory: pytest.TempPathFactory,
    real_records: list[bytes],
    which: int,
    how: str,
    value: Any,
    rng: random.Random,
) -> None:
    record = real_records[which % len(real_records)]
    if how == "bytes":
        content = flip_bytes(record, rng, rng.randrange(1, 6))
    elif how == "node":
        content = json.dumps(mutate_json(json.loads(record), rng, value)).encode()
    else:
        content = json.dumps(value).encode()
    path = tmp_path_factory.mktemp("replay") / "record.json"
    path.write_bytes(content)
    answer = check(invoke(["replay", str(path), "--json"]), as_json=True)
    assert answer is not None
    assert set(answer) <= {"error", "index"} or {"rounds", "totals", "winner"} <= set(answer)


def test_replay_of_every_real_record_still_passes(
    real_records: list[bytes], tmp_path: Path
) -> None:
    # The records the fuzzing mutates are themselves good.
    for number, record in enumerate(real_records):
        path = tmp_path / f"{number}.json"
        path.write_bytes(record)
        result = invoke(["replay", str(path), "--json"])
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout) == json.loads(record)["result"]


# -- koikoi simulate and tournament -------------------------------------------------------


def mostly(valid: st.SearchStrategy[T], odd: st.SearchStrategy[T]) -> st.SearchStrategy[T]:
    """Three times in four a valid value, so that the commands run past their checks."""
    return st.integers(min_value=0, max_value=3).flatmap(lambda n: odd if n == 0 else valid)


QUICK_PLAYERS = ["random", "greedy", "easy"]
small_counts = mostly(st.sampled_from(["1", "2"]), numbers.filter(lambda text: not _big(text)))
player_lists = mostly(
    st.lists(st.sampled_from(QUICK_PLAYERS), min_size=2, max_size=3, unique=True).map(",".join),
    arg_text,
)
pair_lists = mostly(
    st.lists(
        st.permutations(QUICK_PLAYERS).map(lambda names: f"{names[0]}:{names[1]}"),
        min_size=1,
        max_size=2,
    ).map(",".join),
    arg_text,
)


def _big(text: str) -> bool:
    """Counts that would play for long (as click reads them): these fuzz the parsing,
    not the playing."""
    try:
        return int(text) > 2
    except ValueError:  # not a number to click either, or more digits than int() takes
        return False


@FUZZ
@given(
    st.sampled_from(["--matches", "--rounds"]),
    small_counts,
    mostly(st.permutations(QUICK_PLAYERS).map(lambda names: ",".join(names[:2])), arg_text),
    mostly(st.integers(min_value=0, max_value=10**6).map(str), st.one_of(numbers, digits)),
    mostly(st.just([]), assignments),  # mostly no --set: a bad one stops the command
)
def test_simulate_options(kind: str, count: str, players: str, seed: str, sets: list[str]) -> None:
    set_args = [part for item in sets for part in ("--set", item)]
    # Short matches: the options are what is fuzzed, not the play.
    args = ["simulate", kind, count, "--players", players, "--seed", seed, "--set", "rounds=1"]
    check(invoke([*args, *set_args, "--json"]), as_json=True)


@settings(FUZZ, max_examples=40)
@given(
    st.sampled_from([("--players", player_lists), ("--pairs", pair_lists)]).flatmap(
        lambda option: option[1].map(lambda value: [option[0], value])
    ),
    st.sampled_from(["--matches", "--rounds"]),
    small_counts,
    mostly(st.sampled_from(["1", "3"]), st.one_of(st.sampled_from(["0", "-1"]), numbers)),
    mostly(st.sampled_from(["1", "5"]), numbers.filter(lambda text: not _big(text))),
)
def test_tournament_options(
    players: list[str], kind: str, count: str, rollouts: str, budget: str
) -> None:
    args = [
        "tournament", *players, kind, count, "--workers", "1", "--rollouts", rollouts,
        "--budget-ms", budget, "--set", "rounds=1",
    ]  # fmt: skip
    check(invoke([*args, "--json"]), as_json=True)


# -- koikoi db ----------------------------------------------------------------------------


@st.composite
def odd_paths(draw: st.DrawFn, folder: Path) -> str:
    """Paths a database or backup could be given: missing folders, files as folders,
    system folders, very long names and odd characters."""
    kind = draw(st.sampled_from(["under-file", "missing", "proc", "long", "relative", "folder"]))
    name = draw(st.text(st.characters(blacklist_characters="\0/"), min_size=1, max_size=12))
    if kind == "under-file":
        return str(folder / "file" / name)
    if kind == "missing":
        return str(folder / "missing" / name / "koikoi.sqlite3")
    if kind == "proc":
        return f"/proc/{draw(st.sampled_from(['', 'self/', '1/', 'sys/']))}{name}"
    if kind == "long":
        return str(folder / (name * 300))
    if kind == "folder":
        return str(folder)
    return name  # relative: the test runs in its own folder


@settings(FUZZ, max_examples=100)
@given(st.data())
def test_db_commands_with_odd_paths(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    folder = tmp_path_factory.mktemp("db")
    (folder / "file").write_text("not a folder, nor a database", encoding="utf-8")
    database = data.draw(
        st.one_of(
            odd_paths(folder).map(lambda path: f"sqlite:///{path}"),
            st.just(f"sqlite:///{folder / 'file'}"),
            st.sampled_from(["sqlite://", "sqlite:///", "sqlite:///:memory:", "mysql://x/y"]),
            arg_text,
        )
    )
    upgrade = data.draw(st.booleans())
    target = Path(data.draw(odd_paths(folder)))
    # Relative paths make their files here, not wherever the tests run.
    with contextlib.chdir(folder):
        if upgrade:
            check(invoke(["db", "upgrade", "--database", database]), as_json=False)
            return
        existed = _exists(target)
        result = invoke(["db", "backup", str(target), "--database", database])
        check(result, as_json=False)
        if result.exit_code != 0 and not existed:
            assert not _exists(target)  # not even an empty copy is left behind


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:  # a name too long to look up
        return False
