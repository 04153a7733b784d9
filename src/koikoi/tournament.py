"""Tournaments: players meet in pairs over seat-swapped deals, in parallel, with statistics.

Every deal is played twice, once from each seat, so luck of the cards cancels out
within a pair: a pair's game ``k`` and ``k + 1`` share a seed and swap the seats.
Games run in a ``concurrent.futures`` executor (processes when ``workers > 1``), and
the results are the same whatever the number of workers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from koikoi.match import Match
from koikoi.players import make_player
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


def play_game(game: Game) -> Outcome:
    """Play one game (in a worker process, so it takes and returns plain data)."""
    seats = [game.a, game.b] if game.a_seat == 0 else [game.b, game.a]
    players = [
        make_player(name, game.seed + seat, **game.options.get(name, {}))
        for seat, name in enumerate(seats)
    ]
    if game.single_round:
        match = Match.single(Round.deal(game.rules, game.seed, dealer=game.seed % 2))
    else:
        match = Match(game.rules, game.seed)
    play_out(match, players)
    if game.out is not None:
        Path(game.out).write_text(json.dumps(Record.from_match(match).to_json()) + "\n")
    a, b = game.a_seat, 1 - game.a_seat
    winner = None if match.winner is None else ("a" if match.winner == a else "b")
    return Outcome(
        game.a,
        game.b,
        winner,
        tuple(result.points[a] for result in match.results),
        tuple(result.points[b] for result in match.results),
    )


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


def run(games: Sequence[Game], workers: int = 1) -> Iterator[Outcome]:
    """Play the games, yielding outcomes in schedule order."""
    if workers <= 1:
        yield from map(play_game, games)
        return
    executor: Executor
    with ProcessPoolExecutor(max_workers=workers) as executor:
        chunk = max(1, min(16, len(games) // (workers * 8)))
        yield from executor.map(play_game, games, chunksize=chunk)


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

    def add(self, outcome: Outcome) -> None:
        self.matches += 1
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
