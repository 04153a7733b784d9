"""``koikoi play``: a match against the computer in the terminal, by keyboard alone."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from koikoi.cards import ids
from koikoi.match import Match
from koikoi.players import Player
from koikoi.round import CAPTURE_BASE, KOIKOI, STOP, Phase, Round, play
from koikoi.tui.board import TableApp
from koikoi.tui.table import YOU, Table, card_text, choices_text, make_table, result_text

HUMAN = 0
COMPUTER = 1

HELP = """Keys
  1-9, 0        choose that card (0: the tenth), from your hand or the field
                cards to capture
  ← → ↑ ↓       move the cursor; Enter chooses the card under it
  K / S         koi-koi (play on for more) or stop (score now), when a yaku is made
  Enter         after a round: deal the next one
  ? or h        this help        Q   quit"""


class PlayApp(TableApp):
    """You (seat 0, at the bottom) against a computer player (seat 1, cards face down)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *TableApp.BINDINGS,
        *(Binding(str(n), f"choose({n - 1})", show=False) for n in range(1, 10)),
        Binding("0", "choose(9)", show=False),  # the tenth card of a ten-card deal
        Binding("left,up", "move(-1)", "previous", show=False),
        Binding("right,down", "move(1)", "next", show=False),
        Binding("enter", "enter", "choose"),
        Binding("k", "decide('koikoi')", "koi-koi"),
        Binding("s", "decide('stop')", "stop"),
    ]
    HELP = HELP
    near = HUMAN

    def __init__(self, match: Match, computer: Player, computer_name: str) -> None:
        super().__init__()
        self.match = match
        self.computer = computer
        self.names = (YOU, f"computer ({computer_name})")
        self.shown: Round = match.round
        """The round on the screen: an ended one stays there until Enter."""
        self.shown_number = match.round_number
        self.cursor = 0
        self.message = ""
        self.thinking = False

    # -- what the player sees ------------------------------------------------------

    @property
    def paused(self) -> bool:
        """A round has ended and is shown until the player deals on (or the match is over)."""
        return self.shown.is_over

    def table(self) -> Table:
        observation = self.shown.observation(HUMAN)
        view = dataclasses.replace(self.match.view(), round_number=self.shown_number)
        # Only the player's own hand is given: the computer's is not in the observation.
        hands = (observation.hand, None)
        return make_table(observation, view, self.names, hands, tuple(self.match.results))

    def options_open(self) -> bool:
        """Whether the player may move now."""
        return not self.paused and not self.thinking and self.match.turn == HUMAN

    def options(self) -> list[int]:
        """The cards the number keys and the cursor choose among now."""
        if not self.options_open():
            return []
        round = self.shown
        if round.phase is Phase.PLAY:
            return ids(round.hands[HUMAN])
        if round.phase in (Phase.HAND_CHOICE, Phase.DRAW_CHOICE):
            return [action - CAPTURE_BASE for action in round.legal_actions()]
        return []

    def redraw(self) -> None:
        table = self.table()
        options = self.options()
        cursor = min(self.cursor, len(options) - 1) if options else None
        if table.phase is Phase.PLAY and options:
            legal = set(self.shown.legal_actions())
            hand = choices_text(options, cursor, legal)
        else:
            hand = Text("hand: ").append_text(
                Text("  ").join(card_text(card) for card in ids(self.shown.hands[HUMAN]))
            )
        if table.phase in (Phase.HAND_CHOICE, Phase.DRAW_CHOICE) and options:
            prompt = Text("Two field cards match: choose the one to take\n")
            prompt.append_text(choices_text(options, cursor))
        else:
            prompt = Text(self.prompt())
        if self.message:
            prompt.append(f"\n{self.message}", style="bold red")
        self.show_table(table, hand, prompt)

    def prompt(self) -> str:
        round, match = self.shown, self.match
        if round.is_over:
            assert round.result is not None
            ended = f"Round {self.shown_number} is over: {result_text(round.result, self.names)}."
            if match.is_over:
                first, second = match.totals
                winner = (
                    "a tie"
                    if match.winner is None
                    else "you win the match"
                    if match.winner == HUMAN
                    else "the computer wins the match"
                )
                return f"{ended}\nThe match is over, {first} : {second}, {winner}. Q quits."
            return f"{ended}\nPress Enter to deal the next round."
        if self.thinking or match.turn != HUMAN:
            return "The computer is thinking..."
        if round.phase is Phase.DECISION:
            return "You made a yaku: K to call koi-koi and play on, S to stop and score."
        return "Your turn: play a card from your hand (1-9, or arrows and Enter)."

    # -- keys ----------------------------------------------------------------------

    def on_mount(self) -> None:
        self.redraw()
        self.computer_turn()

    def action_choose(self, index: int) -> None:
        options = self.options()
        if index >= len(options):
            return
        card = options[index]
        if self.shown.phase is Phase.PLAY:
            action = play(card)
            if action not in self.shown.legal_actions():
                self.message = f"{card_text(card)} cannot be played now: take a card that matches"
                self.redraw()
                return
        else:
            action = CAPTURE_BASE + card
        self.move(action)

    def action_move(self, step: int) -> None:
        options = self.options()
        if options:
            self.cursor = (min(self.cursor, len(options) - 1) + step) % len(options)
            self.redraw()

    def action_enter(self) -> None:
        if self.paused:
            if not self.match.is_over:
                self.shown = self.match.round
                self.shown_number = self.match.round_number
                self.cursor = 0
                self.redraw()
                self.computer_turn()
            return
        self.action_choose(self.cursor)

    def action_decide(self, decision: str) -> None:
        if self.options_open() and self.shown.phase is Phase.DECISION:
            self.move(KOIKOI if decision == "koikoi" else STOP)

    # -- moves ---------------------------------------------------------------------

    def move(self, action: int) -> None:
        """The player's move; then the computer's, if its turn comes."""
        self.act(action)
        self.computer_turn()

    def act(self, action: int) -> None:
        """Apply a move of either seat; a round that ends stays on screen."""
        number = self.match.round_number
        before = self.match.round
        self.match.apply(action)
        self.message = ""
        if before.is_over:
            self.shown, self.shown_number = before, number
        else:
            self.shown = self.match.round
        self.redraw()

    def computer_turn(self) -> None:
        if not self.paused and not self.match.is_over and self.match.turn == COMPUTER:
            self.thinking = True
            self.redraw()
            self.run_worker(self._computer_moves(), exclusive=True)

    async def _computer_moves(self) -> None:
        # The computer thinks in a thread (the expert takes seconds), seeing only its
        # own observation; its moves are applied here, on the app's event loop.
        while not self.paused and not self.match.is_over and self.match.turn == COMPUTER:
            observation = self.match.observation(COMPUTER)
            action = await asyncio.to_thread(self.computer.choose, observation)
            self.act(action)
        self.thinking = False
        self.cursor = 0
        self.redraw()
