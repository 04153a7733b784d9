"""Languages: gettext catalogs (read with Babel) for the server and the browser.

Each language has one catalog, ``koikoi/locales/<code>.po``, whose message ids are
stable keys (``ui.new_game``, ``card.pine-crane``, ``yaku.goko``, ``help.tip.1``) and
whose English catalog holds the source text. A counted message has one key per plural
category of the language's CLDR rules (``ui.stock_left.one``, ``.few``, ``.other``...):
the browser picks one with ``Intl.PluralRules``. Texts may hold ``{name}`` placeholders.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from babel import Locale, negotiate_locale
from babel.messages.pofile import read_po

LOCALES = ("en", "ja", "ar", "fa", "fr", "ms", "pl")
"""Every language of the game; English is the source and the fallback."""

DEFAULT_LOCALE = "en"
PLURAL = "plural."
"""Keys under this prefix are counted messages: ``plural.<name>.<category>``."""


@cache
def catalog(code: str) -> dict[str, str]:
    """The translated messages of a language (empty translations left out)."""
    if code not in LOCALES:
        raise KeyError(f"unknown language {code!r}; languages: {', '.join(LOCALES)}")
    path = resources.files("koikoi") / "locales" / f"{code}.po"
    with path.open("rb") as handle:
        messages = read_po(handle, locale=code)
    return {
        str(message.id): str(message.string)
        for message in messages
        if message.id and isinstance(message.string, str) and message.string
    }


def plural_categories(code: str) -> list[str]:
    """The CLDR plural categories a language distinguishes, ``other`` last."""
    return [*sorted(Locale.parse(code).plural_form.tags), "other"]


def direction(code: str) -> str:
    """``rtl`` or ``ltr``, from the locale's script direction."""
    return "rtl" if Locale.parse(code).character_order == "right-to-left" else "ltr"


def missing_messages(code: str) -> list[str]:
    """Keys of the English catalog that a language lacks (plural keys by its categories)."""
    english, messages = catalog(DEFAULT_LOCALE), catalog(code)
    needed = {key for key in english if not key.startswith(PLURAL)}
    bases = {key.rsplit(".", 1)[0] for key in english if key.startswith(PLURAL)}
    needed |= {f"{base}.{category}" for base in bases for category in plural_categories(code)}
    return sorted(needed - messages.keys())


def client_catalog(code: str) -> dict[str, Any]:
    """What the browser loads: the messages (English filling any gap) and layout facts."""
    return {
        "locale": code,
        "name": Locale.parse(code).display_name,
        "dir": direction(code),
        "plural_categories": plural_categories(code),
        "messages": catalog(DEFAULT_LOCALE) | catalog(code),
    }


def best_locale(accept_language: str | None) -> str:
    """The game's language closest to a browser's ``Accept-Language`` header."""
    if not accept_language:
        return DEFAULT_LOCALE
    wanted = [part.split(";")[0].strip().replace("-", "_") for part in accept_language.split(",")]
    return (
        negotiate_locale(wanted, LOCALES, sep="_")
        or negotiate_locale([w.split("_")[0] for w in wanted], LOCALES)
        or DEFAULT_LOCALE
    )


def languages() -> list[dict[str, str]]:
    return [
        {"code": code, "name": Locale.parse(code).display_name or code, "dir": direction(code)}
        for code in LOCALES
    ]
