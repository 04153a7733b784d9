"""``koikoi perft``: count the action sequences from a record's position (docs/perft.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from koikoi.cli.common import FilePath, engine_option, replayed, run_with_node
from koikoi.jsengine import PROGRAMS
from koikoi.perft import perft_output, perft_text, run

NODE_PERFT = PROGRAMS / "perft-cli.mjs"
"""The browser's engine's perft command, run under Node.js by ``--engine js``."""


@click.command("perft")
@click.argument("file", type=FilePath())
@click.option(
    "--depth",
    type=click.IntRange(min=0),
    required=True,
    help="Count the sequences of this many actions (a round that ends sooner counts once).",
)
@click.option("--divide", "with_divide", is_flag=True, help="Also count under each first action.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@engine_option("counts")
def perft_command(file: Path, depth: int, with_divide: bool, as_json: bool, engine: str) -> None:
    """Count the action sequences of DEPTH actions from a record's position (perft).

    FILE is a record (a given deal or a seed); its actions are played first, so the
    count starts where they leave the round.
    """
    if engine == "js":
        flags = [*(["--divide"] if with_divide else []), *(["--json"] if as_json else [])]
        run_with_node(
            NODE_PERFT.name, "--depth", str(depth), *flags, "--", str(file), as_json=as_json
        )
        return
    game = replayed(file, as_json=as_json).round.copy()
    result = run(game, depth, with_divide=with_divide)
    if as_json:
        click.echo(json.dumps(perft_output(result, depth, with_divide=with_divide)))
    else:
        click.echo(perft_text(result, depth, with_divide=with_divide, over=game.is_over), nl=False)
