"""Server latency: one move of a match over real HTTP, stored before the answer.

Runs the app under uvicorn on a local socket and plays whole matches against the easy
computer (its thinking is negligible), so the figures are the cost of the stack: HTTP,
the session and CSRF check, rebuilding the match from its record, the conditional
write and the JSON. Prints one JSON object per database.

    python bench/server.py                                # SQLite in a temporary folder
    python bench/server.py --postgresql postgresql://postgres@127.0.0.1:5432/test
        (in a schema of its own, dropped afterwards)
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST
from sqlalchemy import create_engine, text

from koikoi.server.app import create_app
from koikoi.server.settings import Settings
from local_server import serving


def measure(database_url: str, matches: int) -> dict[str, Any]:
    app = create_app(
        Settings(database_url=database_url),
        rng=random.Random(1),
        password_hasher=PasswordHasher.from_parameters(CHEAPEST),
    )
    timings: list[float] = []
    with serving(app) as url, httpx2.Client(base_url=url) as client:
        client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
        body = client.post("/api/account", json={"name": "bench", "password": "bench-password"})
        client.headers["X-CSRF-Token"] = body.json()["csrf"]
        for _ in range(matches):
            state = client.post("/api/games", json={"difficulty": "easy"}).json()["state"]
            while not state["over"]:
                move = {"action": state["legal"][0], "version": state["version"]}
                started = time.perf_counter()
                response = client.post(f"/api/games/{state['id']}/actions", json=move)
                timings.append(time.perf_counter() - started)
                state = response.json()["state"]
        started = time.perf_counter()
        for _ in range(20):
            client.get("/api/leaderboard")
        board_ms = (time.perf_counter() - started) / 20 * 1000
    app.state.services.engine.dispose()
    ordered = sorted(timings)
    return {
        "database": app.state.services.engine.url.get_backend_name(),
        "moves": len(timings),
        "ms_per_move_p50": round(statistics.median(ordered) * 1000, 2),
        "ms_per_move_p95": round(ordered[int(len(ordered) * 0.95)] * 1000, 2),
        "moves_per_second": round(len(timings) / sum(timings), 1),
        "ms_per_leaderboard": round(board_ms, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--postgresql", metavar="URL", help="also measure on this database")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(measure(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", args.matches)))
    if args.postgresql:
        # A schema of its own, dropped afterwards: the database is left as it was.
        schema = f"koikoi_bench_{secrets.token_hex(4)}"
        admin = create_engine(args.postgresql.replace("postgresql://", "postgresql+psycopg://"))
        with admin.begin() as connection:
            connection.execute(text(f"CREATE SCHEMA {schema}"))
        try:
            url = f"{args.postgresql}?options=-csearch_path%3D{schema}"
            print(json.dumps(measure(url, args.matches)))
        finally:
            with admin.begin() as connection:
                connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
            admin.dispose()


if __name__ == "__main__":
    main()
