"""Games against the computer, as the server runs them.

A :class:`GameSession` holds a match between the human (seat 0) and the computer. The
human sends an action with the version of the state it was chosen in; the session
checks it, applies it, lets the computer move until the human is to move again, and
answers with the events to animate. Only what the human's seat may see ever leaves
a session: events and states are built from observations and public history.

A session is rebuilt from its record (rules, seed, actions) for every request, so the
stored record is the whole truth about a game: nothing is lost with a process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from koikoi.match import Match
from koikoi.round import Action, action_from_json, action_to_json
from koikoi.rules import RuleSet
from koikoi.server.errors import GameOverError, StaleActionError
from koikoi.server.events import apply_action, parse_action, round_over_events, yaku_made
from koikoi.server.ranked import rules_name
from koikoi.server.results import Ending, Finished, Opponent, SeatResult, Status, seat_status
from koikoi.server.thinking import Chooser, Thinking

Difficulty = Literal["easy", "normal", "expert"]
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)
HUMAN = 0
COMPUTER = 1

PRACTICE_PREFIX = "pr-"
"""Saved practice matches' ids: the prefix, then a hash of the player and the record."""
IN_PLACE = Chooser(Thinking(inline=True))
"""The computer thinking where it is asked, with the expert's own options: for
callers that are no server (tests, tools)."""


@dataclass
class GameSession:
    """One match between a person (seat 0) and a computer player (seat 1)."""

    id: str
    difficulty: str
    seed: int
    match: Match
    ranked: bool
    """Started as ranked by a signed-in player, under a preset as it stands: it moves
    the player's rating, and winning it earns ranking points (see POINTS_PRESETS)."""
    resigned: bool = False
    result: SeatResult | None = None
    """What the finished match meant for the player, once stored (koikoi.server.results)."""

    @classmethod
    def start(
        cls,
        game_id: str,
        rules: RuleSet,
        difficulty: str,
        seed: int,
        *,
        ranked: bool,
        chooser: Chooser = IN_PLACE,
    ) -> tuple[GameSession, list[dict[str, Any]]]:
        """A new match from ``seed`` (kept on the server); the computer moves first if it
        deals. Returns the opening events.

        ``chooser`` makes the computer's choices: where it thinks, and the options
        (``rollouts``, ``budget_ms``) that tune the expert's thinking.
        """
        if difficulty not in DIFFICULTIES:
            raise ValueError(
                f"unknown difficulty {difficulty!r}; choose one of {', '.join(DIFFICULTIES)}"
            )
        session = cls(game_id, difficulty, seed, Match(rules, seed), ranked)
        events = round_over_events(session.match, 1)
        events += session._computer_moves(chooser)
        return session, events

    @classmethod
    def restore(
        cls,
        game_id: str,
        rules: RuleSet,
        difficulty: str,
        seed: int,
        actions: list[Any],
        *,
        ranked: bool,
        resigned: bool,
    ) -> GameSession:
        """The session a stored record describes, replayed action by action."""
        match = Match(rules, seed)
        for data in actions:
            match.apply(action_from_json(data))
        return cls(game_id, difficulty, seed, match, ranked, resigned)

    @property
    def actions(self) -> list[Any]:
        """The record's actions, as stored."""
        return [action_to_json(action) for action in self.match.actions]

    @property
    def status(self) -> Status:
        """Playing, else what the match's result is for the person (as
        :func:`koikoi.server.results.seat_status` says it, once for every kind of match)."""
        if not self.resigned and not self.match.is_over:
            return Status.PLAYING
        return seat_status(self.finished(None), HUMAN)

    @property
    def points(self) -> int:
        """The ranking points this match has earned."""
        return 0 if self.result is None else self.result.points

    def finished(self, user_id: int | None, ending: Ending | None = None) -> Finished:
        """The finished match as :func:`koikoi.server.results.finish` stores it
        (``ending``: how, where the match alone cannot tell: abandoned)."""
        if ending is None:
            ending = Ending.RESIGNED if self.resigned else Ending.PLAYED
        practice = self.id.startswith(PRACTICE_PREFIX)
        return Finished(
            opponent=Opponent.PRACTICE if practice else Opponent.COMPUTER,
            match_id=self.id,
            rules_name=rules_name(self.match.rules),
            ranked=self.ranked,
            users=(user_id, None),
            winner=COMPUTER if self.resigned else self.match.winner,
            ending=ending,
            totals=(self.match.totals[0], self.match.totals[1]),
            yaku=(yaku_made(self.match, HUMAN), yaku_made(self.match, COMPUTER)),
            actions=(0, 0),
            level=self.difficulty,
        )

    @property
    def version(self) -> int:
        """How many actions (and resignations) the match has taken: an action names the
        version it answers, and a store writes only over the version it read."""
        return len(self.match.actions) + self.resigned

    def act(self, data: Any, version: int, chooser: Chooser = IN_PLACE) -> list[dict[str, Any]]:
        """Apply the human's action (record form), then the computer's (``chooser``
        makes them); the events."""
        if self.status != Status.PLAYING:
            raise GameOverError(f"the match is over ({self.status})")
        if version != self.version:
            raise StaleActionError(
                f"this action answers state {version}, but the game is at state {self.version};"
                " reload the game"
            )
        if self.match.turn != HUMAN or self.match.round.is_over:
            raise StaleActionError("it is not your turn")
        events = apply_action(
            self.match, parse_action(data), HUMAN
        )  # IllegalActionError names the legal ones
        events += self._computer_moves(chooser)
        return events

    def resign(self) -> list[dict[str, Any]]:
        """The human gives the match up: a loss, whatever the totals say."""
        if self.status != Status.PLAYING:
            raise GameOverError(f"the match is over ({self.status})")
        self.resigned = True
        return [
            {
                "type": "match-over",
                "totals": list(self.match.totals),
                "winner": COMPUTER,
                "resigned": True,
            }
        ]

    def computer(self, chooser: Chooser = IN_PLACE) -> Action:
        """The computer's choice for the move at hand, made by ``chooser``: its player is
        seeded from the game and the move, so a rebuilt game plays on as the running one
        would have, wherever it thinks."""
        seed = self.seed ^ 0x5EED ^ self.version << 48
        return chooser.choose(self.difficulty, seed, self.match.observation(COMPUTER))

    def _computer_moves(self, chooser: Chooser) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        while not self.match.is_over and self.match.turn == COMPUTER:
            events += apply_action(self.match, self.computer(chooser), COMPUTER)
        return events
