"""The ``koikoi`` command: one group, one module per sub-command."""

from __future__ import annotations

import errno
import importlib
import os
import sys

import click

from koikoi import __version__
from koikoi.cli.common import fail

COMMANDS = {
    "score": "koikoi.cli.score:score_command",
    "rules": "koikoi.cli.rules:rules_command",
    "replay": "koikoi.cli.games:replay_command",
    "perft": "koikoi.cli.perft:perft_command",
    "simulate": "koikoi.cli.games:simulate_command",
    "tournament": "koikoi.cli.tournament:tournament_command",
    "play": "koikoi.cli.play:play_command",
    "watch": "koikoi.cli.play:watch_command",
    "serve": "koikoi.cli.serve:serve_command",
    "db": "koikoi.cli.serve:db_command",
}
"""Each sub-command and where it lives, imported only when it runs (or help lists it):
the server's libraries alone take a third of a second to import, which ``koikoi
simulate`` or ``koikoi score`` need not wait for."""


class Commands(click.Group):
    """A group whose sub-commands are imported when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = COMMANDS.get(cmd_name)
        if where is None:
            return None
        module, name = where.split(":")
        command = getattr(importlib.import_module(module), name)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="koikoi")
def cli() -> None:
    """Koi-Koi, the Hanafuda flower-card game."""


WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS}
"""What a write can fail with that is the machine's state, not the program's fault."""


def main() -> None:
    """The console script: usage errors too exit with status 1, as JSON with ``--json``;
    output that cannot be written (a full disk, a closed pipe) is an error that says
    so, never a traceback."""
    try:
        cli.main(standalone_mode=False)
        sys.stdout.flush()  # here, where a write that fails can still be reported
    except BrokenPipeError:  # the reader went away (``| head``): nothing to tell it
        _discard_stdout()
        sys.exit(1)
    except OSError as error:
        if error.errno not in WRITE_ERRORS:
            raise
        _discard_stdout()
        where = "output" if error.filename is None else repr(str(error.filename))
        fail(f"cannot write {where}: {error.strerror}")
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.format_message())  # ``koikoi`` alone: its help, as --help shows it
    except click.exceptions.Abort:
        sys.exit(1)
    except click.ClickException as error:
        fail(error.format_message(), as_json="--json" in sys.argv[1:] or "--batch" in sys.argv[1:])


def _discard_stdout() -> None:
    """Point standard output at nothing, so the exit's own flush of what is left in
    its buffer cannot fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
