"""Building the server for tests: a fresh database, cheap password hashing, a clock
the test moves, and clients that carry their CSRF token."""

from __future__ import annotations

import dataclasses
import itertools
import random
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import uvicorn
from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from fastapi import FastAPI
from sqlalchemy import Engine
from starlette.testclient import TestClient
from starlette.types import ASGIApp

from koikoi.rules import RuleSet
from koikoi.server.app import create_app
from koikoi.server.games import GameSession
from koikoi.server.gamestore import restore
from koikoi.server.results import Status
from koikoi.server.settings import Settings
from koikoi.server.thinking import Chooser, Thinking
from koikoi.server.views import state_json
from koikoi.store.models import Game

FAST_EXPERT = {"rollouts": 24}
FAST_CHOOSER = Chooser(Thinking(inline=True), FAST_EXPERT)
"""The tests' computer: thinking in place, with the fast expert."""
CHEAP_HASHER = PasswordHasher.from_parameters(CHEAPEST)
PASSWORD = "correct horse battery"


class Clock:
    """Time that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


_engines: list[Engine] = []


def make_app(database_url: str, clock: Clock | None = None, **options: Any) -> FastAPI:
    """The server on ``database_url``; :func:`close_apps` lets go of its connections.

    Its computer thinks in the requests (tests/test_thinking.py serves the pool): most
    tests make many servers and only a few moves on each, so starting a pool for every
    one would cost more than all their thinking."""
    defaults: dict[str, Any] = {
        "expert_options": FAST_EXPERT,
        "thinking": Thinking(inline=True),
        "rng": random.Random(2026),
        "password_hasher": CHEAP_HASHER,
    }
    if clock is not None:
        defaults["clock"] = clock
    # Options that are settings (koikoi.server.settings) go there; the rest to the app.
    settings: dict[str, Any] = {"database_url": database_url, "secret_key": "test"}
    for name in {field.name for field in dataclasses.fields(Settings)} & set(options):
        settings[name] = options.pop(name)
    app = create_app(Settings(**settings), **{**defaults, **options})
    _engines.append(app.state.services.engine)
    return app


def close_apps() -> None:
    """Close the connections of every app made so far (before its database goes)."""
    while _engines:
        _engines.pop().dispose()


_addresses = itertools.count(1)


def browser(app: FastAPI, address: str | None = None) -> TestClient:
    """A new browser on the app, holding its session's CSRF token like the page does;
    each from an address of its own unless ``address`` says (as people are: sign-ups
    and sign-ins are counted per address)."""
    if address is None:
        number = next(_addresses)
        address = f"10.{number >> 16 & 255}.{number >> 8 & 255}.{number & 255}"
    client = TestClient(app, client=(address, 50000))
    refresh_csrf(client)
    return client


def switch_server(client: TestClient, app: FastAPI) -> None:
    """Point a browser, cookies and all, at another server (a restart, another worker)."""
    client.app = app
    client._transport.app = app  # type: ignore[attr-defined]


def refresh_csrf(client: TestClient, body: dict[str, Any] | None = None) -> None:
    if body is None:
        body = client.get("/api/session").json()
    client.headers["X-CSRF-Token"] = body["csrf"]


def sign_up(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/account", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    refresh_csrf(client, body)
    return body


def new_game(client: TestClient, difficulty: str = "easy", **rules: Any) -> dict[str, Any]:
    response = client.post(
        "/api/games", json={"difficulty": difficulty, "rules": {"preset": "classic", **rules}}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def stored_game(app: FastAPI, game_id: str) -> GameSession:
    """The game as the database holds it (tests may look behind the curtain)."""
    with app.state.services.database() as db:
        row = db.get(Game, game_id)
        assert row is not None
        return restore(row, app.state.services.clock())


def listening_socket() -> socket.socket:
    """A socket already listening on a free local port: a server started on it later
    finds the first requests waiting in its backlog, so nobody polls or sleeps."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


@contextmanager
def koikoi_serve(
    fd: int,
    database_url: str,
    *,
    seed: int | None = None,
    redis_url: str | None = None,
    options: tuple[str, ...] = (),
) -> Iterator[subprocess.Popen[bytes]]:
    """``koikoi serve`` as its own process, on a socket the test already listens on
    (``options``: more of its command line)."""
    command = [sys.executable, "-m", "koikoi", "serve", "--fd", str(fd), "--database", database_url]
    command += options
    if seed is not None:
        command += ["--seed", str(seed)]
    if redis_url is not None:
        command += ["--redis", redis_url]
    process = subprocess.Popen(command, pass_fds=[fd], stderr=subprocess.PIPE)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        assert process.stderr is not None
        process.stderr.close()


@contextmanager
def serving(app: ASGIApp) -> Iterator[str]:
    """An ASGI app served by uvicorn in a thread; its URL."""
    sock = listening_socket()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def plain_move(state: dict[str, Any]) -> dict[str, Any]:
    """A simple, fixed way to play from the state the browser gets: stop as soon as a
    yaku allows it, else the first legal action."""
    legal: list[dict[str, Any]] = state["legal"]
    return {"stop": True} if {"stop": True} in legal else legal[0]


def winning_seed(difficulty: str, rules: dict[str, Any]) -> int:
    """A seed for the server's game-seed source whose first match :func:`plain_move`
    wins, found by playing those matches here with the server's own game code."""
    ruleset = RuleSet.from_mapping(rules)
    for candidate in range(500):
        seed = random.Random(candidate).getrandbits(48)
        game, _ = GameSession.start(
            "trial", ruleset, difficulty, seed, ranked=True, chooser=FAST_CHOOSER
        )
        while game.status == Status.PLAYING:
            game.act(plain_move(state_json(game)), game.version, FAST_CHOOSER)
        if game.status == Status.WON:
            return candidate
    raise AssertionError(f"no seed below 500 lets the plain moves beat {difficulty}")


def play_on(client: Any, state: dict[str, Any], moves: int | None = None) -> dict[str, Any]:
    """Play :func:`plain_move` until the match ends (or ``moves`` are made); the state."""
    made = 0
    while state["status"] == Status.PLAYING and (moves is None or made < moves):
        response = client.post(
            f"/api/games/{state['id']}/actions",
            json={"action": plain_move(state), "version": state["version"]},
        )
        assert response.status_code == 200, response.text
        state = response.json()["state"]
        made += 1
    return state
