"""``koikoi tournament``: measure players against each other."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from koikoi.cli.common import (
    FilePath,
    fail,
    load_rules,
    make_folder,
    player_name,
    player_names,
    rules_options,
)
from koikoi.players.protocol import MOVE_TIMEOUT, command_for
from koikoi.tournament import (
    BACKENDS,
    Backend,
    BackendError,
    PairResult,
    elo_ratings,
    round_robin,
    run,
    schedule,
    tally,
)

# A:B, where A may itself be a protocol player (cmd:PROGRAM or js:LEVEL): the pair's
# colon is the first one after A's prefix.
_PAIR = re.compile(r"((?:cmd:|js:)?[^:]*):(.+)")


def _pairs(value: str) -> list[tuple[str, str]]:
    pairs = []
    for item in value.split(","):
        found = _PAIR.fullmatch(item.strip())
        if found is None:
            raise click.BadParameter(f"a pair is A:B, not {item.strip()!r}")
        pairs.append((player_name(found[1]), player_name(found[2])))
    return pairs


def plot_ladder(elo: dict[str, float], path: Path, title: str, *, as_json: bool) -> None:
    """Draw the Elo ladder as a bar chart (needs the ``plot`` extra: matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("--plot needs matplotlib: pip install 'koikoi[plot]'", as_json=as_json)
    ladder = sorted(elo.items(), key=lambda item: item[1])
    figure, axes = plt.subplots(figsize=(6, 1 + 0.5 * len(ladder)))
    axes.barh([name for name, _ in ladder], [rating for _, rating in ladder], color="#b5403a")
    low = min(rating for _, rating in ladder)
    axes.set_xlim(left=min(low - 100, 1300))
    for index, (_, rating) in enumerate(ladder):
        axes.text(rating, index, f" {rating:.0f}", va="center")
    axes.set_xlabel("Elo")
    axes.set_title(title)
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=120)
    except OSError as error:
        fail(f"cannot write the plot {str(path)!r}: {error.strerror}", as_json=as_json)
    finally:
        plt.close(figure)


@click.command("tournament")
@rules_options
@click.option("--players", "players_text", help="Players for a round-robin, comma-separated.")
@click.option("--pairs", "pairs_text", help="Or explicit pairs: A:B,C:D.")
@click.option(
    "--matches", type=click.IntRange(min=1), help="Matches per pair (seat-swapped pairs)."
)
@click.option("--rounds", type=click.IntRange(min=1), help="Or single deals per pair.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--workers", type=click.IntRange(min=1), default=os.cpu_count() or 1,
    show_default="all cores", help="Processes to play in (CPUs of a local Ray instance).",
)  # fmt: skip
@click.option(
    "--backend", type=click.Choice(BACKENDS), default="process", show_default=True,
    help="A process pool on this machine, or Ray tasks (the ray extra).",
)  # fmt: skip
@click.option(
    "--address", metavar="HOST:PORT",
    help="With --backend ray: join this Ray cluster (default: RAY_ADDRESS, else a local one).",
)  # fmt: skip
@click.option("--budget-ms", type=click.FloatRange(min=1), help="Expert: wall-clock cap per move.")
@click.option("--rollouts", type=click.IntRange(min=1), help="Expert: rollouts per move.")
@click.option(
    "--move-timeout", type=click.FloatRange(min=0.1), default=MOVE_TIMEOUT, show_default=True,
    help="cmd: and js: players: seconds an answer may take before the game is forfeit.",
)  # fmt: skip
@click.option("--out", type=FilePath(file_okay=False), help="Write records here.")
@click.option("--plot", type=FilePath(dir_okay=False), help="Draw the Elo ladder.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON object.")
def tournament_command(
    rules_spec: str | None,
    assignments: tuple[str, ...],
    players_text: str | None,
    pairs_text: str | None,
    matches: int | None,
    rounds: int | None,
    seed: int,
    workers: int,
    backend: Backend,
    address: str | None,
    budget_ms: float | None,
    rollouts: int | None,
    move_timeout: float,
    out: Path | None,
    plot: Path | None,
    as_json: bool,
) -> None:
    """Play players against each other over seat-swapped deals and rate them."""
    if bool(players_text) == bool(pairs_text):
        fail("give exactly one of --players A,B,... or --pairs A:B,...", as_json=as_json)
    if bool(matches) == bool(rounds):
        fail("give exactly one of --matches N or --rounds N", as_json=as_json)
    try:
        pairs = (
            round_robin(player_names(players_text)) if players_text else _pairs(pairs_text or "")
        )
    except click.BadParameter as error:
        fail(error.format_message(), as_json=as_json)
    same = next((f"{a}:{b}" for a, b in pairs if a == b), None)
    if not pairs or same:
        given = same or players_text or pairs_text
        fail(f"a tournament needs pairs of two different players, not {given!r}", as_json=as_json)
    if address is not None and backend != "ray":
        fail("--address joins a Ray cluster: give it with --backend ray", as_json=as_json)
    rules = load_rules(rules_spec, assignments, as_json=as_json)
    expert: dict[str, Any] = {}
    if budget_ms is not None:
        expert["budget_ms"] = budget_ms
    if rollouts is not None:
        expert["rollouts"] = rollouts
    if out is not None:
        make_folder(out, as_json=as_json)
    if plot is not None and not plot.parent.is_dir():  # found now, not after the games
        fail(f"the folder {str(plot.parent)!r} for the plot is missing", as_json=as_json)
    options: dict[str, dict[str, Any]] = {"expert": expert}
    for name in {name for pair in pairs for name in pair}:
        if command_for(name) is not None:
            options[name] = {"move_timeout": move_timeout}
    games = schedule(
        rules, pairs, games=matches or rounds or 0, seed=seed, single_round=bool(rounds),
        options=options, out=out,
    )  # fmt: skip
    with Progress(disable=as_json, transient=True) as progress:
        task = progress.add_task("playing", total=len(games))
        outcomes = run(games, workers, backend=backend, address=address)
        try:
            results = tally(outcomes, lambda: progress.advance(task))
        except BackendError as error:
            fail(str(error), as_json=as_json)
    for result in results:
        for forfeit in result.forfeits:
            click.echo(f"koikoi: forfeit: {forfeit}", err=True)
    elo = elo_ratings(results)
    summary = {
        "rules": rules.to_mapping(),
        "pairs": [result.to_json() for result in results],
        "elo": elo,
    }
    if plot is not None:
        plot_ladder(elo, plot, f"koikoi ladder ({rules.preset})", as_json=as_json)
    if as_json:
        click.echo(json.dumps(summary))
    else:
        _print_results(results, elo)


def _print_results(results: list[PairResult], elo: dict[str, float]) -> None:
    console = Console()
    table = Table("a", "b", "matches", "a wins", "b wins", "draws", "forfeits",
                  "a score (95% CI)", "a pts/round", "b pts/round", title="Pairs")  # fmt: skip
    for result in results:
        data = result.to_json()
        low, high = data["a_score_ci95"]
        table.add_row(
            result.a, result.b, str(result.matches), str(result.a_wins), str(result.b_wins),
            str(result.draws), str(len(result.forfeits)),
            f"{data['a_score']:.1%} ({low:.1%}-{high:.1%})",
            _with_interval(data["a_points_per_round"], data["a_points_per_round_ci95"]),
            _with_interval(data["b_points_per_round"], data["b_points_per_round_ci95"]),
        )  # fmt: skip
    console.print(table)
    ladder = Table("player", "Elo", title="Ladder")
    for name, rating in sorted(elo.items(), key=lambda item: -item[1]):
        ladder.add_row(name, f"{rating:.0f}")
    console.print(ladder)


def _with_interval(mean: float, interval: list[float]) -> str:
    return f"{mean:.2f} ±{(interval[1] - interval[0]) / 2:.2f}"
