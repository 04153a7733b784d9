"""The computer on the device: the JavaScript expert's decision time in Chromium, and
the JavaScript engine's random rounds per second under Node.js.

Serves the app on a fresh SQLite database and opens it in Debian's Chromium
(Playwright). In a module Web Worker, as a practice match runs it, the expert with the
device's budget (``DEVICE_EXPERT`` of ``web/engine/localgame.js``) plays classic matches
against ``normal``; every decision it takes with more than one legal action is timed
(``performance.now()`` around ``choose``). Then the real practice worker
(``web/engine/worker.js``) answers moves of a match against the expert, timed from the
page: one answer holds all the computer's moves until the player's turn. The process
(so Chromium, every one of its processes, and Node.js) is pinned to one CPU core.

Prints one JSON object: ``decisions`` (count, p50/p95/max ms; target p95 <= 150),
``moves`` (the worker's answers to the page, p50/p95 ms), and ``rounds_per_second``
(bench/jsengine.py's random rounds of the JavaScript engine, classic rules).

    python bench/device.py [--decisions 100] [--cpu 1] [--rounds 100000]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from jsengine import js_rounds
from koikoi.server.app import create_app
from koikoi.server.settings import Settings
from local_server import serving

BENCH_WORKER = "/static/engine/bench-decisions.js"
"""Where the page finds DECISIONS_WORKER: served by the benchmark (the page's content
security policy admits workers from the site only), next to the engine's modules."""

# A module worker beside the engine's modules: the expert (the device's options) against
# normal, classic rules, seeded as a practice match seeds its computer.
DECISIONS_WORKER = """
import { DEVICE_EXPERT } from "./localgame.js";
import { Match } from "./match.js";
import { makePlayer } from "./players.js";
import { RuleSet } from "./rules.js";

self.onmessage = ({ data: wanted }) => {
  const times = [];
  const rules = RuleSet.fromMapping({ preset: "classic" });
  for (let m = 0; times.length < wanted; m++) {
    const seed = 1000 + m;
    const match = new Match(rules, seed);
    while (!match.isOver && times.length < wanted) {
      const seat = match.turn;
      const obs = match.observation(seat);
      const playerSeed = BigInt(seed) ^ 0x5eedn ^ (BigInt(match.actions.length) << 48n);
      let action;
      if (seat === 1) {
        const expert = makePlayer("expert", playerSeed, { ...DEVICE_EXPERT });
        const started = performance.now();
        action = expert.choose(obs);
        const spent = performance.now() - started;
        if (obs.legalActions.length > 1) times.push(spent);
      } else {
        action = makePlayer("normal", playerSeed).choose(obs);
      }
      match.apply(action);
    }
  }
  self.postMessage({ times, options: DEVICE_EXPERT });
};
"""

DECIDE = """async ([url, wanted]) => {
  const worker = new Worker(url, { type: "module" });
  const answer = await new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => resolve(data);
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(wanted);
  });
  worker.terminate();
  return answer;
}"""

# The practice worker itself, from the page: a match against the expert, the first
# legal action every time; how long each answer took.
MOVES = """async (wanted) => {
  const worker = new Worker("/static/engine/worker.js", { type: "module" });
  let key = 0;
  const ask = (message) => new Promise((resolve) => {
    key += 1;
    const mine = key;
    const listen = ({ data }) => {
      if (data.key !== mine) return;
      worker.removeEventListener("message", listen);
      resolve(data);
    };
    worker.addEventListener("message", listen);
    worker.postMessage({ key: mine, ...message });
  });
  const times = [];
  for (let m = 0; times.length < wanted; m++) {
    const rules = { preset: "classic" };
    const id = `practice.bench${m}`;
    let answer = await ask({ op: "create", id, difficulty: "expert", rules, seed: 5000 + m });
    let record = answer.record;
    while (!answer.body.state.over && times.length < wanted) {
      const state = answer.body.state;
      const started = performance.now();
      answer = await ask({ op: "act", record, action: state.legal[0], version: state.version });
      times.push(performance.now() - started);
      if (answer.error) throw new Error(answer.error.detail);
      record = answer.record;
    }
  }
  worker.terminate();
  return times;
}"""


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * share // 100))
    return round(ordered[int(rank) - 1], 1)


def summary(times: list[float]) -> dict[str, Any]:
    return {
        "count": len(times),
        "p50_ms": percentile(times, 50),
        "p95_ms": percentile(times, 95),
        "max_ms": round(max(times), 1),
    }


def measure(decisions: int, moves: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(database_url=f"sqlite:///{Path(folder) / 'bench.sqlite3'}"))
        with serving(app) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-background-networking",
                    "--renderer-process-limit=1",
                ],
            )
            # No service worker: the benchmark's own module reaches the page unchanged.
            context = browser.new_context(service_workers="block")
            context.route(
                f"{url}{BENCH_WORKER}",
                lambda route: route.fulfill(
                    body=DECISIONS_WORKER, content_type="text/javascript; charset=utf-8"
                ),
            )
            page = context.new_page()
            page.goto(f"{url}/?pace=0")
            page.wait_for_selector("body[data-ready=true]")
            decided = page.evaluate(DECIDE, [BENCH_WORKER, decisions])
            answered = page.evaluate(MOVES, moves)
            version = browser.version
            browser.close()
        app.state.services.engine.dispose()
    return {
        "chromium": version,
        "expert": decided["options"],
        "decisions": {**summary(decided["times"]), "target_p95_ms": 150},
        "moves": summary(answered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument(
        "--cpu", type=int, default=1, help="the CPU core to run on (-1: all of them)"
    )
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("bench/device.py needs Node.js (no 'node' on PATH)")
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})  # inherited by Chromium and Node.js
    report: dict[str, Any] = {
        "cpus": sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    }
    report.update(measure(args.decisions, args.moves))
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    report["node"] = version.stdout.strip()
    report["rounds_per_second"] = js_rounds(node, "classic", args.rounds)["rounds_per_second"]
    print(json.dumps(report))


if __name__ == "__main__":
    main()
