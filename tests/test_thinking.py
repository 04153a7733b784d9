"""The computer thinks in worker processes: the same moves as in the request, while the
server's requests go on without waiting behind it."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import select
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator, Mapping
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient

from koikoi.match import Match
from koikoi.players import make_player
from koikoi.round import Action, Observation, Phase
from koikoi.rules import PRESETS
from koikoi.server.thinking import Thinking, think
from servers import make_app, new_game, plain_move, refresh_csrf, serving

LEVELS = ("easy", "normal", "expert")
OPTIONS: dict[str, dict[str, Any]] = {"easy": {}, "normal": {}, "expert": {"rollouts": 60}}
SEEDS = (0, 1, 2**48 + 5, 2**63 - 1)


def positions() -> list[Observation]:
    """Moments of two matches with a choice to make, of every kind: plays, captures
    chosen from the hand and from the draw, koi-koi or stop."""
    found: dict[Phase, list[Observation]] = {}
    for seed in (3, 4):
        match = Match(PRESETS["classic"], seed)
        players = [make_player("normal", seed), make_player("easy", seed)]
        while not match.is_over:
            observation = match.observation(match.turn)
            if len(observation.legal_actions) > 1:
                found.setdefault(observation.phase, []).append(observation)
            match.apply(players[match.turn].choose(observation))
    assert set(found) == {Phase.PLAY, Phase.HAND_CHOICE, Phase.DRAW_CHOICE, Phase.DECISION}
    return [observation for seen in found.values() for observation in seen[::4][:4]]


@pytest.fixture(scope="module")
def pool() -> Iterator[Thinking]:
    with Thinking(processes=2) as thinking:
        yield thinking


def test_observations_travel_whole() -> None:
    for observation in positions():
        copy = pickle.loads(pickle.dumps(observation))
        assert copy == observation
        assert (copy.yaku, copy.history, copy.unseen) == (
            observation.yaku,
            observation.history,
            observation.unseen,
        )


def test_the_pool_chooses_what_the_request_would(pool: Thinking) -> None:
    seen = positions()
    for level in LEVELS:
        for index, observation in enumerate(seen):
            seed = SEEDS[index % len(SEEDS)]
            here = make_player(level, seed, **OPTIONS[level]).choose(observation)
            assert pool.choose(level, seed, OPTIONS[level], observation) == here, (level, index)
    # The positions tell seeds and options apart, so a pool that lost either would fail.
    assert any(
        len({think("expert", seed, OPTIONS["expert"], observation) for seed in SEEDS}) > 1
        for observation in seen
    )
    assert any(
        think("expert", 1, {"rollouts": 2}, observation)
        != think("expert", 1, OPTIONS["expert"], observation)
        for observation in seen
    )


def test_a_killed_worker_is_replaced() -> None:
    observation = positions()[0]
    quick = {"rollouts": 8}
    expected = think("expert", 7, quick, observation)
    before = set(multiprocessing.active_children())
    with Thinking(processes=1) as thinking:
        assert thinking.choose("expert", 7, quick, observation) == expected
        (worker,) = set(multiprocessing.active_children()) - before
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGKILL)
        worker.join()
        assert thinking.choose("expert", 7, quick, observation) == expected


class Watched(Thinking):
    """The pool, telling the test when the expert's first choice begins and ends."""

    def __init__(self, started: threading.Event, **options: Any) -> None:
        super().__init__(**options)
        self.started = started
        self.expert_thinking = threading.Event()
        self.expert_done = threading.Event()

    def choose(
        self, difficulty: str, seed: int, options: Mapping[str, Any], observation: Observation
    ) -> Action:
        if difficulty != "expert":
            return super().choose(difficulty, seed, options, observation)
        self.expert_thinking.set()
        self.started.set()
        try:
            return super().choose(difficulty, seed, options, observation)
        finally:
            self.expert_done.set()


def start(client: httpx2.Client, level: str) -> dict[str, Any]:
    """A new match against the ``level`` computer; its state."""
    response = client.post("/api/games", json={"difficulty": level})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()["state"]
    return state


def test_a_thinking_expert_keeps_no_one_waiting(sqlite_url: str) -> None:
    # A thread holds the GIL for as long as it computes, up to the switch interval: a
    # long interval makes the fault this guards against certain instead of likely. An
    # expert thinking in the server's process would then hold every other request
    # until its move was made; thinking in a worker, it holds none.
    started = threading.Event()
    thinking = Watched(started, processes=2)
    slow = {"rollouts": 10**9, "budget_ms": 2000}
    app = make_app(sqlite_url, thinking=thinking, expert_options=slow)
    interval = sys.getswitchinterval()
    with serving(app) as url, thinking:
        players = {level: httpx2.Client(base_url=url, timeout=60) for level in LEVELS}
        for client in players.values():
            client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
        states = {level: start(players[level], level) for level in ("easy", "normal")}
        # The workers are up (unwatched: the events are for the expert of the test).
        Thinking.choose(thinking, "expert", 1, {"rollouts": 8}, positions()[0])
        answers: list[httpx2.Response] = []

        def expert() -> None:
            try:
                client = players["expert"]
                answers.append(client.post("/api/games", json={"difficulty": "expert"}))
                state = answers[0].json()["state"]
                if not thinking.expert_thinking.is_set():  # the player deals: a move first
                    move = {"action": plain_move(state), "version": state["version"]}
                    answers.append(client.post(f"/api/games/{state['id']}/actions", json=move))
            finally:
                started.set()

        sys.setswitchinterval(60)
        try:
            worker = threading.Thread(target=expert)
            worker.start()
            started.wait()
            assert thinking.expert_thinking.is_set(), "the expert's move never reached thinking"
            for level, state in states.items():
                move = {"action": plain_move(state), "version": state["version"]}
                response = players[level].post(f"/api/games/{state['id']}/actions", json=move)
                assert response.status_code == 200, response.text
                assert not thinking.expert_done.is_set(), f"the {level} move waited for the expert"
            worker.join()
        finally:
            sys.setswitchinterval(interval)
        assert [answer.status_code for answer in answers] in ([201], [201, 200]), answers
        for client in players.values():
            client.close()


def test_the_pool_stops_with_the_app(sqlite_url: str) -> None:
    thinking = Thinking(processes=1)
    app: FastAPI = make_app(sqlite_url, thinking=thinking)
    before = set(multiprocessing.active_children())
    with TestClient(app) as client:
        refresh_csrf(client)
        body = new_game(client, "expert")
        state = body["state"]
        move = {"action": plain_move(state), "version": state["version"]}
        assert client.post(f"/api/games/{state['id']}/actions", json=move).status_code == 200
        workers = set(multiprocessing.active_children()) - before
        assert workers, "the expert thought in no worker"
        assert thinking.running
    assert not thinking.running
    assert not any(worker.is_alive() for worker in workers)


WORKER_THEN_KILLED = """
    import os, multiprocessing, signal
    from koikoi.match import Match
    from koikoi.rules import PRESETS
    from koikoi.server.thinking import Thinking

    if __name__ == "__main__":
        match = Match(PRESETS["classic"], 1)
        Thinking(processes=1).choose("expert", 1, {"rollouts": 4}, match.observation(match.turn))
        (worker,) = multiprocessing.active_children()
        print(worker.pid, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits on a process with pidfd_open")
def test_workers_end_with_a_killed_server(tmp_path: Any) -> None:
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent(WORKER_THEN_KILLED))
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    pid = int(server.stdout.readline())
    server.stdout.close()
    assert server.wait() == -signal.SIGKILL
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return  # ended and reaped already
    try:
        # Readable once the worker has ended; the timeout only fails a worker that
        # never does.
        ready, _, _ = select.select([handle], [], [], 60)
    finally:
        os.close(handle)
    if not ready:
        os.kill(pid, signal.SIGKILL)
    assert ready, "the worker outlived its server"
