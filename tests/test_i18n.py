"""Languages: every catalog complete, placeholders kept, directions right, served as JSON."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from koikoi.cards import SLUGS
from koikoi.server.credentials import NAME_LENGTH, PASSWORD_LENGTH
from koikoi.server.i18n import (
    DEFAULT_LOCALE,
    LOCALES,
    PLURAL,
    best_locale,
    catalog,
    client_catalog,
    missing_messages,
    plural_categories,
)
from koikoi.yaku import YAKU_KEYS
from servers import make_app

PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.mark.parametrize("code", LOCALES)
def test_every_locale_has_every_string_of_the_english_catalog(code: str) -> None:
    assert missing_messages(code) == []


@pytest.mark.parametrize("code", [code for code in LOCALES if code != DEFAULT_LOCALE])
def test_translations_keep_the_placeholders(code: str) -> None:
    english, translated = catalog(DEFAULT_LOCALE), catalog(code)
    for key, text in translated.items():
        source = english.get(key)
        if source is None and key.startswith(PLURAL):
            source = english.get(key.rsplit(".", 1)[0] + ".other")
        assert source is not None, f"{code}: {key!r} is not an English key"
        assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(source)) | {"n"}, key


def test_the_english_catalog_names_every_card_and_yaku() -> None:
    english = catalog(DEFAULT_LOCALE)
    assert all(f"card.{slug}" in english for slug in SLUGS)
    assert all(f"yaku.{key}" in english for key in YAKU_KEYS)


def test_the_missing_check_sees_a_gap() -> None:
    # The check must not pass vacuously: English holds every key by definition,
    # and a language is measured against it plural category by category.
    assert plural_categories("ar") == ["few", "many", "one", "two", "zero", "other"]
    assert plural_categories("ja") == ["other"]
    assert len(catalog(DEFAULT_LOCALE)) > 100


@pytest.mark.parametrize(
    ("code", "direction"), [("ar", "rtl"), ("fa", "rtl"), ("en", "ltr"), ("ja", "ltr")]
)
def test_right_to_left_comes_from_the_locale(code: str, direction: str) -> None:
    assert client_catalog(code)["dir"] == direction


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("pl-PL,pl;q=0.9,en;q=0.5", "pl"),
        ("fa-IR", "fa"),
        ("de-DE", "en"),
        (None, "en"),
        ("ms", "ms"),
    ],
)
def test_the_browsers_language_is_negotiated(header: str | None, expected: str) -> None:
    assert best_locale(header) == expected


def test_catalogs_are_served_to_the_browser(sqlite_url: str) -> None:
    client = TestClient(make_app(sqlite_url))
    index = client.get("/api/i18n", headers={"accept-language": "ar"}).json()
    assert index["preferred"] == "ar"
    assert {language["code"] for language in index["languages"]} == set(LOCALES)
    arabic = client.get("/api/i18n/ar").json()
    assert arabic["dir"] == "rtl"
    assert arabic["messages"]["card.pine-crane"] != catalog(DEFAULT_LOCALE)["card.pine-crane"]
    response = client.get("/api/i18n/xx")
    assert response.status_code == 404
    assert "xx" in response.json()["detail"]


def test_the_account_hints_state_the_servers_limits() -> None:
    english = catalog(DEFAULT_LOCALE)
    assert english["account.name_hint"].startswith(f"{NAME_LENGTH[0]} to {NAME_LENGTH[1]} ")
    assert f" {PASSWORD_LENGTH[0]} characters" in english["account.password_hint"]


KOIKOI_WORD = re.compile(r"koi[-\u2011]koi|كوي[-\u2011]كوي", re.IGNORECASE)


@pytest.mark.parametrize("code", LOCALES)
def test_words_and_numbers_keep_together_at_a_line_break(code: str) -> None:
    """A line may not break inside koi-koi (a non-breaking hyphen, U+2011), nor
    between a number and its unit (a no-break space after {n})."""
    messages = catalog(code)
    breakable = [
        key
        for key, text in messages.items()
        if any(found.group().count("-") for found in KOIKOI_WORD.finditer(text))
    ]
    assert breakable == [], f"{code}: koi-koi with a plain hyphen in {breakable}"
    loose = [key for key, text in messages.items() if key.startswith(PLURAL) and "{n} " in text]
    assert loose == [], f"{code}: a plain space after the number in {loose}"
    if code not in ("ja", "fa"):  # こいこい, and Persian joins its two halves without one
        assert any(KOIKOI_WORD.search(text) for text in messages.values())
