"""Starting seeded matches and drawing them as text, for both environments."""

from __future__ import annotations

import numpy as np

from koikoi.cards import slugs
from koikoi.match import Match
from koikoi.round import action_name
from koikoi.rules import RuleSet

SEED_BOUND = 2**48
"""Match seeds drawn from an environment's generator lie below this (as in ``sim``)."""


def start_match(rules: RuleSet, seed: int | None, rng: np.random.Generator) -> Match:
    """``Match(rules, seed)``, or a match from a seed drawn from ``rng`` when ``seed`` is None.

    A match decided before anyone moves (a hand yaku ending a one-round match) gives
    a learner nothing to do and an episode no step, so it is skipped for the match of
    the next seed drawn from ``rng``: the skips, too, are the same for the same seed.
    """
    match = Match(rules, int(rng.integers(SEED_BOUND)) if seed is None else seed)
    while match.is_over:
        match = Match(rules, int(rng.integers(SEED_BOUND)))
    return match


def render_table(match: Match) -> str:
    """The whole table as text, both hands face up: for people watching, never for agents."""
    game = match.round
    view = match.view()
    lines = [
        f"round {view.round_number}/{view.rounds}  month {game.month or '?'}  "
        f"dealer {game.dealer}  totals {view.totals[0]}-{view.totals[1]}",
        f"field: {' '.join(slugs(game.field))}",
    ]
    for seat in (0, 1):
        yaku = ", ".join(f"{key} {points}" for key, points in game.yaku(seat).items())
        lines += [
            f"seat {seat} hand: {' '.join(slugs(game.hands[seat]))}",
            f"seat {seat} pile: {' '.join(slugs(game.captured[seat]))}"
            f"  [{yaku or 'no yaku'}; {game.calls[seat]} koi-koi]",
        ]
    lines.append(f"stock: {len(game.stock_left)} cards")
    if match.is_over:
        winner = "nobody" if match.winner is None else f"seat {match.winner}"
        lines.append(f"match over: {winner} wins")
    else:
        legal = ", ".join(action_name(action) for action in game.legal_actions())
        lines.append(f"seat {game.turn} to {game.phase.value}: {legal}")
    return "\n".join(lines) + "\n"
