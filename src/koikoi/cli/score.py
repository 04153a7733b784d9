"""``koikoi score``: score captured cards, one pile or a batch of JSON lines (docs/rules.md §7)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from koikoi.cards import UnknownCardError, cards_from_slugs
from koikoi.cli.common import fail, load_rules, rules_options
from koikoi.rules import MAX_CALLS, RulesError, RuleSet, short_repr
from koikoi.yaku import PileScore, score_pile

_BATCH_KEYS = frozenset({"cards", "rules", "month", "own_calls", "opponent_calls"})


class BatchLineError(ValueError):
    pass


@lru_cache(maxsize=1024)
def _rules_from_json(text: str) -> RuleSet:
    return RuleSet.from_mapping(json.loads(text))


def _count(line: dict[str, Any], key: str, low: int, high: int | None = None) -> int:
    value = line.get(key, 0 if low == 0 else None)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BatchLineError(f"{key!r} must be an integer >= {low}, not {short_repr(value)}")
    if high is not None and value > high:
        raise BatchLineError(
            f"{key!r} must be an integer from {low} to {high}, not {short_repr(value)}"
        )
    return value


def _load_line(text: str | bytes) -> Any:
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text)
    except UnicodeDecodeError as error:
        raise BatchLineError(f"not a UTF-8 line (byte {error.start}): {short_repr(text)}") from None
    except json.JSONDecodeError as error:
        raise BatchLineError(
            f"not a JSON line ({error.msg} at column {error.colno}): {short_repr(text.strip())}"
        ) from None
    except RecursionError:
        raise BatchLineError("a line nested too deeply to read") from None
    except ValueError:  # from int(): more digits than it converts
        raise BatchLineError("a line with a number of too many digits to read") from None


def score_line(text: str | bytes, default_rules: RuleSet) -> dict[str, Any]:
    """One ``--batch`` line (text, or bytes as read) answered: the score object, or
    ``{"error": ...}``."""
    try:
        line = _load_line(text)
        if not isinstance(line, dict):
            raise BatchLineError(f"a line must be a JSON object, not {short_repr(line)}")
        unknown = sorted(set(line) - _BATCH_KEYS)
        if unknown:
            raise BatchLineError(
                f"unknown key {unknown[0]!r}; a line may hold {', '.join(sorted(_BATCH_KEYS))}"
            )
        cards = line.get("cards")
        if not isinstance(cards, list) or not all(isinstance(slug, str) for slug in cards):
            raise BatchLineError(f"'cards' must be a list of card slugs, not {short_repr(cards)}")
        if "rules" in line:
            rules = _rules_from_json(json.dumps(line["rules"], sort_keys=True))
        else:
            rules = default_rules
        return score_pile(
            cards_from_slugs(cards),
            rules,
            month=_count(line, "month", 0, 12),
            own_calls=_count(line, "own_calls", 0, MAX_CALLS),
            opponent_calls=_count(line, "opponent_calls", 0, MAX_CALLS),
        ).to_json()
    except (BatchLineError, UnknownCardError, RulesError) as error:
        return {"error": str(error)}
    except RecursionError:  # rules nested so deep that storing them for the cache fails
        return {"error": "a line nested too deeply to read"}


def score_lines(lines: Iterable[str | bytes], default_rules: RuleSet) -> Iterator[str]:
    for text in lines:
        try:
            answer = score_line(text, default_rules)
        except Exception as error:
            # The batch contract is one answer a line: a line that trips a fault not
            # foreseen above costs that line only, never the lines after it.
            answer = {"error": f"cannot score this line: {short_repr(error)}"}
        yield json.dumps(answer)


def _print_table(result: PileScore, console: Console) -> None:
    table = Table(title="Yaku", show_footer=True)
    table.add_column("yaku", footer="total")
    table.add_column("points", justify="right", footer=str(result.total))
    for key, points in result.yaku.items():
        table.add_row(key, str(points))
    if not result.yaku:
        table.add_row("(none)", "0")
    console.print(table)
    console.print(f"Round score for the stopper: [bold]{result.final}[/bold]")


@click.command("score")
@rules_options
@click.option(
    "--month", type=int, default=0,
    help="The round's month (1-12; 0 unknown), for tsukifuda_month = round and viewing_in_season.",
)  # fmt: skip
@click.option(
    "--own-calls", type=click.IntRange(0, MAX_CALLS), default=0, help="Koi-koi calls made."
)
@click.option(
    "--opponent-calls", type=click.IntRange(0, MAX_CALLS), default=0, help="The opponent's calls."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--batch", is_flag=True, help="Read JSON lines from standard input.")
@click.argument("cards", nargs=-1)
def score_command(
    rules_spec: str | None,
    assignments: tuple[str, ...],
    month: int,
    own_calls: int,
    opponent_calls: int,
    as_json: bool,
    batch: bool,
    cards: tuple[str, ...],
) -> None:
    """Score captured CARDS (slugs such as pine-crane) under a rule set."""
    rules = load_rules(rules_spec, assignments, as_json=as_json or batch)
    if not 0 <= month <= 12:
        fail(f"--month must be from 1 to 12 (0: unknown), not {short_repr(month)}", as_json=as_json)
    if batch:
        if cards:
            fail("--batch reads cards from standard input; give no CARD arguments", as_json=True)
        # Bytes, so that a line that is not UTF-8 answers an error of its own instead
        # of stopping the batch while it is decoded.
        for answer in score_lines(sys.stdin.buffer, rules):
            click.echo(answer)
        return
    try:
        pile = cards_from_slugs(cards)
    except UnknownCardError as error:
        fail(str(error), as_json=as_json)
    result = score_pile(
        pile, rules, month=month, own_calls=own_calls, opponent_calls=opponent_calls
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        _print_table(result, Console())
