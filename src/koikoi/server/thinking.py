"""Where the server's computer thinks: in worker processes, away from the web requests.

The routes are plain functions that uvicorn runs in threads of one process, so a
computer that thinks in a request holds the GIL for as long as it thinks: the
expert's tenth of a second (or its whole budget) per move slows every other request
of the process, and one player's slow expert delays another's move. :class:`Thinking`
sends the choices of the levels that think (``normal`` and ``expert``) to a pool of
worker processes instead, and the request only waits for the answer; the easy
computer's choice costs less than the trip, so it is made in the request.

A worker plays exactly what the request would have: :func:`think` builds the player
from its name, seed and options and asks it, so the same seed makes the same move
wherever it is thought (the expert's ``budget_ms`` is a wall-clock cap, as it is
in a request). Observations travel pickled (``Observation.__reduce__``).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, TypeVar

from koikoi.players import make_player
from koikoi.round import Action, Observation
from koikoi.server.errors import Refused

T = TypeVar("T")

POOLED = frozenset({"expert"})
"""The levels whose choices are thought in the pool; any other is made where asked
(easy and normal choose in a fraction of a millisecond, less than a trip to the pool)."""
"""The environment variable that sets the pool's worker count (default: the CPUs)."""
START_METHOD = "spawn"
"""How workers start: a fresh interpreter, never a fork of the threaded server (a fork
copies whatever locks its other threads held at that moment)."""


def think(
    difficulty: str, seed: int, options: Mapping[str, Any], observation: Observation
) -> Action:
    """The choice of the player ``make_player(difficulty, seed, **options)`` at
    ``observation``: what a worker runs (a module function, so it pickles by name)."""
    return make_player(difficulty, seed, **options).choose(observation)


def start_worker() -> None:
    """A worker's first steps. Ctrl+C in the server's terminal reaches the workers too:
    they leave it to the server, which stops them when it stops. And a worker ends with
    the server however the server ends: killed, it has no chance to stop them, and a
    worker waiting for work would wait for ever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()


def _end_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # ready once the server has ended
    os._exit(0)


COACH_WAITING = 8
"""Coach's jobs (hints, reviews) that may wait for a worker at once, server-wide."""
COACH_PATIENCE = 30.0
"""Seconds a coach's job waits for a worker before it is refused."""


class CoachBusy(Refused):
    """The coach's lane is full: ask again in a few seconds."""

    status = 503

    def __init__(self, message: str) -> None:
        super().__init__(message, retry_after=5)


class Thinking:
    """The computer's choices, thought in a pool of ``processes`` workers (by default
    one per CPU), or all in the caller with ``inline=True``.

    The pool starts at the first choice that needs it, with all its workers at once
    (in parallel, so a later move never waits for a process to start), and lasts until
    :meth:`close`; a choice after that starts a fresh one. Safe to share between
    threads: each choice waits only for its own answer.
    """

    def __init__(self, processes: int | None = None, *, inline: bool = False) -> None:
        if processes is not None and processes < 1:
            raise ValueError(f"a thinking pool needs at least one process, not {processes}")
        self.inline = inline
        self.processes = 1 if inline else processes or os.cpu_count() or 1
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        # The coach's own lane: so many of its jobs in the pool at once, a worker always
        # left to the moves, and so many more waiting their turn (see coach).
        self._coaching = threading.BoundedSemaphore(max(1, self.processes - 1))
        self._coach_line = threading.BoundedSemaphore(COACH_WAITING + max(1, self.processes - 1))

    @property
    def running(self) -> bool:
        """Whether the pool's workers are up (or starting)."""
        return self._executor is not None

    def choose(
        self, difficulty: str, seed: int, options: Mapping[str, Any], observation: Observation
    ) -> Action:
        """The action ``make_player(difficulty, seed, **options).choose(observation)``
        returns; the levels in :data:`POOLED` think in a worker while this waits."""
        if self.inline or difficulty not in POOLED:
            return think(difficulty, seed, options, observation)
        return self.run(think, difficulty, seed, dict(options), observation)

    def run(self, function: Callable[..., T], *arguments: Any) -> T:
        """``function(*arguments)`` in a worker (in the caller when inline): for work as
        long as the expert's, such as the coach's. ``function`` must be a module's, so
        that it pickles by name."""
        if self.inline:
            return function(*arguments)
        executor = self._pool()
        try:
            return executor.submit(function, *arguments).result()
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the pool is of no more use, so this
            # call, and the server's later ones, go to a fresh pool.
            self._discard(executor)
            return self._pool().submit(function, *arguments).result()

    def coach(self, function: Callable[..., T], *arguments: Any) -> T:
        """``function(*arguments)`` as :meth:`run` does, in the coach's lane below the
        moves: at most one job fewer than the pool has workers runs at once (one, for
        a pool of one), so a move always finds a worker; at most COACH_WAITING more
        wait, for COACH_PATIENCE at most. Beyond that, :class:`CoachBusy` (503)."""
        if not self._coach_line.acquire(blocking=False):
            raise CoachBusy("the coach has too many questions waiting; ask again shortly")
        try:
            if not self._coaching.acquire(timeout=COACH_PATIENCE):
                raise CoachBusy("the coach is busy; ask again shortly")
            try:
                return self.run(function, *arguments)
            finally:
                self._coaching.release()
        finally:
            self._coach_line.release()

    def close(self) -> None:
        """Stop the workers, once the choices they are thinking are made."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> Thinking:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                executor = ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context(START_METHOD),
                    initializer=start_worker,
                )
                # The executor starts a worker per task it cannot hand to an idle one, so
                # a task for each starts them all now, side by side.
                for _ in range(self.processes):
                    executor.submit(os.getpid)
                self._executor = executor
            return self._executor

    def _discard(self, executor: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is executor:
                self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)


@dataclass(frozen=True)
class Chooser:
    """The server's computer player: where it thinks, and the options that tune the
    expert (``rollouts``, ``budget_ms``; the other levels take none)."""

    thinking: Thinking
    expert_options: Mapping[str, Any] = field(default_factory=dict)

    def choose(self, difficulty: str, seed: int, observation: Observation) -> Action:
        """The ``difficulty`` computer's choice at ``observation``, from ``seed``."""
        options = self.expert_options if difficulty == "expert" else {}
        return self.thinking.choose(difficulty, seed, options, observation)
