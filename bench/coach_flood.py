"""Other players' expert moves while one browser floods the coach with hints.

Starts one ``koikoi serve`` process (its thinking pool: one worker per CPU, the
expert at its standard budget) on a fresh SQLite database, on a socket this program
opens and hands over with ``--fd``. ``--experts`` players play the expert move after
move; one guest browser runs ``--flooders`` loops at once, each asking for a hint in
a practice match of its own and then making the move (so every hint is of a new
position), as fast as the server answers. A player has at most 10 matches in progress
(koikoi.server.gamestore.MAX_IN_PROGRESS), so loops past ten wait for a match of their
own and flood no more than ten do; ten is already more than the coach's lane admits.
The experts' move latency is what the flood costs everyone else; the hints' answers
say how the server held the flood off.

The serving process is ``--python -m koikoi serve``: another checkout's interpreter
(or this one with ``PYTHONPATH`` set to another checkout's ``src``) measures that
version with this same program. Prints one JSON object.

    python bench/coach_flood.py [--experts 2] [--flooders 10] [--seconds 60]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2


def browser(url: str) -> httpx2.Client:
    """A guest's browser: its session and CSRF token."""
    client = httpx2.Client(base_url=url, timeout=600)
    client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
    return client


def play(client: httpx2.Client, difficulty: str, state: dict[str, Any]) -> dict[str, Any]:
    """One move (a new match once one is over); the state after it. A refusal (the
    browser's matches in progress at the most a player may have, say) waits as long as
    the server asks and leaves no match, so the next call starts one again."""
    if state.get("over", True):
        answer = client.post("/api/games", json={"difficulty": difficulty, "ranked": False})
    else:
        move = {"action": state["legal"][0], "version": state["version"]}
        answer = client.post(f"/api/games/{state['id']}/actions", json=move)
    if not answer.is_success:
        time.sleep(float(answer.headers.get("Retry-After", "1")))
        return {}
    return dict(answer.json()["state"])


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 1)


def measure(python: str, experts: int, flooders: int, seconds: float) -> dict[str, Any]:
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(1024)
    url = f"http://127.0.0.1:{listening.getsockname()[1]}"
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        command = [python, "-m", "koikoi", "serve", "--fd", str(listening.fileno())]
        server = subprocess.Popen(
            [*command, "--database", database, "--log-level", "warning"],
            pass_fds=[listening.fileno()],
            stdout=subprocess.DEVNULL,
            env={**os.environ},
        )
        try:
            return _flooded(url, experts, flooders, seconds)
        finally:
            server.terminate()
            server.wait(timeout=60)
            listening.close()


def _flooded(url: str, experts: int, flooders: int, seconds: float) -> dict[str, Any]:
    browser(url).close()  # the first request waits while the server starts
    stop = threading.Event()
    expert_moves: list[float] = []
    hints: Counter[int] = Counter()
    hint_times: list[float] = []
    lock = threading.Lock()

    def expert_player() -> None:
        client = browser(url)
        state: dict[str, Any] = {}
        while not stop.is_set():
            began = time.perf_counter()
            moving = not state.get("over", True)
            state = play(client, "expert", state)
            if moving:
                with lock:
                    expert_moves.append(time.perf_counter() - began)
        client.close()

    flooder = browser(url)  # one guest: every loop shares its session

    def flood() -> None:
        state: dict[str, Any] = {}
        while not stop.is_set():
            if not state.get("over", True):
                began = time.perf_counter()
                answer = flooder.get(f"/api/games/{state['id']}/hint")
                with lock:
                    hints[answer.status_code] += 1
                    if answer.status_code == 200:
                        hint_times.append(time.perf_counter() - began)
                if answer.status_code in (429, 503):
                    time.sleep(float(answer.headers.get("Retry-After", "1")))
            state = play(flooder, "easy", state)

    threads = [threading.Thread(target=expert_player) for _ in range(experts)]
    threads += [threading.Thread(target=flood) for _ in range(flooders)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    flooder.close()
    return {
        "experts": experts,
        "flooders": flooders,
        "seconds": seconds,
        "expert_moves": len(expert_moves),
        "expert_move_ms": {
            "p50": percentile(expert_moves, 0.5),
            "p95": percentile(expert_moves, 0.95),
            "max": percentile(expert_moves, 1.0),
            "mean": round(statistics.mean(expert_moves) * 1000, 1) if expert_moves else None,
        },
        "hints": {str(status): count for status, count in sorted(hints.items())},
        "hint_ms_p50": percentile(hint_times, 0.5),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--experts", type=int, default=2)
    parser.add_argument("--flooders", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--python", default=sys.executable, help="the server's interpreter")
    options = parser.parse_args()
    print(json.dumps(measure(options.python, options.experts, options.flooders, options.seconds)))


if __name__ == "__main__":
    main()
