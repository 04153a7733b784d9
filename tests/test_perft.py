"""Perft (docs/perft.md): the vectors of docs/perft.jsonl in both engines, what they
cover, ``koikoi perft`` and its JS twin, and rules broken on purpose to show the checks
notice and name the first divergent path.

The JavaScript side runs one ``perft-cli.mjs --batch`` process for the whole file
(koikoi.perftvectors.NodeEngine). Without Node.js those tests skip, and fail under CI=true.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from koikoi.cli import cli
from koikoi.cli.perft import NODE_PERFT
from koikoi.jsengine import ENGINE
from koikoi.perft import PerftResult, divide, perft
from koikoi.perftvectors import (
    TAGS,
    Engine,
    NodeEngine,
    Vector,
    check_vector,
    coverage,
    first_divergence,
    load_vectors,
    python_engine,
    rules_label,
)
from koikoi.record import Record
from koikoi.round import KOIKOI, NO_CALL_ALLOWED, Phase, Round
from koikoi.rules import PRESETS

ROOT = Path(__file__).resolve().parents[1]
VECTOR_FILE = ROOT / "docs" / "perft.jsonl"
MAKE = ROOT / "tools" / "make_perft.py"
NODE_TESTS = ROOT / "tests" / "js" / "perft.test.mjs"
VECTORS = load_vectors(VECTOR_FILE)
BY_NAME = {vector.name.partition(":")[0]: vector for vector in VECTORS}


def vector_ids() -> list[str]:
    return list(BY_NAME)


def having(tag: str) -> list[Vector]:
    """The vectors whose names claim ``tag``."""
    return [vector for vector in VECTORS if tag in vector.tags]


@pytest.fixture(scope="module")
def js(node: str) -> Iterator[NodeEngine]:
    with NodeEngine() as engine:
        yield engine


# -- perft itself ------------------------------------------------------------------------


def test_a_round_that_ends_counts_once_at_any_depth() -> None:
    game = BY_NAME["single-deal/hand-yaku"].start()
    assert game.is_over
    assert [perft(game, depth) for depth in range(6)] == [1] * 6
    assert divide(game, 5) == {}


def test_divide_adds_up_to_perft_in_the_order_of_the_legal_actions() -> None:
    game = Round.deal(PRESETS["classic"], seed=3, dealer=0)
    assert perft(game, 0) == 1
    assert divide(game, 0) == {}
    counts = divide(game, 3)
    assert sum(counts.values()) == perft(game, 3)
    assert [json.loads(key) for key in counts] == [
        {"play": slug} for slug in _slugs(game.legal_actions())
    ]
    with pytest.raises(ValueError, match="depth must be 0 or more, not -1"):
        perft(game, -1)


def _slugs(actions: list[int]) -> list[str]:
    from koikoi.cards import SLUGS

    return [SLUGS[action] for action in actions]


def test_an_ending_before_the_depth_is_one_sequence() -> None:
    """At a decision, stop ends the round: one sequence however deep the count goes."""
    vector = BY_NAME["classic/decision"]
    game = vector.start()
    assert game.phase is Phase.DECISION
    counts = divide(game, 4)
    assert counts['{"stop": true}'] == 1
    assert counts['{"koikoi": true}'] > 1


# -- the vectors -------------------------------------------------------------------------


@pytest.mark.parametrize("name", vector_ids())
def test_every_vector_agrees_in_python(name: str) -> None:
    vector = BY_NAME[name]
    message = check_vector(vector, python_engine, "python")
    if message is not None and shutil.which("node"):  # descend against the JS engine
        with NodeEngine() as js:
            message = check_vector(vector, python_engine, "python", js, "js")
    assert message is None, message


def test_every_vector_agrees_in_the_js_engine(js: NodeEngine) -> None:
    failures = [check_vector(vector, js, "js", python_engine, "python") for vector in VECTORS]
    problems = [failure for failure in failures if failure is not None]
    assert not problems, "\n\n".join(problems)


@pytest.mark.parametrize("name", vector_ids())
def test_every_vector_reaches_what_its_name_claims(name: str) -> None:
    vector = BY_NAME[name]
    claims = set(vector.tags)
    assert claims, f"{name} claims nothing"
    assert claims <= set(TAGS), f"unknown tags {claims - set(TAGS)}"
    game = vector.start()
    missed = claims - coverage(game, vector.depth, claims)
    assert not missed, f"{name} never reaches {sorted(missed)} within depth {vector.depth}"
    label = name.partition("/")[0]
    assert rules_label(Record.from_json(vector.record)) == label


def test_the_vectors_cover_every_preset_every_situation_and_house_rules() -> None:
    labels = {name.partition("/")[0] for name in BY_NAME}
    assert labels == {*PRESETS, "house"}
    claimed = {tag for vector in VECTORS for tag in vector.tags}
    assert claimed == set(TAGS)
    for preset in PRESETS:
        situations = {name.partition("/")[2] for name in BY_NAME if name.startswith(preset + "/")}
        assert {"opening", "decision", "endgame"} <= situations, preset


def test_the_vectors_start_mid_round_and_stay_quick() -> None:
    assert any(vector.record["actions"] for vector in VECTORS)
    for vector in VECTORS:
        assert vector.count <= 200_000, vector.name
        assert "seed" not in vector.record, "vectors are given deals"
    assert sum(vector.count for vector in VECTORS) <= 2_000_000


def test_the_vector_file_is_up_to_date() -> None:
    done = subprocess.run(
        [sys.executable, str(MAKE), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr + done.stdout


def test_the_check_names_the_first_stale_line() -> None:
    spec = importlib.util.spec_from_file_location("make_perft", MAKE)
    assert spec is not None
    assert spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    sys.modules["make_perft"] = make  # where its dataclasses look themselves up
    try:
        spec.loader.exec_module(make)
    finally:
        del sys.modules["make_perft"]
    text = VECTOR_FILE.read_text()
    lines = text.splitlines(keepends=True)
    data = json.loads(lines[2])
    data["count"] += 1
    stale = "".join([*lines[:2], json.dumps(data) + "\n", *lines[3:]])
    assert make.stale_line(text, text) is None
    assert make.stale_line(stale, text) == 3
    assert make.stale_line(text + lines[0], text) == len(lines) + 1
    assert make.stale_line(text.rstrip("\n"), text) == len(lines)


# -- the first divergent path ------------------------------------------------------------


def test_a_count_the_file_alone_disagrees_with_says_the_file_is_stale() -> None:
    vector = BY_NAME["classic/opening"]
    wrong = Vector(vector.name, vector.record, vector.depth, vector.count + 1)
    message = check_vector(wrong, python_engine, "python", python_engine, "python again")
    assert message is not None
    assert f"python counts {vector.count} sequences of {vector.depth} actions" in message
    assert "python's divide: {" in message
    assert "the file is stale" in message
    alone = check_vector(wrong, python_engine, "python")
    assert alone is not None
    assert "no other engine to descend against" in alone


def fake(tree: dict[str, Any]) -> Engine:
    """An engine over a tree written out: ``{key: subtree}``, a leaf is ``{}``."""

    def count(node: dict[str, Any], depth: int) -> int:
        if depth == 0 or not node:
            return 1
        return sum(count(child, depth - 1) for child in node.values())

    def engine(record: dict[str, Any], depth: int) -> PerftResult:
        node = tree
        for action in record["actions"]:
            node = node[json.dumps(action)]
        if depth == 0 or not node:
            return PerftResult(1, {})
        counts = {key: count(child, depth - 1) for key, child in node.items()}
        return PerftResult(sum(counts.values()), counts)

    return engine


def test_the_descent_follows_the_first_differing_count_to_a_missing_action() -> None:
    a, b, c = '{"play": "pine-crane"}', '{"capture": "pine-poetry"}', '{"stop": true}'
    left = fake({a: {b: {}, c: {}}, c: {c: {}}})
    right = fake({a: {b: {}}, c: {c: {}}})
    found = first_divergence({"actions": []}, 3, left, right, ("left", "right"))
    assert found is not None
    assert found.counts == (3, 2)
    assert [(step.action, step.counts) for step in found.steps] == [(a, (2, 1)), (c, (1, None))]
    assert found.path == [{"play": "pine-crane"}, {"stop": True}]
    assert "2. " + c + ": left 1, right no such action" in str(found)
    assert first_divergence({"actions": []}, 3, left, left) is None


def test_the_descent_stops_at_the_depth_1_level() -> None:
    """Counts that differ under the same action at depth 1 end the path: there is no
    level below to look at."""
    a = '{"play": "pine-crane"}'

    def doubled(record: dict[str, Any], depth: int) -> PerftResult:
        return PerftResult(2, {a: 2})

    found = first_divergence({"actions": []}, 1, fake({a: {a: {}}}), doubled)
    assert found is not None
    assert [(step.action, step.counts) for step in found.steps] == [(a, (1, 2))]


# -- rules broken on purpose: the Python engine -------------------------------------------

Patch = Callable[[pytest.MonkeyPatch], None]


def broken(patch: Patch) -> Engine:
    """The Python engine with ``patch`` applied while it counts (and only then, so the
    true engine stays beside it in the same process)."""

    def engine(record: dict[str, Any], depth: int) -> PerftResult:
        with pytest.MonkeyPatch.context() as patched:
            patch(patched)
            return python_engine(record, depth)

    return engine


def one_card_choices(patched: pytest.MonkeyPatch) -> None:
    """A two-card choice offers only its first card."""
    legal = Round.legal_actions

    def first_only(self: Round) -> list[int]:
        actions = legal(self)
        return actions[:1] if self.phase in (Phase.HAND_CHOICE, Phase.DRAW_CHOICE) else actions

    patched.setattr(Round, "legal_actions", first_only)


def final_turn_missed(patched: pytest.MonkeyPatch) -> None:
    """A yaku on the last turn opens a decision instead of ending the round."""

    def yaku_made(self: Round, seat: int, yaku: dict[str, int]) -> None:
        if not self._may_call(seat):
            self._finish_stop(seat, yaku, NO_CALL_ALLOWED)
        else:
            self.phase = Phase.DECISION
            self._pending_yaku = yaku

    patched.setattr(Round, "_yaku_made", yaku_made)


def max_koikoi_ignored(patched: pytest.MonkeyPatch) -> None:
    """A player may call koi-koi however many times max_koikoi allows."""

    def may_call(self: Round, seat: int) -> bool:
        return self.rules.koikoi_after_opponent or not self.calls[1 - seat]

    patched.setattr(Round, "_may_call", may_call)


def forced_capture_one_card(patched: pytest.MonkeyPatch) -> None:
    """forced_capture offers only the first of the hand cards that match."""
    legal = Round.legal_actions

    def first_match(self: Round) -> list[int]:
        actions = legal(self)
        forced = self.phase is Phase.PLAY and self.rules.forced_capture
        if forced and len(actions) < len(self.hand_cards[self.turn]):
            return actions[:1]
        return actions

    patched.setattr(Round, "legal_actions", first_match)


PATH_STEP = re.compile(
    r"^  (\d+)\. (\{.*\}): (\S+) (\d+|no such action), (\S+) (\d+|no such action)$"
)


def divergent_path(message: str) -> list[tuple[dict[str, Any], str, str]]:
    """The steps of the path a failure names: (action, left count, right count)."""
    steps = []
    for line in message.splitlines():
        match = PATH_STEP.match(line)
        if match:
            steps.append((json.loads(match[2]), match[4], match[6]))
    return steps


@pytest.mark.parametrize(
    ("patch", "tag", "last"),
    [
        (one_card_choices, "hand-choice", "capture"),
        (one_card_choices, "draw-choice", "capture"),
        (final_turn_missed, "final-turn", "stop"),
        (max_koikoi_ignored, "no-call-max-koikoi", "stop"),
        (forced_capture_one_card, "forced-capture", "play"),
    ],
)
def test_a_broken_python_rule_fails_the_check_and_names_the_path(
    patch: Patch, tag: str, last: str
) -> None:
    """Each vector that claims the situation the break touches fails; the smallest
    names a path down to an action that only one of the engines has."""
    engine = broken(patch)
    claiming = having(tag)
    assert claiming
    for vector in claiming:
        assert check_vector(vector, engine, "broken") is not None, f"{vector.name} misses it"
    smallest = min(claiming, key=lambda vector: vector.count)
    message = check_vector(smallest, engine, "broken", python_engine, "python")
    assert message is not None
    assert "the first divergent path" in message
    path = divergent_path(message)
    assert path, message
    action, *counts = path[-1]
    assert "no such action" in counts, message
    assert last in action or (last == "stop" and "koikoi" in action), message


# -- rules broken on purpose: the JS engine ------------------------------------------------


def broken_js(folder: Path, module: str, pattern: str, replacement: str) -> Path:
    """A copy of the JS engine (and its Node.js programs beside it, as in the package)
    with the one match of ``pattern`` (a regular expression, multi-line) in ``module``
    replaced; the copy's ``web`` folder."""
    web = folder / "web"
    shutil.copytree(ENGINE, web / "engine")
    shutil.copytree(NODE_PERFT.parent, web / "node")
    source = web / "engine" / module
    text, found = re.subn(pattern, replacement, source.read_text(), flags=re.MULTILINE)
    assert found == 1, f"{pattern!r} matches {found} times in {module}: change the break"
    source.write_text(text)
    return web


JS_BREAKS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    # A two-card choice (of the hand step and of the draw step) offers only its first
    # card: Round's legalActions() wrapped.
    "one-card-choices": (
        "round.js",
        r"^( *)legalActions\(\) \{",
        r"\1legalActions() {\n"
        r"\1  const all = this.allLegalActions();\n"
        r"\1  return this.phase === HAND_CHOICE || this.phase === DRAW_CHOICE"
        r" ? all.slice(0, 1) : all;\n"
        r"\1}\n"
        r"\1allLegalActions() {",
        ("hand-choice", "draw-choice"),
    ),
    # A yaku on the last turn opens a decision instead of ending the round.
    "final-turn-missed": (
        "round.js",
        r"if \(final\) this\.finishStop\(",
        "if (false) this.finishStop(",
        ("final-turn",),
    ),
    # koikoi_after_opponent is ignored: a player may call after the opponent has.
    "after-opponent-ignored": (
        "round.js",
        r"rules\.koikoi_after_opponent \|\|",
        "true ||",
        ("no-call-after-opponent",),
    ),
    # forced_capture offers only the first of the matching hand cards.
    "forced-capture-one-card": (
        "round.js",
        r"if \(matching\.length\) return matching;",
        "if (matching.length) return matching.slice(0, 1);",
        ("forced-capture",),
    ),
    # A drawn card that matches three field cards takes only the lowest of them.
    "draw-takes-one-of-three": (
        "round.js",
        r"this\.lay\(seat, card, (half, )?matches, DRAWN\);",
        r"this.lay(seat, card, \1popcount(matches) === 3 ? matches & -matches : matches, DRAWN);",
        ("draw-three-of-a-month",),
    ),
}


@pytest.mark.parametrize("name", list(JS_BREAKS))
def test_a_broken_js_rule_fails_the_check_and_names_the_path(
    name: str, node: str, tmp_path: Path
) -> None:
    module, pattern, replacement, tags = JS_BREAKS[name]
    web = broken_js(tmp_path, module, pattern, replacement)
    claiming = [vector for tag in tags for vector in having(tag)]
    assert claiming
    with NodeEngine(web / "node" / NODE_PERFT.name) as engine:
        for vector in claiming:
            assert check_vector(vector, engine, "js") is not None, f"{vector.name} misses it"
        smallest = min(claiming, key=lambda vector: vector.count)
        message = check_vector(smallest, engine, "js", python_engine, "python")
    assert message is not None
    assert "the first divergent path" in message, message
    path = divergent_path(message)
    assert path, message
    assert "no such action" in path[-1][1:], message


def test_the_node_test_fails_on_a_broken_engine_and_names_the_path(
    node: str, tmp_path: Path
) -> None:
    """``node --test tests/js/perft.test.mjs`` against a copy of the engine that lets a
    player call koi-koi after the opponent has: it fails, and its descent (through
    ``python -m koikoi perft``) names the path. (Only one vector runs: each level of a
    descent starts Python.)"""
    module, pattern, replacement, _ = JS_BREAKS["after-opponent-ignored"]
    web = broken_js(tmp_path, module, pattern, replacement)
    env = {**os.environ, "KOIKOI_JS_ENGINE": str(web / "engine"), "KOIKOI_PYTHON": sys.executable}
    only = "--test-name-pattern=nintendo/after-a-call"
    done = subprocess.run(
        [node, "--test", only, str(NODE_TESTS)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode != 0, done.stdout
    assert "the first divergent path (js against python)" in done.stdout, done.stdout
    assert re.search(
        r"\d+\. \{\"(koikoi|stop)\": true\}: js \d+, python no such action", done.stdout
    ), done.stdout


def test_the_node_test_passes_on_the_engine(node: str) -> None:
    done = subprocess.run(
        [node, "--test", str(NODE_TESTS)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# -- koikoi perft and its JS twin ---------------------------------------------------------


def write(tmp_path: Path, name: str, record: dict[str, Any]) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


def test_perft_command_prints_the_count_and_the_divide(tmp_path: Path) -> None:
    vector = BY_NAME["classic/decision"]
    path = write(tmp_path, "decision.json", vector.record)
    runner = CliRunner()
    plain = runner.invoke(cli, ["perft", str(path), "--depth", str(vector.depth)])
    assert (plain.exit_code, plain.stdout) == (0, f"perft({vector.depth}) = {vector.count}\n")
    both = runner.invoke(cli, ["perft", str(path), "--depth", "2", "--divide", "--json"])
    output = json.loads(both.stdout)
    assert output["depth"] == 2
    assert set(output["divide"]) == {'{"koikoi": true}', '{"stop": true}'}
    assert output["count"] == sum(output["divide"].values())
    text = runner.invoke(cli, ["perft", str(path), "--depth", "2", "--divide"]).stdout
    assert text.splitlines()[-1] == f"perft(2) = {output['count']}"
    assert '{"stop": true}: 1' in text.splitlines()


def test_perft_of_a_round_over_says_so(tmp_path: Path) -> None:
    path = write(tmp_path, "over.json", BY_NAME["single-deal/hand-yaku"].record)
    result = CliRunner().invoke(cli, ["perft", str(path), "--depth", "4", "--divide"])
    assert result.stdout == "perft(4) = 1 (the round is over)\n"


def perft_cases(tmp_path: Path) -> list[tuple[Path, list[str]]]:
    """Records and options to run through both engines: vectors, a seeded match (its
    first round, then past the end of one round), and bad records."""
    cases: list[tuple[Path, list[str]]] = []
    for name in ("classic/opening", "nintendo/after-a-call", "single-deal/hand-yaku"):
        path = write(tmp_path, name.replace("/", "-") + ".json", BY_NAME[name].record)
        options: list[list[str]] = [[], ["--divide"], ["--json"], ["--divide", "--json"]]
        cases.extend((path, ["--depth", "3", *extra]) for extra in options)
    seeded = write(tmp_path, "seeded.json", {"rules": {"preset": "ten-card"}, "seed": 12})
    cases.append((seeded, ["--depth", "3", "--divide"]))
    match = _first_round_played(PRESETS["classic"], seed=4)
    cases.append((write(tmp_path, "next-round.json", match), ["--depth", "2", "--divide"]))
    illegal = dict(BY_NAME["classic/decision"].record)
    illegal["actions"] = [*illegal["actions"][:-1], {"play": "paulownia-phoenix"}]
    bad = {
        "illegal.json": illegal,
        "unknown-card.json": {"seed": 1, "actions": [{"play": "pine-dragon"}]},
        "unknown-key.json": {"seed": 1, "moves": []},
        "bad-rules.json": {"seed": 1, "rules": {"goko": -1}},
        "short-hand.json": {**BY_NAME["classic/opening"].record, "hands": [["pine-crane"], []]},
    }
    for name, record in bad.items():
        path = write(tmp_path, name, record)
        cases.extend((path, ["--depth", "2", *extra]) for extra in ([], ["--json"]))
    (tmp_path / "not-json.json").write_text("{'seed': 1}")
    for name in ("not-json.json", "missing.json"):
        cases.extend((tmp_path / name, ["--depth", "1", *extra]) for extra in ([], ["--json"]))
    return cases


def _first_round_played(rules: Any, seed: int) -> dict[str, Any]:
    """A seeded record whose actions play its first round out (the position is then the
    second round's start)."""
    from koikoi.match import Match
    from koikoi.round import action_to_json

    match = Match(rules, seed)
    actions = []
    while len(match.results) < 1:
        legal = match.legal_actions()
        action = KOIKOI if KOIKOI in legal else legal[0]
        match.apply(action)
        actions.append(action_to_json(action))
    return {"rules": rules.to_mapping(), "seed": seed, "actions": actions}


def test_perft_engine_js_prints_what_the_python_engine_prints(node: str, tmp_path: Path) -> None:
    runner = CliRunner()
    cases = perft_cases(tmp_path)
    for path, options in cases:
        python = runner.invoke(cli, ["perft", str(path), *options])
        js = runner.invoke(cli, ["perft", "--engine", "js", str(path), *options])
        shown = f"{path.name} {' '.join(options)}"
        assert (js.exit_code, js.stdout, js.stderr) == (
            python.exit_code,
            python.stdout,
            python.stderr,
        ), shown
    errors = [runner.invoke(cli, ["perft", str(path), *options]) for path, options in cases]
    assert sum(result.exit_code == 1 for result in errors) == 14


def test_perft_errors_name_the_bad_value(tmp_path: Path) -> None:
    illegal = dict(BY_NAME["classic/decision"].record)
    illegal["actions"] = [*illegal["actions"][:2], {"play": "paulownia-phoenix"}]
    path = write(tmp_path, "illegal.json", illegal)
    result = CliRunner().invoke(cli, ["perft", str(path), "--depth", "2", "--json"])
    assert result.exit_code == 1
    error = json.loads(result.stdout)
    assert error["index"] == 2
    assert error["error"].startswith('action 2 ({"play": "paulownia-phoenix"}): illegal action')
    assert "koikoi: error: action 2" in result.stderr


@pytest.mark.parametrize("engine", ["python", "js"])
@pytest.mark.parametrize(
    ("depth", "needle"),
    [("-1", "-1 is not in the range x>=0"), ("two", "'two' is not a valid integer")],
)
def test_a_bad_depth_is_an_error_naming_it_in_json_too(
    engine: str, depth: str, needle: str, tmp_path: Path
) -> None:
    path = write(tmp_path, "record.json", {"seed": 1})
    koikoi = [sys.executable, "-m", "koikoi", "perft", str(path)]
    done = subprocess.run(
        [*koikoi, "--depth", depth, "--json", "--engine", engine],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert needle in json.loads(done.stdout)["error"]
    assert needle in done.stderr


def test_perft_engine_js_without_node_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    path = write(tmp_path, "record.json", {"seed": 1})
    result = CliRunner().invoke(
        cli, ["perft", "--engine", "js", str(path), "--depth", "1", "--json"]
    )
    assert result.exit_code == 1
    assert "no 'node' program is on PATH" in json.loads(result.stdout)["error"]
