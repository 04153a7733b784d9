"""What the service worker is told to cache, its version, the web app manifest and its
icons, and the cached files' compression, checked on the server (the browser's side
is tests/test_browser_offline.py)."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import struct
import subprocess
from pathlib import Path
from typing import Any

import brotli
import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient

from conftest import require
from koikoi import __version__
from koikoi.cards import CARDS
from koikoi.jsengine import PROGRAMS
from koikoi.server.i18n import LOCALES
from koikoi.server.offline import CACHE_PREFIX, PLACEHOLDER, SHELL, WORKER, Offline
from koikoi.server.routes.site import WEB
from servers import make_app

CLIENT = Path(str(WEB))


@pytest.fixture
def app(sqlite_url: str) -> FastAPI:
    return make_app(sqlite_url)


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return TestClient(app)


def worker_facts(script: str) -> dict[str, Any]:
    found = re.search(r"const OFFLINE = (\{.*?\n\});", script, re.DOTALL)
    assert found, "the worker's facts are not filled in"
    facts: dict[str, Any] = json.loads(found[1])
    return facts


def test_the_service_worker_is_served_at_the_root_with_its_facts(
    app: FastAPI, client: TestClient
) -> None:
    offline: Offline = app.state.offline
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/javascript; charset=utf-8"
    # Browsers check it at every visit; no-cache makes any HTTP cache ask too.
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["etag"] == f'"{offline.version}"'
    assert PLACEHOLDER not in response.text
    facts = worker_facts(response.text)
    assert facts == {
        "version": offline.version,
        "cache": CACHE_PREFIX + offline.version,
        "prefix": CACHE_PREFIX,
        "precache": offline.precache,
    }
    again = client.get("/sw.js", headers={"if-none-match": response.headers["etag"]})
    assert again.status_code == 304
    assert again.content == b""


def test_the_cache_holds_everything_the_game_needs(app: FastAPI, client: TestClient) -> None:
    """The page, every module (the engine's too), the style sheet, the manifest,
    every card's picture, every language, and the facts the start screen and
    help are made from; not the worker's source, nor the engine's Node.js programs."""
    precache = app.state.offline.precache
    assert len(precache) == len(set(precache))
    cached = set(precache)
    modules = {
        f"/static/{path.relative_to(CLIENT).as_posix()}"
        for path in CLIENT.rglob("*.js")
        if path.relative_to(CLIENT) != WORKER and not path.is_relative_to(PROGRAMS)
    }
    assert any(url.startswith("/static/engine/") for url in modules)
    expected = {
        SHELL,
        "/static/style.css",
        "/static/manifest.webmanifest",
        "/api/i18n",
        "/api/rules",
        "/api/cards",
        "/cards/back.svg",
        *modules,
        *(f"/cards/{card.slug}.svg" for card in CARDS),
        *(f"/api/i18n/{code}" for code in LOCALES),
    }
    # The install icons are the browser's to fetch when installing, online.
    assert not any(url.startswith("/static/icons/") for url in cached)
    assert cached == expected
    # Nor the engine's Node.js programs, which never run in a browser.
    assert not any(url.endswith(".mjs") or url.startswith("/static/node/") for url in cached)
    for url in precache:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["content-type"].split(";")[0] in {
            "text/html",
            "text/javascript",
            "text/css",
            "image/svg+xml",
            "image/png",
            "application/json",
            "application/manifest+json",
        }, url


def test_a_changed_file_is_a_new_version(app: FastAPI, sqlite_url: str, tmp_path: Path) -> None:
    offline: Offline = app.state.offline
    assert re.fullmatch(rf"{re.escape(__version__)}-[0-9a-f]{{12}}", offline.version)
    assert Offline(CLIENT).version == offline.version  # the same files, the same version
    web = tmp_path / "web"
    shutil.copytree(CLIENT, web)
    changed = Offline(web)
    assert changed.version == offline.version
    (web / "engine" / "cards.js").write_text(
        (CLIENT / "engine" / "cards.js").read_text(encoding="utf-8") + "\nexport const NEXT = 1;\n",
        encoding="utf-8",
    )
    assert Offline(web).version != offline.version
    # The server that serves the copy serves its page, files and version.
    served = TestClient(make_app(sqlite_url, web=web))
    assert served.get("/static/engine/cards.js").text.endswith("export const NEXT=1;")
    assert worker_facts(served.get("/sw.js").text)["version"] == Offline(web).version


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_makes_the_game_installable(client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert touch
    assert png_size(client.get(touch[1]).content) == (180, 180)
    response = client.get("/static/manifest.webmanifest")
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["name"]
    assert manifest["short_name"]
    theme = re.search(r'<meta name="theme-color" content="([^"]+)">', page)
    assert theme
    assert manifest["theme_color"] == theme[1]
    style = (CLIENT / "style.css").read_text(encoding="utf-8")
    assert f"--bg: {manifest['background_color']};" in style
    purposes: dict[str, set[int]] = {}
    for icon in manifest["icons"]:
        picture = client.get(icon["src"])
        assert picture.status_code == 200
        assert picture.headers["content-type"] == icon["type"] == "image/png"
        width, height = png_size(picture.content)
        assert icon["sizes"] == f"{width}x{height}"
        assert len(picture.content) < 16_000  # small: every device caches them
        purposes.setdefault(icon["purpose"], set()).add(width)
    assert purposes == {"any": {192, 512}, "maskable": {512}}


@pytest.mark.parametrize("path", ["/static/app.js", "/api/i18n/ja", "/cards/pine-crane.svg"])
def test_the_cached_files_travel_compressed_at_the_best_level(
    client: TestClient, path: str
) -> None:
    plain = client.get(path, headers={"accept-encoding": "identity"}).content
    with client.stream("GET", path, headers={"accept-encoding": "gzip, br, zstd"}) as packed:
        assert packed.headers["content-encoding"] == "br"
        assert "Accept-Encoding" in packed.headers["vary"]
        raw = b"".join(packed.iter_raw())
    assert int(packed.headers["content-length"]) == len(raw)
    assert brotli.decompress(raw) == plain
    assert len(raw) <= len(brotli.compress(plain, quality=4))
    with client.stream("GET", path, headers={"accept-encoding": "gzip"}) as packed:
        assert packed.headers["content-encoding"] == "gzip"
        assert gzip.decompress(b"".join(packed.iter_raw())) == plain


def test_other_answers_keep_the_quick_compression(client: TestClient) -> None:
    """The API's answers are made per request: packed quickly, as before."""
    with client.stream("GET", "/api/openapi.json", headers={"accept-encoding": "br"}) as got:
        assert got.headers["content-encoding"] == "br"
    # A query is another answer than the cached one.
    with client.stream(
        "GET", "/static/app.js?x=1", headers={"accept-encoding": "gzip, br, zstd"}
    ) as got:
        assert got.headers["content-encoding"] == "zstd"


def test_scripts_are_sent_minified_and_still_parse(app: FastAPI, tmp_path: Path) -> None:
    """Every script of the client goes without comments or spare whitespace, a third
    smaller, and Node.js still reads each as a module; an unchanged one answers 304."""
    node = shutil.which("node")
    require(node is not None, "Node.js is not installed (no 'node' on PATH)")
    assert node is not None
    client = TestClient(app)
    scripts = sorted(CLIENT.rglob("*.js"))
    written, sent = 0, 0
    for path in scripts:
        source = path.read_text(encoding="utf-8")
        response = client.get(f"/static/{path.relative_to(CLIENT).as_posix()}")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/javascript")
        assert "\n// " not in response.text  # no line comments left
        # As .mjs: Node reads it as a module (a syntax check resolves no imports).
        copy = (tmp_path / path.relative_to(CLIENT)).with_suffix(".mjs")
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(response.text, encoding="utf-8")
        written += len(source.encode())
        sent += len(response.content)
        again = client.get(response.url, headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304
    assert sent < 0.8 * written
    for copy in sorted(tmp_path.rglob("*.mjs")):
        checked = subprocess.run(
            [node, "--check", str(copy)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert checked.returncode == 0, (copy, checked.stderr)
    # The rest of the folder goes as it is.
    style = client.get("/static/style.css")
    assert style.text == (CLIENT / "style.css").read_text(encoding="utf-8")
