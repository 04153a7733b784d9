"""What the browser gets: a game's state as its human seat sees it, as JSON.

Built only from the human seat's observation and the match's public results, so
nothing hidden (the computer's hand, the stock order, the seed) can slip out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from koikoi.cards import CARDS, KIND_MASKS, SLUGS, CardSet, slugs
from koikoi.match import Match
from koikoi.round import CAPTURE_BASE, KOIKOI, STOP, Phase, Round, action_from_json, action_to_json
from koikoi.rules import FIELDS, PRESETS, RuleSet
from koikoi.server.events import move_event
from koikoi.server.games import COMPUTER, HUMAN, GameSession
from koikoi.server.ranked import rules_name
from koikoi.server.results import Status
from koikoi.yaku import koikoi_bonus, multiplier, multipliers, progress, scorer_for

T = TypeVar("T")


def pile_json(cards: int) -> dict[str, list[str]]:
    """A capture pile grouped by kind, as the table shows it."""
    return {kind.value: slugs(cards & mask) for kind, mask in KIND_MASKS.items()}


def state_json(session: GameSession) -> dict[str, Any]:
    """A match against the computer, as the human's seat sees it."""
    return {
        "id": session.id,
        "version": session.version,
        "status": session.status,
        "ranked": session.ranked,
        "points": session.points,
        "rating": None if session.result is None else session.result.rating_json(),
        "difficulty": session.difficulty,
        **seat_json(
            session.match,
            HUMAN,
            playing=session.status == Status.PLAYING,
            winner=COMPUTER if session.resigned else session.match.winner,
        ),
    }


def seat_json(match: Match, seat: int, *, playing: bool, winner: int | None) -> dict[str, Any]:
    """The match as ``seat`` sees it, from its observation and the public results, with
    the seats counted from the viewer: 0 is always the viewer and 1 the opponent, so a
    table's view is the same whichever seat a player sits in. ``playing``: the match
    goes on (a resigned one stops mid-round); ``winner``: the seat that won, if any.
    """
    obs = match.observation(seat)
    view = obs.match
    assert view is not None
    rules = obs.rules
    me, them = seat, 1 - seat

    def pair(values: Sequence[T]) -> list[T]:
        return [values[me], values[them]]

    calls = pair(obs.calls)
    totals = [sum(yaku.values()) for yaku in pair(obs.yaku)]
    scorer = scorer_for(rules)
    stake = None
    stake_doubled = False
    to_move = obs.to_move and playing
    legal = obs.legal_actions if to_move else []
    if obs.phase is Phase.DECISION and to_move:
        stake = scorer.final(totals[0], calls[0], calls[1])
        stake_doubled = scorer.factors(totals[0])[0]
    both = multipliers(rules.multiplier, obs.calls)
    return {
        "rules": rules.to_mapping(full=True),
        "rules_name": rules_name(rules),
        "phase": obs.phase.value,
        "your_turn": to_move,
        "turn": obs.turn ^ seat,
        "dealer": obs.dealer ^ seat,
        "hand": slugs(obs.hand),
        "opponent_hand": obs.opponent_hand_size,
        "field": slugs(obs.field),
        "stock": obs.stock_size,
        "pending": None if obs.pending_card is None else SLUGS[obs.pending_card],
        "choices": [SLUGS[a - CAPTURE_BASE] for a in legal if CAPTURE_BASE <= a < KOIKOI],
        "legal": [action_to_json(action) for action in legal],
        "captured": [pile_json(cards) for cards in pair(obs.captured)],
        "yaku": pair(obs.yaku),
        "yaku_totals": totals,
        # What each pile is closest to: from both piles alone, which both seats see.
        "progress": [
            [
                entry.to_json()
                for entry in progress(obs.captured[s], obs.captured[1 - s], rules, obs.month)
            ]
            for s in (me, them)
        ],
        "calls": calls,
        "multiplier": both[me],
        "opponent_multiplier": both[them],
        "koikoi_multiplier": multiplier(rules.multiplier, calls[0] + 1, calls[1]),
        # Points koi-koi calls add to a stop (multiplier = additive), now and after a call.
        "bonus": koikoi_bonus(rules.multiplier, calls[0]),
        "koikoi_bonus": koikoi_bonus(rules.multiplier, calls[0] + 1),
        "stake": stake,
        "stake_doubled": stake_doubled,
        "round": view.round_number,
        "rounds": view.rounds,
        "totals": pair(view.totals),
        "target_score": view.target_score,
        "results": [seat_event(result.to_json(), seat) for result in match.results],
        "over": not playing,
        "winner": None if winner is None else winner ^ seat,
    }


SEAT_KEYS = ("seat", "dealer", "winner")
"""Keys of an event (or a result) that name a seat."""
PAIR_KEYS = ("multipliers", "totals", "points", "calls")
"""Keys that hold one value per seat, in seat order (and ``yaku`` where it is a list)."""


def seat_event(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """An event (or a round's result) with its seats counted from ``seat``'s side, as
    :func:`seat_json` counts them."""
    if seat == 0:
        return event
    flipped = dict(event)
    for key in SEAT_KEYS:
        if flipped.get(key) is not None:
            flipped[key] ^= 1
    for key in (*PAIR_KEYS, "yaku"):
        value = flipped.get(key)
        if isinstance(value, list) and len(value) == 2:
            flipped[key] = [value[1], value[0]]
    return flipped


def summary_json(session: GameSession, updated: str) -> dict[str, Any]:
    """A match in progress, as a line of the player's list of games to resume."""
    view = session.match.view()
    return {
        "id": session.id,
        "difficulty": session.difficulty,
        "rules_name": rules_name(session.match.rules),
        "ranked": session.ranked,
        "round": view.round_number,
        "rounds": view.rounds,
        "totals": list(view.totals),
        "updated": updated,
    }


class _Table:
    """The whole table of a finished match, moved along by its events."""

    def __init__(self, game: Round) -> None:
        self.hands = [game.hands[0], game.hands[1]]
        self.field = game.field
        self.stock = len(game.stock_left)
        self.captured = [0, 0]

    def move(self, seat: int, source: str, card: int, taken: CardSet) -> None:
        if source == "play":
            self.hands[seat] &= ~(1 << card)
        else:
            self.stock -= 1
        if taken:
            self.field &= ~taken
            self.captured[seat] |= taken | 1 << card
        else:
            self.field |= 1 << card


def replay_json(session: GameSession, player: str | None) -> dict[str, Any]:
    """A finished match against the computer step by step, every card face up."""
    ended = {"type": "resign", "seat": HUMAN} if session.resigned else None
    match, steps = replay_steps(session.match.rules, session.seed, session.actions, ended)
    return {
        "id": session.id,
        "player": player,
        "difficulty": session.difficulty,
        "rules": match.rules.to_mapping(full=True),
        "rules_name": rules_name(match.rules),
        "outcome": session.status,
        "totals": list(match.totals),
        "steps": steps,
    }


def replay_steps(
    rules: RuleSet, seed: int, actions: list[Any], ended: dict[str, Any] | None = None
) -> tuple[Match, list[dict[str, Any]]]:
    """A finished match replayed, and its steps: one per thing that happened, each
    with the table as it stood after it; ``ended``, a last step's event for a match
    that stopped before its end (a resignation, a forfeit)."""
    match = Match(rules, seed)
    steps: list[dict[str, Any]] = []
    totals = [match.starting_points] * 2  # where the match starts
    table = _Table(match.round)
    current: Round | None = None
    seen = booked = 0

    def step(event: dict[str, Any], number: int | None = None) -> None:
        shown = current or match.round
        steps.append(
            {
                "round": number or booked + 1,
                # The record's actions taken so far: how a review's decision (by its
                # place in the record) finds the step it was made at.
                "actions": len(match.actions),
                "dealer": shown.dealer,
                "event": event,
                "hands": [slugs(table.hands[0]), slugs(table.hands[1])],
                "field": slugs(table.field),
                "stock": table.stock,
                "captured": [pile_json(table.captured[0]), pile_json(table.captured[1])],
                "totals": list(totals),
            }
        )

    def follow() -> None:
        nonlocal current, table, seen, booked
        if current is not None:
            for move in current.history[seen:]:
                table.move(*move)
                step(move_event(*move))
            seen = len(current.history)
        for number, result in enumerate(match.results[booked:], booked + 1):
            won = match.gains(result)
            totals[0] += won[0]
            totals[1] += won[1]
            step({"type": "round-over", **result.to_json(), "reason": result.reason}, number)
        booked = len(match.results)
        if match.round is not current and not match.is_over:
            current, table, seen = match.round, _Table(match.round), 0
            step({"type": "deal"})

    follow()
    for data in actions:
        action = action_from_json(data)
        if action in (KOIKOI, STOP):
            kind = "koikoi" if action == KOIKOI else "stop"
            seat = match.turn
            match.apply(action)
            step({"type": kind, "seat": seat})
        else:
            match.apply(action)
        follow()
    if ended is not None:
        step(ended)
    return match, steps


def rules_catalog() -> dict[str, Any]:
    """Every rule key with its kind and allowed values, and every preset's values."""
    return {
        "fields": [
            {
                "key": spec.key,
                "kind": spec.kind,
                "help": spec.help,
                "allowed": spec.allowed,
                "choices": [m.value for m in spec.choices] if spec.choices else None,
                "maximum": spec.bounds[1] if spec.bounds else None,
            }
            for spec in FIELDS.values()
        ],
        "presets": {name: rules.to_mapping(full=True) for name, rules in PRESETS.items()},
    }


def cards_catalog() -> list[dict[str, Any]]:
    return [
        {"id": c.id, "slug": c.slug, "month": c.month, "flower": c.flower, "kind": c.kind.value}
        for c in CARDS
    ]
