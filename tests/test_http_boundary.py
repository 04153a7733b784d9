"""The HTTP boundary: every bad request a clear 4xx in one shape, limits on bodies,
headers and connections, proxies trusted only when told, unexpected errors that stay
JSON and keep the connection, and a health check that tells the truth.

Connection behaviour is tested on a real uvicorn server and real sockets; a test
waits for the server to close a socket, never for a fixed time.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
import websockets.sync.client
from fastapi import FastAPI, Request
from starlette.testclient import TestClient

from koikoi.server.app import SECURITY_HEADERS
from koikoi.server.boundary import MAX_BODY_BYTES, ErrorBody
from koikoi.server.limits import Limits
from koikoi.server.serving import ServerConfig
from servers import Clock, browser, listening_socket, make_app, new_game

# A guard against a server that never answers: a failing test fails in this time
# instead of hanging. Passing tests never wait for it.
PATIENCE = 10.0


def refuse_constants(name: str) -> Any:
    raise AssertionError(f"a response carries the non-standard JSON constant {name}")


def strict_json(response: Any) -> Any:
    """The response's body, which must be standard JSON (no NaN, valid UTF-8)."""
    assert response.headers["content-type"] == "application/json"
    return json.loads(response.content.decode("utf-8"), parse_constant=refuse_constants)


def refusal(response: Any, status: int) -> ErrorBody:
    """The response, checked to be a refusal of the one documented shape."""
    assert response.status_code == status, response.text
    body = strict_json(response)
    assert isinstance(body["detail"], str)
    for name, value in SECURITY_HEADERS.items():
        assert response.headers[name] == value
    return ErrorBody.model_validate(body)


def app_with_test_routes(database_url: str) -> FastAPI:
    """The server with two routes only tests have: one that fails, one that says
    which client address the app sees."""
    app = make_app(database_url)

    def fail() -> None:
        raise RuntimeError("boom for the test")

    def client_address(request: Request) -> dict[str, Any]:
        assert request.client is not None
        return {"host": request.client.host, "scheme": request.url.scheme}

    app.add_api_route("/test/fail", fail)
    app.add_api_route("/test/client", client_address)
    return app


@pytest.fixture
def app(sqlite_url: str) -> FastAPI:
    return app_with_test_routes(sqlite_url)


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return browser(app)


@contextmanager
def running(config: ServerConfig) -> Iterator[tuple[str, int]]:
    """``config``'s server on a socket of its own, in a thread; its address."""
    sock = listening_socket()
    server = __import__("uvicorn").Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield sock.getsockname()
    finally:
        server.should_exit = True
        thread.join(timeout=PATIENCE)
        sock.close()


def server_config(app: FastAPI, **options: Any) -> ServerConfig:
    return ServerConfig(app, log_level="warning", lifespan="off", **options)


def connect(address: tuple[str, int]) -> socket.socket:
    sock = socket.create_connection(address, timeout=PATIENCE)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def response_of(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


# 1. One handler for invalid input --------------------------------------------------

NON_STANDARD_JSON = {
    "NaN": (b'{"action": {"stop": true}, "version": NaN}', "NaN"),
    "Infinity": (b'{"difficulty": "easy", "rules": {"goko": Infinity}}', "Infinity"),
    "-Infinity": (b'{"version": -Infinity}', "-Infinity"),
    "a number too large": (b'{"rules": {"goko": 1e400}}', "rules.goko is too large"),
    "an integer too long": (b'{"version": ' + b"9" * 5000 + b"}", "'9999"),
    "an integer too large": (b'{"rules": {"teshi": 9223372036854775808}}', "rules.teshi"),
    "a lone surrogate": (b'{"name": "hana", "password": "\\ud800 horse battery"}', "\\ud800"),
    "a lone low surrogate": (b'{"name": "\\udc00hana", "password": "horse"}', "\\udc00"),
    "not UTF-8": (b'{"name": "\xff\xfe", "password": "horse battery"}', "UTF-8"),
    "a byte order mark": (b'\xef\xbb\xbf{"name": "hana"}', "line 1 column 1"),
    "absurd nesting": (b'{"rules": ' + b"[" * 40 + b"]" * 40 + b"}", "nested"),
    "nesting past any limit": (b"[" * 20000, "nested"),
    "a syntax error": (b'{"name": "hana", ', "line 1 column 17"),
    "trailing data": (b'{"name": "hana"} {}', "trailing"),
}
BODY_ROUTES = [
    ("POST", "/api/account"),
    ("POST", "/api/session"),
    ("DELETE", "/api/session"),
    ("POST", "/api/account/password"),
    ("DELETE", "/api/account"),
    ("POST", "/api/games"),
    ("POST", "/api/games/no-such-game/actions"),
    ("POST", "/api/games/no-such-game/resign"),
    ("GET", "/api/rules"),
]


@pytest.mark.parametrize("kind", sorted(NON_STANDARD_JSON))
def test_non_standard_json_is_refused_on_every_route(client: TestClient, kind: str) -> None:
    body, named = NON_STANDARD_JSON[kind]
    for method, path in BODY_ROUTES:
        response = client.request(
            method, path, content=body, headers={"Content-Type": "application/json"}
        )
        refused = refusal(response, 422)
        assert refused.detail.startswith("the request body is not standard JSON"), refused
        assert named in refused.detail, (kind, refused.detail)
        assert refused.errors is not None
        assert [issue.loc[0] for issue in refused.errors] == ["body"]


def test_a_password_with_a_lone_surrogate_is_refused_and_creates_nothing(
    client: TestClient,
) -> None:
    body = b'{"name": "hana", "password": "\\ud800 correct horse battery"}'
    response = client.post(
        "/api/account", content=body, headers={"Content-Type": "application/json"}
    )
    refusal(response, 422)
    response = client.post("/api/session", json={"name": "hana", "password": "x" * 12})
    assert response.status_code == 401  # no such account was made


@pytest.mark.parametrize("content_type", ["text/plain", None, "application/x-www-form-urlencoded"])
def test_a_body_that_is_not_json_is_refused_with_422(
    client: TestClient, content_type: str | None
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    for body in (b"\xff\xfe\x00not text", b'{"name": "hana", "password": "horse battery"}'):
        response = client.post("/api/account", content=body, headers=headers)
        refused = refusal(response, 422)
        assert "body" in refused.detail
        assert "\xff" not in response.text


def test_validation_errors_and_route_refusals_have_one_shape(client: TestClient) -> None:
    invalid = refusal(client.post("/api/games", json={"difficulty": "godlike"}), 422)
    assert "body.difficulty" in invalid.detail
    assert "'godlike'" in invalid.detail  # the bad value, named
    assert invalid.errors is not None
    assert [(issue.loc, issue.type) for issue in invalid.errors] == [
        (["body", "difficulty"], "literal_error")
    ]
    raw = client.post("/api/games", json={"difficulty": "godlike"}).json()
    assert set(raw) == {"detail", "errors"}
    assert all(set(issue) == {"loc", "msg", "type"} for issue in raw["errors"])  # no input echo

    missing = refusal(client.post("/api/games/x/actions", json={"action": {}}), 422)
    assert "body.version: Field required" in missing.detail

    bad_rules = {"difficulty": "easy", "rules": {"gokoo": 3}}
    by_route = refusal(client.post("/api/games", json=bad_rules), 422)
    assert "gokoo" in by_route.detail
    assert by_route.errors is None

    bad_query = refusal(client.get("/api/leaderboard", params={"sort": "height"}), 422)
    assert "query.sort" in bad_query.detail
    assert "'height'" in bad_query.detail

    assert refusal(client.get("/api/no-such-thing"), 404).detail == "Not Found"
    assert refusal(client.put("/api/session"), 405).detail == "Method Not Allowed"


def test_a_huge_bad_value_is_named_but_not_echoed(client: TestClient) -> None:
    response = client.post("/api/games", json={"difficulty": "x" * 50000})
    refused = refusal(response, 422)
    assert "'xxxx" in refused.detail
    assert len(response.content) < 2000


# 2. Body size cap ------------------------------------------------------------------


def test_a_body_that_says_one_key_twice_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    """Readers disagree on which of two equal keys wins (0.6.3 took the last)."""
    body = b'{"difficulty": "easy", "difficulty": "expert"}'
    response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    error = refusal(response, 422)
    assert "'difficulty' appears twice" in error.detail
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PUT", "/api/tables", "GET, HEAD, POST"),
        ("PATCH", "/api/games", "GET, HEAD, POST"),
        ("PUT", "/api/queue", "DELETE, GET, HEAD, POST"),
        ("POST", "/api/leaderboard", "GET, HEAD"),
    ],
)
def test_a_405_names_every_method_the_path_allows(
    client: TestClient, method: str, path: str, allowed: str
) -> None:
    """0.6.3 named only the first route's method where a path has several routes."""
    response = client.request(method, path)
    refusal(response, 405)
    assert response.headers["allow"] == allowed


@pytest.mark.parametrize("path", ["/api/players/{}", "/api/i18n/{}", "/cards/{}.svg"])
def test_a_long_path_is_not_echoed(client: TestClient, path: str) -> None:
    """0.6.3 quoted a 16 KB path whole in some refusals."""
    response = client.get(path.format("x" * 16_000))
    assert response.status_code in (404, 422)
    assert len(response.content) < 1_000


def test_a_body_over_the_cap_is_refused_naming_the_limit(client: TestClient) -> None:
    body = b'{"name": "hana", "password": "' + b"x" * MAX_BODY_BYTES + b'"}'
    response = client.post(
        "/api/account", content=body, headers={"Content-Type": "application/json"}
    )
    refused = refusal(response, 413)
    assert f"{MAX_BODY_BYTES} bytes" in refused.detail
    assert str(len(body)) in refused.detail  # the declared size, named
    assert response.headers["connection"] == "close"


def test_a_body_at_the_cap_is_read(client: TestClient) -> None:
    start, end = b'{"name": "hana", "password": "', b'"}'
    body = start + b"x" * (MAX_BODY_BYTES - len(start) - len(end)) + end
    assert len(body) == MAX_BODY_BYTES
    response = client.post(
        "/api/account", content=body, headers={"Content-Type": "application/json"}
    )
    refused = refusal(response, 422)  # read and judged: the password is too long
    assert "body.password" in refused.detail


def test_a_declared_huge_body_is_refused_before_it_is_sent(app: FastAPI) -> None:
    with running(server_config(app)) as address, connect(address) as sock:
        sock.sendall(
            b"POST /api/account HTTP/1.1\r\nHost: koikoi\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000000\r\nExpect: 100-continue\r\n\r\n"
        )
        status, headers, body = response_of(read_until_closed(sock))
    assert status == 413
    assert headers["connection"] == "close"
    assert "100000000" in json.loads(body)["detail"]


def test_a_chunked_body_is_counted_while_it_streams(app: FastAPI) -> None:
    chunk = b"x" * 16384
    with running(server_config(app)) as address, connect(address) as sock:
        sock.sendall(
            b"POST /api/account HTTP/1.1\r\nHost: koikoi\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        # Just past the cap, and the body never ends: the server answers anyway.
        for _ in range(MAX_BODY_BYTES // len(chunk) + 1):
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        status, headers, body = response_of(read_until_closed(sock))
    assert status == 413
    assert headers["connection"] == "close"
    assert f"{MAX_BODY_BYTES} bytes" in json.loads(body)["detail"]


# 3. Connections --------------------------------------------------------------------


def closed_after(sock: socket.socket) -> float:
    """Seconds until the server closes ``sock`` (from now); nothing may arrive first."""
    began = time.monotonic()
    assert sock.recv(65536) == b""
    return time.monotonic() - began


def test_a_connection_that_sends_nothing_is_closed(app: FastAPI) -> None:
    limits = Limits(header_timeout=0.3)
    with running(server_config(app, limits=limits)) as address, connect(address) as sock:
        assert closed_after(sock) >= 0.25


def test_a_connection_that_never_finishes_its_headers_is_closed(app: FastAPI) -> None:
    limits = Limits(header_timeout=0.3)
    with running(server_config(app, limits=limits)) as address, connect(address) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: koikoi\r\n")
        began = time.monotonic()
        # A byte now and then restarts nothing: the whole head has its deadline.
        for _ in range(5):
            sock.sendall(b"X-Slow: 1\r\n")
        assert closed_after(sock) + (time.monotonic() - began) >= 0.25


def test_slow_headers_after_a_kept_alive_request_are_closed(app: FastAPI) -> None:
    limits = Limits(header_timeout=0.5, keep_alive=60)
    with running(server_config(app, limits=limits)) as address, connect(address) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: koikoi\r\n\r\n")
        answer = http.client.HTTPResponse(sock)
        answer.begin()
        assert answer.status == 200
        assert json.loads(answer.read())["status"] == "ok"
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        closed_after(sock)


def test_headers_over_the_cap_are_refused(app: FastAPI) -> None:
    limits = Limits(max_header_bytes=4096)
    with running(server_config(app, limits=limits)) as address:
        with connect(address) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: koikoi\r\nX-Big: " + b"a" * 5000)
            status, _, body = response_of(read_until_closed(sock))
        assert status == 431
        assert b"4096 bytes" in body
        with connect(address) as sock:  # a head just under the cap is served
            sock.sendall(b"GET /healthz HTTP/1.1\r\nX-Big: " + b"a" * 3900 + b"\r\n\r\n")
            answer = http.client.HTTPResponse(sock)
            answer.begin()
            assert answer.status == 200


def test_connections_beyond_the_cap_are_closed_at_once(app: FastAPI) -> None:
    limits = Limits(max_connections=2)
    with (
        running(server_config(app, limits=limits)) as address,
        connect(address) as first,
        connect(address) as second,
        connect(address) as third,
    ):
        assert closed_after(third) < PATIENCE / 2
        for sock in (first, second):  # the two within the cap are served
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: koikoi\r\n\r\n")
            answer = http.client.HTTPResponse(sock)
            answer.begin()
            assert answer.status == 200
            answer.read()


def stalled_body(address: tuple[str, int], source: str = "127.0.0.1") -> socket.socket:
    """A connection whose request declares a body and sends one byte of it."""
    sock = socket.socket()
    sock.settimeout(PATIENCE)
    sock.bind((source, 0))
    sock.connect(address)
    sock.sendall(
        b"POST /api/games HTTP/1.1\r\nHost: koikoi\r\nContent-Type: application/json\r\n"
        b"Content-Length: 60000\r\n\r\n{"
    )
    return sock


def answered_or_cut(sock: socket.socket) -> bytes:
    """What the server sent before closing (nothing, if it cut the connection off)."""
    try:
        return read_until_closed(sock)
    except ConnectionResetError:
        return b""


def test_a_body_that_never_finishes_is_answered_408_and_closed(app: FastAPI) -> None:
    """0.6.3 waited for a declared body with no deadline: 500 connections sending one
    byte each held the server. A body has as long as the head had."""
    limits = Limits(header_timeout=0.5)
    with running(server_config(app, limits=limits)) as address:
        with stalled_body(address) as sock:
            began = time.monotonic()
            answer = read_until_closed(sock)
            waited = time.monotonic() - began
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert waited >= 0.4
        connection = http.client.HTTPConnection(*address, timeout=PATIENCE)
        connection.request("GET", "/healthz")
        assert connection.getresponse().status == 200  # the server serves on
        connection.close()


def test_one_address_holds_only_its_share_of_the_connections(app: FastAPI) -> None:
    """40 stalled bodies from one address: it keeps its share, the rest are closed at
    once, another address is served, and the held ones are let go at the deadline."""
    limits = Limits(header_timeout=1.0, max_connections=80)
    assert limits.per_address == 8
    with running(server_config(app, limits=limits)) as address, ExitStack() as stack:
        stalled = [stack.enter_context(stalled_body(address)) for _ in range(40)]
        answers = [answered_or_cut(sock) for sock in stalled]
        held = [answer for answer in answers if answer]
        assert len(held) == limits.per_address  # these waited, then heard 408
        assert all(answer.startswith(b"HTTP/1.1 408 ") for answer in held)
        other = socket.socket()
        other.settimeout(PATIENCE)
        other.bind(("127.0.0.2", 0))  # another client (a second loopback address)
        other.connect(address)
        other.sendall(b"GET /healthz HTTP/1.1\r\nHost: koikoi\r\n\r\n")
        answer = http.client.HTTPResponse(other)
        answer.begin()
        assert answer.status == 200
        other.close()


def test_a_trusted_proxy_is_held_to_no_share(app: FastAPI) -> None:
    """Behind a proxy every connection comes from it: it speaks for many people."""
    limits = Limits(header_timeout=0.5, max_connections=80)
    config = server_config(app, limits=limits, forwarded_allow_ips="127.0.0.1")
    with running(config) as address, ExitStack() as stack:
        stalled = [stack.enter_context(stalled_body(address)) for _ in range(12)]
        answers = [read_until_closed(sock) for sock in stalled]
    assert all(answer.startswith(b"HTTP/1.1 408 ") for answer in answers)


# 4. Proxies ------------------------------------------------------------------------

FORWARDED = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}


def seen_client(address: tuple[str, int]) -> dict[str, Any]:
    connection = http.client.HTTPConnection(*address, timeout=PATIENCE)
    connection.request("GET", "/test/client", headers=FORWARDED)
    seen: dict[str, Any] = json.loads(connection.getresponse().read())
    connection.close()
    return seen


def test_forwarded_headers_are_ignored_by_default(app: FastAPI) -> None:
    with running(server_config(app)) as address:
        assert seen_client(address) == {"host": "127.0.0.1", "scheme": "http"}


def test_forwarded_headers_count_from_the_trusted_proxies_only(app: FastAPI) -> None:
    with running(server_config(app, forwarded_allow_ips="127.0.0.1")) as address:
        assert seen_client(address) == {"host": "203.0.113.9", "scheme": "https"}
    with running(server_config(app, forwarded_allow_ips="192.0.2.1")) as address:
        assert seen_client(address) == {"host": "127.0.0.1", "scheme": "http"}


@contextmanager
def koikoi_serve(tmp_path: Path, *options: str) -> Iterator[tuple[str, int]]:
    """``koikoi serve`` as its own process on a socket the test listens on already."""
    sock = listening_socket()
    database = f"sqlite:///{tmp_path / 'koikoi.sqlite3'}"
    command = [sys.executable, "-m", "koikoi", "serve", "--fd", str(sock.fileno()), *options]
    process = subprocess.Popen([*command, "--database", database], pass_fds=[sock.fileno()])
    try:
        yield sock.getsockname()
    finally:
        process.terminate()
        process.wait(timeout=PATIENCE)
        sock.close()


def redirected_scheme(address: tuple[str, int]) -> str:
    """The scheme the server believes the browser used, as its redirects show it."""
    connection = http.client.HTTPConnection(*address, timeout=PATIENCE)
    connection.request("GET", "/api/session/", headers=FORWARDED)
    answer = connection.getresponse()
    assert answer.status == 307
    connection.close()
    return answer.headers["location"].split(":")[0]


@pytest.mark.parametrize(
    ("options", "scheme"),
    [((), "http"), (("--forwarded-allow-ips", "127.0.0.1"), "https")],
)
def test_koikoi_serve_trusts_proxies_and_times_out_headers_as_told(
    tmp_path: Path, options: tuple[str, ...], scheme: str
) -> None:
    with koikoi_serve(tmp_path, "--header-timeout", "0.5", *options) as address:
        assert redirected_scheme(address) == scheme
        with connect(address) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\n")
            closed_after(sock)


# 5. Errors -------------------------------------------------------------------------


def test_an_unexpected_error_answers_json_and_logs_its_traceback(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    client = TestClient(app, raise_server_exceptions=False)
    with caplog.at_level(logging.ERROR):
        response = client.get("/test/fail")
    assert refusal(response, 500).detail == "internal error"
    assert strict_json(response) == {"detail": "internal error"}
    assert "boom" not in response.text
    logged = [record for record in caplog.records if record.exc_info]
    assert len(logged) == 1
    assert logged[0].name == "koikoi.server"
    assert "GET /test/fail" in logged[0].getMessage()
    assert logged[0].exc_info is not None
    assert str(logged[0].exc_info[1]) == "boom for the test"


def test_after_a_500_the_same_connection_goes_on(
    app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    with running(server_config(app)) as address:
        connection = http.client.HTTPConnection(*address, timeout=PATIENCE)
        connection.request("GET", "/test/fail")
        failed = connection.getresponse()
        assert failed.status == 500
        assert json.loads(failed.read()) == {"detail": "internal error"}
        assert failed.headers["x-frame-options"] == "DENY"
        sock = connection.sock
        assert sock is not None  # http.client drops a socket the server will close
        connection.request("GET", "/healthz")
        assert connection.getresponse().status == 200
        assert connection.sock is sock
        connection.close()
    assert any(record.name == "koikoi.server" and record.exc_info for record in caplog.records)


def test_private_answers_are_never_cached(client: TestClient) -> None:
    state = new_game(client)["state"]
    for path in ("/api/session", f"/api/games/{state['id']}", "/api/games", "/healthz"):
        assert client.get(path).headers["cache-control"] == "no-store", path
    moved = client.post(f"/api/games/{state['id']}/resign")
    assert moved.headers["cache-control"] == "no-store"
    # Card pictures never change: they are cached as before.
    assert client.get("/cards/back.svg").headers["cache-control"] == "max-age=86400"


# 6. OpenAPI ------------------------------------------------------------------------


def test_the_schema_documents_every_refusal(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    components = schema["components"]["schemas"]
    assert "HTTPValidationError" not in components
    error = components["ErrorBody"]
    assert error["properties"]["detail"]["type"] == "string"
    assert error["required"] == ["detail"]
    codes = {
        ("post", "/api/session"): {"401", "403", "413", "422", "429"},
        ("post", "/api/account"): {"403", "409", "413", "422"},
        ("post", "/api/games/{game_id}/actions"): {"400", "403", "404", "409", "413", "422"},
        ("get", "/api/games/{game_id}/replay"): {"404", "409", "422"},
        ("get", "/api/players/{name}"): {"404", "422"},
        ("get", "/api/i18n/{code}"): {"404", "422"},
    }
    for (method, path), expected in codes.items():
        responses = schema["paths"][path][method]["responses"]
        assert expected <= set(responses), (method, path, sorted(responses))
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for code, answer in operation["responses"].items():
                if code.startswith(("4", "5")):
                    content = answer["content"]["application/json"]["schema"]
                    assert content == {"$ref": "#/components/schemas/ErrorBody"}, (path, method)
    throttled = schema["paths"]["/api/session"]["post"]["responses"]["429"]
    assert "Retry-After" in throttled["headers"]


# 7. Health -------------------------------------------------------------------------


def test_health_fails_while_the_database_cannot_take_a_write(tmp_path: Path) -> None:
    path = tmp_path / "koikoi.sqlite3"
    client = TestClient(make_app(f"sqlite:///{path}"))
    assert client.get("/healthz").json()["status"] == "ok"
    holder = sqlite3.connect(path, timeout=0)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process holding the write lock
        response = client.get("/healthz")
        assert response.status_code == 503
        body = strict_json(response)
        assert body["status"] == "error"
        assert "held the database" in body["database"]
        assert response.headers["Retry-After"] == "5"
    finally:
        holder.rollback()
        holder.close()
    assert client.get("/healthz").status_code == 200


def test_health_waits_out_an_ordinary_writer(tmp_path: Path) -> None:
    """0.6.3 gave up after 500 ms and answered 503 twice in 130 calls under a flood of
    ordinary writes: one 503 pulls a process out of a balancer."""
    path = tmp_path / "koikoi.sqlite3"
    client = TestClient(make_app(f"sqlite:///{path}"))
    holder = sqlite3.connect(path, timeout=0, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    letting_go = threading.Timer(1.0, holder.commit)  # a long write, but a write
    letting_go.start()
    try:
        assert client.get("/healthz").status_code == 200
    finally:
        letting_go.join()
        holder.close()


def test_health_proves_a_write_that_is_committed(tmp_path: Path) -> None:
    path = tmp_path / "koikoi.sqlite3"
    clock = Clock()
    client = TestClient(make_app(f"sqlite:///{path}", clock))
    assert client.get("/healthz").status_code == 200
    reader = sqlite3.connect(path)
    first = reader.execute("SELECT checked FROM health").fetchall()
    clock.advance(seconds=5)
    assert client.get("/healthz").status_code == 200
    second = reader.execute("SELECT checked FROM health").fetchall()
    reader.close()
    assert len(first) == len(second) == 1
    assert first != second  # written, and committed where another connection sees it


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_health_fails_while_postgresql_is_read_only(database_url: str) -> None:
    app = make_app(database_url)
    client = TestClient(app)
    assert client.get("/healthz").json()["status"] == "ok"
    engine: sqlalchemy.Engine = app.state.services.engine

    @sqlalchemy.event.listens_for(engine, "connect")
    def read_only(connection: Any, _record: Any) -> None:
        # As on a standby, or a database an operator made read-only.
        connection.execute("SET SESSION default_transaction_read_only = on")
        connection.commit()

    engine.dispose()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "read-only" in strict_json(response)["database"]


@pytest.mark.parametrize("kind", ["closed", "file"])
def test_koikoi_serve_on_a_descriptor_that_is_no_socket_says_so(kind: str, tmp_path: Path) -> None:
    database = tmp_path / "koikoi.sqlite3"
    with open(tmp_path / "plain.txt", "w") as plain:
        fd = plain.fileno() if kind == "file" else 99
        result = subprocess.run(
            [sys.executable, "-m", "koikoi", "serve", "--fd", str(fd)],
            env={"KOIKOI_DATABASE_URL": f"sqlite:///{database}", "PATH": "/usr/bin:/bin"},
            pass_fds=(fd,) if kind == "file" else (),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert f"koikoi: error: --fd {fd} is not an open socket" in result.stderr
    assert "Traceback" not in result.stderr
    assert not database.exists()  # refused before anything was made


def test_a_websocket_outlives_the_deadline_for_request_heads(app: FastAPI) -> None:
    """The head's deadline is the HTTP request's: once a connection is a WebSocket,
    it stays open however long the table lasts."""
    limits = Limits(header_timeout=0.3)
    with running(server_config(app, limits=limits)) as (host, port):
        player = browser(app)
        table = player.post("/api/tables", json={}).json()["state"]["id"]
        cookie = "; ".join(f"{name}={value}" for name, value in player.cookies.items())
        url = f"ws://{host}:{port}/api/tables/{table}/live"
        with websockets.sync.client.connect(
            url, additional_headers={"Cookie": cookie}, open_timeout=PATIENCE
        ) as live:
            assert json.loads(live.recv(timeout=PATIENCE))["type"] == "state"
            began = time.monotonic()
            exchanges = 0
            # Pings answered well past the deadline (each waits on its pong, not on time).
            while time.monotonic() - began < 4 * limits.header_timeout:
                live.send("ping")
                assert live.recv(timeout=PATIENCE) == "pong"
                exchanges += 1
            assert exchanges > 1
