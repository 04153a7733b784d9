"""The screen both terminal apps share: a table laid out top to bottom, help and quit."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from koikoi.tui.table import (
    Table,
    field_text,
    history_text,
    pile_text,
    results_text,
    seat_header,
    seat_text,
    status_text,
    stock_text,
)

CSS = """
#board { height: 1fr; }
#board > Static { margin: 0 1; }
#status { background: $primary-background; text-style: bold; }
#field, #prompt { border: round $accent; padding: 0 1; }
#hand { border: round $success; padding: 0 1; }
#opponent, #pile-top, #pile-bottom, #stock, #history, #results { padding: 0 1; }
#help { display: none; border: double $warning; padding: 0 1; }
#help.shown { display: block; }
"""

SIGNS_HELP = "Cards: ★ bright, ◆ animal, ▬ ribbon, · plain; each card is named by its slug."


class TableApp(App[None]):
    """An app showing a :class:`Table`: the far seat on top, the near seat below.

    Subclasses say what the help tells, fill the hand and the prompt, and add keys.
    """

    CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,h", "help", "help"),
        Binding("q", "quit", "quit"),
    ]
    HELP = ""
    near = 0
    """The seat shown at the bottom, beside the hand."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="board"):
            yield Static(id="status")
            yield Static(id="opponent")
            yield Static(id="pile-top")
            yield Static(id="field")
            yield Static(id="stock")
            yield Static(id="pile-bottom")
            yield Static(id="hand")
            yield Static(id="prompt")
            yield Static(id="history")
            yield Static(id="results")
        yield Static(Text(f"{self.HELP}\n{SIGNS_HELP}\nPress ? or h to close."), id="help")
        yield Footer()

    def show_table(self, table: Table, hand: Text, prompt: Text | str) -> None:
        """Draw ``table``: every widget's text comes from it, the hand and the prompt."""
        far = table.seats[1 - self.near]
        near = table.seats[self.near]
        self._set("status", Text(status_text(table)))
        self._set("opponent", seat_text(far))
        self._set("pile-top", pile_text(far))
        self._set("field", field_text(table))
        self._set("stock", Text(stock_text(table)))
        self._set("pile-bottom", pile_text(near))
        self._set("hand", Text("\n").join([seat_header(near), hand]))
        self._set("prompt", Text(prompt) if isinstance(prompt, str) else prompt)
        self._set("history", history_text(table))
        self._set("results", results_text(table))

    def _set(self, widget_id: str, text: Text) -> None:
        self.query_one(f"#{widget_id}", Static).update(text)

    def screen_text(self) -> str:
        """Everything the widgets show, as plain text (what a test reads)."""
        return "\n".join(str(widget.content) for widget in self.query(Static))

    def action_help(self) -> None:
        self.query_one("#help", Static).toggle_class("shown")
