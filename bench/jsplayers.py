"""The browser's computer players under Node.js: decision times per level, beside Python's.

Prints one JSON object: for each level, the mean, 95th percentile and largest time of
one decision (``choose``) of the JavaScript player (``src/koikoi/web/engine/
players.js``, in one Node.js process) and of the Python player, on the same
observations, in milliseconds. The observations are the decisions of a few classic
matches between Python normal players (both seats'), given to the JavaScript players in
the engine protocol's JSON form, as ``js:LEVEL`` gets them; the time to read the JSON is
not counted, only the choice. The expert thinks at its default budget (``--rollouts``).

Everything runs on one core (the first this process may use), as a browser tab thinks
on one. Run on an otherwise idle machine:
``python bench/jsplayers.py [--decisions N] [--rollouts N] [--no-python]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time
from typing import Any

from koikoi.jsengine import ENGINE
from koikoi.match import Match
from koikoi.players import PLAYERS, make_player
from koikoi.players.expert import DEFAULT_ROLLOUTS
from koikoi.players.protocol import observation_to_json
from koikoi.round import Observation
from koikoi.rules import PRESETS

TIMER = """
import readline from "node:readline";
import { observationFromJson } from "./players-observation.js";
import { makePlayer } from "./players.js";
import { loads } from "./pyjson.js";
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let player = null;
const times = [];
for await (const line of lines) {
  const data = loads(line);
  if (player === null) {
    const level = data.get("level");
    const options = level === "expert" ? { rollouts: data.get("rollouts") } : {};
    player = makePlayer(level, data.get("seed"), options);
    continue;
  }
  const obs = observationFromJson(data);
  const start = performance.now();
  player.choose(obs);
  times.push(performance.now() - start);
}
process.stdout.write(JSON.stringify(times) + "\\n");
"""
"""Times each decision of one JS player, given a header line then observations."""


def observations(count: int, seed: int) -> list[Observation]:
    """The first ``count`` decisions of classic matches between Python normal players."""
    rng = random.Random(seed)
    found: list[Observation] = []
    while len(found) < count:
        match = Match(PRESETS["classic"], rng.getrandbits(32))
        players = [make_player("normal", rng.getrandbits(32)) for _ in range(2)]
        while not match.is_over and len(found) < count:
            obs = match.observation(match.turn)
            found.append(obs)
            match.apply(players[match.turn].choose(obs))
    return found


def summary(times_ms: list[float]) -> dict[str, float]:
    ordered = sorted(times_ms)
    rank = max(0, math.ceil(0.95 * len(ordered)) - 1)  # nearest-rank percentile
    return {
        "mean_ms": round(sum(ordered) / len(ordered), 3),
        "p95_ms": round(ordered[rank], 3),
        "max_ms": round(ordered[-1], 3),
    }


def js_times(node: str, level: str, views: list[dict[str, Any]], rollouts: int) -> list[float]:
    header = {"level": level, "seed": 1, "rollouts": rollouts}
    lines = [json.dumps(header), *(json.dumps(view) for view in views)]
    done = subprocess.run(
        [node, "--input-type=module", "-e", TIMER],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ENGINE,
        check=False,
    )
    if done.returncode:
        sys.exit(f"jsplayers: node failed for {level}:\n{done.stderr}")
    times: list[float] = json.loads(done.stdout)
    return times


def python_times(level: str, cases: list[Observation], rollouts: int) -> list[float]:
    options = {"rollouts": rollouts} if level == "expert" else {}
    player = make_player(level, 1, **options)
    times = []
    for obs in cases:
        start = time.perf_counter()
        player.choose(obs)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200, help="decisions per level")
    parser.add_argument("--rollouts", type=int, default=DEFAULT_ROLLOUTS, help="the expert's")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-python", action="store_true", help="time the JS players only")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("jsplayers: no 'node' on PATH; the JS players run under Node.js")
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})  # and Node.js, started from here, inherits it
    cases = observations(args.decisions, args.seed)
    views = [observation_to_json(obs) for obs in cases]
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    levels: dict[str, Any] = {}
    for level in PLAYERS:
        entry: dict[str, Any] = {"js": summary(js_times(node, level, views, args.rollouts))}
        if not args.no_python:
            entry["python"] = summary(python_times(level, cases, args.rollouts))
            entry["python_over_js"] = round(
                entry["python"]["mean_ms"] / max(entry["js"]["mean_ms"], 1e-3), 1
            )
        levels[level] = entry
    print(
        json.dumps(
            {
                "preset": "classic",
                "decisions": len(cases),
                "single_action": sum(len(obs.legal_actions) == 1 for obs in cases),
                "expert_rollouts": args.rollouts,
                "cpu": cpu,
                "node": version.stdout.strip(),
                "levels": levels,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
