"""What the terminal shows of a table: plain data built from observations, and its text.

A :class:`Table` holds only what may be shown. ``koikoi play`` builds it from the
player's own :class:`~koikoi.round.Observation`, which never holds the computer's hand,
so the computer's cards cannot reach the screen; ``koikoi watch`` passes both hands, as
a finished game is public.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from koikoi.cards import CARDS, FLOWERS, CardSet, Kind, ids
from koikoi.round import (
    DRAWN,
    Event,
    MatchView,
    Observation,
    Phase,
    RoundResult,
)

KIND_SIGNS = {Kind.BRIGHT: "★", Kind.ANIMAL: "◆", Kind.RIBBON: "▬", Kind.PLAIN: "·"}
KIND_STYLES = {
    Kind.BRIGHT: "bold yellow",
    Kind.ANIMAL: "green",
    Kind.RIBBON: "red",
    Kind.PLAIN: "",
}
CURSOR = "▸"


@dataclass(frozen=True)
class Seat:
    """One player as the table shows them; ``hand`` is None when it is face down."""

    name: str
    hand: CardSet | None
    hand_size: int
    captured: CardSet
    yaku: dict[str, int]
    calls: int
    total: int


@dataclass(frozen=True)
class Table:
    """A moment of a match, as far as the viewer may see it (a snapshot: nothing shared)."""

    preset: str
    seats: tuple[Seat, Seat]
    field: CardSet
    stock_size: int
    month: int
    dealer: int
    turn: int
    phase: Phase
    pending_card: int | None
    round_number: int
    rounds: int
    target_score: int
    history: tuple[Event, ...]
    result: RoundResult | None
    results: tuple[RoundResult, ...]


def make_table(
    observation: Observation,
    view: MatchView,
    names: tuple[str, str],
    hands: tuple[CardSet | None, CardSet | None],
    results: tuple[RoundResult, ...],
) -> Table:
    """The table seen through ``observation``, showing only the ``hands`` given."""
    obs = observation
    sizes = [0, 0]
    sizes[obs.seat] = obs.hand.bit_count()
    sizes[1 - obs.seat] = obs.opponent_hand_size
    seats = tuple(
        Seat(
            name=names[seat],
            hand=hands[seat],
            hand_size=sizes[seat],
            captured=obs.captured[seat],
            yaku=dict(obs.yaku[seat]),
            calls=obs.calls[seat],
            total=view.totals[seat],
        )
        for seat in (0, 1)
    )
    return Table(
        preset=obs.rules.preset,
        seats=(seats[0], seats[1]),
        field=obs.field,
        stock_size=obs.stock_size,
        month=obs.month,
        dealer=obs.dealer,
        turn=obs.turn,
        phase=obs.phase,
        pending_card=obs.pending_card,
        round_number=view.round_number,
        rounds=view.rounds,
        target_score=view.target_score,
        history=obs.history,
        result=obs.result,
        results=results,
    )


# -- text ----------------------------------------------------------------------------------


def card_text(card: int) -> Text:
    """A card as its kind's sign and its slug, coloured by kind: ``★pine-crane``.

    One word, so that a wrapped line never parts the sign from its card (terminals
    break lines at no-break spaces too).
    """
    kind = CARDS[card].kind
    return Text(f"{KIND_SIGNS[kind]}{CARDS[card].slug}", style=KIND_STYLES[kind])


def cards_text(cards: CardSet, empty: str = "none") -> Text:
    if not cards:
        return Text(empty, style="dim")
    return Text("  ").join(card_text(card) for card in ids(cards))


def choices_text(cards: list[int], cursor: int | None, legal: set[int] | None = None) -> Text:
    """Numbered cards to choose from, one a line, the cursor marked; cards outside
    ``legal`` dimmed and struck through."""
    parts = []
    for index, card in enumerate(cards):
        marker = CURSOR if index == cursor else " "
        part = Text(f"{marker}{index + 1} ", style="bold" if index == cursor else "")
        label = card_text(card)
        if legal is not None and card not in legal:
            label.stylize("dim strike")
        if index == cursor:
            label.stylize("reverse")
        part.append_text(label)
        parts.append(part)
    return Text("\n").join(parts)


def yaku_text(yaku: dict[str, int]) -> str:
    if not yaku:
        return "yaku: none yet"
    listed = ", ".join(f"{key} {points}" for key, points in yaku.items())
    return f"yaku: {listed} ({sum(yaku.values())} points)"


def status_text(table: Table) -> str:
    """The line above the table: rules, round, month, dealer and match totals."""
    first, second = table.seats
    rounds = f"round {table.round_number} of {table.rounds}"
    target = f", to {table.target_score} points" if table.target_score else ""
    month = f"month {table.month} ({FLOWERS[table.month - 1]})" if table.month else "month -"
    return (
        f"{table.preset} · {rounds}{target} · {month} · dealer: {table.seats[table.dealer].name}"
        f" · match: {first.name} {first.total} : {second.total} {second.name}"
    )


def seat_header(seat: Seat) -> Text:
    """A seat's name, match total and calls."""
    text = Text(seat.name, style="bold")
    text.append(f" · match total {seat.total} · koi-koi calls {seat.calls}")
    return text


def seat_text(seat: Seat) -> Text:
    """A seat's header and its hand, the cards only where it is face up."""
    text = seat_header(seat)
    text.append("\nhand: ")
    if seat.hand is None:
        text.append(f"{seat.hand_size} cards, face down " + "▮" * seat.hand_size, style="dim")
    else:
        text.append_text(cards_text(seat.hand))
    return text


YOU = "you"
"""The name of the player at the keyboard, which the sentences address."""


def possessive(name: str) -> str:
    return "your" if name == YOU else f"{name}'s"


def pile_text(seat: Seat) -> Text:
    text = Text(f"{possessive(seat.name)} pile: ")
    text.append_text(cards_text(seat.captured))
    text.append(f"\n{yaku_text(seat.yaku)}")
    return text


def field_text(table: Table) -> Text:
    text = Text("field: ")
    text.append_text(cards_text(table.field, "empty"))
    if table.pending_card is not None:
        held = "drawn" if table.phase is Phase.DRAW_CHOICE else "played"
        text.append(f"\n{held}, waiting for a choice: ")
        text.append_text(card_text(table.pending_card))
    return text


def stock_text(table: Table) -> str:
    return f"stock: {table.stock_size} cards face down"


def event_text(event: Event, names: tuple[str, str]) -> Text:
    """One card laid down: ``you played ★ pine-crane and took · pine-plain-1``."""
    text = Text(f"{names[event.seat]} {'drew' if event.source == DRAWN else 'played'} ")
    text.append_text(card_text(event.card))
    taken = event.captured & ~(1 << event.card)
    if taken:
        text.append(" and took ")
        text.append_text(cards_text(taken))
    else:
        text.append(" onto the field")
    return text


def history_text(table: Table, last: int = 4) -> Text:
    names = (table.seats[0].name, table.seats[1].name)
    events = table.history[-last:]
    if not events:
        return Text("no card laid yet this round", style="dim")
    return Text("\n").join(event_text(event, names) for event in events)


def result_text(result: RoundResult, names: tuple[str, str]) -> str:
    if result.winner is None:
        return "nobody scores"
    yaku = result.yaku[result.winner]
    listed = ", ".join(f"{key} {points}" for key, points in yaku.items()) or "no yaku"
    name = names[result.winner]
    scores = "score" if name == YOU else "scores"
    return f"{name} {scores} {result.points[result.winner]} ({listed})"


def results_text(table: Table, last: int = 12) -> Text:
    """The rounds played so far in the match, the latest ``last`` of them."""
    names = (table.seats[0].name, table.seats[1].name)
    if not table.results:
        return Text("no round finished yet", style="dim")
    first = max(0, len(table.results) - last)
    lines = [
        f"round {number}: {result_text(result, names)}"
        for number, result in enumerate(table.results[first:], start=first + 1)
    ]
    return Text("\n".join(lines))
