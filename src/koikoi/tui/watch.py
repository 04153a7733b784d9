"""``koikoi watch``: step through a record with every card face up."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from koikoi.match import Match
from koikoi.record import Record, replay, start_match
from koikoi.round import Round, action_from_json, action_name
from koikoi.tui.board import TableApp
from koikoi.tui.table import Table, cards_text, make_table

NAMES = ("seat 0", "seat 1")

HELP = """Keys
  → or Space    the next step        ←   the step before
  Home / End    the deal / the end of the record
  ? or h        this help             Q   quit"""


@dataclass(frozen=True)
class Frame:
    """One step of a record: the table after it, and what happened."""

    table: Table
    caption: str


def frames(record: Record) -> list[Frame]:
    """Every step of a record: each deal, then the table after each action.

    The record is replayed first, so a bad one raises :class:`~koikoi.record.RecordError`.
    """
    replay(record)
    match = start_match(record)
    total = len(record.actions)
    steps = [_frame(match, match.round, match.round_number, "the deal")]
    for index, data in enumerate(record.actions, start=1):
        before, number, seat = match.round, match.round_number, match.turn
        action = action_from_json(data)
        match.apply(action)
        caption = f"step {index} of {total}: {NAMES[seat]}: {action_name(action)}"
        steps.append(_frame(match, before, number, caption))
        if match.round is not before:
            # The next round's deal, shown before its first move.
            steps.append(
                _frame(match, match.round, match.round_number, f"round {match.round_number} dealt")
            )
    return steps


def _frame(match: Match, round: Round, number: int, caption: str) -> Frame:
    observation = round.observation(0)
    view = dataclasses.replace(match.view(), round_number=number)
    # A replay is public after the fact: both hands are shown.
    hands = (round.hands[0], round.hands[1])
    return Frame(make_table(observation, view, NAMES, hands, tuple(match.results)), caption)


class WatchApp(TableApp):
    """A record's steps; seat 1 at the top, seat 0 at the bottom, all cards face up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *TableApp.BINDINGS,
        Binding("right,space", "step(1)", "next"),
        Binding("left", "step(-1)", "back"),
        Binding("home", "go(0)", "deal", show=False),
        Binding("end", "go(-1)", "end", show=False),
    ]
    HELP = HELP
    near = 0

    def __init__(self, steps: list[Frame], title: str) -> None:
        super().__init__()
        self.steps = steps
        self.step = 0
        self.title = title

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        frame = self.steps[self.step]
        hand = frame.table.seats[self.near].hand or 0
        end = " (the end of the record)" if self.step == len(self.steps) - 1 else ""
        prompt = f"{frame.caption}{end}\n→/Space: next · ←: back · ?: help"
        self.show_table(frame.table, Text("hand: ").append_text(cards_text(hand)), prompt)

    def action_step(self, step: int) -> None:
        self.action_go(max(0, min(len(self.steps) - 1, self.step + step)))

    def action_go(self, index: int) -> None:
        self.step = index % len(self.steps)
        self.redraw()
