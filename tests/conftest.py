"""Shared fixtures: outside programs the tests need, and a live server for the browser.

A test that needs something this machine may lack (Chromium, PostgreSQL, Redis) skips
with the reason when it is missing, but fails under ``CI=true``: CI installs all of it.
"""

from __future__ import annotations

import os
import random
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from koikoi.server.app import create_app

CHROMIUM = Path("/usr/bin/chromium")


def require(available: bool, reason: str) -> None:
    """Skip when something outside the project is missing; fail instead in CI."""
    if available:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must provide this: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The game served on a free local port; its URL.

    The socket listens before the server thread starts, so the first request simply
    waits in the backlog: no polling, no sleeping.
    """
    app = create_app(secret_key="test", expert_options={"rollouts": 30}, rng=random.Random(7))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


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


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """A git-ignored folder where browser tests leave screenshots for people to look at."""
    folder = Path(__file__).resolve().parents[1] / "screenshots"
    folder.mkdir(exist_ok=True)
    return folder
