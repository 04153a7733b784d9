"""``koikoi rules``: list the presets, show, export and check rule sets."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from koikoi.cli.common import FilePath, fail, load_rules, rules_options
from koikoi.rules import FIELDS, PRESETS, RulesError, RuleSet


@click.group("rules")
def rules_command() -> None:
    """Presets and house rules (docs/rules.md §6 keys)."""


@rules_command.command("list")
def list_presets() -> None:
    """List the presets and how each differs from classic."""
    table = Table("preset", "differs from classic")
    classic = PRESETS["classic"].to_mapping(full=True)
    for name, rules in PRESETS.items():
        changes = [
            f"{key} {_shown(value)}"
            for key, value in rules.to_mapping(full=True).items()
            if key != "preset" and value != classic[key]
        ]
        table.add_row(name, ", ".join(changes) or "(the base)")
    Console().print(table)


@rules_command.command("show")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print every field as one JSON object.")
def show(rules_spec: str | None, assignments: tuple[str, ...], as_json: bool) -> None:
    """Show every field of a resolved rule set (preset or file, then --set overrides)."""
    rules = load_rules(rules_spec, assignments, as_json=as_json)
    if as_json:
        click.echo(json.dumps(rules.to_mapping(full=True)))
        return
    values = rules.to_mapping(full=True)
    base = PRESETS[values.pop("preset")].to_mapping(full=True)
    table = Table(title=f"Rules (preset {base['preset']}; changes in bold)")
    table.add_column("key", no_wrap=True)  # whole keys, to copy into --set
    table.add_column("value")
    table.add_column("meaning")
    table.add_column("allowed")
    for key, value in values.items():
        shown = _shown(value)
        spec = FIELDS[key]
        table.add_row(
            key, f"[bold]{shown}[/bold]" if value != base[key] else shown, spec.help, spec.allowed
        )
    Console().print(table)


def _shown(value: object) -> str:
    if isinstance(value, list):
        return ",".join(value) or "(none)"
    return str(value).lower() if isinstance(value, bool) else str(value)


@rules_command.command("export")
@rules_options
@click.option("--format", "fmt", type=click.Choice(["toml", "json"]), default="toml")
@click.option("--full", is_flag=True, help="Write every field, not only the changed ones.")
def export(rules_spec: str | None, assignments: tuple[str, ...], fmt: str, full: bool) -> None:
    """Write a rule set in its file form (a preset and the fields that differ)."""
    rules = load_rules(rules_spec, assignments, as_json=False)
    click.echo(rules.to_toml(full=full) if fmt == "toml" else rules.to_json(full=full), nl=False)
    if fmt == "json":
        click.echo()


@rules_command.command("check")
@click.argument("files", nargs=-1, required=True, type=FilePath())
def check(files: tuple[Path, ...]) -> None:
    """Validate rules files, reporting every problem of each."""
    bad = 0
    for path in files:
        try:
            RuleSet.from_file(path)
        except RulesError as error:
            bad += 1
            click.echo(f"{path}: {len(error.problems)} problem(s)", err=True)
            for problem in error.problems:
                click.echo(f"  - {problem}", err=True)
        else:
            click.echo(f"{path}: ok")
    if bad:
        fail(f"{bad} of {len(files)} rules file(s) have problems")
