"""Around every request: HEAD on every page, compressed text, the API docs without a
network, and the access log."""

from __future__ import annotations

import gzip
import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest
import websockets.sync.client
from fastapi import FastAPI
from starlette.testclient import TestClient

from koikoi.server.traffic import common_log_line
from servers import browser, koikoi_serve, listening_socket, make_app

PAGES = ["/", "/healthz", "/static/app.js", "/static/style.css", "/cards/back.svg", "/api/rules"]
# host - - [time] "request line, its quotes escaped" status bytes
CLF = re.compile(
    r"^(\S+) - - \[\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} \+0000\]"
    r' "((?:[^"\\]|\\.)*)" (\d{3}) (\d+|-)$'
)


@pytest.fixture
def client(sqlite_url: str) -> TestClient:
    return browser(make_app(sqlite_url))


@pytest.mark.parametrize("path", PAGES)
def test_every_page_answers_head_like_get_without_a_body(client: TestClient, path: str) -> None:
    got = client.get(path, headers={"Accept-Encoding": "identity"})
    head = client.head(path, headers={"Accept-Encoding": "identity"})
    assert head.status_code == got.status_code == 200
    assert head.content == b""
    assert head.headers["content-length"] == str(len(got.content))
    assert head.headers["content-type"] == got.headers["content-type"]


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/rules", "/api/i18n/ar"])
def test_text_travels_compressed(client: TestClient, path: str) -> None:
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    packed = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    assert packed.content == plain.content  # the client unpacks it to the same bytes
    raw = packed.extensions.get("raw_body")
    if raw is not None:
        assert gzip.decompress(raw) == plain.content


def test_the_api_docs_need_no_network(client: TestClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200
    assert "swagger-ui-bundle.js" in page.text
    assert not re.search(r"""(src|href)=["']?https?://""", page.text)
    for asset in re.findall(r"""(?:src|href)=["']?(/[^"' >]+)""", page.text):
        assert client.get(asset).status_code == 200, asset


def test_each_request_is_one_common_log_line(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="koikoi.access"):
        body = client.get("/api/rules", headers={"Accept-Encoding": "identity"}).content
        client.get("/api/players/nobody-here")
        client.head("/")
    lines = [record.getMessage() for record in caplog.records if record.name == "koikoi.access"]
    assert len(lines) == 3
    fields = [CLF.match(line) for line in lines]
    assert all(fields), lines
    assert [(m[2], m[3]) for m in fields if m] == [
        ("GET /api/rules HTTP/1.1", "200"),
        ("GET /api/players/nobody-here HTTP/1.1", "404"),
        ("HEAD / HTTP/1.1", "200"),
    ]
    first = fields[0]
    assert first is not None
    assert first[4] == str(len(body))
    last = fields[2]
    assert last is not None
    assert last[4] == "-"  # a HEAD sends no body


def test_a_request_line_cannot_forge_log_lines() -> None:
    scope = {
        "client": ("198.51.100.7", 1),
        "method": "GET",
        "path": '/a" 200 1\n9.9.9.9 - - [x] "GET /b',
        "query_string": b"",
        "http_version": "1.1",
    }
    line = common_log_line(scope, 404, 10, 0.0)
    assert "\n" not in line
    assert CLF.match(line)


def test_koikoi_serve_logs_requests_to_stdout_and_errors_to_stderr(tmp_path: Path) -> None:
    sock = listening_socket()
    database = f"sqlite:///{tmp_path / 'koikoi.sqlite3'}"
    command = [sys.executable, "-m", "koikoi", "serve", "--fd", str(sock.fileno())]
    with (
        sock,
        subprocess.Popen(
            [*command, "--database", database],
            pass_fds=[sock.fileno()],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        ) as server,
    ):
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        with httpx2.Client(base_url=url, timeout=60) as http:
            assert http.get("/healthz").status_code == 200
            assert http.head("/").status_code == 200
        server.terminate()
        out, err = server.communicate(timeout=60)
    requests = [line for line in out.splitlines() if CLF.match(line)]
    assert [CLF.match(line)[2] for line in requests] == [  # type: ignore[index]
        "GET /healthz HTTP/1.1",
        "HEAD / HTTP/1.1",
    ]
    assert "Traceback" not in err


def test_quiet_serving_logs_no_requests(app: FastAPI, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="koikoi.access"):
        TestClient(app).get("/healthz")
    assert not [record for record in caplog.records if record.name == "koikoi.access"]


def test_websocket_connections_are_traffic_not_errors(tmp_path: Path) -> None:
    """0.6.3's koikoi serve wrote three lines a WebSocket (accepted, open, closed) to
    standard error, which the README keeps for errors: they go to standard output."""
    sock = listening_socket()
    host, port = sock.getsockname()
    database = f"sqlite:///{tmp_path / 'koikoi.sqlite3'}"
    with sock, koikoi_serve(sock.fileno(), database) as server:
        # The server is up once it answers (the first request waits in the backlog).
        assert httpx2.get(f"http://{host}:{port}/healthz", timeout=60).status_code == 200
        for _ in range(3):
            with websockets.sync.client.connect(f"ws://{host}:{port}/api/tables/none/live") as ws:
                assert json.loads(ws.recv())["type"] == "error"
        server.terminate()
        assert server.stderr is not None
        errors = server.stderr.read().decode()
        server.wait(timeout=30)
    assert "connection open" not in errors
    assert "connection closed" not in errors
    assert "WebSocket" not in errors
