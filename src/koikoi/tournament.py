"""Tournaments: players meet in pairs over seat-swapped deals, in parallel, with statistics.

Every deal is played twice, once from each seat, so luck of the cards cancels out
within a pair: a pair's game ``k`` and ``k + 1`` share a seed and swap the seats.
Games run in a ``concurrent.futures`` executor (processes when ``workers > 1``) or as
Ray tasks on a cluster (the ``ray`` extra), both running :func:`play_games`, and the
results are the same whatever the backend or the number of workers.
"""

from __future__ import annotations

import json
import logging
import math
import os
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import chain, combinations
from pathlib import Path
from typing import Any, Literal

from koikoi.match import Match
from koikoi.players import make_player
from koikoi.players.protocol import PlayerError
from koikoi.record import Record
from koikoi.round import Round
from koikoi.rules import RuleSet
from koikoi.sim import game_seeds, play_out

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


@dataclass(frozen=True)
class Game:
    """One game of a tournament: who sits where, with which seed."""

    a: str
    b: str
    seed: int
    a_seat: int  # the seat player ``a`` takes; ``b`` takes the other
    single_round: bool
    rules: RuleSet
    options: dict[str, dict[str, Any]]  # factory options by player name
    out: str | None  # a file for the record, or None


@dataclass(frozen=True)
class Outcome:
    """A finished game from ``a``'s point of view."""

    a: str
    b: str
    winner: str | None  # "a", "b" or None for a draw
    a_points: tuple[int, ...]  # per round
    b_points: tuple[int, ...]
    forfeit: str | None = None  # what the player who forfeited did wrong


def play_game(game: Game) -> Outcome:
    """Play one game, writing its record where ``game.out`` says."""
    ((outcome, record),) = play_games([game])
    _write_record(game, record)
    return outcome


def play_games(games: Sequence[Game]) -> list[tuple[Outcome, dict[str, Any] | None]]:
    """The task every backend runs: some games, each with its record when one is kept.

    It takes and returns plain data and writes nothing, so it runs the same in this
    process, a worker process or on any node of a Ray cluster; the caller writes the
    records, on the machine that asked for them.
    """
    return [_play(game) for game in games]


def _play(game: Game) -> tuple[Outcome, dict[str, Any] | None]:
    seats = [game.a, game.b] if game.a_seat == 0 else [game.b, game.a]
    players = [
        make_player(name, game.seed + seat, **game.options.get(name, {}))
        for seat, name in enumerate(seats)
    ]
    if game.single_round:
        match = Match.single(Round.deal(game.rules, game.seed, dealer=game.seed % 2))
    else:
        match = Match(game.rules, game.seed)
    a = game.a_seat
    try:
        play_out(match, players)
    except PlayerError as error:
        # A program that breaks the protocol loses the game; the tournament goes on.
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()
        # The seat to move is the one whose program failed: the other side wins.
        return _outcome(game, match, "b" if match.turn == a else "a", str(error)), None
    record = None if game.out is None else Record.from_match(match).to_json()
    winner = None if match.winner is None else ("a" if match.winner == a else "b")
    return _outcome(game, match, winner), record


def _outcome(game: Game, match: Match, winner: str | None, forfeit: str | None = None) -> Outcome:
    a, b = game.a_seat, 1 - game.a_seat
    return Outcome(
        game.a,
        game.b,
        winner,
        tuple(result.points[a] for result in match.results),
        tuple(result.points[b] for result in match.results),
        forfeit,
    )


def _write_record(game: Game, record: dict[str, Any] | None) -> None:
    if game.out is not None and record is not None:
        Path(game.out).write_text(json.dumps(record) + "\n")


def schedule(
    rules: RuleSet,
    pairs: Sequence[tuple[str, str]],
    *,
    games: int,
    seed: int,
    single_round: bool = False,
    options: dict[str, dict[str, Any]] | None = None,
    out: Path | None = None,
) -> list[Game]:
    """``games`` games per pair (rounded up to even), seat-swapped two by two.

    Every pair plays the same seeds, so all pairs meet the same deals.
    """
    seeds = game_seeds(seed, (games + 1) // 2)
    plan = []
    for a, b in pairs:
        for index, game_seed in enumerate(seeds):
            for a_seat in (0, 1):
                name = f"{a}-{b}-{2 * index + a_seat + 1:05d}.json"
                plan.append(
                    Game(
                        a, b, game_seed, a_seat, single_round, rules, options or {},
                        None if out is None else str(out / name),
                    )
                )  # fmt: skip
    return plan


Backend = Literal["process", "ray"]
BACKENDS: tuple[Backend, ...] = ("process", "ray")


class BackendError(RuntimeError):
    """A backend that cannot run: Ray missing, or a cluster that cannot be joined."""


def run(
    games: Sequence[Game],
    workers: int = 1,
    *,
    backend: Backend = "process",
    address: str | None = None,
) -> Iterator[Outcome]:
    """Play the games, yielding outcomes in schedule order (records written as they come).

    ``backend="ray"`` joins the Ray cluster at ``address`` (or ``RAY_ADDRESS``), or
    starts a local instance with ``workers`` CPUs; a Ray already initialised in this
    process is used as it is.
    """
    if backend == "ray":
        played = _run_ray(games, workers, address)
    elif workers <= 1:
        played = (play_games([game]) for game in games)
    else:
        played = _run_processes(games, workers)
    for game, (outcome, record) in zip(games, chain.from_iterable(played), strict=True):
        _write_record(game, record)
        yield outcome


def _chunks(games: Sequence[Game], workers: int) -> list[Sequence[Game]]:
    # Big enough to amortise sending a task, small enough to keep every worker busy
    # to the end and the progress bar moving.
    size = max(1, min(16, len(games) // (workers * 8)))
    return [games[start : start + size] for start in range(0, len(games), size)]


def _run_processes(
    games: Sequence[Game], workers: int
) -> Iterator[list[tuple[Outcome, dict[str, Any] | None]]]:
    executor: Executor
    with ProcessPoolExecutor(max_workers=workers) as executor:
        yield from executor.map(play_games, _chunks(games, workers))


RAY_CONNECT_SECONDS = 5.0
"""How long a cluster's address may take to answer before the tournament gives up on
it (Ray itself retries for a minute and more)."""


def _check_reachable(address: str) -> None:
    """Refuse, within seconds and by name, a cluster address (``host:port`` or
    ``ray://host:port``) where nothing answers; ``auto`` and the like are Ray's."""
    where = address.removeprefix("ray://")
    host, colon, port = where.rpartition(":")
    if not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), RAY_CONNECT_SECONDS).close()
    except OSError as error:
        reason = error.strerror or "no answer"
        raise BackendError(f"cannot reach the Ray cluster at {address!r}: {reason}") from None


def _run_ray(
    games: Sequence[Game], workers: int, address: str | None
) -> Iterator[list[tuple[Outcome, dict[str, Any] | None]]]:
    try:
        import ray
    except ImportError:
        raise BackendError("--backend ray needs Ray: pip install 'koikoi[ray]'") from None
    # ray.init reads RAY_ADDRESS too, but a local start must know it is not joining.
    address = address or os.environ.get("RAY_ADDRESS") or None
    started = not ray.is_initialized()
    if started and address is not None:
        _check_reachable(address)
    if started:
        try:
            ray.init(
                address=address,
                # A local instance gets the CPUs asked for; a cluster has its own.
                num_cpus=None if address else workers,
                include_dashboard=False,
                logging_level=logging.WARNING,
            )
        except Exception as error:  # Ray raises many kinds for a cluster it cannot reach
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            raise BackendError(f"cannot start or join {where}: {error}") from None
    try:
        task = ray.remote(play_games)
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]  # untyped in Ray
        cpus = max(1, int(resources.get("CPU", 1)))
        # Submitted all at once, collected in order: Ray schedules them across the
        # cluster while the results come back in schedule order.
        pending = [task.remote(chunk) for chunk in _chunks(games, cpus)]
        for reference in pending:
            yield ray.get(reference)
    finally:
        if started:
            ray.shutdown()


@dataclass
class PairResult:
    """Everything measured between two players."""

    a: str
    b: str
    matches: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    a_points: list[int] = field(default_factory=list)  # per round
    b_points: list[int] = field(default_factory=list)
    forfeits: list[str] = field(default_factory=list)  # what each forfeiting player did

    def add(self, outcome: Outcome) -> None:
        self.matches += 1
        if outcome.forfeit is not None:
            self.forfeits.append(outcome.forfeit)
        if outcome.winner == "a":
            self.a_wins += 1
        elif outcome.winner == "b":
            self.b_wins += 1
        else:
            self.draws += 1
        self.a_points.extend(outcome.a_points)
        self.b_points.extend(outcome.b_points)

    @property
    def rounds(self) -> int:
        return len(self.a_points)

    @property
    def a_score(self) -> float:
        """``a``'s share of the matches, a draw counting half."""
        return (self.a_wins + self.draws / 2) / self.matches if self.matches else 0.5

    def a_score_interval(self) -> tuple[float, float]:
        """A 95% Wilson interval for ``a``'s share of the matches."""
        return wilson_interval(self.a_wins + self.draws / 2, self.matches)

    def to_json(self) -> dict[str, Any]:
        """The shape ``koikoi tournament --json`` promises, plus intervals."""
        low, high = self.a_score_interval()
        a_mean, a_half = mean_interval(self.a_points)
        b_mean, b_half = mean_interval(self.b_points)
        return {
            "a": self.a,
            "b": self.b,
            "matches": self.matches,
            "rounds": self.rounds,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "draws": self.draws,
            "forfeits": len(self.forfeits),
            "a_points_per_round": round(a_mean, 4),
            "b_points_per_round": round(b_mean, 4),
            "a_score": round(self.a_score, 4),
            "a_score_ci95": [round(low, 4), round(high, 4)],
            "a_points_per_round_ci95": [round(a_mean - a_half, 4), round(a_mean + a_half, 4)],
            "b_points_per_round_ci95": [round(b_mean - b_half, 4), round(b_mean + b_half, 4)],
        }


def wilson_interval(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion.

    >>> low, high = wilson_interval(80, 100)
    >>> round(low, 3), round(high, 3)
    (0.711, 0.867)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return centre - half, centre + half


def mean_interval(values: Sequence[int]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(variance / n)


def elo_ratings(results: Iterable[PairResult], anchor: float = 1500.0) -> dict[str, float]:
    """Elo ratings fitted to all match results (Bradley-Terry), averaging ``anchor``.

    Each pair also counts one virtual draw, so a clean sweep gives a large but finite gap.
    """
    results = list(results)
    names = sorted({r.a for r in results} | {r.b for r in results})
    if not names:
        return {}
    strength = dict.fromkeys(names, 1.0)
    score = dict.fromkeys(names, 0.0)
    games: dict[tuple[str, str], float] = {}
    for r in results:
        a_score = r.a_wins + r.draws / 2 + 0.5
        score[r.a] += a_score
        score[r.b] += r.matches + 1 - a_score
        games[r.a, r.b] = games.get((r.a, r.b), 0) + r.matches + 1
    for _ in range(500):  # the minorisation-maximisation iteration of Bradley-Terry
        updated = {}
        for name in names:
            denominator = sum(
                n / (strength[name] + strength[b if a == name else a])
                for (a, b), n in games.items()
                if name in (a, b)
            )
            updated[name] = score[name] / denominator if denominator else strength[name]
        mean_log = sum(math.log(value) for value in updated.values()) / len(names)
        strength = {name: value / math.exp(mean_log) for name, value in updated.items()}
    return {name: round(anchor + 400 * math.log10(strength[name]), 1) for name in names}


def round_robin(players: Sequence[str]) -> list[tuple[str, str]]:
    return list(combinations(players, 2))


def tally(
    outcomes: Iterable[Outcome], on_outcome: Callable[[], None] | None = None
) -> list[PairResult]:
    """Gather outcomes into one result per pair, in the order pairs first appear."""
    by_pair: dict[tuple[str, str], PairResult] = {}
    for outcome in outcomes:
        key = (outcome.a, outcome.b)
        if key not in by_pair:
            by_pair[key] = PairResult(outcome.a, outcome.b)
        by_pair[key].add(outcome)
        if on_outcome is not None:
            on_outcome()
    return list(by_pair.values())
