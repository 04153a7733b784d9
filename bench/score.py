"""Scoring speed: ``koikoi score --batch`` lines per second inside the process.

Prints one JSON object: the cost per line of parsing, resolving rules and scoring,
over a mix of presets, house rules and pile sizes.
"""

from __future__ import annotations

import json
import random
import time

from koikoi.cards import SLUGS
from koikoi.cli.score import score_lines
from koikoi.rules import CLASSIC, PRESET_NAMES


def make_lines(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        line: dict[str, object] = {"cards": rng.sample(SLUGS, rng.randrange(1, 25))}
        if rng.random() < 0.7:
            rules: dict[str, object] = {"preset": rng.choice(PRESET_NAMES)}
            if rng.random() < 0.3:
                rules["kusatan"] = 5
            line["rules"] = rules
        if rng.random() < 0.3:
            line["own_calls"] = rng.randrange(3)
            line["opponent_calls"] = rng.randrange(3)
        lines.append(json.dumps(line))
    return lines


def main() -> None:
    lines = make_lines(20000, seed=1)
    list(score_lines(lines[:500], CLASSIC))  # warm the rule cache
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _answer in score_lines(lines, CLASSIC):
            pass
        best = min(best, (time.perf_counter() - started) / len(lines))
    print(
        json.dumps(
            {"benchmark": "score-batch", "lines": len(lines), "us_per_line": round(best * 1e6, 2)}
        )
    )


if __name__ == "__main__":
    main()
