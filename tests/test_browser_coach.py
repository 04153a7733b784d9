"""The coach in the browser: the hint at a practice match's table, the risk meter on the
stop-or-koi-koi sheet, and a finished match's review with its graph, in English and in
Arabic, on a phone and on a laptop.

A practice match the server plays (a guest's match started over HTTP, in the page's own
session) is driven to the moment under test over HTTP, then resumed in the page, as
the layout tests do. The coach's answers are seeded by the position, so the page and a
request made here for the same state get the same hint.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from test_browser_layout import ALWAYS, MEASURE, SHEET, Driver, resume

PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 640},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
SIZES = {"phone": PHONE, "laptop": LAPTOP}
CASES = [(lang, size) for lang in ("en", "ar") for size in SIZES]
CHOICE = ("hand-choice", "draw-choice")
# The script errors each page met (none is expected).
ERRORS: dict[Page, list[str]] = {}
PHONES = [(320, 480), (390, 844), (640, 360), (740, 360)]
PERCENT = re.compile(r"[0-9\u0660-\u0669\u06f0-\u06f9]+[\s\u200e\u200f]*[%\u066a]")


@pytest.fixture
def coach_page(chromium: Browser, live_server: str) -> Iterator[Callable[[str, str], Page]]:
    """A fresh page (own session) in a language at a size, on the start screen."""
    contexts: list[BrowserContext] = []

    def make(lang: str, size: str) -> Page:
        context = chromium.new_context(base_url=live_server, locale="en-US", **SIZES[size])
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        errors = ERRORS.setdefault(page, [])
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script(
            f"localStorage.setItem('koikoi.settings', JSON.stringify({{lang: '{lang}', grain: 0}}))"
        )
        page.goto("/?pace=0")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        return page

    yield make
    for context in contexts:
        context.close()


def messages(page: Page, lang: str) -> dict[str, str]:
    return cast(dict[str, str], page.request.get(f"/api/i18n/{lang}").json()["messages"])


def percent_in(page: Page, lang: str, share: float) -> str:
    """A share written as the page writes it (Intl.NumberFormat of its language)."""
    return cast(
        str,
        page.evaluate(
            "([lang, x]) => new Intl.NumberFormat(lang, {style: 'percent'}).format(x)",
            [lang, share],
        ),
    )


def hint_of(page: Page, game_id: str) -> dict[str, Any]:
    response = page.request.get(f"/api/games/{game_id}/hint")
    assert response.ok, response.text()
    return cast(dict[str, Any], response.json())


def fits(page: Page, wanted: list[str]) -> list[str]:
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return cast(list[str], page.evaluate(MEASURE, wanted))


# -- the hint ------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_a_hint_names_a_legal_card_and_why(
    coach_page: Callable[[str, str], Page], screenshots: Path, lang: str, size: str
) -> None:
    page = coach_page(lang, size)
    text = messages(page, lang)
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("play",))
    assert state["ranked"] is False
    resume(page, state["id"], ("play",))
    # Nothing asked yet: a hint costs the server, so the page asks only when told to.
    button = page.get_by_test_id("hint-button")
    expect(button).to_have_accessible_name(text["coach.hint_label"])
    assert fits(page, ["[data-testid=hint-button]", *ALWAYS]) == []
    with page.expect_response(re.compile(r"/api/games/[^/]+/hint$")) as answered:
        button.focus()
        page.keyboard.press("Enter")  # from the keyboard
    assert answered.value.ok
    answer = answered.value.json()
    panel = page.get_by_test_id("hint-panel")
    best = panel.get_by_test_id("hint-best")
    expect(best).to_be_visible()
    legal = [action["play"] for action in state["legal"] if "play" in action]
    chosen = answer["hint"]["best"]["play"]
    assert chosen in legal
    card = text[f"card.{chosen}"]
    expect(best).to_contain_text(card)
    # Every reason is worded (no key, no placeholder left), the runner-up with its cost.
    reasons = panel.get_by_test_id("hint-reasons").locator("li")
    assert reasons.count() == len([r for r in answer["hint"]["reasons"] if r["kind"]])
    for line in reasons.all_inner_texts():
        assert line
        assert "{" not in line
        assert "coach." not in line
    runner = panel.get_by_test_id("hint-runner-up")
    if answer["hint"]["runner_up"]:
        other = text[f"card.{answer['hint']['runner_up']['play']}"]
        expect(runner).to_contain_text(other)
        if answer["hint"]["loss"] < 0.01:
            expect(runner).to_contain_text(text["coach.runner_up_close"].split("{move}")[0].strip())
    if lang == "ar":
        expect(best).to_have_css("direction", "rtl")
    # The card is marked on the table too.
    expect(page.locator(f'[data-testid=hand-card][data-slug="{chosen}"].coach-pick')).to_have_count(
        1
    )
    page.screenshot(path=str(screenshots / f"coach-hint-{lang}-{size}.png"))
    # Escape closes it and gives the focus back; "Select" selects the card.
    page.keyboard.press("Escape")
    expect(panel).to_have_count(0)
    expect(page.get_by_test_id("hint-button")).to_be_focused()
    page.get_by_test_id("hint-button").click()
    page.get_by_test_id("hint-select").click()
    expect(page.locator(f'[data-testid=hand-card][data-slug="{chosen}"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    assert ERRORS[page] == []


def test_a_hint_at_a_two_card_choice_names_a_field_card(
    coach_page: Callable[[str, str], Page],
) -> None:
    page = coach_page("en", "phone")
    driver = Driver(page)
    state = driver.seek(driver.new_game(), CHOICE)
    resume(page, state["id"], CHOICE)
    page.get_by_test_id("hint-button").click()
    best = page.get_by_test_id("hint-best")
    expect(best).to_be_visible()
    action = hint_of(page, state["id"])["hint"]["best"]
    assert action["capture"] in state["choices"]
    expect(
        page.locator(f'[data-testid=choice-card][data-slug="{action["capture"]}"]')
    ).to_have_class(re.compile("coach-pick"))


def test_a_practice_match_on_the_device_has_hints_too(
    coach_page: Callable[[str, str], Page],
) -> None:
    """A guest's match from the start screen is played on the device, whose coach answers."""
    page = coach_page("en", "phone")
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    page.wait_for_function(
        "() => window.koikoi.state && !window.koikoi.busy && window.koikoi.state.your_turn"
    )
    state = page.evaluate("() => window.koikoi.state")
    assert state["id"].startswith("practice.")
    if state["phase"] != "play":
        pytest.skip(f"the deal began with a {state['phase']}")
    page.get_by_test_id("hint-button").click()
    best = page.get_by_test_id("hint-best")
    expect(best).to_be_visible()
    action = page.evaluate(
        "() => JSON.parse(document.querySelector('[data-testid=hint-best]').dataset.action)"
    )
    assert action["play"] in [a["play"] for a in state["legal"] if "play" in a]
    expect(page.locator(f'[data-testid=hand-card][data-slug="{action["play"]}"]')).to_have_class(
        re.compile("coach-pick")
    )
    assert ERRORS[page] == []


def test_a_ranked_match_has_no_hint(coach_page: Callable[[str, str], Page]) -> None:
    page = coach_page("en", "laptop")
    csrf = page.request.get("/api/session").json()["csrf"]
    signed = page.request.post(
        "/api/account",
        data={"name": "coach-ranked", "password": "a long enough password"},
        headers={"x-csrf-token": csrf},
    )
    assert signed.status == 201, signed.text()
    started = page.request.post(
        "/api/games",
        data={"difficulty": "easy", "rules": {"preset": "classic"}, "ranked": True},
        headers={"x-csrf-token": signed.json()["csrf"]},
    )
    assert started.status == 201, started.text()
    state = started.json()["state"]
    assert state["ranked"] is True
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    driver = Driver(page)
    state = driver.seek(state, ("play",))
    resume(page, state["id"], ("play",))
    expect(page.get_by_test_id("match-kind")).to_have_text(
        messages(page, "en")["match_kind.ranked"]
    )
    expect(page.get_by_test_id("hand-card").first).to_be_visible()
    expect(page.get_by_test_id("hint-button")).to_have_count(0)
    page.keyboard.press("h")
    expect(page.get_by_test_id("hint-panel")).to_have_count(0)
    assert page.request.get(f"/api/games/{state['id']}/hint").status == 403


# -- the risk meter --------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_the_risk_meter_shows_the_chances_as_percentages(
    coach_page: Callable[[str, str], Page], screenshots: Path, lang: str, size: str
) -> None:
    page = coach_page(lang, size)
    text = messages(page, lang)
    driver = Driver(page)
    state = driver.seek(driver.new_game(), ("decision",))
    with page.expect_response(re.compile(r"/api/games/[^/]+/hint$")) as answered:
        resume(page, state["id"], ("decision",))
    risk = answered.value.json()["risk"]
    pick = answered.value.json()["hint"]["best"]
    meter = page.get_by_test_id("decision-sheet").get_by_test_id("risk-meter")
    expect(meter).not_to_have_attribute("aria-busy", "true")
    for testid, key in (("risk-next-turn", "next_turn"), ("risk-before-end", "before_end")):
        value = meter.get_by_test_id(f"{testid}-value")
        expect(value).to_have_text(percent_in(page, lang, risk[key]))
        assert PERCENT.search(value.inner_text())
    # Stop against koi-koi on the two buttons, the coach's pick marked on its own.
    stop, call = page.get_by_test_id("stop-button"), page.get_by_test_id("koikoi-button")
    expect(stop.get_by_test_id("risk-stop")).to_contain_text(
        percent_in(page, lang, risk["stop_chance"])
    )
    expect(call.get_by_test_id("risk-call")).to_contain_text(
        percent_in(page, lang, risk["call_chance"])
    )
    chosen = "stop" if pick.get("stop") else "koikoi"
    (picked, other) = (stop, call) if chosen == "stop" else (call, stop)
    expect(picked.get_by_test_id("pick-badge")).to_have_text(text["risk.pick"])
    expect(other.get_by_test_id("pick-badge")).to_have_count(0)
    expect(meter.get_by_test_id("risk-pick")).to_have_attribute("data-pick", chosen)
    # The sheet's buttons and the scores stay on screen and reachable: at this size and,
    # on a phone, the others phones have, upright and on their side.
    wanted = [*ALWAYS, *SHEET["decision"], "[data-testid=risk-meter]"]
    problems = fits(page, wanted)
    page.screenshot(path=str(screenshots / f"coach-risk-{lang}-{size}.png"))
    if size == "phone":
        for width, height in PHONES:
            page.set_viewport_size({"width": width, "height": height})
            problems += [f"{width}x{height}: {problem}" for problem in fits(page, wanted)]
            page.screenshot(path=str(screenshots / f"coach-risk-{lang}-{width}x{height}.png"))
    assert problems == [], "\n".join(problems)
    assert ERRORS[page] == []


# -- the review -----------------------------------------------------------------------------


def finish(page: Page) -> dict[str, Any]:
    """A single-deal practice match on the server, played over HTTP to its last move of
    the player's; the page resumes it and plays on to the match summary."""
    driver = Driver(page)
    response = page.request.post(
        "/api/games",
        data={"difficulty": "easy", "rules": {"preset": "single-deal"}},
        headers=driver.headers,
    )
    assert response.status == 201, response.text()
    state = cast(dict[str, Any], response.json()["state"])
    while not (state["phase"] == "play" and state["your_turn"] and len(state["hand"]) <= 2):
        if state["over"]:
            return finish(page)
        legal = state["legal"]
        state = driver.act(state, {"stop": True} if {"stop": True} in legal else legal[0])
    resume(page, state["id"], ("play",))
    play_to_summary(page)
    return state


def play_to_summary(page: Page) -> None:
    """Play the page's match on, move by move as a person would, to its summary."""
    for _ in range(80):
        found = page.wait_for_function(
            """() => {
              if (document.querySelector('[data-testid=match-summary]')) return 'over';
              if (document.querySelector('[data-testid=round-summary]')) return 'round';
              const k = window.koikoi;
              if (!k.state || k.busy || !k.state.your_turn || k.state.over) return null;
              return k.state.phase;
            }"""
        ).json_value()
        if found == "over":
            return
        if found == "round":
            page.get_by_test_id("round-continue").click()
            continue
        now = page.evaluate("() => window.koikoi.state")
        if found == "decision":
            page.get_by_test_id("stop-button").click()
        elif found in CHOICE:
            page.get_by_test_id("choice-card").first.click()
            page.get_by_test_id("confirm-button").click()
        else:
            slug = next(a["play"] for a in now["legal"] if "play" in a)
            page.locator(f'[data-testid=hand-card][data-slug="{slug}"]').click()
            page.get_by_test_id("confirm-button").click()
        page.wait_for_function("(v) => window.koikoi.state.version > v", arg=now["version"])
    raise AssertionError("the match did not end")


def made_at(steps: list[dict[str, Any]], step: int, action: dict[str, Any]) -> bool:
    """Whether the replay's next step after `step` shows `action`, the player's."""
    event: dict[str, Any] = steps[step + 1]["event"]
    kind, card = str(event["type"]), event.get("card")
    if "play" in action:
        return kind == "play" and card == action["play"] and event["seat"] == 0
    if "capture" in action:
        return kind in ("play", "draw") and action["capture"] in list(event["captured"])
    return kind == ("koikoi" if action.get("koikoi") else "stop")


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_a_review_graphs_every_decision_and_links_to_the_replay(
    coach_page: Callable[[str, str], Page], screenshots: Path, lang: str, size: str
) -> None:
    page = coach_page(lang, size)
    text = messages(page, lang)
    state = finish(page)
    game_id = state["id"]
    summary = page.get_by_test_id("match-summary")
    link = summary.get_by_test_id("review-link")
    expect(link).to_have_text(text["review.link"])
    expect(link).to_have_attribute("href", f"#/review/{game_id}")
    link.click()
    expect(page.get_by_test_id("review-page")).to_be_visible()
    review = page.request.get(f"/api/games/{game_id}/review").json()
    steps = page.request.get(f"/api/games/{game_id}/replay").json()["steps"]
    decisions = review["decisions"]
    assert decisions
    graph = page.get_by_test_id("review-graph")
    expect(graph.get_by_test_id("review-point")).to_have_count(len(decisions))
    assert graph.get_attribute("dir") == "ltr"
    changes = sum(a["round"] != b["round"] for a, b in pairwise(decisions))
    expect(graph.get_by_test_id("review-round-mark")).to_have_count(changes)
    for mark in ("good", "inaccuracy", "mistake"):
        count = page.get_by_test_id(f"review-count-{mark}")
        expect(count).to_have_attribute("data-count", str(review["counts"].get(mark, 0)))
    costly = [d for d in decisions if d["mark"] != "good"]
    expect(page.get_by_test_id("review-costly-item")).to_have_count(len(costly))
    swings = page.get_by_test_id("review-swing")
    expect(swings).to_have_count(len(review["swings"]))
    if lang == "ar":
        expect(page.get_by_test_id("review-page")).to_have_css("direction", "rtl")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=str(screenshots / f"coach-review-{lang}-{size}.png"), full_page=True)
    for item in page.locator("[data-testid=review-swing], [data-testid=review-costly-item]").all():
        action = json.loads(item.get_attribute("data-action") or "{}")
        step = int(item.locator("a").last.get_attribute("data-step") or -1)
        assert made_at(steps, step, action), (step, action)
    # Each link goes to the step the decision was made at: the last with its actions.
    first = decisions[review["swings"][0]]
    # (a choice between two field cards follows its play before the table moves: the
    # step before it, then, the last with fewer actions).
    step = max(i for i, s in enumerate(steps) if s["actions"] <= first["index"])
    target = swings.first.get_by_test_id("review-swing-link")
    expect(target).to_have_attribute(
        "href", f"#/replay/{game_id}" + (f"/{step + 1}" if step else "")
    )
    target.click()
    expect(page.get_by_test_id("replay-page")).to_be_visible()
    expect(page.get_by_test_id("replay-slider")).to_have_value(str(step))
    # The replay offers the review again.
    page.get_by_test_id("review-link").click()
    expect(page.get_by_test_id("review-graph")).to_be_visible()
    assert ERRORS[page] == []


def test_a_practice_match_on_the_device_is_reviewed_there(
    coach_page: Callable[[str, str], Page], screenshots: Path
) -> None:
    """A guest's single-deal match played on the device, then its review: the device's
    coach, and links to the device's replay at the step each decision was made."""
    page = coach_page("ar", "phone")
    page.get_by_test_id("difficulty-easy").click()
    page.get_by_test_id("preset-select").select_option("single-deal")
    page.get_by_test_id("start-button").click()
    expect(page.get_by_test_id("hand")).to_be_visible()
    game_id = page.evaluate("() => window.koikoi.state.id")
    assert game_id.startswith("practice.")
    play_to_summary(page)
    page.get_by_test_id("match-summary").get_by_test_id("review-link").click()
    graph = page.get_by_test_id("review-graph")
    expect(graph).to_be_visible()
    counts = [
        int(page.get_by_test_id(f"review-count-{mark}").get_attribute("data-count") or 0)
        for mark in ("good", "inaccuracy", "mistake")
    ]
    expect(graph.get_by_test_id("review-point")).to_have_count(sum(counts))
    page.screenshot(path=str(screenshots / "coach-review-ar-phone-device.png"), full_page=True)
    steps = page.evaluate(
        "async (id) => (await import('/static/api.js')).api.replay(id).then((r) => r.steps)",
        game_id,
    )
    items = page.locator("[data-testid=review-swing], [data-testid=review-costly-item]")
    assert items.count() > 0
    for item in items.all():
        action = json.loads(item.get_attribute("data-action") or "{}")
        link = item.locator("a").last
        step = int(link.get_attribute("data-step") or -1)
        assert made_at(steps, step, action), (step, action, steps[step + 1]["event"])
    link = items.first.locator("a").last
    step = int(link.get_attribute("data-step") or 0)
    link.click()
    expect(page.get_by_test_id("replay-slider")).to_have_value(str(step))
    assert ERRORS[page] == []


def test_a_review_of_an_unknown_match_says_so(coach_page: Callable[[str, str], Page]) -> None:
    page = coach_page("en", "laptop")
    page.goto("/?pace=0#/review/no-such-match")
    expect(page.get_by_test_id("page-status")).to_contain_text(
        messages(page, "en")["page.no_review"]
    )


# -- the review of a match between people ---------------------------------------------------


def finished_table(new_context: Callable[[str], BrowserContext], base_url: str) -> str:
    """A table between two guests (two profiles, over HTTP), a few moves played, then
    resigned by the one who joined; its id."""
    people: list[tuple[BrowserContext, dict[str, str]]] = []
    for _ in range(2):
        context = new_context(base_url)
        session = context.request.get("/api/session")
        assert session.ok, session.text()
        people.append((context, {"X-CSRF-Token": session.json()["csrf"]}))
    (host, host_headers), (friend, friend_headers) = people
    opened = host.request.post("/api/tables", data={}, headers=host_headers)
    assert opened.status == 201, opened.text()
    tid = str(opened.json()["state"]["id"])
    seated = friend.request.post(f"/api/tables/{tid}/seat", headers=friend_headers)
    assert seated.ok, seated.text()
    for _ in range(10):
        for context, headers in people:
            state = context.request.get(f"/api/tables/{tid}").json()["state"]
            if state["your_turn"] and not state["over"]:
                moved = context.request.post(
                    f"/api/tables/{tid}/actions",
                    data={"action": state["legal"][0], "version": state["version"]},
                    headers=headers,
                )
                assert moved.ok, moved.text()
                break
    resigned = friend.request.post(f"/api/tables/{tid}/resign", headers=friend_headers)
    assert resigned.ok, resigned.text()
    return tid


def test_a_match_between_people_is_reviewed_for_each_player(
    new_context: Callable[[str], BrowserContext],
    live_server: str,
    coach_page: Callable[[str, str], Page],
    screenshots: Path,
) -> None:
    tid = finished_table(new_context, live_server)
    page = new_context(live_server).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/?pace=0#/replay/table/{tid}")
    expect(page.get_by_test_id("replay-page")).to_be_visible()
    text = messages(page, "en")
    guest = text["ui.guest"]
    # One link per player; both are guests, so each says which seat it was.
    links = page.get_by_test_id("review-links").get_by_test_id("review-link")
    expect(links).to_have_count(2)
    link = page.locator("[data-testid=review-link][data-seat='1']")
    expect(link).to_have_attribute("href", f"#/review/table/{tid}/1")
    expect(link).to_have_text(text["review.table_link"].replace("{name}", guest))
    expect(page.get_by_test_id("review-links").locator("li").nth(1)).to_contain_text(
        text["review.seat_1"]
    )
    page.screenshot(path=str(screenshots / "coach-table-replay-en-laptop.png"))
    link.click()
    expect(page.get_by_test_id("review-page")).to_be_visible()
    title = page.get_by_test_id("page-title")
    expect(title).to_have_text(text["review.table_title"].replace("{name}", guest))
    expect(title).to_have_attribute("data-seat", "1")
    expect(page.get_by_test_id("review-seat-note")).to_have_text(text["review.seat_1"])
    # Someone else's play, in the third person.
    expect(page.get_by_role("heading", level=2).first).to_have_text(
        text["review.graph_title_of"].replace("{name}", guest)
    )
    review = page.request.get(f"/api/tables/{tid}/review?seat=1").json()
    assert review["seat"] == 1
    decisions = review["decisions"]
    assert decisions
    graph = page.get_by_test_id("review-graph")
    expect(graph.get_by_test_id("review-point")).to_have_count(len(decisions))
    changes = sum(a["round"] != b["round"] for a, b in pairwise(decisions))
    expect(graph.get_by_test_id("review-round-mark")).to_have_count(changes)
    for mark in ("good", "inaccuracy", "mistake"):
        count = page.get_by_test_id(f"review-count-{mark}")
        expect(count).to_have_attribute("data-count", str(review["counts"].get(mark, 0)))
    expect(page.get_by_test_id("review-swing")).to_have_count(len(review["swings"]))
    expect(page.get_by_test_id("review-replay-link")).to_have_attribute(
        "href", f"#/replay/table/{tid}"
    )
    expect(page.get_by_test_id("review-other-link")).to_have_attribute(
        "href", f"#/review/table/{tid}/0"
    )
    page.screenshot(path=str(screenshots / "coach-review-table-en-laptop.png"), full_page=True)
    # Each step link goes to the table's replay, at the step the decision was made.
    steps = page.request.get(f"/api/tables/{tid}/replay").json()["steps"]
    items = page.locator("[data-testid=review-swing], [data-testid=review-costly-item]")
    assert items.count() > 0
    for item in items.all():
        step_link = item.locator("a").last
        step = int(step_link.get_attribute("data-step") or -1)
        index = int(item.get_attribute("data-index") or -1)
        assert step == max(i for i, s in enumerate(steps) if s["actions"] <= index)
        expect(step_link).to_have_attribute(
            "href", f"#/replay/table/{tid}" + (f"/{step + 1}" if step else "")
        )
    target = items.first.locator("a").last
    step = int(target.get_attribute("data-step") or 0)
    target.click()
    expect(page.get_by_test_id("replay-page")).to_be_visible()
    expect(page.get_by_test_id("replay-slider")).to_have_value(str(step))
    page.wait_for_url(re.compile(rf"#/replay/table/{tid}(/{step + 1})?$"))
    assert errors == []

    # In Arabic, on a phone: right to left, the graph left to right, nothing off screen.
    phone = coach_page("ar", "phone")
    phone.goto(f"/?pace=0#/review/table/{tid}/1")
    arabic = messages(phone, "ar")
    expect(phone.get_by_test_id("page-title")).to_have_text(
        arabic["review.table_title"].replace("{name}", arabic["ui.guest"])
    )
    expect(phone.get_by_test_id("review-graph").get_by_test_id("review-point")).to_have_count(
        len(decisions)
    )
    expect(phone.get_by_test_id("review-page")).to_have_css("direction", "rtl")
    assert phone.get_by_test_id("review-graph").get_attribute("dir") == "ltr"
    assert phone.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    phone.screenshot(path=str(screenshots / "coach-review-table-ar-phone.png"), full_page=True)
    assert ERRORS[phone] == []


def test_a_table_review_address_is_checked(coach_page: Callable[[str, str], Page]) -> None:
    """A bad seat is no address (the game); an unknown table's review says so."""
    page = coach_page("en", "laptop")
    page.goto("/?pace=0#/review/table/no-such-table/0")
    expect(page.get_by_test_id("page-status")).to_contain_text(
        messages(page, "en")["page.no_table_review"]
    )
    page.goto("/?pace=0#/review/table/no-such-table/2")
    expect(page.get_by_test_id("start-button")).to_be_visible()
