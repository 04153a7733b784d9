"""What the coach costs: milliseconds per hint and per risk meter, seconds per review.

Plays normal against normal in classic matches and, at every decision of seat 0 with a
choice, asks the coach for a hint at its standard budget (the expert's rollouts), and
for the risk meter at every stop-or-koi-koi decision; then reviews each whole match at
the review budget. One core, deterministic budgets; prints one JSON object.

    python bench/coach.py [--matches 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from functools import partial

from koikoi.coach import HINT_ROLLOUTS, REVIEW_ROLLOUTS, hint, review, risk
from koikoi.match import Match
from koikoi.players import make_player
from koikoi.record import Record
from koikoi.round import Phase
from koikoi.rules import CLASSIC
from players import percentile


def timed_ms(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    hints: list[float] = []
    meters: list[float] = []
    reviews: list[float] = []
    reviewed = 0
    for number in range(args.matches):
        seed = args.seed + number
        match = Match(CLASSIC, seed)
        players = [make_player("normal", seed), make_player("normal", seed + 1)]
        while not match.is_over:
            obs = match.observation(match.turn)
            if match.turn == 0 and len(obs.legal_actions) > 1:
                index = len(match.actions)
                hints.append(timed_ms(partial(hint, obs, index)))
                if obs.phase is Phase.DECISION:
                    meters.append(timed_ms(partial(risk, obs, index)))
            match.apply(players[match.turn].choose(obs))
        record = Record.from_match(match)
        reviews.append(timed_ms(partial(review, record)) / 1000)
        reviewed += len(review(record, rollouts=1).decisions)
    print(
        json.dumps(
            {
                "benchmark": "coach",
                "matches": args.matches,
                "hint_rollouts": HINT_ROLLOUTS,
                "review_rollouts": REVIEW_ROLLOUTS,
                "hints": len(hints),
                "hint_ms": {
                    "mean": round(statistics.fmean(hints), 1),
                    "p50": round(percentile(hints, 0.5), 1),
                    "p95": round(percentile(hints, 0.95), 1),
                },
                "risk_meters": len(meters),
                "risk_ms": {
                    "mean": round(statistics.fmean(meters), 1),
                    "p95": round(percentile(meters, 0.95), 1),
                },
                "review_s_per_match": round(statistics.fmean(reviews), 2),
                "decisions_per_review": round(reviewed / args.matches, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
