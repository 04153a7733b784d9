"""The API docs page in a real browser, under a Content-Security-Policy like every
other page's (its one inline script allowed by its hash)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError


def test_the_api_docs_run_under_their_policy(
    new_context: Callable[[str], Any], live_server: str
) -> None:
    context = new_context(live_server)
    page = context.new_page()
    problems: list[str] = []

    def on_console(message: Any) -> None:
        if message.type == "error":
            problems.append(message.text)

    page.on("console", on_console)
    response = page.goto("/api/docs")
    assert response is not None
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self' 'sha256-" in policy
    assert "unsafe-inline" not in policy
    # Swagger UI started (its inline script ran) and read the schema.
    page.locator(".swagger-ui .info .title").wait_for()
    assert "koikoi" in page.locator(".swagger-ui .info .title").inner_text()
    assert page.locator(".opblock").count() > 20
    assert problems == []
    # Another inline script would not run: the policy allows that one alone.
    with pytest.raises(PlaywrightError, match="Content Security Policy"):
        page.add_script_tag(content="window.injected = true")
    assert page.evaluate("window.injected === true") is False
