"""Computer players: decision times per level, and the strength ladder.

``python bench/players.py timing`` prints p50/p95 milliseconds per decision for each
level on one core (decisions taken in real matches against normal).
``python bench/players.py ladder --matches 200 [--rollouts N] [--workers K]`` plays
paired classic matches between expert, normal, easy, greedy and random (or the
``--players`` given, programs of the engine protocol included: ``expert,js:expert``
pits the browser's expert against this one) and prints each pair's score with its
95% interval, and the Elo ladder.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from koikoi.match import Match
from koikoi.players import PLAYERS, make_player
from koikoi.rules import PRESETS
from koikoi.tournament import elo_ratings, run, schedule, tally


def decision_times(name: str, matches: int, options: dict[str, Any]) -> list[float]:
    """Milliseconds per decision of ``name`` playing ``matches`` classic matches."""
    times: list[float] = []
    for seed in range(matches):
        match = Match(PRESETS["classic"], seed)
        seat = seed % 2
        players = [make_player("normal", seed), make_player("normal", seed)]
        players[seat] = make_player(name, seed, **options)
        while not match.is_over:
            turn = match.turn
            observation = match.observation(turn)
            started = time.perf_counter()
            action = players[turn].choose(observation)
            if turn == seat:
                times.append((time.perf_counter() - started) * 1000)
            match.apply(action)
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def timing(args: argparse.Namespace) -> dict[str, Any]:
    result: dict[str, Any] = {"benchmark": "player-decision-ms", "preset": "classic"}
    for name in PLAYERS:
        options = {"rollouts": args.rollouts} if name == "expert" and args.rollouts else {}
        matches = args.expert_matches if name == "expert" else args.matches
        times = decision_times(name, matches, options)
        result[name] = {
            "decisions": len(times),
            "p50_ms": round(percentile(times, 0.5), 3),
            "p95_ms": round(percentile(times, 0.95), 3),
            "max_ms": round(max(times), 3),
        }
    return result


SHOWN = ("a", "b", "matches", "a_wins", "b_wins", "draws", "forfeits", "a_score", "a_score_ci95")
"""The figures of each pair that the ladder prints."""


def ladder(args: argparse.Namespace) -> dict[str, Any]:
    names = args.players.split(",")
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    options = {"expert": {"rollouts": args.rollouts}} if args.rollouts else {}
    games = schedule(PRESETS["classic"], pairs, games=args.matches, seed=args.seed, options=options)
    started = time.perf_counter()
    results = tally(run(games, args.workers))
    return {
        "benchmark": "ladder",
        "preset": "classic",
        "expert_rollouts": args.rollouts or "default",
        "seconds": round(time.perf_counter() - started, 1),
        "pairs": [
            {key: value for key, value in result.to_json().items() if key in SHOWN}
            for result in results
        ],
        "elo": elo_ratings(results),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    timing_parser = sub.add_parser("timing")
    timing_parser.add_argument("--matches", type=int, default=20)
    timing_parser.add_argument("--expert-matches", type=int, default=3)
    timing_parser.add_argument("--rollouts", type=int, default=0, help="0: the default")
    ladder_parser = sub.add_parser("ladder")
    ladder_parser.add_argument("--matches", type=int, default=200)
    ladder_parser.add_argument("--rollouts", type=int, default=0, help="0: the default")
    ladder_parser.add_argument("--workers", type=int, default=2)
    ladder_parser.add_argument("--seed", type=int, default=0)
    ladder_parser.add_argument("--players", default="expert,normal,easy,greedy,random")
    args = parser.parse_args()
    print(json.dumps(timing(args) if args.command == "timing" else ladder(args)))


if __name__ == "__main__":
    main()
