"""Shared fixtures: outside programs the tests need, and a live server for the browser.

A test that needs something this machine may lack (Chromium, PostgreSQL, Redis) skips
with the reason when it is missing, but fails under ``CI=true``: CI installs all of it.
"""

from __future__ import annotations

import os
import random
import secrets
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from fastapi import FastAPI
from hypothesis import settings

from servers import Clock, close_apps, make_app, serving

CHROMIUM = Path("/usr/bin/chromium")
POSTGRESQL = os.environ.get("KOIKOI_TEST_POSTGRESQL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("KOIKOI_TEST_REDIS", "redis://127.0.0.1:6379/0")

# Property tests check behaviour, not speed (bench/ measures that): an example slower
# than hypothesis's default deadline on a slow or busy machine is no failure.
settings.register_profile("koikoi", deadline=None)
settings.load_profile("koikoi")


def require(available: bool, reason: str) -> None:
    """Skip when something outside the project is missing; fail instead in CI."""
    if available:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must provide this: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def node() -> str:
    """The ``node`` program that runs the browser's engine under Node.js (the parity,
    perft and unit tests of that engine, its players and its coach)."""
    found = shutil.which("node")
    require(
        found is not None, "Node.js is not installed (no 'node' on PATH); the JS engine needs it"
    )
    assert found is not None
    return found


@pytest.fixture(scope="session", autouse=True)
def private_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test touches the real user data folder (where ``koikoi serve`` keeps its
    database), nor a database named by the environment."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
        patch.delenv("KOIKOI_DATABASE_URL", raising=False)
        yield


@contextmanager
def postgresql_schema() -> Iterator[str]:
    """The URL of a schema of its own on the test PostgreSQL server, dropped after."""
    schema = f"koikoi_test_{secrets.token_hex(6)}"
    admin = sqlalchemy.create_engine(POSTGRESQL.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with admin.begin() as connection:
            connection.execute(sqlalchemy.text(f"CREATE SCHEMA {schema}"))
    except sqlalchemy.exc.OperationalError as error:
        admin.dispose()
        require(False, f"PostgreSQL is not reachable at {POSTGRESQL}: {error.orig}")
    try:
        yield f"{POSTGRESQL}?options=-csearch_path%3D{schema}"
    finally:
        close_apps()
        with admin.begin() as connection:
            connection.execute(sqlalchemy.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a schema of its own on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'koikoi.sqlite3'}"
        close_apps()
        return
    with postgresql_schema() as url:
        yield url


@pytest.fixture
def postgresql_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL schema, for what only a server database does."""
    with postgresql_schema() as url:
        yield url


@pytest.fixture
def redis_url() -> str:
    """The test Redis server's URL, once it answers."""
    import redis

    try:
        redis.Redis.from_url(REDIS).ping()
    except redis.RedisError as error:
        require(False, f"Redis is not reachable at {REDIS}: {error}")
    return REDIS


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(database_url: str, clock: Clock) -> FastAPI:
    """The server on a fresh database (both kinds), its time told by ``clock``."""
    return make_app(database_url, clock)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    """A fresh SQLite database, for tests about the game rather than the storage."""
    yield f"sqlite:///{tmp_path / 'koikoi.sqlite3'}"
    close_apps()


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    """The game the browser tests play, on a fresh SQLite database."""
    folder = tmp_path_factory.mktemp("live")
    app = make_app(
        f"sqlite:///{folder / 'koikoi.sqlite3'}",
        # Every browser test signs up from this machine's one address.
        sign_ups_per_hour=100_000,
        expert_options={"rollouts": 30},
        rng=random.Random(7),
    )
    yield app
    app.state.services.engine.dispose()


@pytest.fixture(scope="session")
def live_server(live_app: FastAPI) -> Iterator[str]:
    """:func:`live_app` served on a free local port; its URL."""
    with serving(live_app) as url:
        yield url


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require(False, "the playwright package is not installed (pip install -e '.[test]')")
    require(CHROMIUM.exists(), f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_context(chromium: Any) -> Iterator[Callable[[str], Any]]:
    """Fresh browser profiles (own caches and service workers) on a server's URL,
    closed after the test."""
    contexts: list[Any] = []

    def make(base_url: str) -> Any:
        context = chromium.new_context(base_url=base_url, locale="en-US")
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """A git-ignored folder where browser tests leave screenshots for people to look at."""
    folder = Path(__file__).resolve().parents[1] / "screenshots"
    folder.mkdir(exist_ok=True)
    return folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A browser test that fails is run once more before it counts as failed: on a
    busy two-core machine a page's timers can fall seconds behind (a background tab's
    more still), and two such tests have failed once and passed when run again.
    Everything else fails at once."""
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.flaky(reruns=1))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Why each rerun test failed its first try. The run itself shows only an R for it,
    and that reason is what whoever fixes the flaky test needs from CI's log."""
    reruns = terminalreporter.stats.get("rerun", [])
    if reruns:
        terminalreporter.section("first tries that failed (each was run once more)")
        for report in reruns:
            terminalreporter.write_line(f"{report.nodeid}:")
            terminalreporter.write_line(report.longreprtext[-4000:])  # the traceback's end
