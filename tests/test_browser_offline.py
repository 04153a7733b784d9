"""The game offline, in Debian's Chromium: after one visit the service worker holds the
page, the client, the engine, the card art, every language and the help, and a new
release replaces what it holds at the next visit.

Like ``test_browser``: Playwright's auto-waiting and ``wait_for_function`` on what the
page can tell (``navigator.serviceWorker``, ``caches``), no sleeps; ``?pace=0``.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import cast

from fastapi import FastAPI
from playwright.sync_api import BrowserContext, Page, Request, expect
from starlette.types import Receive, Scope, Send

from koikoi.cards import CARDS
from koikoi.server.i18n import LOCALES, client_catalog
from koikoi.server.offline import CACHE_PREFIX, Offline
from koikoi.server.routes.site import WEB
from servers import make_app, serving

# Whether an active service worker (so one that has cached everything) controls the page.
CONTROLLED = "() => navigator.serviceWorker.controller?.state === 'activated'"

CACHE_NAMES = "async () => (await caches.keys()).filter((name) => name.startsWith('koikoi-'))"

# Every address given, fetched by the page: the ones that failed.
FETCH_ALL = """async (urls) => {
  const failed = [];
  for (const url of urls) {
    try {
      const response = await fetch(url);
      if (!response.ok) failed.push(`${response.status} ${url}`);
    } catch (error) {
      failed.push(`${error} ${url}`);
    }
  }
  return failed;
}"""

PRECACHE = Offline(Path(str(WEB))).precache


def messages(code: str) -> dict[str, str]:
    return cast(dict[str, str], client_catalog(code)["messages"])


def visit(page: Page) -> None:
    page.goto("/?pace=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.get_by_test_id("start-button")).to_be_visible()


def installed(page: Page) -> None:
    """Wait until the service worker has cached everything and controls the page."""
    page.wait_for_function(CONTROLLED, polling=100)


def test_the_game_starts_offline_in_every_language(
    new_context: Callable[[str], BrowserContext], live_server: str
) -> None:
    """One visit, then no network: the page reloads to the start screen, every
    language comes in (right to left where it should), the help opens with every
    card's picture, and every file the game needs (the engine's too) is there."""
    context = new_context(live_server)
    page = context.new_page()
    visit(page)
    installed(page)

    context.set_offline(True)
    failed: list[str] = []

    def on_failed(request: Request) -> None:
        failed.append(request.url.removeprefix(live_server))

    page.on("requestfailed", on_failed)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    start = page.get_by_test_id("start-button")
    expect(start).to_have_text(messages("en")["start.start"])
    assert page.evaluate("() => navigator.onLine") is False

    english = messages("en")
    html = page.locator("html")
    for code in LOCALES:
        page.get_by_test_id("language-select").select_option(code)
        expect(html).to_have_attribute("lang", code)
        expect(html).to_have_attribute("dir", "rtl" if code in ("ar", "fa") else "ltr")
        words = messages(code)
        expect(start).to_have_text(words["start.start"])
        expect(page.locator("#preset-desc")).to_have_text(words["rule.preset.classic.desc"])
        if code != "en":
            assert words["rule.preset.classic.desc"] != english["rule.preset.classic.desc"]
        page.get_by_test_id("help-button").click()
        help_dialog = page.get_by_test_id("help-dialog")
        expect(help_dialog).to_be_visible()
        expect(page.locator("#help-title")).to_have_text(words["help.title"])
        page.keyboard.press("Escape")
        expect(help_dialog).to_have_count(0)

    # The help's card list pictures all 48 cards, each picture loaded from the cache.
    page.get_by_test_id("language-select").select_option("ja")
    page.get_by_test_id("help-button").click()
    page.get_by_test_id("help-tab-cards").click()
    pictures = page.locator("#help-panel-cards img")
    expect(pictures).to_have_count(len(CARDS))
    page.wait_for_function(
        """() => [...document.querySelectorAll('#help-panel-cards img')]
          .every((img) => img.complete && img.naturalWidth > 0)"""
    )
    page.keyboard.press("Escape")

    # Everything cached answers offline: the engine's modules, the icons, the catalogs.
    assert any(url.startswith("/static/engine/") for url in PRECACHE)
    assert page.evaluate(FETCH_ALL, PRECACHE) == []
    # Only what is never cached went to the network, and found none.
    assert all(url.startswith("/api/") and url not in PRECACHE for url in failed), failed
    context.set_offline(False)


class Releases:
    """One address whose app is replaced while it serves: a release deployed."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


def test_a_new_release_replaces_the_cache_at_the_next_visit(
    new_context: Callable[[str], BrowserContext], tmp_path: Path, sqlite_url: str
) -> None:
    """The service worker of one release is installed; the server is replaced by the
    next (one file changed: a new version); the next visit installs the new worker,
    which caches the new files and deletes the old cache, and the load after that is
    all the new release, offline too."""
    first = make_app(sqlite_url)
    web = tmp_path / "web"
    shutil.copytree(Path(str(WEB)), web)
    with (web / "style.css").open("a", encoding="utf-8") as sheet:
        sheet.write("\n/* the next release */\n")
    second = make_app(sqlite_url, web=web)
    old, new = first.state.offline, second.state.offline
    assert old.version != new.version
    assert new.version.split("-")[0] == old.version.split("-")[0]  # the same package

    releases = Releases(first)
    with serving(releases) as url:
        context = new_context(url)
        page = context.new_page()
        visit(page)
        installed(page)
        assert page.evaluate(CACHE_NAMES) == [old.cache_name]
        assert old.cache_name.startswith(CACHE_PREFIX)

        releases.app = second
        visit(page)  # the old release's page, from its cache; the browser finds the new one
        # The new worker cached its files, deleted the old cache, then took over the
        # page (which knows the next load is the new release).
        expect(page.locator("html")).to_have_attribute("data-update", "ready")
        page.wait_for_function(CONTROLLED, polling=100)
        assert page.evaluate(CACHE_NAMES) == [new.cache_name]
        sheet = page.evaluate(
            """async (name) => {
              const cache = await caches.open(name);
              return (await cache.match('/static/style.css')).text();
            }""",
            new.cache_name,
        )
        assert sheet.endswith("/* the next release */\n")

        context.set_offline(True)
        visit(page)
        served = page.evaluate("async () => (await fetch('/static/style.css')).text()")
        assert served.endswith("/* the next release */\n")
        assert page.evaluate(CACHE_NAMES) == [new.cache_name]
        context.set_offline(False)
