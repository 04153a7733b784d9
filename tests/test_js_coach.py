"""The browser's coach against koikoi.coach.

``src/koikoi/web/engine/coach.js`` ports the coach so that a practice match on the
device gets the hints and the review the server would give; ``coach-cli.mjs`` runs it
under Node.js. For the same observation, seed and budget the two must give the same
JSON, floats included (coach.js rounds as Python's ``round`` does): hints with their
risk meters at positions of every phase from matches under every preset and under
random house rules, the exact risk meter on small built positions, and reviews of whole
recorded matches. Last, the device's practice matches (``localgame.js``): their ``hint``
and ``review`` requests answer what the coach answers for the same match.

Budgets are small so that Python keeps up; ``KOIKOI_PARITY_FULL=1`` (or CI) checks
more positions. Without Node.js the tests skip, and fail under CI.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
from collections.abc import Iterator
from typing import Any

from koikoi import coach
from koikoi.jsengine import ENGINE, PROGRAMS
from koikoi.match import Match
from koikoi.players import make_player
from koikoi.players.protocol import observation_to_json
from koikoi.record import Record
from koikoi.round import MatchView, Observation, Phase, action_from_json
from koikoi.rules import PRESET_NAMES, PRESETS, RulesError, RuleSet
from koikoi.yaku import progress
from test_coach import small_decision
from test_parity import count, house_rules

COACH_CLI = PROGRAMS / "coach-cli.mjs"
LOCALGAME = ENGINE / "localgame.js"
ROLLOUTS = 80
"""The hints' budget here: small, so that Python keeps up; the arithmetic is the same."""


def plain(value: Any) -> Any:
    """``value`` as the server sends it: a NaN (the chance of a hint with a single
    legal move) as null, JSON having no NaN; coach.js answers null there too."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def js_coach(node: str, requests: list[dict[str, Any]]) -> list[Any]:
    done = subprocess.run(
        [node, str(COACH_CLI)],
        input="".join(json.dumps(request) + "\n" for request in requests),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(requests)
    return answers


# -- rounding ------------------------------------------------------------------------------

ROUND_JS = """
const { pyRound } = await import(process.argv[1]);
const cases = JSON.parse(process.argv[2]);
console.log(JSON.stringify(cases.map(([x, digits]) => pyRound(x, digits))));
"""


def test_the_coach_rounds_as_python_does(node: str) -> None:
    """Exact ties (an odd number of 32nds at four places, of 8ths at two) go to the even
    digit; the rest to the decimal nearest the double's exact value."""
    rng = random.Random(9)
    values = [j / 32 for j in range(-40, 41)] + [j / 8 for j in range(-20, 21)]
    values += [0.00015, 0.00025, 1.005, 2.675, -0.125, 0.5, 1.5, 2.5, 1e-9, 123.456789]
    values += [rng.uniform(-30, 30) for _ in range(200)] + [rng.random() for _ in range(200)]
    cases = [(value, digits) for value in values for digits in (0, 2, 3, 4)]
    script = [node, "--input-type=module", "-e", ROUND_JS, (ENGINE / "coach.js").as_uri()]
    done = subprocess.run(
        [*script, json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout) == [round(value, digits) for value, digits in cases]


# -- hints -----------------------------------------------------------------------------


def positions(rules: RuleSet, seed: int, most: int) -> Iterator[Observation]:
    """Up to ``most`` positions of a normal-against-normal match, from the seat to move:
    every choice between field cards and every decision, every third play."""
    match = Match(rules, seed)
    players = [make_player("normal", seed), make_player("normal", seed + 1)]
    plays = 0
    try:
        while not match.is_over and most > 0:
            obs = match.observation(match.turn)
            if obs.phase is not Phase.PLAY or plays % 3 == 0:
                yield obs
                most -= 1
            plays += obs.phase is Phase.PLAY
            match.apply(players[match.turn].choose(obs))
    except RulesError:
        pass  # house rules whose next round cannot be dealt: the match ends there


def check_advice(node: str, cases: list[tuple[Observation, int]]) -> dict[str, int]:
    """Python's and the program's advice at each (position, seed), which must be equal;
    how many positions of each kind were checked."""
    requests = [
        {
            "op": "advice",
            "observation": observation_to_json(obs),
            "seed": seed,
            "rollouts": ROLLOUTS,
        }
        for obs, seed in cases
    ]
    seen = {phase.value: 0 for phase in Phase if phase is not Phase.OVER}
    seen.update(single=0, exact=0, sampled=0)
    for (obs, seed), got in zip(cases, js_coach(node, requests), strict=True):
        expected = plain(coach.advice(obs, seed, ROLLOUTS))
        assert got == expected, json.dumps(observation_to_json(obs))
        seen[obs.phase.value] += 1
        seen["single"] += expected["hint"]["runner_up"] is None
        if expected["risk"] is not None:
            seen["exact" if expected["risk"]["exact"] else "sampled"] += 1
    return seen


def test_hints_are_the_python_coach_s_under_every_preset(node: str) -> None:
    most = count(40, 150)
    cases = [
        (obs, 1000 * index + place)
        for index, preset in enumerate(PRESET_NAMES)
        for place, obs in enumerate(positions(PRESETS[preset], 20 + index, most))
    ]
    seen = check_advice(node, cases)
    assert all(seen.values()), seen  # every phase, a single legal move, both risk meters


def test_hints_are_the_python_coach_s_under_house_rules(node: str) -> None:
    rng = random.Random("coach house rules")
    cases = [
        (obs, rng.getrandbits(48))
        for _ in range(count(8, 30))
        for obs in positions(house_rules(rng), rng.getrandbits(32), 15)
    ]
    assert len(cases) >= 60
    check_advice(node, cases)


# -- the risk meter ----------------------------------------------------------------------


def test_the_exact_risk_meter_is_the_python_coach_s(node: str) -> None:
    """The small built decision, alone and in two matches, counted arrangement by
    arrangement; and late decisions of ten-card matches (the preset whose stock runs out
    first), most of them small enough to count, the others sampled."""
    built = [
        small_decision(None),
        small_decision(MatchView(round_number=12, rounds=12, totals=(30, 33), target_score=0)),
        small_decision(MatchView(round_number=3, rounds=6, totals=(10, 4), target_score=30)),
    ]
    late = [
        obs
        for seed in range(count(12, 40))
        for obs in positions(PRESETS["ten-card"], 300 + seed, 400)
        if obs.phase is Phase.DECISION and obs.stock_size <= 6
    ]
    cases = [(obs, seed) for seed, obs in enumerate(built + late)]
    requests = [
        {"op": "risk", "observation": observation_to_json(obs), "seed": seed, "samples": 60}
        for obs, seed in cases
    ]
    exact = 0
    for (obs, seed), got in zip(cases, js_coach(node, requests), strict=True):
        expected = coach.risk(obs, seed, 60).to_json()
        assert got == expected, json.dumps(observation_to_json(obs))
        exact += expected["exact"]
    assert len(built) + 3 <= exact < len(cases)


# -- reviews -----------------------------------------------------------------------------


def recorded(rules: RuleSet, seed: int) -> Record:
    match = Match(rules, seed)
    players = [make_player("easy", seed), make_player("normal", seed + 1)]
    while not match.is_over:
        match.apply(players[match.turn].choose(match.observation(match.turn)))
    return Record.from_match(match)


def test_reviews_of_whole_matches_are_the_python_coach_s(node: str) -> None:
    records = [
        recorded(RuleSet.from_mapping({"preset": "classic", "rounds": 3}), 5),
        recorded(PRESETS["single-deal"], 6),
        recorded(RuleSet.from_mapping({"preset": "koikoi-japan", "rounds": 2}), 7),
    ][: count(3, 3)]
    cases = [(record, seat) for record in records for seat in (0, 1)]
    requests = [
        {"op": "review", "record": record.to_json(), "seat": seat, "rollouts": 30}
        for record, seat in cases
    ]
    for (record, seat), got in zip(cases, js_coach(node, requests), strict=True):
        expected = coach.review_json(record, seat, 30)
        assert got == expected
        assert got["decisions"]


# -- the yaku in reach -----------------------------------------------------------------

PROGRESS_JS = """
import { readFileSync } from "node:fs";
const { progress } = await import(process.argv[1]);
const { RuleSet } = await import(process.argv[2]);
const { CardSet } = await import(process.argv[3]);
const cases = JSON.parse(readFileSync(0, "utf8"));
const pile = (number) => CardSet.fromNumber(number);
console.log(JSON.stringify(cases.map(([rules, own, theirs, month]) =>
  progress(pile(own), pile(theirs), RuleSet.fromMapping(rules), month, 20))));
"""


def test_the_yaku_in_reach_are_the_same(node: str) -> None:
    """The piles' progress (shown beside each pile) from yaku.js is koikoi.yaku's, for
    random piles under every preset and random house rules, nearest twenty."""
    rng = random.Random(17)
    cases = []
    for index in range(count(300, 3000)):
        rules = PRESETS[PRESET_NAMES[index % len(PRESET_NAMES)]] if index % 2 else house_rules(rng)
        cards = rng.sample(range(48), rng.randrange(0, 30))
        split = rng.randrange(len(cards) + 1)
        own = sum(1 << card for card in cards[:split])
        theirs = sum(1 << card for card in cards[split:])
        cases.append((rules, own, theirs, rng.randrange(13)))
    modules = [(ENGINE / name).as_uri() for name in ("yaku.js", "rules.js", "cards.js")]
    done = subprocess.run(
        [node, "--input-type=module", "-e", PROGRESS_JS, *modules],
        input=json.dumps([[r.to_mapping(), o, t, m] for r, o, t, m in cases]),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    expected = [
        [entry.to_json() for entry in progress(own, theirs, rules, month, most=20)]
        for rules, own, theirs, month in cases
    ]
    assert json.loads(done.stdout) == expected


# -- practice matches on the device ---------------------------------------------------------

# Plays a practice match of one round with hints under Node.js: at each of the person's
# turns it asks for a hint and follows it every other time; then it asks for the review
# (twice: the second from the worker's memory) and for a hint once the match is over.
DEVICE_JS = """
const { LocalError, handle } = await import(process.argv[1]);
const [seed, rollouts] = JSON.parse(process.argv[2]);
const expert = { rollouts, budgetMs: null };
const refused = (message) => {
  try {
    handle(message, expert);
    return null;
  } catch (error) {
    if (!(error instanceof LocalError)) throw error;
    return { status: error.status, detail: error.detail };
  }
};
const rules = { preset: "classic", rounds: 1 };
const create = { op: "create", id: "practice.coach", difficulty: "normal", rules, seed };
let answer = handle(create, expert);
let record = answer.record;
const hints = [];
const early = refused({ op: "review", record });
for (let i = 0; !answer.body.state.over; i++) {
  const state = answer.body.state;
  const hint = handle({ op: "hint", record }, expert).body;
  hints.push({ actions: record.actions, hint });
  const action = i % 2 ? hint.hint.best : state.legal[(i * 7) % state.legal.length];
  answer = handle({ op: "act", record, action, version: state.version }, expert);
  record = answer.record;
}
const review = handle({ op: "review", record }, expert).body;
const again = handle({ op: "review", record }, expert).body;
const late = refused({ op: "hint", record });
console.log(JSON.stringify({ hints, record, early, review, same: again === review, late }));
"""


def test_the_device_answers_hints_and_reviews_as_the_server_does(node: str) -> None:
    seed = 2**40 + 77
    script = [node, "--input-type=module", "-e", DEVICE_JS, LOCALGAME.as_uri()]
    done = subprocess.run(
        [*script, json.dumps([seed, ROLLOUTS])],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    played = json.loads(done.stdout)
    rules = RuleSet.from_mapping({"preset": "classic", "rounds": 1})
    assert played["hints"]
    for step in played["hints"]:
        match = Match(rules, seed)
        for data in step["actions"]:
            match.apply(action_from_json(data))
        version = len(step["actions"])
        # The device's hint seed: the match's seed with the version in its high bits.
        hint_seed = seed ^ 0xC0AC ^ version << 48
        advice = plain(coach.advice(match.observation(0), hint_seed, ROLLOUTS))
        assert step["hint"] == {"version": version, **advice}
    record = Record(rules, tuple(played["record"]["actions"]), seed=seed)
    assert played["review"] == coach.review_json(record, 0, coach.REVIEW_ROLLOUTS)
    assert played["same"]
    assert played["early"]["status"] == 409
    assert "still being played" in played["early"]["detail"]
    assert played["late"]["status"] == 409
    assert "the match is over" in played["late"]["detail"]
