"""The table's pace: how long from the click that plays a card to the player's next
turn, at each pace the pace button offers (instant, fast, normal, slow).

Serves the app on a fresh SQLite database and plays against the easy computer (its
thinking is negligible) in Debian's Chromium (Playwright): each move is a hand card
and the Play button, timed in the page from that click until the table waits for the
player again. Moves that end a round are left out (the summary waits for a person).
Prints one JSON object: milliseconds per pace (median, p90, and the samples' count).

    python bench/pace.py [--moves 8]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

from koikoi.server.app import create_app
from koikoi.server.settings import Settings
from local_server import serving

PACES = {"instant": 0, "fast": 0.5, "normal": 1, "slow": 1.6}

# The time since the Play click once the table waits for the player's move again; null
# while it moves; "summary" at a round's end.
SETTLED = """() => {
  const summaries = '[data-testid=round-summary], [data-testid=match-summary]';
  if (document.querySelector(summaries)) return 'summary';
  const k = window.koikoi;
  if (!k.state || k.busy || !k.state.your_turn || k.state.over) return null;
  return window.playedAt === undefined ? null : performance.now() - window.playedAt;
}"""


def play_moves(page: Page, moves: int) -> list[float]:
    times: list[float] = []
    page.evaluate(
        """() => document.addEventListener('click', (event) => {
          const play = event.target.closest('[data-testid=confirm-button]');
          if (play) window.playedAt = performance.now();
        }, true)"""
    )
    while len(times) < moves:
        page.wait_for_function(
            "() => { const k = window.koikoi; return k.state && !k.busy && k.state.your_turn; }"
        )
        state: dict[str, Any] = page.evaluate("() => window.koikoi.state")
        if state["phase"] != "play":
            # A choice or a decision: take the first option, untimed.
            sheet = page.locator("[data-testid=choice-card], [data-testid=stop-button]").first
            sheet.click()
            if state["phase"] != "decision":
                page.get_by_test_id("confirm-button").click()
            page.evaluate("() => { window.playedAt = undefined; }")
            page.wait_for_function("(v) => window.koikoi.state.version > v", arg=state["version"])
            continue
        slug = next(action["play"] for action in state["legal"] if "play" in action)
        page.locator(f'[data-testid=hand-card][data-slug="{slug}"]').click()
        page.evaluate("() => { window.playedAt = undefined; }")
        page.get_by_test_id("confirm-button").click()
        page.wait_for_function("(v) => window.koikoi.state.version > v", arg=state["version"])
        settled = page.wait_for_function(SETTLED, polling="raf").json_value()
        if settled == "summary":
            if page.get_by_test_id("match-summary").count():
                page.get_by_test_id("rematch-button").click()
            else:
                page.get_by_test_id("round-continue").click()
            continue
        times.append(float(settled))
    return times


def measure(moves: int) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            Settings(database_url=f"sqlite:///{Path(folder) / 'bench.sqlite3'}"),
            rng=random.Random(3),
        )
        with serving(app) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            for name, pace in PACES.items():
                context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 800})
                context.add_init_script(
                    f"localStorage.setItem('koikoi.settings', JSON.stringify({{pace: {pace}}}))"
                )
                page = context.new_page()
                page.set_default_timeout(60_000)
                page.goto("/")
                page.get_by_test_id("difficulty-easy").click()
                page.get_by_test_id("start-button").click()
                times = play_moves(page, moves)
                ordered = sorted(times)
                results[name] = {
                    "pace": pace,
                    "median_ms": round(statistics.median(ordered)),
                    "p90_ms": round(ordered[int(0.9 * (len(ordered) - 1))]),
                    "moves": len(ordered),
                }
                context.close()
            browser.close()
    return {"click_to_next_turn": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=8, help="timed moves per pace")
    print(json.dumps(measure(parser.parse_args().moves)))


if __name__ == "__main__":
    main()
