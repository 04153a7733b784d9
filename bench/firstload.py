"""First load: what a new visitor's browser fetches before the start screen is ready.

Serves the app on a fresh SQLite database, opens it in Debian's Chromium (Playwright,
a fresh profile, so nothing is cached) and sums every response: the bytes that
crossed the wire (compressed) and the bytes they unpack to. Prints one JSON object.

    python bench/firstload.py [--lang ar]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from playwright.sync_api import Response, sync_playwright

from koikoi.server.app import create_app
from koikoi.server.settings import Settings
from local_server import serving


def measure(lang: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(database_url=f"sqlite:///{Path(folder) / 'bench.sqlite3'}"))
        responses: list[Response] = []
        with serving(app) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
            )
            page = browser.new_page()
            page.on("response", lambda response: responses.append(response))
            page.goto(f"{url}/?lang={lang}")
            page.wait_for_selector("body[data-ready=true]")
            page.wait_for_load_state("networkidle")
            wire = sum(response.request.sizes()["responseBodySize"] for response in responses)
            unpacked = sum(len(response.body()) for response in responses)
            browser.close()
        app.state.services.engine.dispose()
    return {
        "lang": lang,
        "requests": len(responses),
        "kb_on_the_wire": round(wire / 1024, 1),
        "kb_unpacked": round(unpacked / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en")
    print(json.dumps(measure(parser.parse_args().lang)))


if __name__ == "__main__":
    main()
