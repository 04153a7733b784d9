"""The browser's computer players against the Python ones, through the engine protocol.

``src/koikoi/web/engine/players*.js`` ports the players of ``koikoi.players`` to
JavaScript, and ``player-cli.mjs`` (``js:LEVEL``) runs them as a program that speaks the
engine protocol (README, "The engine protocol"). Here every level plays matches under
every preset and some random house rules, each decision answered both by the Python
player and by the program, both seeded with the seed the protocol's ``start`` line
gives; the answers must be the same, decision after decision. The expert plays at a
small fixed rollout budget (and once at a larger one), where its choices are exact too.

Then hidden information: the observation the JavaScript side builds from the JSON holds
exactly the public keys, never a card of the opponent's hand or of the stock, not even
when the JSON line carries them under other keys. Then the program on odd input: a
message and status 2, never a crash, and status 0 at the end of the game. Last, the
error function the expert's match value needs, bit for bit against Python's.

Without Node.js the tests skip, and fail under CI.
"""

from __future__ import annotations

import json
import math
import os
import platform
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from koikoi.cards import SLUGS, slugs
from koikoi.jsengine import ENGINE, PROGRAMS
from koikoi.match import Match
from koikoi.players import Player, make_player
from koikoi.players.protocol import NODE_PLAYER, ProcessPlayer, observation_to_json
from koikoi.round import Action, Observation, action_to_json
from koikoi.rules import PRESET_NAMES, PRESETS, RulesError, RuleSet
from test_parity import house_rules

LEVELS = ("random", "greedy", "easy", "normal")
EXPERT_ROLLOUTS = 30
"""The expert's budget in the exactness tests: small, so that Python keeps up."""

FULL = os.environ.get("CI") == "true" or os.environ.get("KOIKOI_PARITY_FULL") == "1"


# -- the same choices ------------------------------------------------------------------


class Twin:
    """One seat played by the Python player and by the program at once: every decision
    goes to both (the program's through the protocol), and they must agree."""

    def __init__(self, node: str, level: str, seed: int, options: dict[str, int]) -> None:
        args = [f"--{key}={value}" for key, value in options.items()]
        self.name = f"js:{level}"
        self.js = ProcessPlayer(self.name, [node, str(NODE_PLAYER), level, *args], seed)
        # The program is seeded with what its start line says; so is the Python player.
        self.py = make_player(level, random.Random(self.js.seed), **options)
        self.decisions = 0

    def choose(self, observation: Observation) -> Action:
        expected = self.py.choose(observation)
        got = self.js.choose(observation)
        if got != expected:
            view = json.dumps(observation_to_json(observation))
            raise AssertionError(
                f"{self.name}, decision {self.decisions}: the program chose"
                f" {action_to_json(got)}, the Python player {action_to_json(expected)};"
                f" observation: {view}"
            )
        self.decisions += 1
        return expected

    def finish(self, match: Match) -> None:
        self.js.finish(match)


def play_twinned(
    node: str,
    level: str,
    rules: RuleSet,
    seed: int,
    options: dict[str, int] | None = None,
    most: int = 10_000,
) -> int:
    """A match (or its first ``most`` decisions of the twinned seat) with the twin on
    seat ``seed % 2`` and a Python normal player on the other; the decisions checked."""
    twin = Twin(node, level, seed, options or {})
    other: Player = make_player("normal", seed + 1)
    seat = seed % 2
    match = Match(rules, seed)
    try:
        while not match.is_over and twin.decisions < most:
            turn = match.turn
            player = twin if turn == seat else other
            match.apply(player.choose(match.observation(turn)))
    except RulesError:
        pass  # house rules whose next round cannot be dealt: the match ends there
    finally:
        twin.finish(match)
    return twin.decisions


def play_presets(node: str, level: str, wanted: int, options: dict[str, int] | None = None) -> int:
    """Matches under every preset in turn, from either seat, until ``wanted`` decisions
    of the twinned seat are checked (every preset at least once)."""
    decisions = 0
    seed = 0
    while decisions < wanted or seed < len(PRESET_NAMES):
        preset = PRESET_NAMES[seed % len(PRESET_NAMES)]
        decisions += play_twinned(node, level, PRESETS[preset], 1000 * len(level) + seed, options)
        seed += 1
    return decisions


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_chooses_as_the_python_player(node: str, level: str) -> None:
    assert play_presets(node, level, 1000 if FULL else 300) >= 300


@pytest.mark.parametrize("level", [*LEVELS, "expert"])
def test_each_level_chooses_as_the_python_player_under_house_rules(node: str, level: str) -> None:
    rng = random.Random(f"house rules for {level}")
    options = {"rollouts": EXPERT_ROLLOUTS} if level == "expert" else {}
    wanted = 300 if FULL else 100
    decisions = 0
    for _ in range(50):  # rule sets, some of them quick to finish
        if decisions >= wanted:
            break
        decisions += play_twinned(
            node, level, house_rules(rng), rng.getrandbits(32), options, most=60
        )
    assert decisions >= wanted


def test_the_expert_chooses_as_the_python_expert_at_a_fixed_budget(node: str) -> None:
    options = {"rollouts": EXPERT_ROLLOUTS}
    assert play_presets(node, "expert", 1000 if FULL else 300, options) >= 300


def test_the_expert_chooses_as_the_python_expert_at_a_larger_budget(node: str) -> None:
    rollouts = 2000 if FULL else 300
    decisions = play_twinned(node, "expert", PRESETS["classic"], 7, {"rollouts": rollouts}, most=40)
    assert decisions >= 30


# -- hidden information ----------------------------------------------------------------

DUMP = """
import readline from "node:readline";
import { SLUGS } from "./cards.js";
import { OBSERVATION_KEYS, observationFromJson } from "./players-observation.js";
import { loads } from "./pyjson.js";
import { actionToJson } from "./round.js";
const set = (cards) => cards.slugs();
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const obs = observationFromJson(loads(line));
  const keys = Object.keys(obs);
  const shown = {
    ...obs,
    rules: obs.rules.toMapping({ full: true }),
    hand: set(obs.hand),
    field: set(obs.field),
    captured: obs.captured.map(set),
    pendingCard: obs.pendingCard === null ? null : SLUGS[obs.pendingCard],
    legalActions: obs.legalActions.map(actionToJson),
    history: obs.history.map((e) => ({ ...e, card: SLUGS[e.card], captured: set(e.captured) })),
  };
  const same = keys.join() === OBSERVATION_KEYS.join();
  process.stdout.write(JSON.stringify({ keys, same, obs: shown }) + "\\n");
}
"""
"""Builds the JS observation of each JSON line and prints it back, card sets as slugs."""

PUBLIC_KEYS = [
    "seat",
    "rules",
    "phase",
    "turn",
    "dealer",
    "month",
    "hand",
    "opponentHandSize",
    "field",
    "captured",
    "stockSize",
    "pendingCard",
    "legalActions",
    "calls",
    "yaku",
    "decided",
    "history",
    "result",
    "match",
]


def js_observations(node: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done = subprocess.run(
        [node, "--input-type=module", "-e", DUMP],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ENGINE,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def decisions_with_secrets(count: int) -> Iterator[tuple[Observation, list[str]]]:
    """Observations of real matches, each with the cards its seat must not see."""
    rng = random.Random(5)
    while True:
        for preset in PRESET_NAMES:
            match = Match(PRESETS[preset], rng.getrandbits(32))
            players = [make_player("random", rng.getrandbits(32)) for _ in range(2)]
            while not match.is_over:
                seat = match.turn
                obs = match.observation(seat)
                game = match.round
                hidden = game.hands[1 - seat] | sum(1 << card for card in game.stock_left)
                yield obs, slugs(hidden)
                count -= 1
                if count <= 0:
                    return
                match.apply(players[seat].choose(obs))


def test_the_js_observation_holds_no_hidden_card(node: str) -> None:
    cases = list(decisions_with_secrets(400))
    lines = [observation_to_json(obs) for obs, _ in cases]
    # The same lines again with the hidden cards smuggled in under keys of their own.
    smuggled = [
        {**line, "opponent_cards": hidden, "stock_cards": hidden, "secrets": {"hand": hidden}}
        for line, (_, hidden) in zip(lines, cases, strict=True)
    ]
    built = js_observations(node, lines)
    built_smuggled = js_observations(node, smuggled)
    assert len(built) == len(built_smuggled) == len(cases)
    for (obs, hidden), line, js, js_smuggled in zip(
        cases, lines, built, built_smuggled, strict=True
    ):
        assert js["keys"] == PUBLIC_KEYS
        assert js["same"]  # and players-observation.js's list says the same
        assert js_smuggled == js  # what the line carries beside the protocol is dropped
        shown = json.dumps(js["obs"])
        assert not [slug for slug in hidden if f'"{slug}"' in shown]
        view = js["obs"]
        assert view["hand"] == line["hand"]
        assert view["field"] == line["field"]
        assert view["captured"] == line["captured"]
        assert view["pendingCard"] == line["pending"]
        assert view["opponentHandSize"] == obs.opponent_hand_size == line["opponent_hand"]
        assert view["stockSize"] == obs.stock_size == line["stock"]
        assert view["legalActions"] == line["legal"]
        assert view["rules"] == line["rules"]
        assert view["yaku"] == line["yaku"]
        assert view["decided"] == line["decided"]
        assert view["history"] == line["history"]


# -- the program on odd input ----------------------------------------------------------


def run_cli(node: str, args: list[str], lines: list[Any] | str) -> subprocess.CompletedProcess[str]:
    text = lines if isinstance(lines, str) else "".join(json.dumps(x) + "\n" for x in lines)
    return subprocess.run(
        [node, str(NODE_PLAYER), *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


START = {"type": "start", "protocol": 1, "seed": 3}


def an_observation() -> dict[str, Any]:
    obs, _ = next(decisions_with_secrets(1))
    return observation_to_json(obs)


def test_a_whole_game_ends_with_status_0(node: str) -> None:
    line = an_observation()
    for ending in ([{"type": "end", "totals": [0, 0], "winner": None}], []):
        done = run_cli(node, ["normal"], [START, line, *ending])
        assert done.returncode == 0, done.stderr
        (answer,) = done.stdout.splitlines()
        assert json.loads(answer) in line["legal"]
    done = run_cli(node, ["expert", "--rollouts", "10"], "")
    assert (done.returncode, done.stdout) == (0, "")


def broken_inputs() -> Iterator[tuple[list[str], list[Any] | str, str]]:
    """(arguments, input, a piece of the message) for inputs the program refuses."""
    line = an_observation()
    yield ["nobody"], [START], "unknown level"
    yield [], [START], "a LEVEL is needed"
    yield ["normal", "--rollouts", "5"], [START], "expert's options"
    yield ["expert", "--rollouts", "0"], [START], "--rollouts takes"
    yield ["expert", "--budget-ms", "soon"], [START], "--budget-ms takes"
    yield ["normal"], "not json\n", "not JSON"
    yield ["normal"], [[1, 2]], "a JSON object"
    yield ["normal"], [line], 'before "start"'
    yield ["normal"], [{**START, "protocol": 2}], "protocol 2"
    yield ["normal"], [{**START, "seed": 1.5}], '"seed" must be an integer'
    yield ["normal"], [START, START], 'a second "start"'
    yield ["normal"], [START, {"type": "hello"}], "unknown message type"
    yield ["normal"], [START, {**line, "hand": ["pine-cranes"]}], "unknown card"
    yield ["normal"], [START, {**line, "legal": [{"stop": True}]}], "not what the state allows"
    yield ["normal"], [START, {**line, "stock": line["stock"] + 1}], "out of sight"
    yield ["normal"], [START, {**line, "seat": 1 - line["seat"]}], "move"
    yield ["normal"], [START, {**line, "rules": {"goko": -1}}], "rules"
    missing = dict(line)
    del missing["field"]
    yield ["normal"], [START, missing], "'field' is missing"


@pytest.mark.parametrize(("args", "lines", "message"), list(broken_inputs()))
def test_odd_input_is_a_message_and_status_2(
    node: str, args: list[str], lines: list[Any] | str, message: str
) -> None:
    done = run_cli(node, args, lines)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("player-cli: ")
    assert message in done.stderr
    assert "internal error" not in done.stderr


JUNK: list[Any] = [None, True, -1, 0, 1, 2, 10**30, 1.5, "", "pine-crane", [], ["x"], {}, {"a": 1}]

FUZZ = """
import readline from "node:readline";
import { ObservationError, observationFromJson } from "./players-observation.js";
import { makePlayer } from "./players.js";
import { loads } from "./pyjson.js";
const expert = makePlayer("expert", 3, { rollouts: 8 });
const players = [makePlayer("easy", 1), makePlayer("normal", 2), expert];
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let answer;
  try {
    const obs = observationFromJson(loads(line));
    const chosen = players.map((player) => player.choose(obs));
    answer = chosen.every((a) => obs.legalActions.includes(a)) ? "played" : `illegal: ${chosen}`;
  } catch (error) {
    answer = error instanceof ObservationError ? "refused" : `crash: ${error && error.stack}`;
  }
  process.stdout.write(JSON.stringify(answer) + "\\n");
}
"""
"""Reads each JSON line as an observation and lets three players choose from it."""


def one_per_phase() -> list[dict[str, Any]]:
    """An observation of each phase (play, both choices, stop or koi-koi)."""
    found: dict[str, dict[str, Any]] = {}
    for obs, _ in decisions_with_secrets(3000):
        found.setdefault(obs.phase.value, observation_to_json(obs))
    assert len(found) == 4
    return list(found.values())


def damage(line: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The line with one to three things wrong: a key gone, a value replaced by junk or
    nudged by one, an item of a list or dict replaced."""
    damaged: dict[str, Any] = json.loads(json.dumps(line))
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(sorted(damaged))
        value = damaged[key]
        roll = rng.random()
        if roll < 0.15:
            del damaged[key]
        elif roll < 0.4 and isinstance(value, int) and not isinstance(value, bool):
            damaged[key] = value + rng.choice((-1, 1))
        elif roll < 0.7 and isinstance(value, list) and value:
            value[rng.randrange(len(value))] = rng.choice([*JUNK, rng.choice(SLUGS)])
        elif roll < 0.8 and isinstance(value, dict) and value:
            value[rng.choice(sorted(value))] = rng.choice(JUNK)
        else:
            damaged[key] = rng.choice(JUNK)
    return damaged


def test_damaged_observations_are_refused_or_played_never_a_crash(node: str) -> None:
    rng = random.Random(11)
    bases = one_per_phase()
    lines = [damage(rng.choice(bases), rng) for _ in range(1500 if FULL else 400)]
    done = subprocess.run(
        [node, "--input-type=module", "-e", FUZZ],
        input="".join(json.dumps(line) + "\n" for line in [*bases, *lines]),
        capture_output=True,
        text=True,
        cwd=ENGINE,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(answer) for answer in done.stdout.splitlines()]
    assert answers[: len(bases)] == ["played"] * len(bases)
    assert len(answers) == len(bases) + len(lines)
    wrong = [
        (a, line)
        for a, line in zip(answers, [*bases, *lines], strict=True)
        if a not in ("played", "refused")
    ]
    assert not wrong, wrong[0]
    assert answers.count("refused") > len(lines) / 2


def test_damaged_observations_end_the_program_with_a_message(node: str) -> None:
    rng = random.Random(12)
    bases = one_per_phase()
    for _ in range(12 if FULL else 4):
        damaged = damage(rng.choice(bases), rng)
        done = run_cli(node, ["normal"], [START, damaged])
        if done.returncode == 0:  # still a position one can play from
            assert json.loads(done.stdout) in damaged["legal"]
        else:
            assert done.returncode == 2, done.stderr
            assert done.stderr.startswith("player-cli: input line 2: ")
            assert "internal error" not in done.stderr


# -- the error function ----------------------------------------------------------------


def glibc_with_fma() -> bool:
    """Whether Python's math.erf is the one players-math.js ports: glibc's fdlibm erf
    (glibc 2.28 to 2.40) with glibc's exp as its FMA build computes it."""
    name, version = platform.libc_ver()
    if name != "glibc" or not version:
        return False
    major, minor = (int(part) for part in version.split(".")[:2])
    if not (2, 28) <= (major, minor) <= (2, 40):
        return False
    if platform.machine() == "aarch64":
        return True
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return platform.machine() == "x86_64" and " fma " in flags


def test_erf_is_pythons_to_the_last_bit(node: str) -> None:
    if not glibc_with_fma():
        pytest.skip("players-math.js follows glibc's erf and exp; this C library's differ")
    # The arguments the expert's match value meets (point differences over the spread
    # and the rounds left), and others across the range where erf is not yet 1.
    xs = [d / (6.0 * math.sqrt(r)) / math.sqrt(2.0) for r in range(1, 41) for d in range(-600, 601)]
    rng = random.Random(17)
    xs += [rng.uniform(-6.5, 6.5) for _ in range(20_000)]
    script = (
        'import { erf } from "./players-math.js";\n'
        'import { readFileSync } from "node:fs";\n'
        "const xs = JSON.parse(readFileSync(0, 'utf8'));\n"
        "process.stdout.write(JSON.stringify(xs.map(erf)));\n"
    )
    done = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(xs),
        capture_output=True,
        text=True,
        cwd=ENGINE,
        check=True,
    )
    got = json.loads(done.stdout)
    wrong = [(x, y, math.erf(x)) for x, y in zip(xs, got, strict=True) if y != math.erf(x)]
    assert not wrong, f"{len(wrong)} of {len(xs)} differ, as {wrong[:3]}"


def test_the_js_players_ship_with_the_package() -> None:
    for name in ("players.js", "players-expert.js", "players-math.js"):
        assert (ENGINE / name).is_file()
    assert (PROGRAMS / "player-cli.mjs").is_file()
