"""Faults of the machine, made for real: a full disk under SQLite (a small tmpfs), a
PostgreSQL database that stops taking connections. A write that cannot be stored is
answered 503 with Retry-After (never 500), the health check says so, and the game
comes back by itself once the fault is gone (#36 finding 4)."""

from __future__ import annotations

import secrets
import sqlite3
import subprocess
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
