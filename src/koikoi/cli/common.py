"""What every sub-command shares: rule options and the error convention of docs/rules.md §7."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from koikoi.files import nameable
from koikoi.jsengine import NodeMissingError, node_command
from koikoi.match import Match
from koikoi.players import PLAYERS
from koikoi.players.protocol import command_for
from koikoi.record import RecordError, load_record, replay
from koikoi.rules import PRESET_NAMES, RulesError, RuleSet, resolve_rules

F = TypeVar("F", bound=Callable[..., Any])


def rules_options(function: F) -> F:
    """``--rules PRESET_OR_FILE`` and repeatable ``--set KEY=VALUE``."""
    function = click.option(
        "--set",
        "assignments",
        multiple=True,
        metavar="KEY=VALUE",
        help="Override one rule (repeatable); lists are comma-separated.",
    )(function)
    return click.option(
        "--rules",
        "rules_spec",
        metavar="PRESET_OR_FILE",
        help=f"A preset ({', '.join(PRESET_NAMES)}) or a TOML/JSON rules file. Default: classic.",
    )(function)


class FilePath(click.Path):
    """``click.Path`` giving a ``Path``, where a name no file can have is a usage error
    that names it (click's own check of the name raises on it)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(path_type=Path, **options)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not nameable(value):
            self.fail(f"{value!r} is not a name a file can have", param, ctx)
        return super().convert(value, param, ctx)


def fail(message: str, *, as_json: bool = False, **extra: Any) -> NoReturn:
    """Report an error: standard error, exit status 1, and ``{"error": ...}`` with --json."""
    if as_json:
        click.echo(json.dumps({"error": message, **extra}))
    click.echo(f"koikoi: error: {message}", err=True)
    sys.exit(1)


def engine_option(does: str) -> Callable[[F], F]:
    """``--engine python|js`` of a command the browser's engine also runs; ``does`` says
    what the engine does there ("replays")."""
    return click.option(
        "--engine",
        type=click.Choice(["python", "js"]),
        default="python",
        show_default=True,
        help=f"The engine that {does}: Python's, or the browser's JavaScript one under Node.js.",
    )


def run_with_node(program: str, *args: str, as_json: bool) -> None:
    """``--engine js``: the command run by the browser's engine, ``web/node/PROGRAM``
    under Node.js, which prints exactly what the Python command prints; its output and
    exit status are passed through."""
    try:
        command = node_command(program, *args, needed_by="--engine js")
    except NodeMissingError as error:
        fail(str(error), as_json=as_json)
    try:
        completed = subprocess.run(command, capture_output=True, check=False)
    except OSError as error:
        fail(f"--engine js: cannot run Node.js ({command[0]}): {error.strerror}", as_json=as_json)
    click.echo(completed.stdout, nl=False)
    click.echo(completed.stderr, nl=False, err=True)
    if completed.returncode:
        sys.exit(completed.returncode)


def replayed(file: Path, *, as_json: bool) -> Match:
    """The match a record file holds, replayed (docs/rules.md §7); a record that cannot
    be read or replayed is an error that names the action's index where one is to blame."""
    try:
        return replay(load_record(file))
    except RecordError as error:
        extra = {} if error.index is None else {"index": error.index}
        fail(str(error), as_json=as_json, **extra)


def make_folder(folder: Path, *, as_json: bool) -> None:
    """The folder ``--out`` names, made if missing; one that cannot be made is an error."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"cannot make the folder {str(folder)!r}: {error.strerror}", as_json=as_json)


def load_rules(spec: str | None, assignments: tuple[str, ...], *, as_json: bool) -> RuleSet:
    try:
        return resolve_rules(spec, assignments)
    except RulesError as error:
        fail(str(error), as_json=as_json)


def player_name(name: str) -> str:
    """A registered player's name, or a protocol program's (``cmd:...``, ``js:LEVEL``),
    surrounding spaces ignored; others are a usage error."""
    name = name.strip()
    try:
        command = command_for(name)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None
    if command is None and name not in PLAYERS:
        raise click.BadParameter(
            f"unknown player {name!r}; players: {', '.join(PLAYERS)}, cmd:PROGRAM ARGS or js:LEVEL"
        )
    return name


def player_names(value: str) -> list[str]:
    """Comma-separated player names, each checked with :func:`player_name`."""
    return [player_name(name) for name in value.split(",") if name.strip()]
