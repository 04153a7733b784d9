"""The events of a move: what every seat may see happen when an action is applied
(the cards that went down and what they took, calls, yaku, the ends of rounds and of
the match). Matches against the computer and tables between people send the same
events, each seat's turned round to its side by :func:`koikoi.server.views.seat_event`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from koikoi.cards import SLUGS, CardSet, slugs
from koikoi.match import Match
from koikoi.round import (
    FINAL_TURN,
    KOIKOI,
    NO_CALL_ALLOWED,
    STOP,
    STOPPED,
    Action,
    Phase,
    RoundResult,
    action_from_json,
)
from koikoi.rules import RuleSet
from koikoi.server.errors import BadActionError
from koikoi.yaku import koikoi_bonus, multipliers, scorer_for


def parse_action(data: Any) -> Action:
    """A player's action from its record form; refused (400) by name if it is none."""
    try:
        return action_from_json(data)
    except ValueError as error:
        raise BadActionError(str(error)) from None


def apply_action(match: Match, action: Action, seat: int) -> list[dict[str, Any]]:
    """Apply one seat's action to the match; the events it made, as every seat may see
    them (the cards that went down, what they took, calls, yaku, ends of rounds)."""
    game = match.round
    seen = len(game.history)
    round_number = match.round_number
    match.apply(action)
    events: list[dict[str, Any]] = []
    if action == KOIKOI:
        both = multipliers(game.rules.multiplier, game.calls)
        events.append({"type": "koikoi", "seat": seat, "multipliers": list(both)})
    elif action == STOP:
        events.append({"type": "stop", "seat": seat})
    events.extend(move_event(*move) for move in game.history[seen:])
    if game.phase is Phase.DECISION:
        events.append({"type": "yaku", "seat": game.turn, "yaku": game.yaku(game.turn)})
    if game.is_over:
        events += round_over_events(match, round_number)
    return events


def round_over_events(match: Match, round_number: int) -> list[dict[str, Any]]:
    """Rounds ended since ``round_number`` began (some end at the deal, by hand yaku),
    then the end of the match or the next deal."""
    events: list[dict[str, Any]] = [
        round_over_event(number, match.results[number - 1], match.rules)
        for number in range(round_number, len(match.results) + 1)
    ]
    if match.is_over:
        events.append({"type": "match-over", "totals": list(match.totals), "winner": match.winner})
    else:
        events.append({"type": "deal", "round": match.round_number, "dealer": match.round.dealer})
    return events


def move_event(seat: int, source: str, card: int, taken: CardSet) -> dict[str, Any]:
    """A card that went down (``source``: "play" or "draw") and what it captured."""
    return {"type": source, "seat": seat, "card": SLUGS[card], "captured": slugs(taken)}


def round_over_event(number: int, result: RoundResult, rules: RuleSet) -> dict[str, Any]:
    """A finished round, with how it ended and, for a stop, how its points were made."""
    scoring = None
    if result.reason in (STOPPED, FINAL_TURN, NO_CALL_ALLOWED) and result.winner is not None:
        seat = result.winner
        total = sum(result.yaku[seat].values())
        doubled, factor = scorer_for(rules).factors(
            total, result.calls[seat], result.calls[1 - seat]
        )
        bonus = koikoi_bonus(rules.multiplier, result.calls[seat])
        scoring = {"total": total, "doubled": doubled, "multiplier": factor, "bonus": bonus}
    return {
        "type": "round-over",
        "round": number,
        **result.to_json(),
        "reason": result.reason,
        "scoring": scoring,
    }


def yaku_made(match: Match, seat: int) -> dict[str, int]:
    """How many rounds ``seat`` won with each yaku."""
    won = [result for result in match.results if result.winner == seat]
    return dict(Counter(key for result in won for key in result.yaku[seat]))
