"""Practice matches on the device, in Debian's Chromium: dealt, played and scored by the
browser's engine in a Web Worker (``web/engine/worker.js``), with no request to the
server per move; they survive a reload, and they play with the network off.

The worker answers with the server API's own JSON (``web/engine/localgame.js`` ports
``views.state_json``, the events of ``GameSession``, ``replay_json``): the first test
holds it to the Python views move by move under Node.js.

Like ``test_browser``: Playwright's auto-waiting and ``wait_for_function`` on
``window.koikoi``, no sleeps; ``?pace=0``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, Request, expect

from conftest import require
from koikoi.rules import RuleSet
from koikoi.server.games import GameSession
from koikoi.server.routes.site import WEB
from koikoi.server.views import replay_json, state_json
from test_browser import Clicker, moment, start_game, state, until_play, version_after

CONTROLLED = "() => navigator.serviceWorker.controller?.state === 'activated'"

LOCALGAME = Path(str(WEB)) / "engine" / "localgame.js"

# Plays practice matches under Node.js with a fixed seed, choosing actions by a simple
# rule, and prints every step: the action, the state and the events answered.
PLAY_JS = """
const { handle } = await import(process.argv[1]);
const out = [];
for (const [seed, difficulty, preset] of JSON.parse(process.argv[2])) {
  let answer = handle({ op: "create", id: "practice.test", difficulty, rules: { preset }, seed });
  let record = answer.record;
  const steps = [{ action: null, ...answer.body }];
  for (let i = 0; !answer.body.state.over; i++) {
    const s = answer.body.state;
    const action = s.legal[(i * 7) % s.legal.length];
    answer = handle({ op: "act", record, action, version: s.version });
    record = answer.record;
    steps.push({ action, ...answer.body });
  }
  out.push({ steps, replay: handle({ op: "replay", record }).body });
}
console.log(JSON.stringify(out));
"""

CASES = [
    (12345, "normal", "classic"),
    (987654321, "easy", "koikoi-japan"),
    (42, "normal", "traditional"),
    (7, "easy", "ten-card"),
    (2**47 + 5, "normal", "single-deal"),
]


def test_the_device_answers_as_the_server_does() -> None:
    """Same seed, same actions: the device's states, events (the computer's moves too)
    and replay are exactly the server's."""
    node = shutil.which("node")
    require(node is not None, "Node.js is not installed (no 'node' on PATH)")
    assert node is not None
    done = subprocess.run(
        [node, "--input-type=module", "-e", PLAY_JS, LOCALGAME.as_uri(), json.dumps(CASES)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    played = json.loads(done.stdout)
    for (seed, difficulty, preset), case in zip(CASES, played, strict=True):
        rules = RuleSet.from_mapping({"preset": preset})
        first, *moves = case["steps"]
        session, events = GameSession.start("practice.test", rules, difficulty, seed, ranked=False)
        assert events == first["events"]
        assert state_json(session) == first["state"]
        for step in moves:
            assert session.act(step["action"], session.version) == step["events"]
            assert state_json(session) == step["state"], (preset, session.version)
        assert session.status != "playing"
        assert replay_json(session, None) == case["replay"]


# -- in the browser --------------------------------------------------------------------


def visit(page: Page) -> None:
    page.goto("/?pace=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.get_by_test_id("start-button")).to_be_visible()


def game_requests(page: Page) -> list[str]:
    """Every request the page makes for a match on the server, as it makes it."""
    seen: list[str] = []

    def on_request(request: Request) -> None:
        if "/api/games" in request.url:
            seen.append(f"{request.method} {request.url}")

    page.on("request", on_request)
    return seen


def table(current: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "version", "phase", "hand", "field", "pending", "captured", "stock", "round")
    return {key: current[key] for key in keys}


def test_a_guest_practice_match_plays_on_the_device_and_survives_a_reload(
    new_context: Callable[[str], BrowserContext], live_server: str
) -> None:
    context = new_context(live_server)
    page = context.new_page()
    visit(page)
    sent = game_requests(page)
    start_game(page, "expert")
    current = until_play(page)
    assert current["id"].startswith("practice.")
    assert current["ranked"] is False
    assert current["difficulty"] == "expert"

    # One move, answered by the worker (the computer's reply too).
    clicker = Clicker(page)
    clicker.play(current)
    version_after(page, current["version"])
    found = moment(page)  # a choice between two field cards, or the next card to play
    assert found in ("play", "hand-choice", "draw-choice", "decision"), found
    before = table(state(page))

    # A reload mid-round: the match is still there, exactly as it was.
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    resume = page.get_by_test_id("resume-button")
    expect(resume).to_have_count(1)
    resume.click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    assert moment(page) == found
    assert table(state(page)) == before

    # The rest of the round, by clicking, against the expert.
    assert clicker.play_round() in ("round", "match")
    assert clicker.phases
    assert sent == [], sent


def test_a_practice_round_plays_offline(
    new_context: Callable[[str], BrowserContext], live_server: str
) -> None:
    """The acceptance test: one visit, the network off, a reload, and a whole practice
    round against the expert by clicking."""
    context = new_context(live_server)
    page = context.new_page()
    visit(page)
    page.wait_for_function(CONTROLLED, polling=100)
    context.set_offline(True)
    try:
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        assert page.evaluate("() => navigator.onLine") is False
        sent = game_requests(page)
        start_game(page, "expert")
        clicker = Clicker(page)
        assert clicker.play_round() in ("round", "match")
        assert clicker.phases
        assert state(page)["id"].startswith("practice.")
        assert sent == [], sent
    finally:
        context.set_offline(False)


def test_a_resigned_practice_match_has_its_replay_on_the_device(
    new_context: Callable[[str], BrowserContext], live_server: str
) -> None:
    """The summary's replay link opens the match step by step, from the device."""
    context = new_context(live_server)
    page = context.new_page()
    visit(page)
    sent = game_requests(page)
    start_game(page, "normal")
    until_play(page)
    game = state(page)["id"]
    page.get_by_test_id("menu-button").click()
    page.get_by_test_id("resign-button").click()
    page.get_by_test_id("resign-dialog").get_by_test_id("confirm-yes").click()
    summary = page.get_by_test_id("match-summary")
    expect(summary).to_be_visible()
    assert state(page)["status"] == "resigned"
    summary.get_by_test_id("replay-link").click()
    expect(page).to_have_url(re.compile(re.escape(f"#/replay/{game}") + "$"))
    expect(page.get_by_test_id("replay-board")).to_be_visible()
    # The first step is the deal: the eight field cards, face up.
    expect(page.get_by_test_id("replay-field").locator("[data-slug]")).to_have_count(8)
    assert sent == [], sent
