"""Simulation speed: ``koikoi simulate --rounds N`` in rounds per second on one core.

Runs the loop ``koikoi simulate`` runs (:func:`koikoi.sim.simulate` into a
:class:`~koikoi.sim.Tally`) in process, without the progress bar, and prints one JSON
object: the best and the range of the trials' rounds per second, the decisions per
round, and what one observation costs, built alone and built with every attribute read.
Each trial also times ``bench/engine.py``'s bare engine loop just before, and the
median ratio of the two is a figure that a shared machine's changing speed moves far
less than either rate. Run on an otherwise idle core:
``python bench/simulate.py [--rounds N] [--preset NAME] [--players A,B] [--trials N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from engine import per_call_us, sample_states, timed_random_rounds
from koikoi.round import Observation, Round
from koikoi.rules import PRESETS, RuleSet
from koikoi.sim import Tally, simulate

PUBLIC = [
    name
    for name in dir(Observation)
    if not name.startswith("_") and not callable(getattr(Observation, name))
]
"""Every attribute a player can read (lazy ones included: reading them all costs most)."""


def simulated(rules: RuleSet, players: list[str], rounds: int, seed: int) -> tuple[float, int]:
    """Seconds for ``rounds`` single deals, and the decisions taken in them."""
    tally = Tally()
    decisions = 0
    started = time.perf_counter()
    for match in simulate(rules, players, seed=seed, rounds=rounds):
        tally.add(match)
        decisions += len(match.actions)
    return time.perf_counter() - started, decisions


def read_all(game: Round) -> None:
    obs = game.observation(game.turn)
    for name in PUBLIC:
        getattr(obs, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--players", default="random,random")
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    rules = PRESETS[args.preset]
    players = args.players.split(",")

    simulated(rules, players, 500, seed=1)  # warm caches
    speeds = []
    ratios = []
    decisions = 0
    for trial in range(args.trials):
        engine_seconds, _ = timed_random_rounds(rules, args.rounds, seed=trial)
        seconds, decisions = simulated(rules, players, args.rounds, seed=trial)
        speeds.append(args.rounds / seconds)
        ratios.append(engine_seconds / seconds)
    states = sample_states(rules, 500, seed=2)
    result = {
        "benchmark": "simulate",
        "preset": args.preset,
        "players": players,
        "rounds": args.rounds,
        "rounds_per_second": round(max(speeds)),
        "rounds_per_second_range": [round(min(speeds)), round(max(speeds))],
        "share_of_engine_speed": round(statistics.median(ratios), 3),
        "decisions_per_round": round(decisions / args.rounds, 2),
        "us_observation": round(per_call_us(states, lambda s: s.observation(s.turn), 50), 3),
        "us_observation_read_all": round(per_call_us(states, read_all, 20), 3),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
