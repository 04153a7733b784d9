"""A server killed mid-match (SIGKILL: no chance to save anything) loses nothing."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import httpx2
from sqlalchemy import create_engine, select

from koikoi.store.models import Game
from servers import (
    PASSWORD,
    koikoi_serve,
    listening_socket,
    plain_move,
    play_on,
    winning_seed,
)


def stored_version(database_url: str, game_id: str) -> int:
    engine = create_engine(database_url)
    with engine.connect() as connection:
        version = connection.execute(select(Game.version).where(Game.id == game_id)).scalar_one()
    engine.dispose()
    return int(version)


def test_a_killed_server_finishes_the_match_after_a_restart(tmp_path: Path) -> None:
    rules: dict[str, Any] = {"preset": "classic"}
    seed = winning_seed("easy", rules)
    database_url = f"sqlite:///{tmp_path / 'koikoi.sqlite3'}"
    sock = listening_socket()
    port = sock.getsockname()[1]
    client = httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=60)
    with sock, client:
        with koikoi_serve(sock.fileno(), database_url, seed=seed) as server:
            # The first request waits in the socket's backlog while the server starts.
            csrf = client.get("/api/session").json()["csrf"]
            client.headers["X-CSRF-Token"] = csrf
            body = client.post("/api/account", json={"name": "hana", "password": PASSWORD})
            assert body.status_code == 201, body.text
            client.headers["X-CSRF-Token"] = body.json()["csrf"]
            game = client.post("/api/games", json={"difficulty": "easy", "rules": rules})
            state = game.json()["state"]
            assert state["ranked"]
            while state["round"] <= state["rounds"] // 2:  # half a match
                state = play_on(client, state, moves=1)
            assert state["status"] == "playing"
            server.send_signal(signal.SIGKILL)
            assert server.wait(timeout=30) == -signal.SIGKILL
        # What the player last saw was stored before they saw it.
        assert stored_version(database_url, state["id"]) == state["version"]

        with koikoi_serve(sock.fileno(), database_url, seed=seed):
            # Same cookie, same game, same state: the match goes on where it was.
            assert client.get("/api/session").json()["user"]["name"] == "hana"
            resumed = client.get(f"/api/games/{state['id']}").json()["state"]
            assert resumed == state
            final = play_on(client, resumed)
            assert final["status"] == "won"
            assert final["points"] == 10
            # The last move again, and a resignation after the end: both refused.
            last = {"action": plain_move(state), "version": final["version"] - 1}
            assert client.post(f"/api/games/{state['id']}/actions", json=last).status_code == 409
            assert client.post(f"/api/games/{state['id']}/resign").status_code == 409
        with koikoi_serve(sock.fileno(), database_url, seed=seed):
            assert client.get("/api/session").json()["user"]["points"] == 10
            profile = client.get("/api/players/hana").json()
            assert (profile["points"], profile["wins"], profile["matches"]) == (10, 1, 1)
            board = client.get("/api/leaderboard?difficulty=easy&sort=points").json()["rows"]
            assert [(row["name"], row["points"]) for row in board] == [("hana", 10)]
