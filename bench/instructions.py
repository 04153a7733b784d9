"""Instructions per round under cachegrind: the engine's cost, whatever the machine's speed.

The rounds per second of ``bench/engine.py`` and ``bench/simulate.py`` move by a third
within an hour on a shared machine; the instructions a round takes do not. Each loop
runs under valgrind's cachegrind twice, for no rounds and for N, so start-up cancels
out. Prints one JSON object: instructions per round of the ``koikoi simulate`` loop
(``bench/simulate.py``'s), of the bare engine loop (``bench/engine.py``'s) and of a
deal alone. Needs Debian's ``valgrind``; takes about a minute:
``python bench/instructions.py [--rounds 3000] [--preset NAME] [--players A,B]``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys

from engine import random_rounds
from koikoi.round import Round
from koikoi.rules import PRESETS
from simulate import simulated

LOOPS = ("simulate", "engine", "deal")


def run_loop(loop: str, preset: str, players: list[str], rounds: int) -> None:
    """The loop whose instructions are counted (in the process valgrind runs)."""
    rules = PRESETS[preset]
    if loop == "simulate":
        simulated(rules, players, rounds, seed=0)
    elif loop == "engine":
        random_rounds(rules, rounds, seed=0)
    else:
        rng = random.Random(0)
        for index in range(rounds):
            Round.deal(rules, rng, index & 1)


def instructions(loop: str, preset: str, players: list[str], rounds: int) -> int:
    """Instructions the whole process runs, start-up included."""
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, __file__, "--run", loop, "--preset", preset,
        "--players", ",".join(players), "--rounds", str(rounds),
    ]  # fmt: skip
    finished = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", finished.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{finished.stderr}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS))
    parser.add_argument("--players", default="random,random")
    parser.add_argument("--run", choices=LOOPS, help=argparse.SUPPRESS)  # the counted child
    args = parser.parse_args()
    players = args.players.split(",")
    if args.run:
        run_loop(args.run, args.preset, players, args.rounds)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    per_round = {
        loop: round(
            (
                instructions(loop, args.preset, players, args.rounds)
                - instructions(loop, args.preset, players, 0)
            )
            / args.rounds
        )
        for loop in LOOPS
    }
    result = {
        "benchmark": "instructions",
        "preset": args.preset,
        "players": players,
        "rounds": args.rounds,
        "simulate_per_round": per_round["simulate"],
        "engine_per_round": per_round["engine"],
        "deal": per_round["deal"],
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
