"""Engine speed: random-vs-random rounds per second and the cost of each operation.

Prints one JSON object. Run on an otherwise idle machine:
``python bench/engine.py [--rounds N] [--preset NAME] [--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import time
from collections.abc import Callable

from koikoi.round import Round
from koikoi.rules import PRESETS, RuleSet


def random_rounds(rules: RuleSet, count: int, seed: int) -> int:
    """Play ``count`` rounds, each player picking uniformly among ``legal_actions()``."""
    rng = random.Random(seed)
    pick = rng.random
    steps = 0
    for index in range(count):
        game = Round.deal(rules, rng, index & 1)
        while not game.is_over:
            actions = game.legal_actions()
            game.apply(actions[int(pick() * len(actions))])
            steps += 1
    return steps


def timed_random_rounds(rules: RuleSet, count: int, seed: int) -> tuple[float, int]:
    """Seconds for :func:`random_rounds`, and the actions taken in them."""
    started = time.perf_counter()
    steps = random_rounds(rules, count, seed)
    return time.perf_counter() - started, steps


def sample_states(rules: RuleSet, count: int, seed: int) -> list[Round]:
    """Live mid-round states, for timing single operations on realistic positions."""
    rng = random.Random(seed)
    states: list[Round] = []
    while len(states) < count:
        game = Round.deal(rules, rng, len(states) & 1)
        for _ in range(rng.randrange(12)):
            if game.is_over:
                break
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        if not game.is_over:
            states.append(game)
    return states


def per_call_us(states: list[Round], operation: Callable[[Round], object], repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        for state in states:
            operation(state)
    return (time.perf_counter() - started) / (repeat * len(states)) * 1e6


def apply_us(states: list[Round], repeat: int) -> float:
    """The cost of apply alone: each action applied to a fresh copy, minus the copy."""
    pairs = [(state, state.legal_actions()[0]) for state in states]
    started = time.perf_counter()
    for _ in range(repeat):
        for state, action in pairs:
            state.copy().apply(action)
    both = (time.perf_counter() - started) / (repeat * len(pairs)) * 1e6
    return both - per_call_us(states, Round.copy, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--profile", action="store_true", help="add the top functions by time")
    args = parser.parse_args()
    rules = PRESETS[args.preset]

    random_rounds(rules, 500, seed=1)  # warm caches
    best = 0.0
    steps = 0
    for trial in range(3):
        seconds, steps = timed_random_rounds(rules, args.rounds, seed=trial)
        best = max(best, args.rounds / seconds)
    states = sample_states(rules, 500, seed=2)
    result: dict[str, object] = {
        "benchmark": "engine",
        "preset": args.preset,
        "rounds": args.rounds,
        "rounds_per_second": round(best),
        "actions_per_round": round(steps / args.rounds, 2),
        "us_legal_actions": round(per_call_us(states, Round.legal_actions, 200), 3),
        "us_apply": round(apply_us(states, 200), 3),
        "us_copy": round(per_call_us(states, Round.copy, 200), 3),
        "us_observation": round(per_call_us(states, lambda s: s.observation(s.turn), 50), 3),
        "us_deal": round(
            per_call_us(states[:100], lambda s: Round.deal(rules, 5, s.dealer), 50), 3
        ),
    }
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(random_rounds, rules, 5000, 3)
        stats = pstats.Stats(profiler)
        total = sum(entry[2] for entry in stats.stats.values())  # type: ignore[attr-defined]
        top = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:10]  # type: ignore[attr-defined]
        result["profile_share_of_time"] = {
            f"{func[2]} ({func[0].rsplit('/', 1)[-1]}:{func[1]})": round(entry[2] / total, 3)
            for func, entry in top
        }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
