"""A practice match played on the device lands in the player's history (Chromium): saved
as soon as it ends when online, or at the next `online` event when it ended offline;
the summary says which, and a saved match is never sent again.

Like ``test_browser_device``: Playwright's auto-waiting, no sleeps; ``?pace=0``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, Page, Request, expect

from koikoi.server.i18n import DEFAULT_LOCALE
from test_browser import Clicker, state
from test_browser_accounts import messages, sign_up
from test_browser_device import CONTROLLED, visit

SAVES = "/api/games/practice"
# Whether the device has marked a practice match saved (with the server's game id).
SAVED_ON_DEVICE = """() => Object.values(
  JSON.parse(localStorage.getItem('koikoi.practice') || '{}')).some((entry) => entry.saved)"""


def saves(page: Page) -> list[str]:
    """Every save of a practice match the page sends, as it sends it."""
    seen: list[str] = []

    def on_request(request: Request) -> None:
        if request.url.endswith(SAVES):
            seen.append(request.method)

    page.on("request", on_request)
    return seen


def play_single_deal(page: Page) -> dict[str, Any]:
    """A single-deal practice match against easy, clicked to its end; its last state."""
    page.get_by_test_id("preset-select").select_option("single-deal")
    page.get_by_test_id("difficulty-easy").click()
    friendly = page.get_by_test_id("ranked-choice-friendly")
    if friendly.count():
        friendly.click()
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    clicker = Clicker(page)
    while clicker.play_round() != "match":
        pass
    final = state(page)
    assert final["id"].startswith("practice."), final["id"]
    assert final["over"] is True
    return final


def history_shows(page: Page, name: str, outcome: str) -> None:
    """The profile's history lists one match with ``outcome``, and its replay opens."""
    page.goto(f"/?pace=0#/player/{name}")
    items = page.get_by_test_id("history-item")
    expect(items).to_have_count(1)
    expect(items.first).to_have_attribute("data-outcome", outcome)
    items.first.get_by_test_id("replay-link").click()
    expect(page).to_have_url(re.compile(r"#/replay/pr-"))
    expect(page.get_by_test_id("replay-board")).to_be_visible()


def outcome_of(final: dict[str, Any]) -> str:
    return {0: "won", 1: "lost", None: "drawn"}[final["winner"]]


def test_a_finished_practice_match_is_saved_to_the_history(
    new_context: Callable[[str], BrowserContext], live_server: str
) -> None:
    text = messages(DEFAULT_LOCALE)
    context = new_context(live_server)
    name = f"Saver_1_{secrets.token_hex(2)}"  # a name of its own for each try
    sign_up(context.request, name)
    page = context.new_page()
    visit(page)
    sent = saves(page)
    final = play_single_deal(page)
    note = page.get_by_test_id("match-summary").get_by_test_id("practice-save")
    expect(note).to_have_attribute("data-state", "saved")
    expect(note).to_have_text(text["summary.practice_saved"])
    assert sent == ["POST"]
    profile = page.request.get(f"/api/players/{name}").json()
    [line] = profile["history"]
    assert line["outcome"] == outcome_of(final)
    assert line["ranked"] is False
    assert line["points"] == 0
    assert profile["points"] == 0
    history_shows(page, name, outcome_of(final))
    # A reload sends nothing again: the device marked it saved.
    page.goto("/?pace=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert sent == ["POST"]


def test_a_practice_match_finished_offline_is_saved_once_online(
    new_context: Callable[[str], BrowserContext], live_server: str
) -> None:
    text = messages(DEFAULT_LOCALE)
    context = new_context(live_server)
    name = f"Saver_2_{secrets.token_hex(2)}"  # a name of its own for each try
    sign_up(context.request, name)
    page = context.new_page()
    visit(page)
    page.wait_for_function(CONTROLLED, polling=100)
    context.set_offline(True)
    try:
        page.reload()  # an offline start: the page is a guest's, the session still there
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        final = play_single_deal(page)
        note = page.get_by_test_id("match-summary").get_by_test_id("practice-save")
        expect(note).to_have_attribute("data-state", "pending")
        expect(note).to_have_text(text["summary.practice_pending"])
    finally:
        context.set_offline(False)
    # The `online` event, or failing that the next load, sends it.
    page.wait_for_function(SAVED_ON_DEVICE, polling=200)
    history_shows(page, name, outcome_of(final))
