"""Perft vectors (docs/perft.jsonl): what a perft tree visits, the vectors' file, and
checking an engine against them: the Python engine in process, the browser's through
``perft-cli.mjs --batch`` under Node.js. When two engines differ,
:func:`first_divergence` descends from the position along the first action whose
counts differ and names the path to the first place they part.

The counting itself is :mod:`koikoi.perft`'s; this module is the tooling around it
(tools/make_perft.py, tests/test_perft.py), kept apart so the engine runs no program.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from koikoi.jsengine import node_command
from koikoi.perft import PerftResult, position, run
from koikoi.record import Record, RecordError
from koikoi.round import (
    CAPTURE_BASE,
    DRAWN,
    EXHAUSTED,
    FINAL_TURN,
    NO_CALL_ALLOWED,
    PLAYED,
    STOP,
    STOPPED,
    Action,
    Phase,
    Round,
)
from koikoi.rules import PRESETS

__all__ = [
    "TAGS",
    "Divergence",
    "Engine",
    "NodeEngine",
    "Step",
    "Vector",
    "check_vector",
    "coverage",
    "coverage_depths",
    "first_divergence",
    "load_vectors",
    "python_engine",
    "rules_label",
]


# -- coverage: what a perft tree visits ----------------------------------------------------

TAGS: dict[str, str] = {
    "play-no-match": "a played card matches nothing and stays on the field",
    "play-one-match": "a played card takes the one field card of its month",
    "play-three-of-a-month": "a played card takes the three field cards of its month",
    "hand-choice": "a played card matches two field cards: the player picks one",
    "draw-no-match": "a drawn card matches nothing and stays on the field",
    "draw-one-match": "a drawn card takes the one field card of its month",
    "draw-three-of-a-month": "a drawn card takes the three field cards of its month",
    "draw-choice": "a drawn card matches two field cards: the player picks one",
    "forced-capture": "forced_capture leaves a hand card that matches nothing unplayable",
    "decision": "a new yaku: the player decides koi-koi or stop",
    "decision-again": "a decision for a player who has called koi-koi before",
    "stop": "a stop ends the round",
    "no-call-max-koikoi": (
        "a yaku ends the round without a decision, for the player has made max_koikoi calls"
        " (and for nothing else)"
    ),
    "no-call-after-opponent": (
        "a yaku ends the round without a decision, for the opponent has called koi-koi and"
        " koikoi_after_opponent is off (and for nothing else)"
    ),
    "final-turn": (
        "a yaku on the player's last turn ends the round without the decision it would"
        " otherwise open"
    ),
    "exhausted": "the hands (or the stock) run out without a stop: the round ends",
    "stock-runs-out": "the stock runs out while the player still holds cards: the round ends",
    "over-at-deal": "the round is over before any action (a hand yaku)",
}
"""The situations a vector may claim to reach, each checked by :func:`coverage`. An
ending without a decision counts only where its rule alone decides it (a final turn
where a call would be allowed, one refusal where the other would not refuse), so that
an engine without that rule counts otherwise. An action's effects count only where the
depth left after it is 1 or more (so its consequences are in the count); a choice, a
decision or a forced capture counts where
the depth left at it is 1 or more (so its legal actions are counted)."""


def coverage(game: Round, depth: int, want: set[str] | None = None) -> set[str]:
    """The :data:`TAGS` that the perft tree of ``game`` to ``depth`` reaches; with
    ``want``, the walk stops as soon as all of those are found."""
    found: set[str] = set()

    def visit(tag: str, _needed: int) -> bool:
        found.add(tag)
        return want is not None and want <= found

    _tags(game, depth, visit)
    return found


def coverage_depths(game: Round, depth: int) -> dict[str, int]:
    """Each of the :data:`TAGS` the perft tree of ``game`` to ``depth`` reaches, with the
    smallest depth whose tree reaches it (tools/make_perft.py picks depths by it)."""
    needed: dict[str, int] = {}

    def visit(tag: str, at: int) -> bool:
        if at < needed.get(tag, depth + 1):
            needed[tag] = at
        return False

    _tags(game, depth, visit)
    return needed


def _tags(game: Round, depth: int, visit: Callable[[str, int], bool]) -> None:
    """Walk the perft tree, calling ``visit(tag, depth needed)`` for every tag met;
    a visit that answers True ends the walk."""
    if game.is_over and visit("over-at-deal", 0):
        return

    def walk(node: Round, ply: int) -> bool:
        if ply == depth or node.is_over:
            return False
        phase = node.phase
        actions = node.legal_actions()
        seat = node.turn
        tags = []
        if phase is Phase.HAND_CHOICE:
            tags.append("hand-choice")
        elif phase is Phase.DRAW_CHOICE:
            tags.append("draw-choice")
        elif phase is Phase.DECISION:
            tags.append("decision")
            if node.calls[seat]:
                tags.append("decision-again")
        elif node.rules.forced_capture and len(actions) < len(node.hand_cards[seat]):
            tags.append("forced-capture")
        # Counted where the depth left here is 1 or more: at depth ply + 1.
        if any(visit(tag, ply + 1) for tag in tags):
            return True
        if ply + 1 == depth:  # the last action's effects are not counted
            return False
        for action in actions:
            child = node.copy()
            child.apply(action)
            effects: set[str] = set()
            _effects(node, action, child, effects)
            # Counted where the depth left after the action is 1 or more.
            if any(visit(tag, ply + 2) for tag in sorted(effects)) or walk(child, ply + 1):
                return True
        return False

    walk(game, 0)


def _effects(before: Round, action: Action, after: Round, found: set[str]) -> None:
    """The tags of what one action did: the cards it laid down and how the round ended."""
    chosen = before.phase in (Phase.HAND_CHOICE, Phase.DRAW_CHOICE) and action >= CAPTURE_BASE
    for _seat, source, _card, taken in after.history[len(before.history) :]:
        if chosen and source == (PLAYED if before.phase is Phase.HAND_CHOICE else DRAWN):
            continue  # the choice itself, tagged where it was offered
        where = "play" if source == PLAYED else "draw"
        size = taken.bit_count()
        if size == 0:
            found.add(f"{where}-no-match")
        elif size == 1:
            found.add(f"{where}-one-match")
        elif size == 3:
            found.add(f"{where}-three-of-a-month")
    result = after.result
    if result is None or before.is_over:
        return
    if result.reason in (EXHAUSTED, FINAL_TURN) and after.hand_cards[before.turn]:
        found.add("stock-runs-out")
    seat = before.turn
    rules = after.rules
    calls = after.calls
    too_many = bool(rules.max_koikoi) and calls[seat] >= rules.max_koikoi
    after_opponent = not rules.koikoi_after_opponent and bool(calls[1 - seat])
    if result.reason == STOPPED:
        assert action == STOP
        found.add("stop")
    elif result.reason == FINAL_TURN and not (too_many or after_opponent):
        found.add("final-turn")
    elif result.reason == EXHAUSTED:
        found.add("exhausted")
    elif result.reason == NO_CALL_ALLOWED:
        if too_many and not after_opponent:
            found.add("no-call-max-koikoi")
        if after_opponent and not too_many:
            found.add("no-call-after-opponent")


def rules_label(record: Record) -> str:
    """The preset a record's rules are, exactly (``preset`` key included), else
    ``house``: the first word of a vector's name."""
    for name, rules in PRESETS.items():
        if record.rules == rules and record.rules.preset == name:
            return name
    return "house"


# -- vectors -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Vector:
    """One line of docs/perft.jsonl: a position (a given-deal record whose actions lead
    to it), a depth and the count there.

    ``name`` reads ``RULES/SITUATION: TAG, TAG, ...``: the rules (a preset, or
    ``house``) and the :data:`TAGS` the tree reaches, which tests/test_perft.py checks.
    """

    name: str
    record: dict[str, Any]
    depth: int
    count: int

    @property
    def tags(self) -> list[str]:
        """The situations the name claims."""
        _, _, claims = self.name.partition(": ")
        return [tag.strip() for tag in claims.split(",") if tag.strip()]

    def to_line(self) -> str:
        data = {"name": self.name, "record": self.record, "depth": self.depth}
        return json.dumps({**data, "count": self.count})

    def start(self) -> Round:
        """The vector's position, by the Python engine."""
        return position(Record.from_json(self.record))


def load_vectors(path: str | Path) -> list[Vector]:
    """Every vector of a JSON-lines file (blank lines skipped)."""
    vectors = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        data = json.loads(line)
        if set(data) != {"name", "record", "depth", "count"}:
            raise ValueError(f"{path}:{number}: a vector holds name, record, depth and count")
        vectors.append(Vector(data["name"], data["record"], data["depth"], data["count"]))
    return vectors


# -- engines and the first divergent path -------------------------------------------------

Engine = Callable[[dict[str, Any], int], PerftResult]
"""An engine's perft with divide, for a record (JSON data) and a depth; raises
:class:`RecordError` for a record it cannot replay."""


def python_engine(record: dict[str, Any], depth: int) -> PerftResult:
    """The Python engine as an :data:`Engine`."""
    return run(position(Record.from_json(record)), depth)


class NodeEngine:
    """The browser's engine as an :data:`Engine`: one ``perft-cli.mjs --batch`` process
    under Node.js answers every question (a context manager, closing it at the end).

    ``program`` is another copy of ``perft-cli.mjs`` (the tests run one beside an engine
    with a rule broken); by default the package's own. Raises
    :class:`koikoi.jsengine.NodeMissingError` without Node.js.
    """

    def __init__(self, program: Path | None = None) -> None:
        command = node_command("perft-cli.mjs", "--batch", needed_by="the JS engine's perft")
        if program is not None:
            command[1] = str(program)
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def ask(self, job: dict[str, Any]) -> dict[str, Any]:
        """One batch line's answer: ``{"rc", "stdout", "stderr"}``."""
        process = self._process
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write(json.dumps(job) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            error = process.stderr.read() if process.stderr else ""
            raise RuntimeError(f"perft-cli.mjs --batch stopped answering: {error}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def __call__(self, record: dict[str, Any], depth: int) -> PerftResult:
        answer = self.ask({"text": json.dumps(record), "depth": depth, "divide": True})
        if answer["rc"] == 1:  # the record's error, as koikoi perft --json reports it
            data = json.loads(answer["stdout"])
            raise RecordError(data["error"], data.get("index"))
        if answer["rc"]:
            raise RuntimeError(f"perft-cli.mjs failed: {answer['stderr']}")
        output = json.loads(answer["stdout"])
        return PerftResult(output["count"], output["divide"])

    def close(self) -> None:
        process = self._process
        if process.stdin is not None:
            process.stdin.close()
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> NodeEngine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


@dataclass(frozen=True)
class Step:
    """One action of a divergent path and the count under it in each engine (None: that
    engine has no such action there)."""

    action: str
    counts: tuple[int | None, int | None]


@dataclass(frozen=True)
class Divergence:
    """Where two engines part: their counts at the position, then the path of first
    actions whose counts differ, down to an action one lacks or the depth-1 level."""

    names: tuple[str, str]
    depth: int
    counts: tuple[int, int]
    steps: tuple[Step, ...]

    @property
    def path(self) -> list[Any]:
        """The path's actions in record form."""
        return [json.loads(step.action) for step in self.steps]

    def __str__(self) -> str:
        left, right = self.names
        lines = [
            f"{left} counts {self.counts[0]} and {right} {self.counts[1]} sequences of"
            f" {self.depth} actions; the first divergent path:"
        ]
        for number, step in enumerate(self.steps, start=1):
            shown = ("no such action" if count is None else str(count) for count in step.counts)
            lines.append(f"  {number}. {step.action}: {left} {next(shown)}, {right} {next(shown)}")
        if not self.steps:
            lines.append("  (none: both divide alike; the totals alone differ)")
        return "\n".join(lines)


def first_divergence(
    record: dict[str, Any],
    depth: int,
    left: Engine,
    right: Engine,
    names: tuple[str, str] = ("python", "js"),
) -> Divergence | None:
    """Where ``left`` and ``right`` first differ below a record's position, or None
    where they agree.

    From the position, take the first action (in ``left``'s order, then ``right``'s
    extras) whose count differs, or that one engine has and the other lacks; apply it
    and look again one level down, until that action is one an engine lacks or the
    depth-1 level is reached.
    """
    actions = list(record.get("actions", []))
    steps: list[Step] = []
    top: tuple[int, int] | None = None
    level = depth
    while True:
        here = {**record, "actions": actions}
        a, b = left(here, level), right(here, level)
        if top is None:
            if a == b:
                return None
            top = (a.count, b.count)
        keys = [*a.divide, *(key for key in b.divide if key not in a.divide)]
        key = next((k for k in keys if a.divide.get(k) != b.divide.get(k)), None)
        if key is None:
            break
        step = Step(key, (a.divide.get(key), b.divide.get(key)))
        steps.append(step)
        if None in step.counts or level <= 1:
            break
        actions.append(json.loads(key))
        level -= 1
    return Divergence(names, depth, top, tuple(steps))


def check_vector(
    vector: Vector,
    engine: Engine,
    name: str,
    other: Engine | None = None,
    other_name: str = "the other engine",
) -> str | None:
    """None when ``engine`` counts what the vector says; else what went wrong: the
    engine's count and divide, and (with ``other``) the first divergent path between
    the two engines, found by :func:`first_divergence`."""
    try:
        result = engine(vector.record, vector.depth)
    except RecordError as error:
        return f"{vector.name}: {name} cannot replay the vector's record: {error}"
    if result.count == vector.count:
        return None
    lines = [
        f"{vector.name}: {name} counts {result.count} sequences of {vector.depth} actions,"
        f" the file {vector.count}",
        f"{name}'s divide: {json.dumps(result.divide)}",
    ]
    if other is None:
        lines.append("(no other engine to descend against: the divide above is all there is)")
    else:
        found = first_divergence(vector.record, vector.depth, engine, other, (name, other_name))
        if found is None:
            lines.append(
                f"{other_name} counts the same as {name}: the file is stale"
                " (python tools/make_perft.py writes it again)"
            )
        else:
            lines.append(str(found))
    return "\n".join(lines)
