"""Games against the computer, as the server runs them.

A :class:`GameSession` owns a match, the computer's player and the human's seat. The
human sends an action with the version of the state it was chosen in; the session
checks it, applies it, lets the computer move until the human is to move again, and
answers with the events to animate. Only what the human's seat may see ever leaves
a session: events and states are built from observations and public history.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from koikoi.cards import SLUGS, slugs
from koikoi.match import Match
from koikoi.players import Player, make_player
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
from koikoi.yaku import multipliers, scorer_for

DIFFICULTIES = ("easy", "normal", "expert")
HUMAN = 0
COMPUTER = 1


class StaleActionError(ValueError):
    """An action chosen in an older state than the game's current one."""


class GameOverError(ValueError):
    pass


@dataclass
class GameSession:
    """One match between a person (seat 0) and a computer player (seat 1)."""

    id: str
    owner: str
    difficulty: str
    match: Match
    computer: Player

    @classmethod
    def start(
        cls,
        owner: str,
        rules: RuleSet,
        difficulty: str,
        seed: int,
        *,
        expert_options: dict[str, Any] | None = None,
    ) -> tuple[GameSession, list[dict[str, Any]]]:
        """A new match from ``seed`` (kept on the server); the computer moves first if it
        deals. Returns the opening events.

        ``expert_options`` (``rollouts``, ``budget_ms``) tune the expert's thinking.
        """
        if difficulty not in DIFFICULTIES:
            raise ValueError(
                f"unknown difficulty {difficulty!r}; choose one of {', '.join(DIFFICULTIES)}"
            )
        options = (expert_options or {}) if difficulty == "expert" else {}
        session = cls(
            id=secrets.token_urlsafe(16),
            owner=owner,
            difficulty=difficulty,
            match=Match(rules, seed),
            computer=make_player(difficulty, seed ^ 0x5EED, **options),
        )
        events = session._round_over_events(1)
        events += session._computer_moves()
        return session, events

    @property
    def version(self) -> int:
        """How many actions the match has taken: an action names the version it answers."""
        return len(self.match.actions)

    def act(self, data: Any, version: int) -> list[dict[str, Any]]:
        """Apply the human's action (record form), then the computer's; the events."""
        if self.match.is_over:
            raise GameOverError("the match is over")
        if version != self.version:
            raise StaleActionError(
                f"this action answers state {version}, but the game is at state {self.version};"
                " reload the game"
            )
        if self.match.turn != HUMAN or self.match.round.is_over:
            raise StaleActionError("it is not your turn")
        action = action_from_json(data)  # ValueError names a malformed action
        events = self._apply(action, HUMAN)  # IllegalActionError names the legal ones
        events += self._computer_moves()
        return events

    def _computer_moves(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        while not self.match.is_over and self.match.turn == COMPUTER:
            action = self.computer.choose(self.match.observation(COMPUTER))
            events += self._apply(action, COMPUTER)
        return events

    def _apply(self, action: Action, seat: int) -> list[dict[str, Any]]:
        game = self.match.round
        seen = len(game.history)
        round_number = self.match.round_number
        self.match.apply(action)
        events: list[dict[str, Any]] = []
        if action == KOIKOI:
            both = multipliers(game.rules.multiplier, game.calls)
            events.append({"type": "koikoi", "seat": seat, "multipliers": list(both)})
        elif action == STOP:
            events.append({"type": "stop", "seat": seat})
        events.extend(
            {"type": source, "seat": by, "card": SLUGS[card], "captured": slugs(taken)}
            for by, source, card, taken in game.history[seen:]  # source: "play" or "draw"
        )
        if game.phase is Phase.DECISION:
            events.append({"type": "yaku", "seat": game.turn, "yaku": game.yaku(game.turn)})
        if game.is_over:
            events += self._round_over_events(round_number)
        return events

    def _round_over_events(self, round_number: int) -> list[dict[str, Any]]:
        """Rounds ended since ``round_number`` began (some end at the deal, by hand
        yaku), then the end of the match or the next deal."""
        events: list[dict[str, Any]] = [
            round_over_event(number, self.match.results[number - 1], self.match.rules)
            for number in range(round_number, len(self.match.results) + 1)
        ]
        if self.match.is_over:
            events.append(
                {
                    "type": "match-over",
                    "totals": list(self.match.totals),
                    "winner": self.match.winner,
                }
            )
        else:
            events.append(
                {
                    "type": "deal",
                    "round": self.match.round_number,
                    "dealer": self.match.round.dealer,
                }
            )
        return events


def round_over_event(number: int, result: RoundResult, rules: RuleSet) -> dict[str, Any]:
    """A finished round, with how it ended and, for a stop, how its points were made."""
    scoring = None
    if result.reason in (STOPPED, FINAL_TURN, NO_CALL_ALLOWED) and result.winner is not None:
        seat = result.winner
        total = sum(result.yaku[seat].values())
        doubled, factor = scorer_for(rules).factors(
            total, result.calls[seat], result.calls[1 - seat]
        )
        scoring = {"total": total, "doubled": doubled, "multiplier": factor}
    return {
        "type": "round-over",
        "round": number,
        **result.to_json(),
        "reason": result.reason,
        "scoring": scoring,
    }


class GameRegistry:
    """The games in progress, in memory (accounts and durable storage come later)."""

    def __init__(self) -> None:
        self._games: dict[str, GameSession] = {}

    def add(self, session: GameSession) -> None:
        self._games[session.id] = session

    def get(self, game_id: str, owner: str) -> GameSession | None:
        """The game, if it exists and belongs to ``owner`` (others see no difference)."""
        session = self._games.get(game_id)
        if session is None or not secrets.compare_digest(session.owner, owner):
            return None
        return session
