"""The table on every screen: at each window size, in English and in Arabic, the hand,
the field, both piles, the scores and each sheet with all its buttons are on screen,
reachable (the element a tap at a control's centre lands on is that control), and
nothing needs scrolling.

The game is driven to the moments under test over HTTP (in the page's own session, so
the browser may resume it): a hand card that matches two field cards gives a two-card
choice, and playing on gives a stop-or-koi-koi decision. The page then reloads and
resumes that match, and the same page is resized through the whole matrix.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from koikoi.cards import CARDS

MONTH = {card.slug: card.month for card in CARDS}
CHOICE = ("hand-choice", "draw-choice")

# Phones upright and on their side, tablets, laptops and desktops; the smallest and
# the largest windows the layout is designed for at either end.
SIZES = [
    (320, 480),
    (360, 640),
    (390, 844),
    (412, 915),
    (640, 360),
    (740, 360),
    (768, 1024),
    (1024, 640),
    (1024, 768),
    (1280, 720),
    (1280, 800),
    (1366, 657),
    (1366, 768),
    (1440, 900),
    (1536, 730),
    (1920, 1080),
    (2560, 1440),
]

# Measures the table as it is on screen: for each control (by CSS selector) whether
# it lies wholly inside the window and is what a tap at its centre reaches; whether
# anything scrolls; and which visible captions something else covers.
MEASURE = """(selectors) => {
  const root = document.documentElement;
  const width = root.clientWidth, height = root.clientHeight;
  const problems = [];
  const name = (e) => e.dataset.testid || e.dataset.slug || e.className;
  const reachable = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return `${name(e)} has no size`;
    if (r.left < -0.5 || r.top < -0.5 || r.right > width + 0.5 || r.bottom > height + 0.5) {
      return `${name(e)} is outside: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !e.contains(hit)) return `${name(e)} is covered by ${hit && name(hit)}`;
    return null;
  };
  for (const selector of selectors) {
    // Of alternatives (a log button, or the log itself), those the layout shows.
    const found = [...document.querySelectorAll(selector)].filter((e) => e.offsetParent);
    if (!found.length) problems.push(`nothing shown matches ${selector}`);
    for (const e of found) {
      const problem = reachable(e);
      if (problem) problems.push(problem);
    }
  }
  if (root.scrollWidth > width) problems.push(`the page scrolls sideways: ${root.scrollWidth}`);
  if (root.scrollHeight > height) problems.push(`the page scrolls: ${root.scrollHeight}`);
  // A box that clips or scrolls must hold all it has (the log's list may scroll: it is long).
  for (const e of document.querySelectorAll('#screen, .board, .field, .sheet, .hand')) {
    if (!e.offsetParent && e.id !== 'screen') continue;
    const style = getComputedStyle(e);
    if (style.overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1) {
      problems.push(`${name(e)} needs scrolling: ${e.scrollHeight} > ${e.clientHeight}`);
    }
    if (style.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1) {
      problems.push(`${name(e)} scrolls sideways`);
    }
  }
  const captions = '.staged-caption, .choice-caption, .pile-head, .progress-item, .who';
  for (const e of document.querySelectorAll(captions)) {
    if (!e.offsetParent) continue;
    const problem = reachable(e);
    if (problem) problems.push(`caption ${e.textContent}: ${problem}`);
  }
  return problems;
}"""

# What must be on screen at each moment (besides the captions, always checked).
ALWAYS = [
    "[data-testid=score-you]",
    "[data-testid=score-cpu]",
    "[data-testid=menu-button]",
    "[data-testid=pace-button]",
    "[data-testid=log-button], [data-testid=log]",
]
PLAY = [
    *ALWAYS,
    "[data-testid=hand-card]",
    "[data-testid=field-card]",
    "[data-testid^=pile-you-]",
    "[data-testid^=pile-cpu-]",
    "#stock",
]
SHEET = {
    "choice": [
        "[data-testid=choice-card]",
        "[data-testid=pending-card]",
        "[data-testid=confirm-button]",
    ],
    "decision": ["[data-testid=stop-button]", "[data-testid=koikoi-button]"],
}


# -- reaching the moments over HTTP ---------------------------------------------------------


class Driver:
    """Plays the page's own match over HTTP: toward a two-card choice, or a decision."""

    def __init__(self, page: Page) -> None:
        self.page = page
        session = page.request.get("/api/session")
        assert session.ok
        self.headers = {"X-CSRF-Token": session.json()["csrf"]}

    def new_game(self) -> dict[str, Any]:
        response = self.page.request.post(
            "/api/games",
            data={"difficulty": "easy", "rules": {"preset": "classic"}},
            headers=self.headers,
        )
        assert response.status == 201, response.text()
        return cast(dict[str, Any], response.json()["state"])

    def act(self, state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        response = self.page.request.post(
            f"/api/games/{state['id']}/actions",
            data={"action": action, "version": state["version"]},
            headers=self.headers,
        )
        assert response.ok, response.text()
        return cast(dict[str, Any], response.json()["state"])

    def seek(self, state: dict[str, Any], wanted: tuple[str, ...]) -> dict[str, Any]:
        """Play on until the player is to move in one of the `wanted` phases; a new
        match whenever one ends first."""
        for _ in range(2000):
            if state["over"]:
                state = self.new_game()
                continue
            if state["phase"] in wanted:
                return state
            legal = state["legal"]
            action = {"stop": True} if {"stop": True} in legal else legal[0]
            if state["phase"] == "play" and wanted == CHOICE:
                # A card that matches two on the field: the player then chooses one.
                pairs = [
                    a
                    for a in legal
                    if sum(MONTH[f] == MONTH[a["play"]] for f in state["field"]) == 2
                ]
                action = pairs[0] if pairs else action
            state = self.act(state, action)
        raise AssertionError(f"no {wanted} in 2000 moves")


def resume(page: Page, game_id: str, phase: tuple[str, ...]) -> None:
    """Reload the page on the match and wait until it asks for a move in `phase`."""
    page.evaluate("(id) => localStorage.setItem('koikoi.game', id)", game_id)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.get_by_test_id("resume-button").click()
    page.wait_for_function(
        """(phases) => {
          const k = window.koikoi;
          return k.state && !k.busy && phases.includes(k.state.phase);
        }""",
        arg=list(phase),
    )


@pytest.fixture
def layout_page(chromium: Browser, live_server: str) -> Iterator[Page]:
    context: BrowserContext = chromium.new_context(
        base_url=live_server, locale="en-US", viewport={"width": 1280, "height": 720}
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto("/?pace=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    yield page
    context.close()


def check_sizes(
    page: Page, screenshots: Path, lang: str, moment: str, wanted: list[str]
) -> list[str]:
    """Resize through the matrix, measuring and photographing each size; the problems."""
    failures: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        # Two frames: the layout has settled and the field has been fitted to it.
        page.evaluate(
            "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        problems = cast(list[str], page.evaluate(MEASURE, wanted))
        failures += [f"{moment} {width}x{height}: {problem}" for problem in problems]
        page.screenshot(path=str(screenshots / f"layout-{lang}-{moment}-{width}x{height}.png"))
    return failures


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_table_fits_every_window(layout_page: Page, screenshots: Path, lang: str) -> None:
    page = layout_page
    page.get_by_test_id("language-select").select_option(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # No film grain: it costs a second or more per screenshot and changes no layout.
    page.evaluate(
        "(lang) => localStorage.setItem('koikoi.settings', JSON.stringify({lang, grain: 0}))", lang
    )
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("play",))
    resume(page, state["id"], ("play",))
    expect(page.locator("html")).to_have_attribute("lang", lang)
    failures = check_sizes(page, screenshots, lang, "play", PLAY)

    state = driver.seek(state, CHOICE)
    resume(page, state["id"], CHOICE)
    failures += check_sizes(page, screenshots, lang, "choice", [*ALWAYS, *SHEET["choice"]])

    state = driver.seek(state, ("decision",))
    resume(page, state["id"], ("decision",))
    failures += check_sizes(page, screenshots, lang, "decision", [*ALWAYS, *SHEET["decision"]])
    assert not failures, "\n".join(failures)


# -- the table's other parts ------------------------------------------------------------


def test_choosing_changes_only_the_marks(chromium: Browser, live_server: str) -> None:
    """Selecting an option keeps the sheet (the same element) and plays no entrance again."""
    context = chromium.new_context(base_url=live_server, viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto("/")  # the normal pace: the sheet's entrance is a real animation
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        driver = Driver(page)
        state = driver.seek(driver.new_game(), CHOICE)
        resume(page, state["id"], CHOICE)
        sheet = page.get_by_test_id("choice-sheet")
        expect(sheet).to_be_visible()
        sheet.evaluate("(e) => { window.sheetSeen = e; }")
        page.wait_for_function("() => window.sheetSeen.getAnimations({subtree: true}).length === 0")
        option = sheet.get_by_test_id("choice-card").first
        option.click()
        expect(option).to_have_attribute("aria-pressed", "true")
        expect(sheet.get_by_test_id("confirm-button")).to_be_enabled()
        same = page.evaluate(
            """() => {
              const now = document.querySelector('[data-testid=choice-sheet]');
              return {same: now === window.sheetSeen, moving: now.getAnimations().length};
            }"""
        )
        assert same == {"same": True, "moving": 0}
    finally:
        context.close()


def test_the_pace_is_one_tap_away_and_remembered(layout_page: Page) -> None:
    page = layout_page
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("play",))
    resume(page, state["id"], ("play",))
    button = page.get_by_test_id("pace-button")
    expect(button).to_have_attribute("data-pace", "0")  # ?pace=0 in the address
    expect(button).to_have_accessible_name("Animation speed: Instant")
    # Each tap is a step towards faster, from instant round to slow: normal goes to fast
    # first (it went to slow, the wrong way for someone who finds the table slow).
    for value, name in (("1.6", "Slow"), ("1", "Normal"), ("0.5", "Fast")):
        button.click()
        expect(button).to_have_attribute("data-pace", value)
        expect(button).to_have_accessible_name(f"Animation speed: {name}")
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('koikoi.settings')).pace")
    assert stored == 0.5
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.get_by_test_id("resume-button").click()
    expect(page.get_by_test_id("pace-button")).to_have_attribute("data-pace", "0.5")
    page.get_by_test_id("settings-button").click()
    expect(page.get_by_test_id("setting-pace").locator("legend")).to_have_text("Animation speed")
    page.get_by_test_id("settings-close").click()
    # Leaving the table says that the match waits to be resumed.
    page.get_by_test_id("menu-button").click()
    english = page.request.get("/api/i18n/en").json()["messages"]
    expect(page.get_by_test_id("menu-back")).to_have_text(english["ui.menu_resume_later"])


def test_small_windows_have_the_log_in_a_drawer(layout_page: Page) -> None:
    page = layout_page
    page.set_viewport_size({"width": 360, "height": 640})
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("play",))
    resume(page, state["id"], ("play",))
    # A card that meets two field cards would wait for a choice, and the deal is new
    # at every run: play one that completes the move at once.
    flower = [slug.split("-")[0] for slug in state["field"]]
    card = next(slug for slug in state["hand"] if flower.count(slug.split("-")[0]) != 2)
    page.locator(f'[data-testid="hand-card"][data-slug="{card}"]').click()
    page.get_by_test_id("confirm-button").click()
    page.wait_for_function("(v) => window.koikoi.state.version > v", arg=state["version"])
    expect(page.locator(".log")).to_be_hidden()
    page.get_by_test_id("log-button").click()
    drawer = page.get_by_test_id("log-dialog")
    expect(drawer).to_be_visible()
    # The newest first: the computer's answer, after the player's own move.
    entries = drawer.locator("[data-testid=log] li")
    expect(entries.last).to_contain_text("You")
    assert entries.count() >= 2
    page.keyboard.press("Escape")
    expect(drawer).to_have_count(0)


def test_messages_follow_the_language(layout_page: Page) -> None:
    """A toast and the table's status are keys: a new language writes them anew."""
    page = layout_page
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("play",))
    resume(page, state["id"], ("play",))
    page.evaluate(
        """async () => {
          const dom = await import('/static/dom.js');
          dom.toast('account.signed_in', {params: {name: 'Ana'}});
        }"""
    )
    toast = page.get_by_test_id("toast-text")
    expect(toast).to_have_text("Welcome back, Ana!")
    status = page.get_by_test_id("status")
    english = status.inner_text()
    page.get_by_test_id("language-select").select_option("ar")
    expect(toast).to_contain_text("Ana")
    expect(toast).not_to_have_text("Welcome back, Ana!")
    expect(status).not_to_have_text(english)
    arabic = page.request.get("/api/i18n/ar").json()["messages"]
    expect(toast).to_have_text(arabic["account.signed_in"].replace("{name}", "Ana"))


def test_progress_in_words_beside_each_pile(layout_page: Page) -> None:
    """The server's `progress`, in words in each language, with the right plural."""
    page = layout_page
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("play",))
    progress = [
        [
            {"yaku": "tan", "missing": 1, "kind": "ribbon", "cards": None, "points": 1},
            {
                "yaku": "tsukimi",
                "missing": 2,
                "kind": None,
                "cards": ["susuki-moon", "chrysanthemum-sake"],
                "points": 5,
            },
        ],
        [{"yaku": "sanko", "missing": 2, "kind": "bright", "cards": None, "points": 5}],
    ]

    def with_progress(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        body["state"]["progress"] = progress
        route.fulfill(response=response, json=body)

    page.route(f"**/api/games/{state['id']}", with_progress)
    resume(page, state["id"], ("play",))
    you, cpu = page.get_by_test_id("progress-you"), page.get_by_test_id("progress-cpu")
    english = page.request.get("/api/i18n/en").json()["messages"]
    expect(you.locator("li").first).to_have_text(f"1\u00a0more ribbon: {english['yaku.tan']}")
    expect(cpu.locator("li")).to_have_text([f"2\u00a0more brights: {english['yaku.sanko']}"])
    moon = english["card.susuki-moon"]
    expect(you.locator("li").nth(1)).to_have_attribute("title", re.compile(re.escape(moon)))
    page.get_by_test_id("language-select").select_option("pl")
    expect(cpu.locator("li")).to_have_text(re.compile(r"^jeszcze\s2\sświatła: "))


# Whether the card being played or drawn leaves its caption in view: nothing (its own card,
# the stock) overlaps the caption, and both lie inside the board and the window.
STAGED = """() => {
  const staged = document.querySelector('[data-testid=staged]');
  if (!staged) return null;
  const box = (e) => e.getBoundingClientRect();
  const caption = box(staged.querySelector('.staged-caption'));
  const overlaps = (r) => r.left < caption.right - 0.5 && caption.left < r.right - 0.5 &&
    r.top < caption.bottom - 0.5 && caption.top < r.bottom - 0.5;
  const board = box(document.querySelector('.board'));
  const within = (r) => r.left >= board.left - 0.5 && r.right <= board.right + 0.5 &&
    r.top >= board.top - 0.5 && r.bottom <= board.bottom + 0.5;
  const card = box(staged.querySelector('.staged-card'));
  return {
    seat: staged.className.includes('staged-seat-1') ? 'cpu' : 'you',
    text: staged.querySelector('.staged-caption').textContent,
    covered: overlaps(card) || overlaps(box(document.getElementById('stock'))),
    inside: within(caption) && within(card),
  };
}"""


@pytest.mark.parametrize(("lang", "width", "height"), [("ar", 360, 640), ("en", 1920, 1080)])
def test_a_played_card_leaves_its_caption_in_view(
    layout_page: Page, lang: str, width: int, height: int
) -> None:
    page = layout_page
    page.set_viewport_size({"width": width, "height": height})
    page.get_by_test_id("language-select").select_option(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("play",))
    resume(page, state["id"], ("play",))
    # Every pause of the game flow now waits for the test to let it go on.
    page.evaluate(
        """() => window.koikoi.setDelay(() => new Promise((go) => { window.goOn = go; }))"""
    )
    seen: set[str] = set()
    for _ in range(200):
        if "cpu" in seen:
            break
        # The flow paused (a card may be staged), or it waits for the player.
        found = page.wait_for_function(
            """() => {
              if (window.goOn) return 'paused';
              if (document.querySelector('[data-testid=round-summary]')) return 'summary';
              const k = window.koikoi;
              return k.state.your_turn && !k.busy ? k.state.phase : null;
            }"""
        ).json_value()
        if found == "paused":
            staged = page.evaluate(STAGED)
            if staged:
                seen.add(staged["seat"])
                assert not staged["covered"], staged
                assert staged["inside"], staged
            page.evaluate("() => { const go = window.goOn; window.goOn = null; go(); }")
        elif found == "summary":
            page.get_by_test_id("round-continue").click()
        elif found == "decision":
            page.get_by_test_id("stop-button").click()
        else:
            testid = "choice-card" if found in CHOICE else "hand-card"
            page.locator(f"[data-testid={testid}]:not([aria-disabled=true])").first.click()
            page.get_by_test_id("confirm-button").click()
    assert seen == {"you", "cpu"}


def test_a_replay_step_is_in_the_address_and_rounds_can_be_picked(layout_page: Page) -> None:
    page = layout_page
    page.set_viewport_size({"width": 1280, "height": 720})
    driver = Driver(page)
    state = driver.new_game()
    while state["round"] < 3:
        legal = state["legal"]
        state = driver.act(state, {"stop": True} if {"stop": True} in legal else legal[0])
    resigned = page.request.post(f"/api/games/{state['id']}/resign", headers=driver.headers)
    assert resigned.ok, resigned.text()
    steps = page.request.get(f"/api/games/{state['id']}/replay").json()["steps"]
    third = next(index for index, step in enumerate(steps) if step["round"] == 3)

    page.goto(f"/?pace=0#/replay/{state['id']}/5")
    counter = page.get_by_test_id("replay-step")
    expect(counter).to_have_text(f"Step 5 of {len(steps)}")
    page.get_by_test_id("replay-round-picker").select_option("3")
    expect(counter).to_have_text(f"Step {third + 1} of {len(steps)}")
    expect(page).to_have_url(re.compile(f"#/replay/{state['id']}/{third + 1}$"))
    page.reload()
    expect(counter).to_have_text(f"Step {third + 1} of {len(steps)}")
    expect(page.get_by_test_id("replay-round-picker")).to_have_value("3")
    # The controls sit below the board (which scrolls by itself), never over a hand,
    # on a laptop and on a phone.
    for width, height in ((1280, 720), (390, 844), (360, 640)):
        page.set_viewport_size({"width": width, "height": height})
        board = page.get_by_test_id("replay-board").bounding_box()
        dock = page.locator(".replay-dock").bounding_box()
        assert board is not None
        assert dock is not None
        assert board["y"] + board["height"] <= dock["y"] + 0.5, (width, height)
        assert dock["y"] + dock["height"] <= height + 0.5, (width, height)


def test_the_keys_are_shown_where_there_is_a_keyboard(
    chromium: Browser, live_server: str, layout_page: Page
) -> None:
    """The decision's buttons show their keys (S, K) to a mouse and keyboard, not to a
    touch screen, and the help says which keys do what."""
    page = layout_page
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("decision",))
    resume(page, state["id"], ("decision",))
    for button, key in (("stop-button", "S"), ("koikoi-button", "K")):
        hint = page.get_by_test_id(button).locator("kbd.key-hint")
        expect(hint).to_have_text(key)
        expect(hint).to_be_visible()
    # The help says which keys do what (read before the call: the round may end with
    # it, and the page then waits on the round's summary, modal).
    messages = cast(dict[str, str], page.request.get("/api/i18n/en").json()["messages"])
    page.get_by_test_id("help-button").click()
    page.get_by_test_id("help-tab-tips").click()
    expect(page.locator("#help-panel-tips")).to_contain_text(messages["help.tip.10"])
    page.keyboard.press("Escape")
    expect(page.locator("#help-panel-tips")).to_be_hidden()
    # And the key does what the button says: it sends the call. (What the page shows
    # next depends on the deal: the computer may end the round at once, and the page
    # then waits on the round's summary.)
    actions = f"/api/games/{state['id']}/actions"
    with page.expect_request(lambda sent: sent.url.endswith(actions)) as sent:
        page.keyboard.press("k")
    body = sent.value.post_data_json
    assert body is not None
    assert body["action"] == {"koikoi": True}

    phone = chromium.new_context(
        base_url=live_server,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    touch = phone.new_page()
    touch.goto("/?pace=0")
    expect(touch.locator("body")).to_have_attribute("data-ready", "true")
    # The same guest as the laptop's page, so its matches are this browser's too.
    session = next(c for c in page.context.cookies() if c["name"] == "koikoi_session")
    phone.add_cookies([{"name": session["name"], "value": session["value"], "url": live_server}])
    state = driver.seek(driver.new_game(), ("decision",))
    resume(touch, state["id"], ("decision",))
    expect(touch.get_by_test_id("stop-button").locator("kbd.key-hint")).to_be_hidden()
    phone.close()
