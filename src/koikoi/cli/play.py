"""``koikoi play`` and ``koikoi watch``: the game and its records in the terminal."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import click

from koikoi.cli.common import FilePath, fail, load_rules, rules_options
from koikoi.match import Match
from koikoi.players import make_player
from koikoi.record import RecordError, load_record
from koikoi.rules import RulesError

OPPONENTS = ("easy", "normal", "expert")
EXPERT_BUDGET_MS = 2000.0
"""The expert's thinking time per move, as in the browser game (its rating's budget)."""


def _need_terminal(command: str) -> None:
    # Textual draws on a terminal; piped, it would only print escape codes.
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail(f"koikoi {command} needs a terminal (standard input and output are not one)")


@click.command("play")
@rules_options
@click.option(
    "--opponent", type=click.Choice(OPPONENTS), default="normal", show_default=True,
    help="The computer's level.",
)  # fmt: skip
@click.option(
    "--seed", type=click.IntRange(min=0), help="Deal the same match again. Default: random."
)
@click.option(
    "--budget-ms", type=click.FloatRange(min=1), default=EXPERT_BUDGET_MS, show_default=True,
    help="Expert: thinking time per move.",
)  # fmt: skip
@click.option(
    "--rollouts",
    type=click.IntRange(min=1),
    help="Expert: think a fixed number of rollouts instead.",
)
def play_command(
    rules_spec: str | None,
    assignments: tuple[str, ...],
    opponent: str,
    seed: int | None,
    budget_ms: float,
    rollouts: int | None,
) -> None:
    """Play a match against the computer in the terminal (keys: ? for help)."""
    from koikoi.tui.play import PlayApp  # Textual loads only for the terminal commands

    rules = load_rules(rules_spec, assignments, as_json=False)
    if seed is None:
        seed = random.SystemRandom().getrandbits(48)
    try:
        match = Match(rules, seed)
    except RulesError as error:  # rules that never deal (endless redeals)
        fail(str(error))
    options: dict[str, Any] = {}
    if opponent == "expert":
        options = {"rollouts": rollouts} if rollouts is not None else {"budget_ms": budget_ms}
    computer = make_player(opponent, seed ^ 0x5EED, **options)
    _need_terminal("play")
    PlayApp(match, computer, opponent).run()


@click.command("watch")
@click.argument("record_file", metavar="RECORD", type=FilePath())
def watch_command(record_file: Path) -> None:
    """Step through a record with every card face up (keys: ? for help)."""
    from koikoi.tui.watch import WatchApp, frames

    try:
        steps = frames(load_record(record_file))
    except RecordError as error:
        fail(str(error))
    _need_terminal("watch")
    WatchApp(steps, f"koikoi watch {record_file}").run()
