"""Fuzzing the API on both databases: requests made from the app's own OpenAPI schema
(schemathesis), and raw requests of any method, body, content type and headers.

No answer is ever a 5xx, every answer conforms to the schema, and a refused (4xx)
state-changing request leaves the database as it was. The requests come from a
signed-in browser with a match in progress, carrying its CSRF token most of the time
(so they get past the 403 to the routes' own checks). Each test prints how many
requests it made and how many answered 5xx.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import select
from starlette.testclient import TestClient

from koikoi.server.context import COOKIE
from koikoi.store.models import Base, PasswordThrottle
from servers import browser, make_app, new_game, refresh_csrf, sign_up

CHANGES = {"POST", "PUT", "PATCH", "DELETE"}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
# Bounded so the whole file takes well under two minutes on CI's two cores.
SCHEMA_CASES = 300
RAW_CASES = 300
FUZZ = settings(
    max_examples=SCHEMA_CASES,
    database=None,
    derandomize=True,  # the same requests on every run: a failure is reproducible
    suppress_health_check=list(HealthCheck),
)
Rows = dict[str, list[tuple[Any, ...]]]
"""Every table's rows by its name (:func:`dump`)."""
# Failed password checks are counted by design (throttling), refused or not.
COUNTED_ON_REFUSAL = {PasswordThrottle.__tablename__}


class Player:
    """A signed-in browser with a match in progress, whose CSRF token follows every
    answer that brings a new one (a sign-in, a sign-out)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.client = browser(app)
        sign_up(self.client, "hana")
        self.game_id: str = new_game(self.client)["state"]["id"]
        self.requests = 0
        self.server_errors: list[str] = []

    def send(self, method: str, url: str, **options: Any) -> Any:
        before = dump(self.app) if method in CHANGES else None
        response = self.client.request(method, url, **options)
        self.requests += 1
        if response.status_code >= 500:
            self.server_errors.append(f"{method} {url} {options!r}: {response.text}")
        if before is not None and 400 <= response.status_code < 500:
            own = self.app.state.services.sessions.named(self.client.cookies.get(COOKIE))
            assert unchanged_but_bookkeeping(before, dump(self.app), own), (
                method, url, options, response.text,
            )  # fmt: skip
        if response.headers.get("content-type") == "application/json" and method != "HEAD":
            body = json.loads(response.content, parse_constant=refuse_constant)
            if isinstance(body, dict) and isinstance(body.get("csrf"), str):
                refresh_csrf(self.client, body)
            if response.status_code >= 400:
                assert isinstance(body["detail"], str), body
        return response

    def report(self, name: str) -> None:
        print(f"\n{name}: {self.requests} requests, {len(self.server_errors)} answered 5xx")
        assert not self.server_errors, "\n".join(self.server_errors)


def refuse_constant(name: str) -> Any:
    raise AssertionError(f"an answer carries the non-standard JSON constant {name}")


def dump(app: FastAPI) -> Rows:
    """Every row of every table (but the throttle's), in a stable order."""
    rows: Rows = {}
    with app.state.services.database() as db:
        for table in Base.metadata.sorted_tables:
            if table.name not in COUNTED_ON_REFUSAL:
                found = db.execute(select(table)).all()
                rows[table.name] = sorted((tuple(row) for row in found), key=repr)
    return rows


def unchanged_but_bookkeeping(before: Rows, after: Rows, session: str | None) -> bool:
    """Whether a refusal left every row as it was, but for what any changing request
    does to the requester's own session before it is judged: store it (a signed-out
    browser's first such request) and mark it in use (every few minutes)."""

    def split(rows: Rows) -> tuple[Rows, list[tuple[Any, ...]]]:
        others = {**rows, "sessions": [row for row in rows["sessions"] if row[0] != session]}
        # Its id, account and CSRF token; not when it was made or last seen.
        own = [row[:3] for row in rows["sessions"] if row[0] == session]
        return others, own

    others_before, own_before = split(before)
    others_after, own_after = split(after)
    stored = not own_before and all(user is None for _, user, _ in own_after)
    return others_after == others_before and (own_after == own_before or stored)


@pytest.fixture
def player(database_url: str) -> Player:
    return Player(make_app(database_url))


def test_requests_from_the_schema(player: Player) -> None:
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", player.app)
    operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    known = {"game_id": player.game_id, "name": "hana", "code": "en"}
    strategies = []
    for operation in operations:
        fixed = {name: value for name, value in known.items() if "{" + name + "}" in operation.path}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            strategies.append(operation.as_strategy(generation_mode=mode))
            if fixed:
                strategies.append(
                    operation.as_strategy(generation_mode=mode, path_parameters=fixed)
                )

    @FUZZ
    @given(case=st.one_of(strategies), with_token=st.integers(0, 9))
    def request(case: Any, with_token: int) -> None:
        sent = case.as_transport_kwargs()
        headers = dict(sent.get("headers") or {})
        if with_token:  # nine times in ten: past the CSRF check, to the route's own
            headers["X-CSRF-Token"] = player.client.headers["X-CSRF-Token"]
        options = {key: sent[key] for key in ("params", "json") if key in sent}
        if isinstance(sent.get("data"), str | bytes):
            options["content"] = sent["data"]  # a raw body, as a client sends one
        elif "data" in sent:
            options["data"] = sent["data"]
        response = player.send(sent["method"], sent["url"], headers=headers, **options)
        case.validate_response(response, checks=CHECKS)

    request()
    player.report(f"schema fuzz on {player.app.state.services.engine.dialect.name}")


# Raw requests: anything a client could send, standard or not.
TEMPLATES = [
    "/api/session",
    "/api/account",
    "/api/account/password",
    "/api/games",
    "/api/games/{game}",
    "/api/games/{game}/actions",
    "/api/games/{game}/resign",
    "/api/games/{game}/replay",
    "/api/leaderboard",
    "/api/players/{text}",
    "/api/i18n/{text}",
    "/api/rules",
    "/cards/{text}.svg",
    "/healthz",
]
JSON_ISH = st.sampled_from(
    [
        b'{"name": "hana", "password": NaN}',
        b'{"action": {"play": "pine-crane"}, "version": Infinity}',
        b'{"name": "\\ud800", "password": "\\udfff"}',
        b'{"difficulty": "easy", "rules": {"preset": "classic", "goko": 1e999}}',
        b'{"action": {"stop": true}, "version": 1}',
        b'{"current": "x", "new": "y"}',
        b'{"rules": ' + b"[" * 50 + b"]" * 50 + b"}",
        b"\xff\xfe{}",
        b"[]",
        b"null",
        b"",
    ]
)
CONTENT_TYPES = st.sampled_from(
    [
        None,
        "application/json",
        "application/json; charset=latin-1",
        "application/merge-patch+json",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
        "garbage",
    ]
)
HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30)
# Names our code reads, and names proxies and clients send.
HEADER_NAMES = st.sampled_from(
    ["Accept-Language", "Cookie", "X-CSRF-Token", "X-Forwarded-For", "Accept", "Range"]
)


def test_raw_requests(player: Player) -> None:
    @settings(FUZZ, max_examples=RAW_CASES)
    @given(data=st.data())
    def request(data: st.DataObject) -> None:
        template = data.draw(st.sampled_from(TEMPLATES))
        # Any text as a path segment, and percent-escapes that are not UTF-8.
        text = data.draw(
            st.one_of(
                st.text(max_size=20).map(lambda value: quote(value, safe="")),
                st.sampled_from(["%FF", "%ED%A0%80", "%00", "..", "%2F"]),
            )
        )
        game = data.draw(st.sampled_from([player.game_id, text]))
        path = template.format(game=game, text=text)
        method = data.draw(st.sampled_from(["GET", "POST", "DELETE", "PUT", "PATCH", "HEAD"]))
        body = data.draw(st.one_of(JSON_ISH, st.binary(max_size=200)))
        headers = data.draw(st.dictionaries(HEADER_NAMES, HEADER_TEXT, max_size=3))
        content_type = data.draw(CONTENT_TYPES)
        if content_type is not None:
            headers["Content-Type"] = content_type
        if data.draw(st.integers(0, 9)) and "X-CSRF-Token" not in headers:
            headers["X-CSRF-Token"] = player.client.headers["X-CSRF-Token"]
        params = data.draw(st.dictionaries(HEADER_TEXT, st.text(max_size=20), max_size=3))
        player.send(method, path, content=body, headers=headers, params=params)

    request()
    player.report(f"raw fuzz on {player.app.state.services.engine.dialect.name}")


def test_the_player_is_signed_in(player: Player) -> None:
    """The fuzzing above starts where it should: signed in, a match in progress."""
    client: TestClient = player.client
    assert client.get("/api/session").json()["user"]["name"] == "hana"
    assert client.get(f"/api/games/{player.game_id}").status_code == 200
