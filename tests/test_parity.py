"""The browser's engine against the Python engine: the same records, the same output.

``src/koikoi/web/engine/`` is the engine ported to JavaScript for the browser, and
``koikoi replay --engine js`` prints what ``koikoi replay`` prints (docs/rules.md §7). Here
records made by the Python engine (``koikoi.sim.simulate``, random players), under
every preset and random house rules (every rule field drawn within its bounds), are
replayed by both engines, as text and as ``--json``; then again with one action
replaced by another card or choice, which both must refuse (or take) at the same
index; then records cut short, rule sets drawn at random (each taken or refused, with
the same message), broken records and the worked examples of ``docs/examples``.
Any difference in exit status, standard output or standard error is a failure.

The Python side is the real command (``koikoi replay`` through Click's test runner);
the JavaScript side is one Node.js process per batch (``replay-cli.mjs --batch``), so
thousands of records take seconds. A few hundred records run by default; the full set
(thousands) runs under ``CI=true`` or ``KOIKOI_PARITY_FULL=1``. Without Node.js the
tests skip, and fail under CI.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from koikoi.cards import SLUGS
from koikoi.cli import cli
from koikoi.cli.games import NODE_REPLAY
from koikoi.files import MAX_FILE_BYTES
from koikoi.jsengine import ENGINE
from koikoi.match import Match
from koikoi.record import Record, start_match
from koikoi.round import ACTION_COUNT, action_from_json, action_to_json
from koikoi.rules import (
    BOOL,
    CHOICE,
    CHOICES,
    FIELDS,
    PRESET_NAMES,
    PRESETS,
    FieldSpec,
    RulesError,
    RuleSet,
)
from koikoi.sim import simulate
from worked_examples import refused_examples, replay_examples

FULL = os.environ.get("CI") == "true" or os.environ.get("KOIKOI_PARITY_FULL") == "1"


def count(default: int, full: int) -> int:
    """Records for one test: a few by default, many more in the full set."""
    return full if FULL else default


WIDTH = 80
"""The console width of the text comparisons (rich's width when nothing says another)."""

# The card names of four months, for deals that hold whole months.
PINE = ("crane", "poetry", "plain-1", "plain-2")
PLUM = ("warbler", "poetry", "plain-1", "plain-2")
CHERRY = ("curtain", "poetry", "plain-1", "plain-2")
WISTERIA = ("cuckoo", "ribbon", "plain-1", "plain-2")


@dataclass(frozen=True)
class Outcome:
    """What one replay printed, and its exit status."""

    rc: int
    stdout: str
    stderr: str


@dataclass(frozen=True)
class Job:
    """One replay to run on both engines."""

    path: Path
    as_json: bool
    width: int = WIDTH


def python_replay(job: Job) -> Outcome:
    """``koikoi replay FILE [--json]`` by the Python engine, on a console ``width`` wide."""
    args = ["replay", str(job.path), *(["--json"] if job.as_json else [])]
    result = CliRunner(env={"COLUMNS": str(job.width)}).invoke(cli, args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Outcome(result.exit_code, result.stdout, result.stderr)


def js_replay(node: str, jobs: list[Job]) -> list[Outcome]:
    """The same replays by the JavaScript engine, all in one Node.js process."""
    lines = "".join(
        json.dumps({"path": str(job.path), "json": job.as_json, "width": job.width}) + "\n"
        for job in jobs
    )
    done = subprocess.run(
        [node, str(NODE_REPLAY), "--batch"],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(jobs)
    return [Outcome(a["rc"], a["stdout"], a["stderr"]) for a in answers]


def differences(node: str, jobs: list[Job]) -> list[str]:
    """Each job whose replays differ, with both outcomes (empty when all agree)."""
    found = []
    for job, js in zip(jobs, js_replay(node, jobs), strict=True):
        py = python_replay(job)
        if py != js:
            mode = "--json" if job.as_json else f"text at width {job.width}"
            found.append(f"{job.path.name} ({mode}):\n  python: {py!r}\n  js:     {js!r}")
    return found


def assert_same(node: str, jobs: list[Job]) -> None:
    found = differences(node, jobs)
    assert not found, f"{len(found)} of {len(jobs)} replays differ:\n" + "\n".join(found[:5])


def write_records(folder: Path, records: list[dict[str, Any]], stem: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, record in enumerate(records):
        path = folder / f"{stem}-{index:05d}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        paths.append(path)
    return paths


def both_forms(paths: list[Path]) -> list[Job]:
    """A JSON replay of every record and a text replay of every record."""
    return [Job(path, as_json) for path in paths for as_json in (True, False)]


# -- records -----------------------------------------------------------------------------


def simulated(rules: RuleSet, count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` records of random play: half whole matches from a seed, half given deals."""
    matches = count - count // 2
    records = []
    for kind in ("matches", "rounds"):
        games = simulate(
            rules,
            ["random", "random"],
            seed=seed,
            matches=matches if kind == "matches" else 0,
            rounds=count - matches if kind == "rounds" else 0,
        )
        records += [Record.from_match(match).to_json() for match in games]
    return records


def drawn_value(spec: FieldSpec, rng: random.Random) -> Any:
    """A value of one rule field within its bounds: small ones mostly (games stay
    quick and rules stay valid), the whole range and both ends sometimes."""
    if spec.kind == BOOL:
        return rng.random() < 0.5
    if spec.kind in (CHOICE, CHOICES):
        assert spec.choices is not None
        members = [member.value for member in spec.choices]
        if spec.kind == CHOICE:
            return rng.choice(members)
        return rng.sample(members, rng.randint(0, len(members)))
    assert spec.bounds is not None
    low, high = spec.bounds
    roll = rng.random()
    if roll < 0.7:
        return rng.randint(low, min(high, low + 12))
    if roll < 0.9:
        return rng.randint(low, high)
    return rng.choice((low, high))


def house_rules(rng: random.Random) -> RuleSet:
    """A random rule set: a preset with about half of every field drawn anew (rule sets
    that RuleSet refuses, or that never deal, are drawn again)."""
    while True:
        data: dict[str, Any] = {"preset": rng.choice(PRESET_NAMES)}
        for key, spec in FIELDS.items():
            if rng.random() < 0.5:
                data[key] = drawn_value(spec, rng)
        if data.get("rounds", 1) > 12 and rng.random() < 0.8:
            data["rounds"] = rng.randint(1, 12)  # long matches, but not too many of them
        try:
            rules = RuleSet.from_mapping(data)
            Match(rules, 0)
        except RulesError:
            continue
        return rules


def house_rule_records(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    while len(records) < count:
        rules = house_rules(rng)
        try:
            records += simulated(rules, 2, rng.getrandbits(32))
        except RulesError:  # a later round of the match could not be dealt
            continue
    return records[:count]


def changed(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record with one action replaced: by another legal action where there is one
    (the game goes on, and a later action may then be refused), or by any action."""
    actions = record["actions"]
    index = rng.randrange(len(actions))
    original = action_from_json(actions[index])
    match = start_match(Record.from_json(record))
    for data in actions[:index]:
        match.apply(action_from_json(data))
    others = [action for action in match.legal_actions() if action != original]
    if others and rng.random() < 0.5:
        replacement = rng.choice(others)
    else:
        replacement = rng.choice([a for a in range(ACTION_COUNT) if a != original])
    copy: dict[str, Any] = json.loads(json.dumps(record))
    copy["actions"][index] = action_to_json(replacement)
    copy.pop("result", None)  # the stored result would differ
    return copy


def cut_short(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(record))
    copy["actions"] = copy["actions"][: rng.randrange(len(copy["actions"]) + 1)]
    copy.pop("result", None)
    return copy


# -- the comparisons ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_replays_the_same(node: str, tmp_path: Path, preset: str) -> None:
    records = simulated(PRESETS[preset], count(40, 400), seed=PRESET_NAMES.index(preset))
    assert_same(node, both_forms(write_records(tmp_path, records, preset)))


def test_house_rules_replay_the_same(node: str, tmp_path: Path) -> None:
    records = house_rule_records(count(120, 2400), seed=11)
    assert_same(node, both_forms(write_records(tmp_path, records, "house")))


def test_changed_actions_are_refused_at_the_same_index(node: str, tmp_path: Path) -> None:
    rng = random.Random(5)
    base = [r for r in house_rule_records(count(40, 800), seed=12) if r["actions"]]
    for preset in PRESET_NAMES:
        base += [r for r in simulated(PRESETS[preset], count(10, 100), seed=99) if r["actions"]]
    records = [changed(record, rng) for record in base]
    paths = write_records(tmp_path, records, "changed")
    assert_same(node, both_forms(paths))
    refused = sum('"index"' in python_replay(Job(path, True)).stdout for path in paths[::7])
    assert refused, "no changed action was refused: the changes test nothing"


def test_records_cut_short_replay_as_unfinished_on_both(node: str, tmp_path: Path) -> None:
    rng = random.Random(6)
    base = house_rule_records(count(30, 300), seed=13) + simulated(PRESETS["classic"], 10, seed=3)
    records = [cut_short(record, rng) for record in base]
    assert_same(node, both_forms(write_records(tmp_path, records, "short")))


def test_text_at_other_console_widths_is_the_same(node: str, tmp_path: Path) -> None:
    rng = random.Random(7)
    records = house_rule_records(30, seed=14)
    paths = write_records(tmp_path, records, "wide")
    widths = [1, 7, 20, 40, 60, 100, 160]
    jobs = [Job(path, False, rng.choice(widths)) for path in paths for _ in range(2)]
    assert_same(node, jobs)


def broken_records() -> Iterator[tuple[str, str]]:
    """Records that cannot be replayed, as file text: every kind of refusal."""
    good = simulated(PRESETS["classic"], 2, seed=1)
    deal, seeded = good[1], good[0]

    def variant(base: dict[str, Any], **changes: Any) -> str:
        copy = json.loads(json.dumps(base))
        for key, value in changes.items():
            if value is None:
                copy.pop(key, None)
            else:
                copy[key] = value
        return json.dumps(copy)

    yield "not-json", '{"rules": {"preset": "classic"}, "seed": 1, '
    yield "json-error-line-2", '{\n  "seed": 1,\n  "actions": [1 2]\n}'
    yield "bom", "\ufeff{}"
    yield "not-an-object", "[1, 2, 3]"
    yield "unknown-key", variant(seeded, moves=[])
    yield "version", variant(seeded, version=2)
    yield "version-float", variant(seeded, version=1.0)
    yield "rules-not-a-table", variant(seeded, rules=["classic"])
    yield "unknown-preset", variant(seeded, rules={"preset": "clasic"})
    yield "unknown-rule", variant(seeded, rules={"gokoo": 5, "tane_mn": 3})
    yield "many-unknown-rules", variant(seeded, rules={f"x{i}": 1 for i in range(6)})
    # One key more than a rule set has is refused at once; as many as it has, one by one.
    yield "too-many-keys", variant(seeded, rules={f"x{i}": 1 for i in range(len(FIELDS) + 1)})
    yield "as-many-keys", variant(seeded, rules={f"x{i}": 1 for i in range(len(FIELDS))})
    yield "bad-values", variant(
        seeded,
        rules={"goko": "ten", "tane_min": 0, "viewing": "never", "deal_in_pairs": 1,
               "viewing_cancelled_by": ["rainman", "sun"], "hanami": 5.0, "sanko": 10**30,
               "kasu": -1, "preset": "ten-card"},
    )  # fmt: skip
    yield "hand-and-field-too-big", variant(seeded, rules={"hand_size": 20, "field_size": 10})
    yield (
        "field-always-redeals",
        variant(seeded, rules={"field_size": 37, "hand_size": 5, "redeal_four_of_month": True}),
    )
    yield (
        "field-three-of-month-always-redeals",
        variant(seeded, rules={"field_size": 25, "redeal_three_of_month": True}),
    )
    yield (
        "field-three-of-month-and-pairs-always-redeal",
        variant(
            seeded,
            rules={"field_size": 16, "redeal_three_of_month": True, "redeal_four_pairs": True},
        ),
    )
    yield (
        "few-deals-stand",
        variant(seeded, rules={"preset": "nintendo", "hand_size": 3, "field_size": 15}),
    )
    few_hands = {"hand_size": 19, "redeal_hand_four_of_month": True, "redeal_hand_four_pairs": True}
    yield "few-hands-stand", variant(seeded, rules=few_hands)
    yield (
        "hand-redeal-and-hand-yaku",
        variant(
            seeded,
            rules={"preset": "traditional", "redeal_hand_four_of_month": True,
                   "redeal_hand_four_pairs": True, "kuttsuki": 0},
        ),
    )  # fmt: skip
    yield "score-past-2-53", variant(seeded, rules={"goko": 1000, "rounds": 120})
    yield "actions-not-a-list", variant(seeded, actions={"play": "pine-crane"})
    yield "result-not-an-object", variant(seeded, result=[1])
    yield "seed-and-deal", variant(seeded, dealer=0)
    yield "seed-negative", variant(seeded, seed=-1)
    yield "seed-float", variant(seeded, seed=1.5)
    yield "seed-huge", variant(seeded, seed=10**40, actions=[], result=None)
    yield "seed-true", variant(seeded, seed=True)
    yield "deal-missing-stock", variant(deal, stock=None)
    yield "dealer-2", variant(deal, dealer=2)
    yield "field-not-slugs", variant(deal, field=[1, 2])
    yield "hands-three", variant(deal, hands=[[], [], []])
    yield "unknown-card", variant(deal, field=["pine-cran", *deal["field"][1:]])
    yield (
        "card-twice-in-a-hand",
        variant(deal, hands=[[deal["hands"][0][0], *deal["hands"][0][:-1]], deal["hands"][1]]),
    )
    yield "card-twice", variant(deal, stock=[deal["field"][0], *deal["stock"][1:]])
    yield "short-hand", variant(deal, hands=[deal["hands"][0][1:], deal["hands"][1]])
    yield "short-field", variant(deal, field=deal["field"][1:])
    yield "card-missing", variant(deal, stock=deal["stock"][1:])
    hands = [
        [f"pine-{suffix}" for suffix in PINE] + [f"plum-{suffix}" for suffix in PLUM],
        [f"cherry-{suffix}" for suffix in CHERRY] + [f"wisteria-{suffix}" for suffix in WISTERIA],
    ]
    field = ["iris-bridge", "iris-ribbon", "iris-plain-1", "iris-plain-2",
             "peony-butterflies", "peony-blue", "peony-plain-1", "clover-boar"]  # fmt: skip
    stock = [slug for slug in SLUGS if slug not in {*hands[0], *hands[1], *field}]
    whole_months = {"hands": hands, "field": field, "stock": stock, "actions": []}
    yield "field-redeals", variant(deal, rules={"preset": "single-deal"}, **whole_months)
    no_field_redeal = {"preset": "traditional", "redeal_four_of_month": False}
    yield "both-hand-yaku", variant(deal, rules=no_field_redeal, **whole_months)
    yield (
        "hand-yaku-ends-the-round",
        variant(deal, rules={**no_field_redeal, "both_hand_yaku": "dealer"}, **whole_months),
    )
    # A hand that these rules redeal: a whole month in hand 0, four pairs in hand 1.
    yield (
        "hand-0-redeals",
        variant(deal, rules={"redeal_hand_four_of_month": True}, **whole_months),
    )
    paired = [
        ["pine-crane", "pine-poetry", "plum-warbler", "cherry-curtain",
         "wisteria-cuckoo", "iris-bridge", "peony-butterflies", "clover-boar"],
        ["pine-plain-1", "pine-plain-2", "plum-poetry", "plum-plain-1",
         "cherry-poetry", "cherry-plain-1", "wisteria-ribbon", "wisteria-plain-1"],
    ]  # fmt: skip
    paired_field = [
        "iris-ribbon", "iris-plain-1", "iris-plain-2", "peony-blue",
        "peony-plain-1", "plum-plain-2", "cherry-plain-2", "wisteria-plain-2",
    ]  # fmt: skip
    paired_stock = [slug for slug in SLUGS if slug not in {*paired[0], *paired[1], *paired_field}]
    pairs_deal = {"hands": paired, "field": paired_field, "stock": paired_stock, "actions": []}
    yield "hand-1-redeals", variant(deal, rules={"redeal_hand_four_pairs": True}, **pairs_deal)
    yield "hand-1-stands", variant(deal, rules={"redeal_hand_four_of_month": True}, **pairs_deal)
    yield (
        "field-three-of-month-redeals",
        variant(deal, rules={"redeal_three_of_month": True}, **pairs_deal),
    )
    actions = seeded["actions"]
    yield "action-not-an-action", variant(seeded, actions=[{"play": 5}], result=None)
    yield "action-two-keys", variant(seeded, actions=[{"play": "a", "capture": "b"}], result=None)
    yield "action-koikoi-1", variant(seeded, actions=[{"koikoi": 1}], result=None)
    yield "action-unknown-card", variant(seeded, actions=[{"play": "Pine-Crane"}], result=None)
    yield "action-unicode", variant(seeded, actions=["é😀\x7f'\"\n"], result=None)
    yield "action-after-the-end", variant(seeded, actions=[*actions, actions[0]], result=None)
    yield "action-stop-first", variant(seeded, actions=[{"stop": True}], result=None)
    yield "result-differs", variant(seeded, result={"rounds": [], "totals": [0, 0]})
    yield (
        "result-equal-as-floats",
        variant(
            seeded,
            result=json.loads(
                json.dumps(seeded["result"]).replace("0,", "0.0,").replace("null", "null")
            ),
        ),
    )
    yield "empty", ""


def drawn_rules(rng: random.Random) -> dict[str, Any]:
    """Rules as a record may hold them: a preset and about half of every field drawn,
    kept whether or not RuleSet accepts them."""
    data: dict[str, Any] = {"preset": rng.choice(PRESET_NAMES)}
    for key, spec in FIELDS.items():
        if rng.random() < 0.5:
            data[key] = drawn_value(spec, rng)
    return data


def test_drawn_rules_are_taken_or_refused_the_same_way(node: str, tmp_path: Path) -> None:
    """Every check of a rule set, and its message: sizes, redeals that let too few deals
    stand, hand redeals against hand yaku, scores past 2**53."""
    rng = random.Random(10)
    records = [
        {"rules": drawn_rules(rng), "seed": rng.getrandbits(32), "actions": []}
        for _ in range(count(200, 2000))
    ]
    paths = write_records(tmp_path, records, "drawn")
    assert_same(node, both_forms(paths))
    refused = sum('"error"' in python_replay(Job(path, True)).stdout for path in paths[::5])
    assert 0 < refused < len(paths[::5]), "the drawn rules are all taken or all refused"


def test_broken_records_fail_the_same_way(node: str, tmp_path: Path) -> None:
    paths = []
    for name, text in broken_records():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    assert_same(node, both_forms(paths))


def junk(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON value: what a hand-written or damaged record may hold anywhere."""
    roll = rng.randrange(12 if depth < 3 else 8)
    if roll == 0:
        return rng.choice([True, False, None])
    if roll == 1:
        return rng.choice([0, 1, -1, 7, 1000, 1001, 2**53, 10**25, -(10**70)])
    if roll == 2:
        return rng.choice([0.0, 1.0, 5.0, -0.0, 2.5, 1e16, 1e-5, 1e300])
    if roll in (3, 4, 5):
        words = ["pine-crane", "Pine-Crane", "pine-cran", "sun", "", "x" * 70, "é😀'\"\n\x7f"]
        return rng.choice([*words, rng.choice(SLUGS), rng.choice(list(FIELDS))])
    if roll in (6, 7):
        return rng.choice([[], {}])
    if roll in (8, 9):
        return [junk(rng, depth + 1) for _ in range(rng.randrange(9))]
    return {str(junk(rng, 3)): junk(rng, depth + 1) for _ in range(rng.randrange(6))}


def typo(key: str, rng: random.Random) -> str:
    """A rule key with one slip of the keyboard, or another key entirely."""
    at = rng.randrange(len(key))
    return rng.choice(
        [key[:at] + key[at + 1 :], key[:at] + "x" + key[at:], key.upper(), key.replace("_", "-")]
    )


def damaged(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record with its rules, one of its keys or one of its actions damaged."""
    copy: dict[str, Any] = json.loads(json.dumps(record))
    copy.pop("result", None)
    roll = rng.randrange(4)
    if roll == 0:
        rules = {key: drawn_value(FIELDS[key], rng) for key in rng.sample(list(FIELDS), 3)}
        for key in rng.sample(list(FIELDS), rng.randint(1, 4)):
            rules[typo(key, rng) if rng.random() < 0.4 else key] = junk(rng)
        copy["rules"] = rules
    elif roll == 1:
        copy[rng.choice(["version", "seed", "dealer", "hands", "field", "stock", "actions"])] = (
            junk(rng)
        )
    elif roll == 2 and copy["actions"]:
        copy["actions"][rng.randrange(len(copy["actions"]))] = junk(rng)
    else:
        copy[rng.choice(["rules", "result", typo("actions", rng)])] = junk(rng)
    return copy


def test_damaged_records_fail_the_same_way(node: str, tmp_path: Path) -> None:
    rng = random.Random(9)
    base = simulated(PRESETS["classic"], count(60, 600), seed=5)
    records = [damaged(record, rng) for record in base]
    assert_same(node, both_forms(write_records(tmp_path, records, "damaged")))


def test_unreadable_and_invalid_files_fail_the_same_way(node: str, tmp_path: Path) -> None:
    (tmp_path / "latin-1.json").write_bytes(b'{"seed": 1, "x": "caf\xe9"}')
    (tmp_path / "folder.json").mkdir()
    crlf = json.dumps(simulated(PRESETS["classic"], 1, seed=4)[0], indent=1)
    (tmp_path / "crlf.json").write_bytes(crlf.replace("\n", "\r\n").encode() + b"\r\n,")
    # Past files.py's 10 MB a record is refused unread, by the JS programs too (the
    # replay program once read it whole and failed on its content instead).
    (tmp_path / "huge.json").write_bytes(b" " * (MAX_FILE_BYTES + 1))
    names = ("latin-1.json", "folder.json", "crlf.json", "huge.json")
    paths = [tmp_path / name for name in names]
    assert_same(node, both_forms([*paths, tmp_path / "missing.json"]))


@pytest.mark.parametrize(
    "example", [*replay_examples(), *refused_examples()], ids=lambda path: path.stem
)
def test_worked_examples_replay_to_their_output_on_both(
    node: str, tmp_path: Path, example: Path
) -> None:
    data = json.loads(example.read_text(encoding="utf-8"))
    (path,) = write_records(tmp_path, [data["record"]], example.stem)
    (js,) = js_replay(node, [Job(path, True)])
    assert json.loads(js.stdout) == data["replay_output"]
    assert_same(node, both_forms([path]))


# -- koikoi replay --engine js -------------------------------------------------------------


def test_replay_engine_js_prints_what_the_python_engine_prints(node: str, tmp_path: Path) -> None:
    record = simulated(PRESETS["traditional"], 1, seed=8)[0]
    broken = cut_short(record, random.Random(1))
    broken["actions"].append({"play": "no-such-card"})
    paths = write_records(tmp_path, [record, broken], "engine")
    runner = CliRunner(env={"COLUMNS": "90"})
    for path in [*paths, tmp_path / "missing.json"]:
        for extra in ([], ["--json"]):
            python = runner.invoke(cli, ["replay", str(path), *extra])
            js = runner.invoke(cli, ["replay", "--engine", "js", str(path), *extra])
            assert (js.exit_code, js.stdout, js.stderr) == (
                python.exit_code,
                python.stdout,
                python.stderr,
            )


def test_replay_engine_js_without_node_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    (path,) = write_records(tmp_path, simulated(PRESETS["classic"], 1, seed=2), "no-node")
    result = CliRunner().invoke(cli, ["replay", "--engine", "js", str(path), "--json"])
    assert result.exit_code == 1
    assert "no 'node' program is on PATH" in json.loads(result.stdout)["error"]
    assert "Node.js" in result.stderr


def test_the_js_engine_ships_with_the_package() -> None:
    modules = {path.name for path in ENGINE.iterdir()}
    expected = {"cards.js", "rules.js", "yaku.js", "round.js", "match.js", "record.js"}
    assert expected | {"random.js"} <= modules
    assert NODE_REPLAY.is_file()
