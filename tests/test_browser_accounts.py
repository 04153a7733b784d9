"""Accounts, the leaderboard, profiles and replays in the browser (Playwright, Chromium).

Every language gets the leaderboard and a profile at phone size: translated headings,
the right direction, nothing wider than the screen. One test signs up by clicking,
resigns a match from the table's menu and steps through its replay. In English and
Arabic: the choice of a ranked or a friendly match and the table saying which it is,
the board by rating with its pages and the player's own place, and a profile's rating
graph. The data comes through the API (a resignation is a quick ranked loss). Nothing
sleeps: Playwright's locators wait for what they expect.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast
from urllib.parse import quote

import pytest
from playwright.sync_api import (
    APIRequestContext,
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    expect,
)

from koikoi.server.i18n import DEFAULT_LOCALE, LOCALES, client_catalog
from koikoi.server.rating import RATED_SIGMA, START, START_SIGMA, rated

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
RIGHT_TO_LEFT = {"ar", "fa"}
PASSWORD = "correct horse battery"
PLAYER = "Hana_花子"  # a name outside ASCII, shown as text and carried in a URL
BOTH_WAYS = ["en", "ar"]  # left to right and right to left
CROWD = 50  # players on one board: a full page of it (the server's page size)

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


def losses_to_settle() -> int:
    """How many losses to the easy computer take a new rating to settled (on the board
    by rating), by the server's own rating model."""
    mu, sigma, count = START, START_SIGMA, 0
    while sigma > RATED_SIGMA:
        mu, sigma = rated(mu, sigma, "easy", 0.0)
        count += 1
    return count


SETTLED = losses_to_settle()


def sign_up(request: APIRequestContext, name: str) -> str:
    """Create an account through the API (the request's cookies sign it in); its CSRF token."""
    csrf = request.get("/api/session").json()["csrf"]
    signed_up = request.post(
        "/api/account",
        data={"name": name, "password": PASSWORD},
        headers={"x-csrf-token": csrf},
    )
    assert signed_up.status == 201, signed_up.text()
    return cast(str, signed_up.json()["csrf"])


def resign_ranked(request: APIRequestContext, csrf: str, rules: str, count: int) -> None:
    """Start and resign `count` ranked matches against the easy computer: ranked losses."""
    for _ in range(count):
        started = request.post(
            "/api/games",
            data={"difficulty": "easy", "rules": {"preset": rules}, "ranked": True},
            headers={"x-csrf-token": csrf},
        )
        assert started.status == 201, started.text()
        assert started.json()["state"]["ranked"] is True
        game = started.json()["state"]["id"]
        resigned = request.post(f"/api/games/{game}/resign", headers={"x-csrf-token": csrf})
        assert resigned.ok, resigned.text()
        assert resigned.json()["state"]["status"] == "resigned"


def formatted(page: Page, number: int, *, grouped: bool = True) -> str:
    """A number as the page writes it in its language (a rating: without grouping)."""
    return cast(
        str,
        page.evaluate(
            "([n, grouped]) => new Intl.NumberFormat(document.documentElement.lang,"
            " { useGrouping: grouped }).format(n)",
            [number, grouped],
        ),
    )


@pytest.fixture(scope="module")
def player(chromium: Browser, live_server: str) -> str:
    """An account made through the API, with enough resigned ranked classic matches for
    a settled rating (so the board by rating lists it)."""
    context = chromium.new_context(base_url=live_server)
    try:
        resign_ranked(context.request, sign_up(context.request, PLAYER), "classic", SETTLED)
    finally:
        context.close()
    return PLAYER


@pytest.fixture(scope="module")
def crowd(chromium: Browser, live_server: str) -> list[str]:
    """A full page of players on the traditional board, each with one resigned ranked
    match (a provisional rating, no points)."""
    names = [f"Crowd_{i:02}" for i in range(CROWD)]
    context = chromium.new_context(base_url=live_server)
    try:
        for name in names:
            context.clear_cookies()  # a new visitor for each account
            resign_ranked(context.request, sign_up(context.request, name), "traditional", 1)
    finally:
        context.close()
    return names


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
    headings = [
        "ui.leaderboard",
        "profile.ratings",
        "profile.by_level",
        "profile.yaku",
        "profile.history",
    ]
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
    expect(history).to_have_count(SETTLED)
    ids = [entry["id"] for entry in page.request.get(f"/api/players/{player}").json()["history"]]
    for item, game_id in zip(history.all(), ids, strict=True):
        expect(item).to_have_attribute("data-outcome", "resigned")
        expect(item).to_contain_text(text["outcome.resigned"])
        # Each match leads to its replay and to the coach's review of it.
        review = item.get_by_test_id("history-review-link")
        expect(review).to_have_attribute("href", f"#/review/{game_id}")
        expect(review).to_have_text(text["review.link"])
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
    name = f"Kenji.{secrets.token_hex(2)}"  # its own for each try: a rerun signs up again
    page = context.new_page()
    page.goto("/?pace=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.get_by_test_id("ranked-note")).to_contain_text(text["start.unranked"])
    expect(page.get_by_test_id("ranked-choice")).to_have_count(0)  # a guest has no choice

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
    # Before it starts, the start screen says what a win earns: nothing under single-deal.
    preset = page.get_by_test_id("preset-select")
    preset.select_option("single-deal")
    expect(page.get_by_test_id("ranked-note")).to_contain_text(
        fill(text["start.ranked_no_points"], rules=text["rule.preset.single-deal"])
    )
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
    # The rating it cost, before and after, as the server's state says.
    moved = page.evaluate("() => window.koikoi.state.rating")
    assert moved["after"] < moved["before"]
    change = summary.get_by_test_id("rating-change")
    for value in (moved["before"], moved["after"]):
        expect(change).to_contain_text(formatted(page, value, grouped=False))

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


# -- ranked or friendly, the board by rating, a profile's ratings ------------------------------


def open_start(context: BrowserContext, lang: str) -> Page:
    page = context.new_page()
    page.goto(f"/?pace=0&lang={lang}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang in RIGHT_TO_LEFT else "ltr")
    return page


@pytest.mark.parametrize("lang", BOTH_WAYS)
def test_a_signed_in_player_chooses_a_ranked_or_a_friendly_match(
    phone: tuple[BrowserContext, list[str]], lang: str, screenshots: Path
) -> None:
    context, problems = phone
    text = messages(lang)
    page = context.new_page()
    # The page's own cookies: signed in there. A name of its own each time, as a rerun
    # (see conftest) meets the accounts its first try made on the same server.
    sign_up(page.request, f"Chooser_{lang}_{secrets.token_hex(2)}")
    page.close()
    page = open_start(context, lang)
    ranked = page.get_by_test_id("ranked-choice-ranked")
    friendly = page.get_by_test_id("ranked-choice-friendly")
    note = page.get_by_test_id("ranked-note")
    expect(ranked).to_have_text(text["match_kind.ranked"])
    expect(ranked).to_be_checked()  # ranked unless the player says otherwise
    page.get_by_test_id("difficulty-easy").click()
    expect(note).to_contain_text(text["start.ranked"].split("{points}")[0])

    friendly.click()
    expect(friendly).to_be_checked()
    expect(note).to_have_text(text["start.friendly_chosen"])
    assert_fits(page)
    page.screenshot(
        path=str(screenshots / f"start-friendly-{lang}-phone.jpg"), type="jpeg", quality=85
    )
    page.reload()  # remembered like the other choices
    expect(page.get_by_test_id("ranked-choice-friendly")).to_be_checked()

    page.get_by_test_id("start-button").click()
    kind = page.get_by_test_id("match-kind")
    expect(kind).to_have_text(text["match_kind.friendly"])
    assert page.evaluate("() => window.koikoi.state.ranked") is False
    page.screenshot(
        path=str(screenshots / f"table-friendly-{lang}-phone.jpg"), type="jpeg", quality=85
    )

    page.get_by_test_id("menu-button").click()
    page.get_by_test_id("menu-back").click()
    page.get_by_test_id("ranked-choice-ranked").click()
    expect(note).to_contain_text(text["start.ranked"].split("{points}")[0])
    page.get_by_test_id("start-button").click()
    expect(kind).to_have_text(text["match_kind.ranked"])
    assert page.evaluate("() => window.koikoi.state.ranked") is True
    assert_fits(page)
    page.screenshot(
        path=str(screenshots / f"table-ranked-{lang}-phone.jpg"), type="jpeg", quality=85
    )

    # Rules that cannot be ranked leave nothing to choose, and the note says why.
    page.get_by_test_id("menu-button").click()
    page.get_by_test_id("menu-back").click()
    expect(page.get_by_test_id("ranked-choice")).to_be_visible()
    page.locator("[data-rule=rounds]").fill("3")
    expect(page.get_by_test_id("ranked-choice")).to_have_count(0)
    expect(note).to_have_text(text["start.friendly"])
    page.get_by_test_id("start-button").click()
    expect(kind).to_have_text(text["match_kind.friendly"])
    while page.wait_for_function(TURN).json_value() == "round-summary":
        page.get_by_test_id("round-continue").click()  # a round over at the deal
    page.get_by_test_id("menu-button").click()
    page.get_by_test_id("resign-button").click()
    page.get_by_test_id("resign-dialog").get_by_test_id("confirm-yes").click()
    summary = page.get_by_test_id("match-summary")
    expect(summary.get_by_test_id("unranked")).to_have_text(text["summary.friendly"])
    assert problems == []


@pytest.mark.parametrize("lang", BOTH_WAYS)
def test_the_board_by_rating_its_pages_and_your_own_place(
    phone: tuple[BrowserContext, list[str]],
    player: str,
    crowd: list[str],
    lang: str,
    screenshots: Path,
) -> None:
    context, problems = phone
    text = messages(lang)
    # After the whole crowd, level with it on everything but the name; a name of its own
    # for each try, so the rerun a slow machine grants a browser test can sign up again
    # (the first try's account stays on page 2 with it, after the crowd).
    you = f"Zz_{lang}_{secrets.token_hex(2)}"
    page = context.new_page()
    resign_ranked(page.request, sign_up(page.request, you), "traditional", 1)
    page.close()
    page = open_start(context, lang)

    # The default board: classic, by rating, only settled ratings.
    page.goto(f"/?pace=0&lang={lang}#/leaderboard")
    board = page.get_by_test_id("leaderboard-page")
    rules = board.get_by_test_id("leaderboard-rules")
    sort = board.get_by_test_id("leaderboard-sort")
    expect(rules).to_have_value("classic")
    expect(rules.locator("option")).to_have_text(
        [
            text[f"rule.preset.{name}"]
            for name in ["classic", "ten-card", "single-deal", "traditional"]
        ]
    )
    expect(sort).to_have_value("rating")
    expect(sort.locator("option")).to_have_text(
        [
            text[f"leaderboard.sort.{key}"]
            for key in ["rating", "points", "wins", "best", "win_rate"]
        ]
    )
    classic = page.request.get("/api/leaderboard").json()
    # Only the player's rating is settled; provisional ones stand by theirs, marked.
    assert [row["name"] for row in classic["rows"] if row["settled"]] == [player]
    (listed,) = [row for row in classic["rows"] if row["name"] == player]
    row = board.get_by_test_id("leaderboard-row").filter(
        has=page.get_by_test_id("player-link").get_by_text(player, exact=True)
    )
    expect(row.get_by_test_id("player-link")).to_have_text(player)
    expect(row.locator("td").nth(1)).to_have_text(formatted(page, listed["rating"], grouped=False))
    provisional = board.get_by_test_id("leaderboard-row").filter(
        has=page.locator(".provisional-mark")
    )
    expect(provisional).to_have_count(len(classic["rows"]) - 1)
    computer = classic["computer_ratings"]
    expect(board.get_by_test_id("leaderboard-ratings-note")).to_have_text(
        fill(
            text["leaderboard.ratings_note"],
            **{level: formatted(page, computer[level], grouped=False) for level in computer},
            mark=text["rating.provisional_mark"],
        )
    )
    expect(board.get_by_test_id("leaderboard-you")).to_have_count(0)  # not on this board

    # The traditional board by points: a full first page, and your place below it.
    rules.select_option("traditional")
    sort.select_option("points")
    expect(page).to_have_url(
        re.compile(r"#/leaderboard\?rules=traditional&sort=points&difficulty=all$")
    )
    first = page.request.get("/api/leaderboard?rules=traditional&sort=points").json()
    assert len(first["rows"]) == first["page_size"] == CROWD
    assert first["you"]["name"] == you
    assert first["you"]["rank"] > CROWD
    rows = board.get_by_test_id("leaderboard-row")
    expect(rows).to_have_count(CROWD)
    expect(rows.get_by_test_id("player-link")).to_have_text([r["name"] for r in first["rows"]])
    own = board.get_by_test_id("leaderboard-you")
    expect(own).to_have_class("is-you")
    expect(own.get_by_test_id("leaderboard-rank")).to_have_text(
        formatted(page, first["you"]["rank"])
    )
    expect(own.get_by_test_id("player-link")).to_have_text(you)
    expect(own.locator(".provisional-mark")).to_have_text(text["rating.provisional_mark"])
    expect(board.get_by_test_id("leaderboard-range")).to_have_text(
        fill(text["leaderboard.range"], first=formatted(page, 1), last=formatted(page, CROWD))
    )
    expect(board.get_by_test_id("leaderboard-prev")).to_have_count(0)
    assert_fits(page)
    own.scroll_into_view_if_needed()
    page.screenshot(
        path=str(screenshots / f"leaderboard-you-{lang}-phone.jpg"), type="jpeg", quality=85
    )

    # The next page holds your row itself, and leads back.
    board.get_by_test_id("leaderboard-next").click()
    expect(page).to_have_url(re.compile(r"&offset=50$"))
    expect(board.get_by_test_id("leaderboard-you")).to_have_count(0)
    mine = board.locator("tr.is-you")
    expect(mine.get_by_test_id("player-link")).to_have_text(you)
    expect(mine.get_by_test_id("leaderboard-rank")).to_have_text(
        formatted(page, first["you"]["rank"])
    )
    expect(board.get_by_test_id("leaderboard-next")).to_have_count(0)
    board.get_by_test_id("leaderboard-prev").click()
    expect(rows).to_have_count(CROWD)
    expect(board.get_by_test_id("leaderboard-you")).to_have_count(1)
    assert problems == []


@pytest.mark.parametrize("lang", BOTH_WAYS)
def test_a_profile_shows_each_rating_with_its_graph(
    phone: tuple[BrowserContext, list[str]],
    player: str,
    crowd: list[str],
    lang: str,
    screenshots: Path,
) -> None:
    context, problems = phone
    text = messages(lang)
    page = open_start(context, lang)
    page.goto(f"/?pace=0&lang={lang}#/player/{quote(player)}")
    profile = page.get_by_test_id("profile-page")
    rating = profile.get_by_test_id("rating")
    expect(rating).to_have_count(1)
    expect(rating).to_have_attribute("data-rules", "classic")
    ratings = page.request.get(f"/api/players/{quote(player)}").json()["ratings"]
    classic = ratings["classic"]
    history = [point["rating"] for point in classic["history"]]
    assert classic["settled"]
    assert len(history) == SETTLED
    assert history == sorted(history, reverse=True)  # every loss takes some away

    def shown(n: int) -> str:
        return formatted(page, n, grouped=False)

    expect(rating.get_by_test_id("rating-value")).to_have_text(shown(classic["rating"]))
    expect(rating.get_by_test_id("rating-provisional")).to_have_count(0)

    graph = rating.get_by_test_id("rating-graph")
    expect(graph).to_have_attribute(
        "aria-label",
        fill(
            text["profile.rating_graph"],
            first=shown(history[0]),
            last=shown(history[-1]),
            low=shown(min(history)),
            high=shown(max(history)),
        ),
    )
    points = [
        tuple(map(float, pair.split(",")))
        for pair in cast(str, graph.locator("polyline").get_attribute("points")).split()
    ]
    assert len(points) == len(history)
    # Time runs left to right in both directions; a falling rating falls down the graph.
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    assert [y for _, y in points] == sorted(y for _, y in points)
    box = graph.bounding_box()
    assert box is not None
    assert box["width"] > 200
    assert box["height"] > 40

    # The history says the rating before and after each ranked match, newest first.
    befores = [round(START), *history[:-1]]
    expect(profile.get_by_test_id("history-rating")).to_have_text(
        [
            fill(text["profile.rating_change"], before=shown(b), after=shown(r))
            for b, r in reversed(list(zip(befores, history, strict=True)))
        ]
    )
    assert_fits(page)
    rating.scroll_into_view_if_needed()
    page.screenshot(
        path=str(screenshots / f"profile-rating-{lang}-phone.jpg"), type="jpeg", quality=85
    )

    # One ranked match: a rating still provisional.
    page.goto(f"/?pace=0&lang={lang}#/player/{crowd[0]}")
    fresh = page.get_by_test_id("profile-page").get_by_test_id("rating")
    expect(fresh).to_have_attribute("data-rules", "traditional")
    expect(fresh.get_by_test_id("rating-provisional")).to_have_text(text["rating.provisional"])
    expect(fresh.get_by_test_id("rating-graph").locator("circle")).to_have_count(1)
    # Its one value stands on its label's line (the dot sat mid-height, the label on top).
    dot = fresh.get_by_test_id("rating-graph").locator("circle")
    label = fresh.get_by_test_id("rating-graph").locator("text.graph-scale")
    expect(label).to_have_count(1)
    assert float(dot.get_attribute("cy") or "nan") == float(label.get_attribute("y") or "nan")
    # One match is too few for a win rate, and the profile says how many it needs.
    note = page.get_by_test_id("profile-win-rate-note")
    pending = re.escape(text["stats.win_rate_pending"]).replace(re.escape("{matches}"), ".+")
    expect(note).to_have_text(re.compile(pending))
    assert problems == []
