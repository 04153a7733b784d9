"""Building the server for tests: a fresh database, cheap password hashing, a clock
the test moves, and clients that carry their CSRF token."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from fastapi import FastAPI
from starlette.testclient import TestClient

from koikoi.server.app import create_app
from koikoi.server.games import GameSession
from koikoi.server.gamestore import restore
from koikoi.store.models import Game

FAST_EXPERT = {"rollouts": 24}
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


def make_app(database_url: str, clock: Clock | None = None, **options: Any) -> FastAPI:
    defaults: dict[str, Any] = {
        "secret_key": "test",
        "expert_options": FAST_EXPERT,
        "rng": random.Random(2026),
        "password_hasher": CHEAP_HASHER,
    }
    if clock is not None:
        defaults["clock"] = clock
    return create_app(database_url=database_url, **{**defaults, **options})


def browser(app: FastAPI, address: str = "testclient") -> TestClient:
    """A new browser on the app, holding its session's CSRF token like the page does."""
    client = TestClient(app, client=(address, 50000))
    refresh_csrf(client)
    return client


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
    with app.state.database() as db:
        row = db.get(Game, game_id)
        assert row is not None
        return restore(row)
