"""Easy moves while experts think: the computer's thinking in the requests, or in a pool.

Serves the app under uvicorn on a fresh SQLite database. ``K`` players play the expert
without pause (each move a request that thinks for the expert's standard budget),
while one more plays the easy computer (its thinking is negligible) move after move:
its requests per second and latency are what the experts' thinking costs everyone
else. With the thinking in the requests, the experts hold the server's GIL; in the
pool (one worker per CPU, or ``--processes``) they hold only a worker each. Prints
one JSON object per thinking and ``K``.

    python bench/thinking.py [--experts 0 1 2 4] [--moves 200] [--processes N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
from argon2 import PasswordHasher
from argon2.profiles import CHEAPEST

from koikoi.server.app import create_app
from koikoi.server.settings import Settings
from koikoi.server.thinking import Thinking
from local_server import serving


def player(url: str) -> httpx2.Client:
    """A guest's browser: its session and CSRF token."""
    client = httpx2.Client(base_url=url, timeout=120)
    client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
    return client


def moves(client: httpx2.Client, difficulty: str) -> Iterator[float]:
    """Request after request of one player's matches; yields each move's seconds."""
    state: dict[str, Any] = {"over": True}
    while True:
        if state["over"]:
            state = client.post("/api/games", json={"difficulty": difficulty}).json()["state"]
            continue
        move = {"action": state["legal"][0], "version": state["version"]}
        started = time.perf_counter()
        response = client.post(f"/api/games/{state['id']}/actions", json=move)
        yield time.perf_counter() - started
        state = response.json()["state"]


def measure(inline: bool, experts: int, easy_moves: int, processes: int | None) -> dict[str, Any]:
    thinking = Thinking(processes, inline=inline)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            Settings(database_url=f"sqlite:///{Path(folder) / 'bench.sqlite3'}"),
            rng=random.Random(1),
            password_hasher=PasswordHasher.from_parameters(CHEAPEST),
            thinking=thinking,
        )
        stop = threading.Event()
        expert_times: list[float] = []

        def expert(client: httpx2.Client) -> None:
            for seconds in moves(client, "expert"):
                expert_times.append(seconds)
                if stop.is_set():
                    return

        with serving(app) as url, thinking:
            easy = player(url)
            for _ in zip(range(5), moves(easy, "easy"), strict=False):
                pass  # the server warmed up (and the pool, when the experts begin)
            clients = [player(url) for _ in range(experts)]
            threads = [threading.Thread(target=expert, args=(client,)) for client in clients]
            for thread in threads:
                thread.start()
            while len(expert_times) < experts:  # every expert has moved once: all thinking
                time.sleep(0.01)
            started = time.perf_counter()
            easy_moves_made = zip(range(easy_moves), moves(easy, "easy"), strict=False)
            timings = [seconds for _, seconds in easy_moves_made]
            elapsed = time.perf_counter() - started
            stop.set()
            for thread in threads:
                thread.join()
            for client in [easy, *clients]:
                client.close()
        app.state.services.engine.dispose()
    ordered = sorted(timings)
    return {
        "thinking": "inline" if inline else f"pool of {thinking.processes}",
        "experts_thinking": experts,
        "easy_moves": len(timings),
        "easy_moves_per_second": round(len(timings) / elapsed, 1),
        "easy_ms_p50": round(statistics.median(ordered) * 1000, 2),
        "easy_ms_p99": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2),
        "expert_moves": len(expert_times),
        "expert_ms_p50": round(statistics.median(expert_times) * 1000, 1) if expert_times else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--experts", type=int, nargs="+", default=[0, 1, 2, 4])
    parser.add_argument("--moves", type=int, default=200, help="easy moves timed per run")
    parser.add_argument("--processes", type=int, help="the pool's workers (default: CPUs)")
    args = parser.parse_args()
    print(json.dumps({"cpus": os.cpu_count()}))
    for experts in args.experts:
        for inline in (True, False):
            print(json.dumps(measure(inline, experts, args.moves, args.processes)), flush=True)


if __name__ == "__main__":
    main()
