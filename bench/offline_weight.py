"""Offline weight: everything the service worker caches (all seven languages), in bytes.

Asks a fresh server (in process, on a throwaway SQLite database) for every address
the worker caches and counts the bytes of each answer, by kind (js, css, art,
catalogs, other): unpacked (``identity``), and as the server sends them to a browser
that accepts only ``gzip``, only ``br``, only ``zstd``, or what Chromium accepts over
HTTPS (``chromium``: all three; service workers need HTTPS, or localhost). The server
packs these addresses once at the best level (brotli 11, gzip 9: server.traffic's
BestCompression); zstd comes from the per-request compression (starlette-compress).
Prints one JSON object; ``target`` says whether the download fits the issue's 300 KB
(300,000 bytes) as Chromium gets it, and with gzip alone (the worst case).

    python bench/offline_weight.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from koikoi.server.app import create_app
from koikoi.server.settings import Settings

LIMIT = 300_000
"""The issue's target: 300 KB compressed."""

CHROMIUM = "gzip, deflate, br, zstd"
"""What Chromium accepts over HTTPS (over plain HTTP it leaves out br and zstd)."""

SERVED = {"identity": "identity", "gzip": "gzip", "br": "br", "zstd": "zstd", "chromium": CHROMIUM}
KINDS = ("js", "css", "art", "catalogs", "other")


def kind(url: str) -> str:
    if url.endswith(".js"):
        return "js"
    if url.endswith(".css"):
        return "css"
    if url.startswith("/cards/"):
        return "art"
    if url.startswith("/api/i18n/"):
        return "catalogs"
    return "other"  # the page, the manifest, icons, the languages, rules and cards lists


def sent(client: TestClient, url: str, accept: str) -> tuple[int, str]:
    """The bytes of the body as the server sends it (not unpacked), and its encoding."""
    with client.stream("GET", url, headers={"accept-encoding": accept}) as response:
        assert response.status_code == 200, (url, response.status_code)
        body = b"".join(response.iter_raw())
        return len(body), response.headers.get("content-encoding", "identity")


def measure() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(database_url=f"sqlite:///{Path(folder) / 'bench.sqlite3'}"))
        client = TestClient(app)
        offline = app.state.offline
        totals = {column: dict.fromkeys(KINDS, 0) for column in SERVED}
        files = dict.fromkeys(KINDS, 0)
        chosen: set[str] = set()
        for url in offline.precache:
            group = kind(url)
            files[group] += 1
            for column, accept in SERVED.items():
                size, encoding = sent(client, url, accept)
                totals[column][group] += size
                if column == "chromium":
                    chosen.add(encoding)
        app.state.services.engine.dispose()
    summed = {column: sum(by_kind.values()) for column, by_kind in totals.items()}
    return {
        "version": offline.version,
        "files": {**files, "all": sum(files.values())},
        "bytes": {column: {**by_kind, "all": summed[column]} for column, by_kind in totals.items()},
        "chromium_gets": sorted(chosen),
        "target": {
            "limit_bytes": LIMIT,
            "chromium_bytes": summed["chromium"],
            "chromium_ok": summed["chromium"] <= LIMIT,
            "gzip_bytes": summed["gzip"],
            "gzip_ok": summed["gzip"] <= LIMIT,
        },
    }


def main() -> None:
    print(json.dumps(measure(), indent=2))


if __name__ == "__main__":
    main()
