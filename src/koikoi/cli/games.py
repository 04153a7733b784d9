"""``koikoi replay`` and ``koikoi simulate``: records in, records out."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from koikoi.cli.common import (
    FilePath,
    engine_option,
    fail,
    load_rules,
    make_folder,
    player_names,
    replayed,
    rules_options,
    run_with_node,
)
from koikoi.jsengine import PROGRAMS
from koikoi.players import PLAYERS
from koikoi.players.protocol import PlayerError
from koikoi.record import Record, replay_output
from koikoi.sim import Tally, simulate


@click.command("replay")
@click.argument("file", type=FilePath())
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@engine_option("replays")
def replay_command(file: Path, as_json: bool, engine: str) -> None:
    """Replay a record, re-checking every action and stored result."""
    if engine == "js":
        # The text table is laid out for the width this console has, as Python's is.
        width = ["--width", str(Console().width)]
        run_with_node(
            NODE_REPLAY.name,
            *width,
            *(["--json"] if as_json else []),
            "--",
            str(file),
            as_json=as_json,
        )
        return
    match = replayed(file, as_json=as_json)
    output = replay_output(match)
    if as_json:
        click.echo(json.dumps(output))
        return
    table = Table("round", "winner", "points", "calls", "yaku (seat 0)", "yaku (seat 1)")
    for number, result in enumerate(match.results, start=1):
        table.add_row(
            str(number),
            "-" if result.winner is None else str(result.winner),
            f"{result.points[0]} : {result.points[1]}",
            f"{result.calls[0]} : {result.calls[1]}",
            ", ".join(f"{k} {v}" for k, v in result.yaku[0].items()),
            ", ".join(f"{k} {v}" for k, v in result.yaku[1].items()),
        )
    console = Console()
    console.print(table)
    winner = "a tie" if output["winner"] is None else f"seat {output['winner']} wins"
    state = "" if match.is_over else " (the record stops before the end)"
    console.print(f"Totals {output['totals'][0]} : {output['totals'][1]}, {winner}{state}")


NODE_REPLAY = PROGRAMS / "replay-cli.mjs"
"""The browser's engine's replay command, run under Node.js by ``--engine js``."""


def _player_list(_ctx: click.Context, _param: click.Parameter, value: str) -> list[str]:
    names = player_names(value)
    if len(names) != 2:
        raise click.BadParameter(f"two players, comma-separated, not {value!r}")
    return names


@click.command("simulate")
@rules_options
@click.option(
    "--players", default="random,random", callback=_player_list, show_default=True,
    help=f"Two players, seat 0 then seat 1: {', '.join(PLAYERS)}.",
)  # fmt: skip
@click.option("--matches", type=click.IntRange(min=1), help="Play this many whole matches.")
@click.option("--rounds", type=click.IntRange(min=1), help="Or this many single deals.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--out", type=FilePath(file_okay=False), help="Write records here.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate_command(
    rules_spec: str | None,
    assignments: tuple[str, ...],
    players: list[str],
    matches: int | None,
    rounds: int | None,
    seed: int,
    out: Path | None,
    as_json: bool,
) -> None:
    """Play computer players against each other and summarise the results."""
    if bool(matches) == bool(rounds):
        fail("give exactly one of --matches N or --rounds N", as_json=as_json)
    rules = load_rules(rules_spec, assignments, as_json=as_json)
    if out is not None:
        make_folder(out, as_json=as_json)
    tally = Tally()
    total = matches or rounds or 0
    kind = "match" if matches else "round"
    # The bar moves a thousandth at a time: moving it costs a fiftieth of a random round.
    # It is drawn from here, ten times a second at most, rather than by Rich's own
    # refresh thread, which takes turns with the games on a single core.
    step = max(1, total // 1000)
    started = shown = time.perf_counter()
    with Progress(disable=as_json, transient=True, auto_refresh=False) as progress:
        task = progress.add_task(f"{players[0]} vs {players[1]}", total=total)
        games = simulate(rules, players, seed=seed, matches=matches or 0, rounds=rounds or 0)
        try:
            for index, match in enumerate(games, start=1):
                tally.add(match)
                if out is not None:
                    path = out / f"{kind}-{index:05d}.json"
                    path.write_text(json.dumps(Record.from_match(match).to_json()) + "\n")
                if not index % step:
                    progress.update(task, completed=index)
                    now = time.perf_counter()
                    if now - shown >= 0.1:
                        progress.refresh()
                        shown = now
        except PlayerError as error:
            # A simulation has no forfeits to score: it stops, keeping what was played.
            fail(f"{error}; stopped after {tally.games} games", as_json=as_json)
    elapsed = time.perf_counter() - started
    summary = {
        "rules": rules.to_mapping(),
        "players": players,
        "games": tally.games,
        "rounds": tally.rounds,
        "wins": tally.wins,
        "draws": tally.draws,
        "points_per_round": [round(tally.points_per_round(seat), 4) for seat in (0, 1)],
        "seconds": round(elapsed, 3),
    }
    if as_json:
        click.echo(json.dumps(summary))
        return
    table = Table("seat", "player", "wins", "win rate", "points / round")
    for seat in (0, 1):
        rate = tally.wins[seat] / tally.games if tally.games else 0.0
        table.add_row(
            str(seat), players[seat], str(tally.wins[seat]), f"{rate:.1%}",
            f"{tally.points_per_round(seat):.3f}",
        )  # fmt: skip
    console = Console()
    console.print(table)
    games_played = (
        f"{tally.games} matches ({tally.rounds} rounds)" if matches else f"{tally.rounds} rounds"
    )
    console.print(
        f"{games_played} in {elapsed:.2f} s; {tally.draws} drawn"
        + (f"; records in {out}" if out else "")
    )
