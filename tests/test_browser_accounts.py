"""Accounts, the leaderboard, profiles and replays in the browser (Playwright, Chromium).

Every language gets the leaderboard and a profile at phone size: translated headings,
the right direction, nothing wider than the screen. One test signs up by clicking,
resigns a match from the table's menu and steps through its replay. Nothing sleeps:
Playwright's locators wait for what they expect.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from koikoi.server.i18n import DEFAULT_LOCALE, LOCALES, client_catalog

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
RIGHT_TO_LEFT = {"ar", "fa"}
PASSWORD = "correct horse battery"
PLAYER = "Hana_花子"  # a name outside ASCII, shown as text and carried in a URL

# Whether the player has a move to make, or a round summary to continue.
TURN = """() => {
  if (document.querySelector('[data-testid=round-summary]')) return 'round-summary';
  const k = window.koikoi;
  return k.state && !k.busy && k.state.your_turn ? 'turn' : null;
}"""


def messages(code: str) -> dict[str, str]:
    """A language's messages as the browser gets them (English fills any gap)."""
    return cast(dict[str, str], client_catalog(code)["messages"])


def fill(template: str, **values: object) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), template)


def assert_fits(page: Page) -> None:
    """Nothing scrolls sideways: not the page, the screen or a table's frame."""
    overflowing = page.evaluate(
        """() => [document.documentElement, document.getElementById('screen'),
                  ...document.querySelectorAll('.stats-scroll')]
          .filter((e) => e.scrollWidth > e.clientWidth)
          .map((e) => `${e.id || e.className || e.tagName}: ${e.scrollWidth} > ${e.clientWidth}`)"""
    )
    assert overflowing == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


@pytest.fixture(scope="module")
def player(chromium: Browser, live_server: str) -> str:
    """An account made through the API, with one finished (resigned) ranked match."""
    context = chromium.new_context(base_url=live_server)
    try:
        request = context.request
        csrf = request.get("/api/session").json()["csrf"]
        signed_up = request.post(
            "/api/account",
            data={"name": PLAYER, "password": PASSWORD},
            headers={"x-csrf-token": csrf},
        )
        assert signed_up.status == 201, signed_up.text()
        csrf = signed_up.json()["csrf"]
        started = request.post(
            "/api/games",
            data={"difficulty": "easy", "rules": {"preset": "classic"}},
            headers={"x-csrf-token": csrf},
        )
        assert started.status == 201, started.text()
        game = started.json()["state"]["id"]
        resigned = request.post(f"/api/games/{game}/resign", headers={"x-csrf-token": csrf})
        assert resigned.ok, resigned.text()
        assert resigned.json()["state"]["status"] == "resigned"
    finally:
        context.close()
    return PLAYER


@pytest.fixture
def phone(chromium: Browser, live_server: str) -> Iterator[tuple[BrowserContext, list[str]]]:
    """A phone-sized context, and the page errors and missing messages it reports."""
    context = chromium.new_context(base_url=live_server, locale="en-US", **PHONE)
    context.set_default_timeout(20_000)
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        # Errors, and the client's own warnings (a message key missing from the catalog).
        if message.type == "error" or message.text.startswith("koikoi:"):
            problems.append(message.text)

    context.on("console", on_console)
    context.on("weberror", lambda error: problems.append(str(error.error)))
    yield context, problems
    context.close()


# -- the leaderboard and a profile, in every language ---------------------------------------


@pytest.mark.parametrize("lang", LOCALES)
def test_leaderboard_and_profile_in_every_language(
    phone: tuple[BrowserContext, list[str]], player: str, lang: str, screenshots: Path
) -> None:
    context, problems = phone
    text, english = messages(lang), messages(DEFAULT_LOCALE)
    headings = ["ui.leaderboard", "profile.by_level", "profile.yaku", "profile.history"]
    if lang != DEFAULT_LOCALE:
        assert all(text[key] != english[key] for key in headings)

    page = context.new_page()
    page.goto(f"/?pace=0&lang={lang}#/leaderboard")
    html = page.locator("html")
    expect(html).to_have_attribute("lang", lang)
    expect(html).to_have_attribute("dir", "rtl" if lang in RIGHT_TO_LEFT else "ltr")
    board = page.get_by_test_id("leaderboard-page")
    expect(board.get_by_test_id("page-title")).to_have_text(text["ui.leaderboard"])
    expect(page.get_by_test_id("leaderboard-link")).to_have_attribute("aria-current", "page")
    link = board.get_by_test_id("player-link").filter(has_text=player)
    expect(link).to_have_count(1)
    assert_fits(page)
    page.screenshot(
        path=str(screenshots / f"leaderboard-{lang}-phone.jpg"), type="jpeg", quality=85
    )

    link.click()
    expect(page).to_have_url(re.compile(re.escape(f"#/player/{quote(player)}") + "$"))
    profile = page.get_by_test_id("profile-page")
    expect(profile.get_by_test_id("page-title")).to_have_text(player)
    expect(profile.get_by_test_id("section-title")).to_have_text([text[k] for k in headings[1:]])
    history = profile.get_by_test_id("history-item")
    expect(history).to_have_count(1)
    expect(history).to_have_attribute("data-outcome", "resigned")
    expect(history).to_contain_text(text["outcome.resigned"])
    expect(profile.get_by_test_id("account-panel")).to_have_count(0)  # not this browser's
    assert_fits(page)
    page.screenshot(path=str(screenshots / f"profile-{lang}-phone.jpg"), type="jpeg", quality=85)
    assert problems == []


# -- signing up, a resigned match and its replay ---------------------------------------------


def test_sign_up_resign_and_step_through_the_replay(
    phone: tuple[BrowserContext, list[str]], screenshots: Path
) -> None:
    context, problems = phone
    text = messages(DEFAULT_LOCALE)
    name = "Kenji.7"
    page = context.new_page()
    page.goto("/?pace=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.get_by_test_id("ranked-note")).to_contain_text(text["start.unranked"])

    page.get_by_test_id("sign-in-button").click()
    dialog = page.get_by_test_id("account-dialog")
    create = dialog.get_by_test_id("account-tab-sign-up")
    create.click()
    expect(create).to_have_attribute("aria-selected", "true")
    dialog.get_by_test_id("account-name").fill(name)
    dialog.get_by_test_id("account-password").fill(PASSWORD)
    dialog.get_by_test_id("form-submit").click()
    expect(dialog).to_have_count(0)
    expect(page.get_by_test_id("account-chip-name")).to_have_text(name)
    expect(page.get_by_test_id("account-chip")).to_have_attribute("href", f"#/player/{name}")
    page.get_by_test_id("difficulty-easy").click()
    expect(page.get_by_test_id("ranked-note")).to_contain_text("+10")
    # Only a preset as it stands is ranked, and the start screen says so before it starts.
    preset = page.get_by_test_id("preset-select")
    preset.select_option("single-deal")
    expect(page.get_by_test_id("ranked-note")).to_contain_text(text["start.friendly"])
    preset.select_option("classic")
    expect(page.get_by_test_id("ranked-note")).to_contain_text("+10")

    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    while page.wait_for_function(TURN).json_value() == "round-summary":
        page.get_by_test_id("round-continue").click()  # a round over at the deal
    game = cast(str, page.evaluate("() => window.koikoi.state.id"))
    page.get_by_test_id("menu-button").click()
    page.get_by_test_id("resign-button").click()
    page.get_by_test_id("resign-dialog").get_by_test_id("confirm-yes").click()
    summary = page.get_by_test_id("match-summary")
    expect(summary).to_contain_text(text["summary.match.resigned"])
    expect(summary.get_by_test_id("points-earned")).to_have_count(0)

    summary.get_by_test_id("replay-link").click()
    expect(page).to_have_url(re.compile(re.escape(f"#/replay/{game}") + "$"))
    replay = page.request.get(f"/api/games/{game}/replay").json()
    steps = replay["steps"]
    assert replay["player"] == name
    assert steps[-1]["event"] == {"type": "resign", "seat": 0}
    viewer = page.get_by_test_id("replay-page")
    counter = viewer.get_by_test_id("replay-step")
    event = viewer.get_by_test_id("replay-event")
    back, forward = viewer.get_by_test_id("replay-prev"), viewer.get_by_test_id("replay-next")

    def at(index: int) -> None:
        expect(counter).to_have_text(fill(text["replay.step"], step=index + 1, steps=len(steps)))
        step = steps[index]
        for seat, side in enumerate(["you", "cpu"]):  # both hands face up
            cards = viewer.get_by_test_id(f"replay-hand-{side}").locator("[data-slug]")
            expect(cards).to_have_count(len(step["hands"][seat]))
            assert {card.get_attribute("data-slug") for card in cards.all()} == set(
                step["hands"][seat]
            )
        expect(viewer.get_by_test_id("replay-field").locator("[data-slug]")).to_have_count(
            len(step["field"])
        )
        expect(viewer.get_by_test_id("stock-count")).to_have_text(str(step["stock"]))

    dealer = "you" if steps[0]["dealer"] == 0 else "cpu"
    at(0)
    expect(event).to_have_text(fill(text[f"log.deal.{dealer}"], round=1))
    expect(back).to_have_attribute("aria-disabled", "true")
    forward.click()
    at(1)
    page.screenshot(path=str(screenshots / "replay-en-phone.jpg"), type="jpeg", quality=85)
    expect(back).to_have_attribute("aria-disabled", "false")
    back.click()
    at(0)
    expect(event).to_have_text(fill(text[f"log.deal.{dealer}"], round=1))
    viewer.get_by_test_id("replay-last").click()
    at(len(steps) - 1)
    expect(event).to_have_text(text["log.resign.you"])
    expect(forward).to_have_attribute("aria-disabled", "true")
    viewer.get_by_test_id("replay-slider").fill("0")
    at(0)

    page.go_back()  # the match is over: back to the start screen
    expect(page.get_by_test_id("start-button")).to_be_visible()
    expect(page.get_by_test_id("resume-button")).to_have_count(0)
    assert problems == []
