"""The browser's engine under Node.js: rounds per second, and parity throughput.

Prints one JSON object:

- ``rounds_per_second``: random-vs-random rounds of the JavaScript engine (bench/jsengine.mjs,
  the same rounds as bench/engine.py's ``random_rounds``), per preset; ``steps_match``
  says the JavaScript engine took exactly the Python engine's steps on a sample of them;
- ``parity``: records of random play replayed by both engines as ``koikoi replay --json``
  does (the JavaScript one in one Node.js process, ``replay-cli.mjs --batch``), with the
  records per second of each and how many outputs differ (0 is the only good answer).

Run on an otherwise idle machine: ``python bench/jsengine.py [--rounds N] [--records N]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine import random_rounds
from koikoi.cli.games import NODE_REPLAY
from koikoi.record import Record, replay, replay_output
from koikoi.rules import PRESETS
from koikoi.sim import simulate

BENCH = Path(__file__).resolve().parent / "jsengine.mjs"
SAMPLE = 1000
"""Rounds the Python engine plays to check the JavaScript engine's step count."""


def js_rounds(node: str, preset: str, rounds: int) -> dict[str, int]:
    done = subprocess.run(
        [node, str(BENCH), "--rounds", str(rounds), "--preset", preset],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, int] = json.loads(done.stdout)
    return result


def steps_match(node: str, preset: str) -> bool:
    done = subprocess.run(
        [node, str(BENCH), "--rounds", str(SAMPLE), "--preset", preset, "--repeat", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    return bool(json.loads(done.stdout)["steps"] == random_rounds(PRESETS[preset], SAMPLE, 1))


def parity(node: str, count: int) -> dict[str, object]:
    records = []
    for index, preset in enumerate(PRESETS):
        share = count // len(PRESETS)
        for kind in ("matches", "rounds"):
            games = simulate(
                PRESETS[preset],
                ["random", "random"],
                seed=index,
                matches=share // 2 if kind == "matches" else 0,
                rounds=share - share // 2 if kind == "rounds" else 0,
            )
            records += [Record.from_match(match).to_json() for match in games]
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, record in enumerate(records):
            path = Path(folder) / f"record-{index:05d}.json"
            path.write_text(json.dumps(record), encoding="utf-8")
            paths.append(path)
        started = time.perf_counter()
        expected = [
            json.dumps(replay_output(replay(Record.from_json(json.loads(path.read_text())))))
            for path in paths
        ]
        python_seconds = time.perf_counter() - started
        jobs = "".join(json.dumps({"path": str(path), "json": True}) + "\n" for path in paths)
        started = time.perf_counter()
        done = subprocess.run(
            [node, str(NODE_REPLAY), "--batch"], input=jobs, capture_output=True, text=True
        )
        js_seconds = time.perf_counter() - started
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    differ = sum(
        answer["rc"] != 0 or answer["stdout"].rstrip("\n") != want
        for answer, want in zip(answers, expected, strict=True)
    )
    return {
        "records": len(records),
        "differ": differ,
        "python_records_per_second": round(len(records) / python_seconds),
        "js_records_per_second": round(len(records) / js_seconds),
        "js_seconds": round(js_seconds, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--records", type=int, default=2000)
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("bench/jsengine.py needs Node.js (no 'node' on PATH)")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    report = {
        "node": version.stdout.strip(),
        "rounds_per_second": {
            preset: js_rounds(node, preset, args.rounds)["rounds_per_second"] for preset in PRESETS
        },
        "steps_match": all(steps_match(node, preset) for preset in PRESETS),
        "parity": parity(node, args.records),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
