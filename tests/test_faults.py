"""Faults of the machine, made for real: a full disk under SQLite (a small tmpfs), a
PostgreSQL database that stops taking connections. A write that cannot be stored is
answered 503 with Retry-After (never 500), the health check says so, and the game
comes back by itself once the fault is gone (#36 finding 4)."""

from __future__ import annotations

import logging
import secrets
import shutil
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from conftest import POSTGRESQL, require
from koikoi.server.routes.tablesocket import CLOSE_UNAVAILABLE
from servers import browser, close_apps, make_app, sign_up


@contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path]:
    """A file system of ``size`` mounted at ``folder`` (root may mount tmpfs)."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    require(mounted.returncode == 0, f"cannot mount a small tmpfs: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        close_apps()
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Write a file until the disk is full; the file."""
    filler = folder / "filler"
    with filler.open("wb") as handle, suppress(OSError):
        while True:
            handle.write(b"\0" * 65536)
            handle.flush()
    return filler


def unavailable_answer(response: Any) -> str:
    """The reason a 503 "try again" gives (a route's detail, or the health check's)."""
    assert response.status_code == 503, response.text
    assert response.headers["Retry-After"] == "5"
    body = response.json()
    return str(body.get("detail") or body.get("database"))


def test_a_full_disk_answers_503_and_the_game_comes_back(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", "8m") as disk:
        database = disk / "koikoi.sqlite3"
        app = make_app(f"sqlite:///{database}")
        client = browser(app)
        sign_up(client, "hana")
        assert client.post("/api/games", json={"difficulty": "easy"}).status_code == 201
        # The write-ahead log is emptied, so the next write must grow a file.
        with sqlite3.connect(database) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        filler = fill(disk)
        refused = client.post("/api/games", json={"difficulty": "easy"})
        assert "disk is full" in unavailable_answer(refused)
        assert "disk is full" in unavailable_answer(client.get("/healthz"))
        assert client.get("/api/games").status_code == 200  # reading goes on
        filler.unlink()
        assert client.get("/healthz").status_code == 200
        assert client.post("/api/games", json={"difficulty": "easy"}).status_code == 201
        assert len(client.get("/api/games").json()["games"]) == 2


@pytest.fixture
def own_database() -> Iterator[tuple[str, sqlalchemy.Engine]]:
    """A PostgreSQL database of its own (a fault in it reaches no other test), and an
    engine on the server's ``postgres`` database to make faults with."""
    admin = sqlalchemy.create_engine(
        POSTGRESQL.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT"
    )
    name = f"koikoi_fault_{secrets.token_hex(4)}"
    try:
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f"CREATE DATABASE {name}"))
    except sqlalchemy.exc.OperationalError as error:
        admin.dispose()
        require(False, f"PostgreSQL is not reachable at {POSTGRESQL}: {error.orig}")
    url = POSTGRESQL.rsplit("/", 1)[0] + f"/{name}"
    try:
        yield url, admin
    finally:
        close_apps()
        with admin.connect() as connection:
            connection.execute(sqlalchemy.text(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true"))
            connection.execute(sqlalchemy.text(f"DROP DATABASE {name} WITH (FORCE)"))
        admin.dispose()


def set_reachable(admin: sqlalchemy.Engine, url: str, reachable: bool) -> None:
    """Let the database take connections, or turn every one away (and end those it
    has), as a server restarting does."""
    name = url.rsplit("/", 1)[1]
    with admin.connect() as connection:
        connection.execute(
            sqlalchemy.text(f"ALTER DATABASE {name} ALLOW_CONNECTIONS {str(reachable).lower()}")
        )
        if not reachable:
            connection.execute(
                sqlalchemy.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"
                ),
                {"name": name},
            )


def test_a_database_that_is_down_answers_503_and_sockets_are_told(
    own_database: tuple[str, sqlalchemy.Engine],
) -> None:
    url, admin = own_database
    app = make_app(url)
    host, friend = browser(app), browser(app)
    sign_up(host, "hana")
    table = host.post("/api/tables", json={}).json()["state"]
    assert friend.post(f"/api/tables/{table['id']}/seat").status_code == 200
    set_reachable(admin, url, False)
    for _ in range(3):  # the pool's lost connections, then none to be had
        assert "cannot be reached" in unavailable_answer(
            host.post("/api/games", json={"difficulty": "easy"})
        )
    assert "cannot be reached" in unavailable_answer(host.get("/healthz"))
    with host.websocket_connect(f"/api/tables/{table['id']}/live") as live:
        assert "cannot be read now" in live.receive_json()["detail"]
        with pytest.raises(WebSocketDisconnect) as closed:
            live.receive_json()
    assert closed.value.code == CLOSE_UNAVAILABLE
    set_reachable(admin, url, True)
    assert host.get("/healthz").status_code == 200
    assert host.post("/api/games", json={"difficulty": "easy"}).status_code == 201
    with TestClient(app).websocket_connect(f"/api/tables/{table['id']}/live") as live:
        assert live.receive_json()["type"] == "error"  # a stranger: turned away, as ever


@contextmanager
def own_redis(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A Redis server of the test's own on ``port`` (the shared one is never stopped)."""
    require(shutil.which("redis-server") is not None, "redis-server is not installed")
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            with suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)
        yield process
    finally:
        process.kill()
        process.wait()


def test_a_redis_outage_loses_no_move_and_floods_no_log(
    own_database: tuple[str, sqlalchemy.Engine], caplog: pytest.LogCaptureFixture
) -> None:
    """0.6.3, Redis stopped: ~200 tracebacks a second, a stored move answered 500 and
    never heard by the other player. Now: one line for the outage and one for the
    return, the move answered 200, and the other socket holds it soon after Redis is
    back, no other move made."""
    url, _ = own_database
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    redis_url = f"redis://127.0.0.1:{port}/0"
    with own_redis(port) as redis_process:
        first, second = make_app(url, redis_url=redis_url), make_app(url, redis_url=redis_url)
        host = browser(first)
        friend = browser(second)
        table = host.post("/api/tables", json={}).json()["state"]
        table_id = table["id"]
        assert friend.post(f"/api/tables/{table_id}/seat").status_code == 200
        with friend.websocket_connect(f"/api/tables/{table_id}/live") as live:
            assert live.receive_json()["type"] == "state"
            with caplog.at_level(logging.WARNING, logger="koikoi.live"):
                redis_process.kill()
                redis_process.wait()
                time.sleep(1.5)  # the listeners' threads find it away
                state = host.get(f"/api/tables/{table_id}").json()["state"]
                while not state["your_turn"]:  # the friend's move first, over HTTP
                    mine = friend.get(f"/api/tables/{table_id}").json()["state"]
                    friend_move = {"action": mine["legal"][0], "version": mine["version"]}
                    assert friend.post(f"/api/tables/{table_id}/actions", json=friend_move)
                    state = host.get(f"/api/tables/{table_id}").json()["state"]
                move = {"action": state["legal"][0], "version": state["version"]}
                moved = host.post(f"/api/tables/{table_id}/actions", json=move)
                assert moved.status_code == 200, moved.text
                stored = moved.json()["state"]["version"]
                health = host.get("/healthz").json()
                assert (health["status"], health["broker"]) == ("ok", "down")
                with own_redis(port):
                    heard = live.receive_json()  # the socket's resync, once Redis is back
                    while heard["state"]["version"] < stored:
                        heard = live.receive_json()
                    assert host.get("/healthz").json()["broker"] == "ok"
                    lines = [record for record in caplog.records if record.name == "koikoi.live"]
    assert heard["state"]["version"] == stored
    # Each process: one line as Redis went, one as it came back; no tracebacks.
    assert 2 <= len(lines) <= 4, [record.getMessage() for record in lines]
    assert all(record.exc_info is None for record in lines)
