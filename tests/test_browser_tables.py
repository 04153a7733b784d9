"""Tables between two people in the browser: two browser profiles (two people, each
with their own cookie) on one live server. One invites, the other sits down by the
link or the code, or both ask for a quick match; then they play by clicking, each
seeing the other's moves arrive over the table's WebSocket (or, with the WebSocket
blocked, by the page reading the table every few seconds).

As in test_browser.py nothing sleeps: every wait is on the page's own state
(``window.koikoi.state``, ``window.koikoi.busy``) or on Playwright's auto-waiting, and
the server's clock moves when the test says so.
"""

from __future__ import annotations

import itertools
import random
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from fastapi import FastAPI
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Request,
    Response,
    expect,
)

from koikoi import match as engine
from koikoi.rules import RuleSet
from servers import Clock, make_app, serving
from test_browser import ARABIC, PHONE, Clicker, assert_nothing_hidden_shown, state
from test_browser_accounts import sign_up

LAPTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 768}}
SIZES = {"phone": PHONE, "laptop": LAPTOP}

# A WebSocket that never opens: it closes at once, as a blocked one does.
NO_WEBSOCKET = """
window.WebSocket = class extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.readyState = 0;
    setTimeout(() => {
      this.readyState = 3;
      this.dispatchEvent(new CloseEvent("close", { code: 1006 }));
    }, 0);
  }
  send() { throw new Error("not open"); }
  close() {}
};
window.WebSocket.OPEN = 1;
"""

# The page has caught up with the table's version `v` and has nothing left to show:
# its animations are done, or a summary waits for the player.
SETTLED = """(v) => {
  const k = window.koikoi;
  if (!k || !k.state || k.state.version < v) return false;
  const summary = '[data-testid=round-summary], [data-testid=match-summary]';
  if (document.querySelector(summary)) return true;
  return !k.busy;
}"""


@dataclass
class People:
    """Fresh browser profiles on the live server, their console watched for errors."""

    chromium: Browser
    base_url: str
    contexts: list[BrowserContext] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    expected: list[str] = field(default_factory=list)
    """Addresses whose refusal a test means to see (a full table's 403)."""
    posted_moves: list[Page] = field(default_factory=list)
    """The page of each table move sent as an HTTP request (not on the WebSocket)."""

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(url in e for url in self.expected)]

    def open(
        self,
        size: str = "laptop",
        *,
        lang: str = "en",
        websocket: bool = True,
        path: str = "/",
        name: str | None = None,
    ) -> Page:
        """A new person's page at `path`; with `name`, signed in to a new account of that name."""
        context = self.chromium.new_context(base_url=self.base_url, locale="en-US", **SIZES[size])
        self.contexts.append(context)
        if name is not None:
            sign_up(context.request, name)
        if not websocket:
            context.add_init_script(NO_WEBSOCKET)
        page = context.new_page()
        page.set_default_timeout(20_000)
        self.watch(page)
        separator = "&" if "?" in path else "?"
        page.goto(f"{path}{separator}pace=0" if "#" not in path else path.replace("#", "?pace=0#"))
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        if lang != "en":
            page.get_by_test_id("language-select").select_option(lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
        return page

    def watch(self, page: Page) -> None:
        def on_console(message: ConsoleMessage) -> None:
            if message.type == "error" or message.text.startswith("koikoi:"):
                where = message.location.get("url", "")
                self.errors.append(f"{message.type}: {message.text} ({where})")

        def on_response(response: Response) -> None:
            if response.status >= 400:
                self.errors.append(f"{response.status} {response.url}")

        def on_request(request: Request) -> None:
            if request.method == "POST" and re.search(r"/api/tables/[^/]+/actions$", request.url):
                self.posted_moves.append(page)

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        page.on("response", on_response)
        page.on("request", on_request)


@pytest.fixture
def people(chromium: Browser, live_server: str) -> Iterator[People]:
    crowd = People(chromium, live_server)
    yield crowd
    for context in crowd.contexts:
        context.close()
    assert crowd.unexpected() == []


# -- helpers -------------------------------------------------------------------------------


def version(page: Page) -> int:
    return cast(int, page.evaluate("() => window.koikoi.state ? window.koikoi.state.version : -1"))


def settle(page: Page, at_least: int) -> None:
    page.wait_for_function(SETTLED, arg=at_least)


def table_id(page: Page) -> str:
    found = re.search(r"#/table/([A-Za-z0-9_-]+)", page.url)
    assert found, page.url
    return found.group(1)


def invite(page: Page, *, seconds: int | None = None) -> str:
    """From the start screen: open a table for a friend; its id, once the waiting screen shows."""
    if seconds is not None:
        page.get_by_test_id("move-seconds").select_option(str(seconds))
    page.get_by_test_id("invite-button").click()
    expect(page.get_by_test_id("lobby")).to_have_attribute("data-kind", "waiting")
    return table_id(page)


def at_table(page: Page) -> None:
    """The match has begun on this page: the table with its hand."""
    expect(page.get_by_test_id("hand")).to_be_visible()
    page.wait_for_function("() => window.koikoi.state && window.koikoi.state.status === 'playing'")


def opponent_moves(page: Page) -> list[str]:
    """The log's lines about the other seat's plays and draws (newest first)."""
    texts = page.locator("[data-testid=log] li").all_inner_texts()
    return [text for text in texts if re.match(r"^Guest (plays|draws) ", text)]


@dataclass
class Match:
    """Two pages at one table, played by two clickers until told to stop."""

    pages: list[Page]
    snap: Callable[[str, Page], None] = lambda name, page: None
    check: Callable[[Page], None] = assert_nothing_hidden_shown
    moves: list[int] = field(default_factory=lambda: [0, 0])
    rounds: int = 0

    def sync(self) -> int:
        """Wait until both pages show the newest version either knows; that version."""
        newest = max(version(page) for page in self.pages)
        for page in self.pages:
            settle(page, newest)
        return newest

    def step(self) -> str:
        """One action by whoever is to move (after continuing any round summary):
        'moved', 'round' (a round summary was continued) or 'over'."""
        newest = self.sync()
        continued = False
        for page in self.pages:
            summary = page.get_by_test_id("round-summary")
            if summary.count():
                self.snap("round-summary", page)
                page.get_by_test_id("round-continue").click()
                expect(summary).to_have_count(0)
                continued = True
        if continued:
            self.rounds += 1
            return "round"
        if all(page.get_by_test_id("match-summary").count() for page in self.pages):
            return "over"
        movers = [i for i, page in enumerate(self.pages) if state(page)["your_turn"]]
        assert len(movers) == 1, [state(page)["your_turn"] for page in self.pages]
        mover = movers[0]
        page = self.pages[mover]
        watcher = self.pages[1 - mover]
        current = state(page)
        self.check(page)
        clicker = Clicker(page)
        phase = current["phase"]
        if phase == "play":
            clicker.play(current)
        elif phase in ("hand-choice", "draw-choice"):
            self.snap("choice", page)
            clicker.choose(current)
        elif phase == "decision":
            clicker.decide(current)
        else:
            raise AssertionError(f"unexpected phase {phase!r}")
        self.moves[mover] += 1
        # The mover's answer, then the same version on the other page: its move arrived.
        page.wait_for_function("(v) => window.koikoi.state.version > v", arg=newest)
        watcher.wait_for_function("(v) => window.koikoi.state.version > v", arg=newest)
        return "moved"

    def play_moves(self, count: int) -> None:
        """Make `count` more actions (continuing round summaries), or fewer at the end."""
        target = sum(self.moves) + count
        while sum(self.moves) < target:
            if self.step() == "over":
                return

    def play_round(self, limit: int = 200) -> str:
        """Click until a round ends ('round') or the match does ('over')."""
        for _ in range(limit):
            outcome = self.step()
            if outcome != "moved":
                return outcome
        raise AssertionError("the round did not end")


# -- 1. invite by the link, in English at laptop size ------------------------------------


def test_invite_a_friend_by_the_link_and_play_a_round(people: People, screenshots: Path) -> None:
    host = people.open("laptop")
    expect(page_part := host.get_by_test_id("play-person")).to_be_visible()
    expect(page_part).to_contain_text("Play a person")
    host.get_by_test_id("preset-select").select_option("classic")
    tid = invite(host, seconds=60)
    link = host.get_by_test_id("table-link")
    expect(link).to_have_value(re.compile(rf"^http://127\.0\.0\.1:\d+/#/table/{tid}$"))
    code = host.get_by_test_id("table-code").inner_text()
    assert re.fullmatch(r"[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}", code)
    expect(host.get_by_test_id("table-clock")).to_have_text("60\u00a0seconds")
    host.screenshot(path=str(screenshots / "tables-en-laptop-waiting.jpg"), type="jpeg", quality=85)

    # The friend follows the link: the table's rules, and a seat.
    friend = people.open("laptop", path=f"/#/table/{tid}")
    expect(friend.get_by_test_id("lobby")).to_have_attribute("data-kind", "join")
    expect(friend.get_by_test_id("lobby-title")).to_have_text("Guest invites you to a match")
    expect(friend.get_by_test_id("table-rules")).to_have_text("Classic")
    friend.screenshot(path=str(screenshots / "tables-en-laptop-join.jpg"), type="jpeg", quality=85)
    friend.get_by_test_id("sit-button").click()
    at_table(friend)
    at_table(host)  # the host's waiting screen turned into the table by itself
    assert table_id(friend) == tid
    for page in (host, friend):
        expect(page.locator(".side-cpu .who")).to_have_text("Guest")
        assert state(page)["table"]["move_seconds"] == 60
    # The clock runs for whoever is to move, on both pages.
    mover, waiter = (host, friend) if state(host)["your_turn"] else (friend, host)
    expect(mover.get_by_test_id("clock-you")).to_have_text(re.compile(r"^\d:\d\d left$"))
    expect(waiter.get_by_test_id("clock-cpu")).to_have_text(re.compile(r"^\d:\d\d left$"))
    expect(waiter.get_by_test_id("status")).to_have_text("Guest\u2019s turn")

    # A third person with the link: the table is full.
    people.expected.append(f"/api/tables/{tid}")
    third = people.open("laptop", path=f"/#/table/{tid}")
    expect(third.get_by_test_id("lobby-full")).to_be_visible()

    saved: set[str] = set()

    def snap(name: str, page: Page) -> None:
        if name not in saved:
            saved.add(name)
            page.screenshot(
                path=str(screenshots / f"tables-en-laptop-{name}.jpg"), type="jpeg", quality=85
            )

    snap("table", waiter)
    game = Match([host, friend], snap=snap)
    for _ in range(4):  # the first moves, each one shown on the other page as it comes
        game.play_moves(1)
        game.sync()
        for page in (host, friend):
            shown = page.get_by_test_id("opponent-hand").get_attribute("data-count")
            assert shown == str(state(page)["opponent_hand"])
    for page in (host, friend):
        assert opponent_moves(page), "the other's plays and draws are in the log"
    assert game.play_round() in ("round", "over")
    assert game.moves[0]
    assert game.moves[1]
    assert not people.posted_moves  # every move went on the pages' WebSockets
    assert state(host)["round"] > 1 or state(host)["over"]
    assert state(host)["version"] == state(friend)["version"]
    assert {"table", "round-summary"} <= saved


# -- 2. join by the code, in Arabic on a phone -------------------------------------------


def test_join_with_a_code_in_arabic_on_a_phone(people: People, screenshots: Path) -> None:
    host = people.open("phone", lang="ar")
    expect(host.locator("html")).to_have_attribute("dir", "rtl")
    expect(host.get_by_test_id("invite-button")).to_have_text(ARABIC)
    host.get_by_test_id("invite-button").click()
    expect(host.get_by_test_id("lobby")).to_have_attribute("data-kind", "waiting")
    expect(host.get_by_test_id("lobby-title")).to_have_text(ARABIC)
    code = host.get_by_test_id("table-code").inner_text()
    host.screenshot(path=str(screenshots / "tables-ar-phone-waiting.jpg"), type="jpeg", quality=85)

    friend = people.open("phone", lang="ar")
    box = friend.get_by_test_id("code-input")
    join = friend.get_by_test_id("join-code-button")
    box.fill("abc")
    expect(join).to_be_disabled()  # not a code yet
    box.fill(code.lower())  # typed in small letters: taken as capitals
    expect(join).to_be_enabled()
    friend.screenshot(path=str(screenshots / "tables-ar-phone-start.jpg"), type="jpeg", quality=85)
    join.click()
    expect(friend.get_by_test_id("lobby")).to_have_attribute("data-kind", "join")
    expect(friend.get_by_test_id("sit-button")).to_have_text(ARABIC)
    friend.get_by_test_id("sit-button").click()
    at_table(friend)
    at_table(host)
    assert table_id(friend) == table_id(host)
    for page in (host, friend):
        expect(page.locator(".side-cpu .who")).to_have_text("ضيف")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
        direction = page.get_by_test_id("hand").evaluate("(e) => getComputedStyle(e).direction")
        assert direction == "rtl"
    game = Match([host, friend])
    game.play_moves(4)
    game.sync()
    for name, page in (("host", host), ("friend", friend)):
        expect(page.get_by_test_id("status")).to_have_text(ARABIC)
        page.screenshot(
            path=str(screenshots / f"tables-ar-phone-table-{name}.jpg"), type="jpeg", quality=85
        )
    assert game.moves[0]
    assert game.moves[1]


# -- 3. a quick match between two guests -------------------------------------------------


def deal_that_plays(app: FastAPI, preset: str) -> None:
    """Set the server's seed source so that the next table it deals under ``preset``
    is not over before anyone moves (a hand yaku at the deal ends a one-deal match).
    Every earlier test on the server drew from it: left alone, the deal would depend
    on which tests ran before."""
    rules = RuleSet.from_mapping({"preset": preset})
    seeds: random.Random = app.state.services.seeds
    for candidate in itertools.count():
        if not engine.Match(rules, random.Random(candidate).getrandbits(48)).is_over:
            seeds.seed(candidate)
            return


def test_quick_match_pairs_two_guests(people: People, live_app: FastAPI, screenshots: Path) -> None:
    deal_that_plays(live_app, "single-deal")
    one = people.open("laptop")
    # Leaving the queue is one tap, and the server lets the player go.
    one.get_by_test_id("quick-match-button").click()
    panel = one.get_by_test_id("queue-panel")
    expect(panel).to_be_visible()
    expect(one.get_by_test_id("queue-waited")).to_have_text(re.compile(r"^Waiting: 0:\d\d$"))
    one.get_by_test_id("leave-queue").click()
    expect(panel).to_have_count(0)
    one.wait_for_function(
        """async () => (await (await fetch('/api/queue')).json()).status === 'none'"""
    )

    one.get_by_test_id("queue-preset").select_option("single-deal")
    one.get_by_test_id("quick-match-button").click()
    expect(panel).to_be_visible()
    one.screenshot(path=str(screenshots / "tables-en-laptop-queue.jpg"), type="jpeg", quality=85)
    two = people.open("laptop")
    two.get_by_test_id("queue-preset").select_option("single-deal")
    two.get_by_test_id("quick-match-button").click()
    at_table(two)  # paired at once: the other was waiting
    at_table(one)  # paired on its next ask of the queue
    expect(panel).to_have_count(0)
    assert table_id(one) == table_id(two)
    assert state(one)["rules"]["preset"] == "single-deal"
    game = Match([one, two])
    game.play_moves(2)
    assert sum(game.moves) == 2


# -- 4. no WebSocket: a notice, and the table read every few seconds ---------------------


def test_without_a_websocket_the_table_polls(people: People, screenshots: Path) -> None:
    host = people.open("laptop", websocket=False)
    invite(host)
    expect(host.get_by_test_id("live-notice")).to_have_text(
        "Live connection unavailable: refreshing every few seconds."
    )
    friend = people.open("laptop", path=f"/#/table/{table_id(host)}")
    friend.get_by_test_id("sit-button").click()
    at_table(friend)
    at_table(host)  # seen by polling: the friend sat down
    expect(host.get_by_test_id("live-notice")).to_be_visible()
    expect(friend.get_by_test_id("live-notice")).to_have_count(0)  # its own socket works
    host.screenshot(path=str(screenshots / "tables-en-laptop-polling.jpg"), type="jpeg", quality=85)
    game = Match([host, friend])
    game.play_moves(4)  # both ways: the polling page moves, and sees the other's moves
    assert game.moves[0]
    assert game.moves[1]
    # The page without a socket posts its moves; the other sends them on its socket.
    assert host in people.posted_moves
    assert friend not in people.posted_moves


# -- 5. resign from the menu, then play again --------------------------------------------


def test_resign_then_play_again_opens_a_new_table(people: People) -> None:
    host = people.open("laptop")
    tid = invite(host)
    friend = people.open("laptop", path=f"/#/table/{tid}")
    friend.get_by_test_id("sit-button").click()
    at_table(friend)
    at_table(host)
    Match([host, friend]).sync()

    friend.get_by_test_id("menu-button").click()
    friend.get_by_test_id("resign-button").click()
    friend.get_by_test_id("resign-dialog").get_by_test_id("confirm-yes").click()
    for page, won in ((host, True), (friend, False)):
        summary = page.get_by_test_id("match-summary")
        expect(summary).to_be_visible()
        expect(summary).to_have_attribute("data-winner", "0" if won else "1")
        expect(page.get_by_test_id("match-ending")).to_have_attribute("data-ending", "resigned")
    expect(host.get_by_test_id("match-ending")).to_contain_text("Guest resigned.")
    expect(friend.get_by_test_id("match-ending")).to_contain_text("You resigned.")

    host.get_by_test_id("rematch-button").click()
    expect(host.get_by_test_id("rematch-status")).to_have_text("Waiting for Guest to accept…")
    expect(friend.get_by_test_id("rematch-status")).to_have_text("Guest wants a rematch.")
    accept = friend.get_by_test_id("rematch-button")
    expect(accept).to_have_text("Accept the rematch")
    accept.click()
    for page in (host, friend):
        page.wait_for_url(re.compile(r"#/table/"))
        page.wait_for_function("(t) => !location.hash.endsWith(t)", arg=tid)
        at_table(page)
        expect(page.get_by_test_id("match-summary")).to_have_count(0)
    assert table_id(host) == table_id(friend) != tid


# -- 6. the clock plays for a player who lets it run out ---------------------------------


@pytest.fixture
def clocked(chromium: Browser, tmp_path: Path) -> Iterator[tuple[People, FastAPI, Clock]]:
    """People on a server of their own whose clock the test moves."""
    clock = Clock()
    app = make_app(f"sqlite:///{tmp_path / 'koikoi.sqlite3'}", clock)
    with serving(app) as url:
        crowd = People(chromium, url)
        yield crowd, app, clock
        for context in crowd.contexts:
            context.close()
    assert crowd.unexpected() == []


def test_the_clock_plays_for_whoever_lets_it_run_out(
    clocked: tuple[People, FastAPI, Clock],
) -> None:
    """A 15-second table nobody moves at: once the server's clock passes the deadline,
    its sweep plays for the seat to move, and both pages say so: the one on the
    WebSocket from the timeout event, the one reading the table from the counts."""
    people, app, server_clock = clocked
    host = people.open("laptop", websocket=False)
    tid = invite(host, seconds=15)
    friend = people.open("laptop", path=f"/#/table/{tid}")
    friend.get_by_test_id("sit-button").click()
    at_table(friend)
    at_table(host)
    late, other = (host, friend) if state(host)["your_turn"] else (friend, host)
    clock = late.get_by_test_id("clock-you")
    expect(clock).to_have_text(re.compile(r"^0:1\d left$"))
    start = clock.inner_text()
    expect(clock).not_to_have_text(start)  # it counts down here, between the server's states
    expect(other.get_by_test_id("clock-cpu")).to_be_visible()
    server_clock.advance(seconds=16)
    assert app.state.services.tables.expire() == 1
    expect(late.get_by_test_id("log")).to_contain_text("Time ran out: the clock played for you.")
    expect(other.get_by_test_id("log")).to_contain_text("Time ran out: the clock played for Guest.")
    expect(late.get_by_test_id("timeouts-you")).to_have_text("Timeouts 1/3")
    expect(other.get_by_test_id("timeouts-cpu")).to_have_text("Timeouts 1/3")
    assert state(late)["table"]["timeouts"] == [1, 0]


# -- 7. friendly, and back to a table from the start screen -------------------------------


def leave_for_the_start_screen(page: Page) -> None:
    page.get_by_test_id("menu-button").click()
    page.get_by_test_id("menu-back").click()
    expect(page.get_by_test_id("start-button")).to_be_visible()


def test_a_friendly_table_waits_on_both_start_screens(people: People, screenshots: Path) -> None:
    """An unranked table between people says Friendly (Practice is the computer's);
    either player may leave it for the start screen, which lists it with whose turn it
    is, and take it up again where it stood."""
    host = people.open("laptop")
    tid = invite(host)
    expect(host.get_by_test_id("table-kind")).to_have_text("Friendly")
    # Back to the menu from the waiting screen: the open table is listed, and one tap away.
    host.get_by_test_id("lobby-back").click()
    expect(host.get_by_test_id("table-turn")).to_have_text("Waiting for someone to sit down…")
    host.get_by_test_id("table-resume").click()
    expect(host.get_by_test_id("lobby")).to_have_attribute("data-kind", "waiting")
    assert table_id(host) == tid

    friend = people.open("laptop", path=f"/#/table/{tid}")
    expect(friend.get_by_test_id("table-kind")).to_have_text("Friendly")
    friend.get_by_test_id("sit-button").click()
    at_table(friend)
    at_table(host)
    game = Match([host, friend])
    game.play_moves(2)
    newest = game.sync()
    for page in (host, friend):
        expect(page.get_by_test_id("match-kind")).to_have_text("Friendly")
    mover, waiter = (host, friend) if state(host)["your_turn"] else (friend, host)

    for page in (host, friend):
        leave_for_the_start_screen(page)
    for page, turn in ((mover, "Your turn"), (waiter, "Waiting for Guest")):
        listed = page.get_by_test_id("in-progress")
        expect(listed).to_contain_text(re.compile(r"Round \d+ of \d+: you \d+, Guest \d+"))
        expect(page.get_by_test_id("table-turn")).to_have_text(turn)
    mover.screenshot(
        path=str(screenshots / "tables-en-laptop-start-in-progress.jpg"), type="jpeg", quality=85
    )

    for page in (host, friend):
        page.get_by_test_id("table-resume").click()
        at_table(page)
        settle(page, newest)
        assert table_id(page) == tid
        assert state(page)["version"] == newest
    assert state(mover)["your_turn"]
    before = list(game.moves)
    game.play_moves(2)  # and the match goes on, each move seen on the other page
    assert sum(game.moves) == sum(before) + 2


# -- 8. the host closes a table nobody sat at ---------------------------------------------


def test_the_host_closes_the_table_and_its_link_says_so(people: People) -> None:
    host = people.open("laptop")
    tid = invite(host)
    host.get_by_test_id("close-table").click()
    expect(host.get_by_test_id("start-button")).to_be_visible()
    expect(host.get_by_test_id("in-progress")).to_have_count(0)
    answer = host.evaluate("async (id) => (await fetch(`/api/tables/${id}`)).json()", tid)
    assert answer["state"]["table"]["ending"] == "cancelled"

    # The friend follows the link afterwards (refused, as to anyone not seated: expected).
    people.expected.append(f"/api/tables/{tid}")
    friend = people.open("laptop", path=f"/#/table/{tid}")
    expect(friend.get_by_test_id("lobby-closed")).to_have_text("This table was closed.")
    expect(friend.get_by_test_id("sit-button")).to_have_count(0)
    friend.get_by_test_id("lobby-back").click()
    expect(friend.get_by_test_id("start-button")).to_be_visible()
    # So does the host, from the link.
    host.evaluate("(id) => { location.hash = `#/table/${id}`; }", tid)
    expect(host.get_by_test_id("lobby-closed")).to_have_text("This table was closed.")
    expect(host.get_by_test_id("hand")).to_have_count(0)


# -- 9. the replay of a finished match between two people ---------------------------------


def test_a_resigned_match_replays_with_both_names(people: People, screenshots: Path) -> None:
    suffix = secrets.token_hex(3)
    names = [f"ann-{suffix}", f"ben-{suffix}"]
    # Names inside a sentence are set apart (U+2068 … U+2069), to keep their own direction.
    first, second = (f"\u2068{name}\u2069" for name in names)
    host = people.open("laptop", name=names[0])
    # Friendly: a ranked match given up after so few moves would be aborted, not won.
    host.get_by_test_id("ranked-choice-friendly").click()
    tid = invite(host)
    friend = people.open("laptop", path=f"/#/table/{tid}", name=names[1])
    friend.get_by_test_id("sit-button").click()
    at_table(friend)
    at_table(host)
    game = Match([host, friend])
    game.play_moves(4)
    game.sync()
    friend.get_by_test_id("menu-button").click()
    friend.get_by_test_id("resign-button").click()
    friend.get_by_test_id("resign-dialog").get_by_test_id("confirm-yes").click()

    for page in (host, friend):
        expect(page.get_by_test_id("match-summary")).to_be_visible()
        link = page.get_by_test_id("replay-link")
        expect(link).to_have_text("Watch the replay")
        link.click()
        page.wait_for_url(re.compile(rf"#/replay/table/{tid}$"))
        expect(page.get_by_test_id("replay-page")).to_be_visible()
        expect(page.get_by_test_id("match-summary")).to_have_count(0)
        players = page.get_by_test_id("replay-player")
        expect(players).to_have_text(names)  # seat 0 opened the table
        expect(page.get_by_test_id("replay-outcome")).to_have_text(f"{first} wins the match")
        expect(page.get_by_test_id("replay-you")).to_contain_text(names[0])
        expect(page.get_by_test_id("replay-cpu")).to_contain_text(names[1])
        page.get_by_test_id("replay-last").click()
        expect(page.get_by_test_id("replay-event")).to_have_text(f"{second} resigns the match.")
    host.get_by_test_id("replay-first").click()
    host.get_by_test_id("replay-next").click()
    expect(host.get_by_test_id("replay-event")).to_contain_text(
        re.compile(rf"^({first}|{second}) (plays|draws) ")
    )
    host.screenshot(path=str(screenshots / "tables-en-laptop-replay.jpg"), type="jpeg", quality=85)
    # Back to the summary's table by the browser's back button.
    friend.go_back()
    expect(friend.get_by_test_id("match-summary")).to_be_visible()
