"""What the browser gets: a game's state as its human seat sees it, as JSON.

Built only from the human seat's observation and the match's public results, so
nothing hidden (the computer's hand, the stock order, the seed) can slip out.
"""

from __future__ import annotations

from typing import Any

from koikoi.cards import CARDS, KIND_MASKS, SLUGS, CardSet, slugs
from koikoi.match import Match
from koikoi.round import CAPTURE_BASE, KOIKOI, STOP, Phase, Round, action_from_json, action_to_json
from koikoi.rules import FIELDS, PRESETS
from koikoi.server.games import (
    COMPUTER,
    HUMAN,
    PLAYING,
    GameSession,
    move_event,
    rules_name,
)
from koikoi.yaku import koikoi_bonus, multiplier, multipliers, progress, scorer_for


def pile_json(cards: int) -> dict[str, list[str]]:
    """A capture pile grouped by kind, as the table shows it."""
    return {kind.value: slugs(cards & mask) for kind, mask in KIND_MASKS.items()}


def state_json(session: GameSession) -> dict[str, Any]:
    match = session.match
    obs = match.observation(HUMAN)
    view = obs.match
    assert view is not None
    rules = obs.rules
    own_calls, their_calls = obs.calls[HUMAN], obs.calls[1 - HUMAN]
    totals = [sum(yaku.values()) for yaku in obs.yaku]
    scorer = scorer_for(rules)
    stake = None
    stake_doubled = False
    # A resigned match stops mid-round: nobody is to move any more.
    to_move = obs.to_move and session.status == PLAYING
    legal = obs.legal_actions if to_move else []
    if obs.phase is Phase.DECISION and to_move:
        stake = scorer.final(totals[HUMAN], own_calls, their_calls)
        stake_doubled = scorer.factors(totals[HUMAN])[0]
    return {
        "id": session.id,
        "version": session.version,
        "status": session.status,
        "ranked": session.ranked,
        "points": session.points,
        "difficulty": session.difficulty,
        "rules": rules.to_mapping(full=True),
        "rules_name": rules_name(rules),
        "phase": obs.phase.value,
        "your_turn": to_move,
        "turn": obs.turn,
        "dealer": obs.dealer,
        "hand": slugs(obs.hand),
        "opponent_hand": obs.opponent_hand_size,
        "field": slugs(obs.field),
        "stock": obs.stock_size,
        "pending": None if obs.pending_card is None else SLUGS[obs.pending_card],
        "choices": [SLUGS[a - CAPTURE_BASE] for a in legal if CAPTURE_BASE <= a < KOIKOI],
        "legal": [action_to_json(action) for action in legal],
        "captured": [pile_json(obs.captured[0]), pile_json(obs.captured[1])],
        "yaku": [obs.yaku[0], obs.yaku[1]],
        "yaku_totals": totals,
        # What each pile is closest to: from both piles alone, which both seats see.
        "progress": [
            [
                entry.to_json()
                for entry in progress(obs.captured[s], obs.captured[1 - s], rules, obs.month)
            ]
            for s in (0, 1)
        ],
        "calls": list(obs.calls),
        "multiplier": multipliers(rules.multiplier, obs.calls)[HUMAN],
        "opponent_multiplier": multipliers(rules.multiplier, obs.calls)[1 - HUMAN],
        "koikoi_multiplier": multiplier(rules.multiplier, own_calls + 1, their_calls),
        # Points koi-koi calls add to a stop (multiplier = additive), now and after a call.
        "bonus": koikoi_bonus(rules.multiplier, own_calls),
        "koikoi_bonus": koikoi_bonus(rules.multiplier, own_calls + 1),
        "stake": stake,
        "stake_doubled": stake_doubled,
        "round": view.round_number,
        "rounds": view.rounds,
        "totals": list(view.totals),
        "target_score": view.target_score,
        "results": [result.to_json() for result in match.results],
        "over": session.status != PLAYING,
        "winner": COMPUTER if session.resigned else match.winner,
    }


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
    """A finished match step by step, every card face up: one step per thing that
    happened, each with the table as it stood after it."""
    match = Match(session.match.rules, session.seed)
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
    for data in session.actions:
        action = action_from_json(data)
        if action in (KOIKOI, STOP):
            kind = "koikoi" if action == KOIKOI else "stop"
            seat = match.turn
            match.apply(action)
            step({"type": kind, "seat": seat})
        else:
            match.apply(action)
        follow()
    if session.resigned:
        step({"type": "resign", "seat": HUMAN})
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
