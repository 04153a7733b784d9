"""The ``koikoi`` command: one group, one module per sub-command."""

from __future__ import annotations

import sys

import click

from koikoi import __version__
from koikoi.cli.common import fail
from koikoi.cli.games import replay_command, simulate_command
from koikoi.cli.play import play_command, watch_command
from koikoi.cli.rules import rules_command
from koikoi.cli.score import score_command
from koikoi.cli.serve import db_command, serve_command
from koikoi.cli.tournament import tournament_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="koikoi")
def cli() -> None:
    """Koi-Koi, the Hanafuda flower-card game."""


cli.add_command(score_command)
cli.add_command(rules_command)
cli.add_command(replay_command)
cli.add_command(simulate_command)
cli.add_command(tournament_command)
cli.add_command(play_command)
cli.add_command(watch_command)
cli.add_command(serve_command)
cli.add_command(db_command)


def main() -> None:
    """The console script: usage errors too exit with status 1, as JSON with ``--json``."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        sys.exit(1)
    except click.ClickException as error:
        fail(error.format_message(), as_json="--json" in sys.argv[1:] or "--batch" in sys.argv[1:])
