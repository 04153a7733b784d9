"""The game offline: what the service worker keeps on the device, and its version.

After one visit the browser holds everything the game needs in one Cache Storage
cache, ``koikoi-<version>``: the page, the client's modules and style sheet, the
browser's engine and the web app manifest, every card's picture, every
language's catalog, and the facts the start screen and the help are made from (the
languages, the rule set's fields and presets, the cards). The service worker
(``/sw.js``, made from ``web/offline/sw.js``) is told the list and the version by the
server, which fills them in; no build step.

The version is the package's version and a hash of the content of every file it
lists, so any change to any of them (a release, a new translation, a card redrawn)
is a new service worker: the browser finds it at the next visit, it caches the new
files, and it deletes the old cache (see the worker's own description).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from koikoi import __version__
from koikoi.cards import CARDS
from koikoi.server.cardart import card_back_svg, card_svg
from koikoi.server.i18n import LOCALES, client_catalog, languages
from koikoi.server.views import cards_catalog, rules_catalog

__all__ = ["CACHE_PREFIX", "SHELL", "Offline"]

CACHE_PREFIX = "koikoi-"
"""The service worker's caches are named this and the version: it deletes the others."""

SHELL = "/"
"""The page: every visit to the game, offline too, is served this (the rest is in the
address's hash)."""

WORKER = Path("offline") / "sw.js"
"""The service worker's source in the client's folder, completed by the server."""

PLACEHOLDER = "__OFFLINE__"
"""Where the worker's source takes its facts (``{"version", "cache", "prefix",
"precache"}``)."""

CACHED_TYPES = frozenset({".js", ".css", ".png", ".svg", ".webmanifest", ".json", ".webp"})
"""The client's files that go in the cache, by suffix; not the page (cached as
:data:`SHELL`) nor the worker's own source."""

UNCACHED = frozenset({"icons", "node"})
"""Client folders left out: the install icons are fetched by the browser when the game
is installed, online, and kept by the system; the game never shows them (24 KB). The
engine's Node.js programs (koikoi.jsengine.PROGRAMS) never run in a browser."""


def _json(make: Callable[..., Any], *args: Any) -> bytes:
    """What an API answer holds, as bytes to hash (not byte for byte what is sent)."""
    return json.dumps(make(*args), sort_keys=True, ensure_ascii=False).encode()


def _picture(card: int | None) -> bytes:
    return (card_back_svg() if card is None else card_svg(card)).encode()


class Offline:
    """The cache of one server: the addresses the worker fetches, their content's
    version and the worker script, read from ``web`` (the client's folder) once, when
    first asked for, and kept for the server's life."""

    def __init__(self, web: Path) -> None:
        self.web = web

    def _client_files(self) -> Iterator[tuple[str, Path]]:
        for path in sorted(self.web.rglob("*")):
            relative = path.relative_to(self.web)
            if (
                path.is_file()
                and path.suffix in CACHED_TYPES
                and relative != WORKER
                and relative.parts[0] not in UNCACHED
                and not any(part.startswith(".") for part in relative.parts)
            ):
                yield f"/static/{relative.as_posix()}", path

    def sources(self) -> dict[str, Callable[[], bytes]]:
        """Every cached address, with what makes its content (in a fixed order)."""
        made: dict[str, Callable[[], bytes]] = {SHELL: (self.web / "index.html").read_bytes}
        for url, path in self._client_files():
            made[url] = path.read_bytes
        made["/cards/back.svg"] = partial(_picture, None)
        for card in CARDS:
            made[f"/cards/{card.slug}.svg"] = partial(_picture, card.id)
        made["/api/i18n"] = partial(_json, languages)
        for code in LOCALES:
            made[f"/api/i18n/{code}"] = partial(_json, client_catalog, code)
        made["/api/rules"] = partial(_json, rules_catalog)
        made["/api/cards"] = partial(_json, cards_catalog)
        return made

    @cached_property
    def precache(self) -> list[str]:
        """The addresses the worker caches when it installs."""
        return list(self.sources())

    @cached_property
    def paths(self) -> frozenset[str]:
        """The same, to look up."""
        return frozenset(self.precache)

    @cached_property
    def version(self) -> str:
        """``<package version>-<12 hex digits of the content's SHA-256>``: the
        content of every cached address, and the worker's own source."""
        digest = hashlib.sha256((self.web / WORKER).read_bytes())
        for url, content in self.sources().items():
            body = content()
            digest.update(f"{url}\0{len(body)}\0".encode())
            digest.update(body)
        return f"{__version__}-{digest.hexdigest()[:12]}"

    @cached_property
    def script(self) -> str:
        """The service worker, its version and list filled in."""
        facts = json.dumps(
            {
                "version": self.version,
                "cache": self.cache_name,
                "prefix": CACHE_PREFIX,
                "precache": self.precache,
            },
            indent=1,
        )
        source = (self.web / WORKER).read_text(encoding="utf-8")
        if PLACEHOLDER not in source:
            raise ValueError(f"{self.web / WORKER} lacks {PLACEHOLDER}")
        return source.replace(PLACEHOLDER, facts, 1)

    @property
    def cache_name(self) -> str:
        return CACHE_PREFIX + self.version
