"""What the browser gets: a game's state as its human seat sees it, as JSON.

Built only from the human seat's observation and the match's public results, so
nothing hidden (the computer's hand, the stock order, the seed) can slip out.
"""

from __future__ import annotations

from typing import Any

from koikoi.cards import CARDS, KIND_MASKS, SLUGS, slugs
from koikoi.round import CAPTURE_BASE, KOIKOI, Phase, action_to_json
from koikoi.rules import FIELDS, PRESETS
from koikoi.server.games import HUMAN, GameSession
from koikoi.yaku import multiplier, multipliers, scorer_for


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
    if obs.phase is Phase.DECISION and obs.to_move:
        stake = scorer.final(totals[HUMAN], own_calls, their_calls)
        stake_doubled = scorer.factors(totals[HUMAN])[0]
    return {
        "id": session.id,
        "version": session.version,
        "difficulty": session.difficulty,
        "rules": rules.to_mapping(full=True),
        "phase": obs.phase.value,
        "your_turn": obs.to_move,
        "turn": obs.turn,
        "dealer": obs.dealer,
        "hand": slugs(obs.hand),
        "opponent_hand": obs.opponent_hand_size,
        "field": slugs(obs.field),
        "stock": obs.stock_size,
        "pending": None if obs.pending_card is None else SLUGS[obs.pending_card],
        "choices": [
            SLUGS[a - CAPTURE_BASE] for a in obs.legal_actions if CAPTURE_BASE <= a < KOIKOI
        ],
        "legal": [action_to_json(action) for action in obs.legal_actions],
        "captured": [pile_json(obs.captured[0]), pile_json(obs.captured[1])],
        "yaku": [obs.yaku[0], obs.yaku[1]],
        "yaku_totals": totals,
        "calls": list(obs.calls),
        "multiplier": multipliers(rules.multiplier, obs.calls)[HUMAN],
        "opponent_multiplier": multipliers(rules.multiplier, obs.calls)[1 - HUMAN],
        "koikoi_multiplier": multiplier(rules.multiplier, own_calls + 1, their_calls),
        "stake": stake,
        "stake_doubled": stake_doubled,
        "round": view.round_number,
        "rounds": view.rounds,
        "totals": list(view.totals),
        "target_score": view.target_score,
        "results": [result.to_json() for result in match.results],
        "over": match.is_over,
        "winner": match.winner,
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
