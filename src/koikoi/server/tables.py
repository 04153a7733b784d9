"""Tables between two people: the match, who sits where, whose move it is and how
long they have.

A :class:`TableSession` is rebuilt from its row for every change, like a game against
the computer, so a table lives in the database and any server process can serve it.
The events it returns count seats as the match does (0 made the table, 1 sat down);
:func:`koikoi.server.views.seat_event` turns them round for the seat that reads them,
and only :meth:`TableSession.state` of a seat, built from that seat's observation,
ever leaves the server.

The clock: the seat to move has ``move_seconds`` for each action. When they run out,
the easy computer player makes that action for them (so a table never stalls on one
absent player); :data:`MAX_TIMEOUTS` such actions in a row forfeit the match. The
grace a player who lost their connection has to come back is thus that many moves'
worth of time, during which the table plays on for them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from koikoi.match import Match
from koikoi.players import make_player
from koikoi.round import action_from_json, action_to_json
from koikoi.rules import RuleSet
from koikoi.server.errors import GameOverError, Refused, StaleActionError
from koikoi.server.events import apply_action, parse_action, round_over_events, yaku_made
from koikoi.server.ranked import rules_name, seat_actions
from koikoi.server.results import Ending, Finished, Opponent, Status, seat_status
from koikoi.server.sessions import SessionInfo
from koikoi.server.views import replay_steps, seat_event, seat_json

OPEN, PLAYING, OVER = Status.OPEN, Status.PLAYING, Status.OVER
PLAYED, RESIGNED, FORFEIT, CANCELLED = (
    Ending.PLAYED,
    Ending.RESIGNED,
    Ending.FORFEIT,
    Ending.CANCELLED,
)
MOVE_SECONDS = 30
"""Every preset's clock for one action; a friendly table may choose another."""
MOVE_SECONDS_CHOICES = (15, 30, 60, 120)
MAX_TIMEOUTS = 3
"""Actions in a row the clock may make for a seat before the seat forfeits."""
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""A table code's letters: no 0/O or 1/I/L to misread when a code is read out."""
CODE_LENGTH = 6
CODE_PATTERN = f"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class TableError(Refused):
    """A refused request at a table; ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message, status=status)


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: an account, or a guest's browser session."""

    user_id: int | None
    session_id: str | None
    name: str | None = None
    """The account's name (a guest has none)."""

    @classmethod
    def of(cls, owner: SessionInfo) -> Seat:
        if owner.user_id is not None:
            return cls(owner.user_id, None, owner.user_name)
        return cls(None, owner.id)

    def holds(self, owner: SessionInfo) -> bool:
        if self.user_id is not None:
            return self.user_id == owner.user_id
        return self.session_id == owner.id


@dataclass
class TableSession:
    id: str
    code: str
    rules: RuleSet
    ranked: bool
    seed: int
    match: Match
    seats: list[Seat | None]
    move_seconds: int
    version: int = 0
    status: Status = OPEN
    ending: Ending | None = None
    winner: int | None = None
    deadline: datetime | None = None
    timeouts: list[int] = field(default_factory=lambda: [0, 0])
    rematch: list[bool] = field(default_factory=lambda: [False, False])
    next_id: str | None = None
    ratings: list[list[float] | None] | None = None
    """Each seat's rating before and after the finished match, where it moved one."""
    _made: tuple[int, tuple[int, int]] | None = field(default=None, repr=False, compare=False)
    """Each seat's actions, counted at so many actions (see _actions_made)."""

    @classmethod
    def open(
        cls,
        table_id: str,
        code: str,
        rules: RuleSet,
        seed: int,
        host: Seat,
        *,
        ranked: bool,
        move_seconds: int,
    ) -> TableSession:
        """A new table with its host in seat 0, waiting for a second player."""
        return cls(
            table_id, code, rules, ranked, seed, Match(rules, seed), [host, None], move_seconds
        )

    @classmethod
    def restore(
        cls, actions: list[Any], behind: TableSession | None = None, **columns: Any
    ) -> TableSession:
        """The table a row describes, its match replayed action by action; or, given
        ``behind``, an older copy of the same table whose match has played the first
        of those actions (only those), that match with only the rest played on.

        A copy that a failed change left ahead of the row, or off its path, is
        ignored: its actions are not where the row's begin.
        """
        played = 0 if behind is None else len(behind.match.actions)
        if behind is not None and actions[:played] == behind.actions:
            match, actions = behind.match, actions[played:]
        else:
            match = Match(columns["rules"], columns["seed"])
        for data in actions:
            match.apply(action_from_json(data))
        return cls(match=match, **columns)

    @property
    def actions(self) -> list[Any]:
        return [action_to_json(action) for action in self.match.actions]

    @property
    def rules_name(self) -> str:
        return rules_name(self.rules)

    def seat_of(self, owner: SessionInfo) -> int | None:
        for number, seat in enumerate(self.seats):
            if seat is not None and seat.holds(owner):
                return number
        return None

    def seated(self, owner: SessionInfo) -> int:
        """The owner's seat; refused for anyone else."""
        seat = self.seat_of(owner)
        if seat is None:
            raise TableError(403, "you do not sit at this table")
        return seat

    # -- changes: each one bumps the version and returns the events it made ---------

    def sit(self, owner: SessionInfo, now: datetime) -> list[dict[str, Any]]:
        """The second player sits down, and the match begins."""
        if self.seat_of(owner) is not None:
            raise TableError(409, "you already sit at this table")
        if self.ending == CANCELLED:
            raise TableError(409, "this table was closed before anyone sat down at it")
        if self.status != OPEN:
            raise TableError(409, "this table is full: two players already sit at it")
        if self.ranked and owner.user_id is None:
            raise TableError(403, "this table is ranked: sign in to sit at it")
        return self.begin(Seat.of(owner), now)

    def begin(self, guest: Seat, now: datetime) -> list[dict[str, Any]]:
        """``guest`` takes seat 1 and the match begins (its clock with it)."""
        self.seats[1] = guest
        self.status = PLAYING
        self.version += 1
        # Then the deal, as a match against the computer opens (or the round, and the
        # match, over at the deal by a hand yaku).
        events = [{"type": "sat", "seat": 1}, *round_over_events(self.match, 1)]
        if self.match.is_over:
            self._finish(PLAYED, self.match.winner)
        self._restart_clock(now)
        return events

    def act(
        self, seat: int, data: Any, version: int, now: datetime, *, claimed: int | None = None
    ) -> list[dict[str, Any]]:
        """``seat`` plays an action (record form) chosen in state ``version``."""
        if claimed is not None and claimed != seat:
            raise TableError(403, f"you sit in seat {seat}; you cannot move for seat {claimed}")
        self._check_playing()
        if version != self.version:
            raise StaleActionError(
                f"this action answers state {version}, but the table is at state"
                f" {self.version}; reload the table"
            )
        if self.match.turn != seat:
            raise StaleActionError("it is not your turn")
        events = apply_action(
            self.match, parse_action(data), seat
        )  # IllegalActionError: the legal ones
        self.timeouts[seat] = 0
        return self._moved(events, now)

    def due(self, now: datetime) -> bool:
        """Whether the seat to move has run out of time."""
        return self.status == PLAYING and self.deadline is not None and now >= self.deadline

    def timeout(self, now: datetime) -> list[dict[str, Any]]:
        """The seat to move ran out of time: the clock moves for it (or, after too many
        timeouts in a row, the seat forfeits). Nothing when time is not up."""
        if not self.due(now):
            return []
        seat = self.match.turn
        self.timeouts[seat] += 1
        if self.timeouts[seat] >= MAX_TIMEOUTS:
            self.version += 1
            self._finish(FORFEIT, 1 - seat)
            self.deadline = None
            return [{"type": "timeout", "seat": seat}, self._over_event()]
        clock = make_player("easy", self.seed ^ 0x7AB1E ^ self.version << 48)
        action = clock.choose(self.match.observation(seat))
        events = [{"type": "timeout", "seat": seat}, *apply_action(self.match, action, seat)]
        return self._moved(events, now)

    def resign(self, seat: int, now: datetime) -> list[dict[str, Any]]:
        self._check_playing()
        self.version += 1
        self._finish(RESIGNED, 1 - seat)
        self.deadline = None
        return [self._over_event()]

    def offer_rematch(self, seat: int) -> list[dict[str, Any]]:
        """``seat`` wants another match; once both do, the caller opens it (and sets
        :attr:`next_id`)."""
        if self.status != OVER:
            raise TableError(409, "the match is still being played; a rematch comes after")
        if self.next_id is not None:
            raise TableError(409, "the rematch has begun already")
        if None in self.seats:
            raise TableError(409, "your opponent has left the table")
        self.rematch[seat] = True
        self.version += 1
        return [{"type": "rematch", "seat": seat}]

    def cancel(self, seat: int) -> list[dict[str, Any]]:
        """The host closes a table nobody has sat down at yet."""
        if self.status != OPEN:
            raise TableError(409, "the match has begun: resign it instead")
        if seat != 0:
            raise TableError(403, "only the player who opened the table may close it")
        self.version += 1
        self._finish(CANCELLED, None)
        return [{"type": "cancelled"}]

    def _check_playing(self) -> None:
        if self.status == OPEN:
            raise TableError(409, "the match has not begun: nobody has sat down opposite yet")
        if self.status != PLAYING:
            raise GameOverError(f"the match is over ({self.ending})")

    def _moved(self, events: list[dict[str, Any]], now: datetime) -> list[dict[str, Any]]:
        self.version += 1
        if self.match.is_over:
            self._finish(PLAYED, self.match.winner)
        self._restart_clock(now)
        return events

    def _restart_clock(self, now: datetime) -> None:
        playing = self.status == PLAYING
        self.deadline = now + timedelta(seconds=self.move_seconds) if playing else None

    def _finish(self, ending: Ending, winner: int | None) -> None:
        self.status, self.ending, self.winner = OVER, ending, winner

    def finished(self) -> Finished:
        """The finished match as :func:`koikoi.server.results.finish` stores it."""
        assert self.status == OVER
        assert self.ending is not None
        seats = [seat.user_id if seat is not None else None for seat in self.seats]
        return Finished(
            opponent=Opponent.PERSON,
            match_id=self.id,
            rules_name=self.rules_name,
            ranked=self.ranked,
            users=(seats[0], seats[1]),
            winner=self.winner,
            ending=self.ending,
            totals=(self.match.totals[0], self.match.totals[1]),
            yaku=(yaku_made(self.match, 0), yaku_made(self.match, 1)),
            actions=self._actions_made(),
        )

    def _actions_made(self) -> tuple[int, int]:
        """How many actions each seat has made (the record replayed once, then kept)."""
        played = len(self.match.actions)
        if self._made is None or self._made[0] != played:
            self._made = (played, seat_actions(self.rules, self.seed, self.actions))
        return self._made[1]

    def _over_event(self) -> dict[str, Any]:
        return {
            "type": "match-over",
            "totals": list(self.match.totals),
            "winner": self.winner,
            "ending": self.ending,
            "resigned": self.ending == RESIGNED,
        }

    # -- what a seat sees -----------------------------------------------------------

    def outcome(self, seat: int) -> Status:
        """The match as ``seat`` sees its result: open, playing, won, lost, drawn,
        aborted (given up too soon to count), or cancelled (closed before it began)."""
        if self.status != OVER:
            return self.status
        if self.ending == CANCELLED:
            return Status.CANCELLED
        return seat_status(self.finished(), seat)

    def info(self, now: datetime, seat: int = 0) -> dict[str, Any]:
        """What anyone with the table's link may know: the rules, who sits where (from
        ``seat``'s side), the clock. Nothing of the cards."""
        left = None
        if self.deadline is not None:
            left = max(0.0, (self.deadline - now).total_seconds())
        seats = [self.seats[seat], self.seats[1 - seat]]
        return {
            "id": self.id,
            "code": self.code,
            "status": self.status,
            "ending": self.ending,
            "ranked": self.ranked,
            "rules": self.rules.to_mapping(full=True),
            "rules_name": self.rules_name,
            "players": [
                None
                if taken is None
                else {
                    "name": taken.name,
                    "guest": taken.user_id is None,
                    "rating": self.rating_change(number),
                }
                for number, taken in zip((seat, 1 - seat), seats, strict=True)
            ],
            "move_seconds": self.move_seconds,
            "clock": left,
            "timeouts": [self.timeouts[seat], self.timeouts[1 - seat]],
            "max_timeouts": MAX_TIMEOUTS,
            "rematch": [self.rematch[seat], self.rematch[1 - seat]],
            "next": self.next_id,
        }

    def rating_change(self, seat: int) -> dict[str, int] | None:
        """``seat``'s rating before and after the finished match, if it moved one."""
        moved = None if self.ratings is None else self.ratings[seat]
        return None if moved is None else {"before": round(moved[0]), "after": round(moved[1])}

    def state(self, seat: int, now: datetime) -> dict[str, Any]:
        """The table as ``seat`` sees it: the API's game state (seats counted from the
        viewer), with the table's own part under ``table``; no cards before it begins."""
        state: dict[str, Any] = {
            "id": self.id,
            "version": self.version,
            "status": self.outcome(seat),
            "ranked": self.ranked,
            "points": 0,
            "rating": self.rating_change(seat),
            "difficulty": None,
            "table": self.info(now, seat),
        }
        if self.status != OPEN and self.ending != CANCELLED:  # no cards if it never began
            state |= seat_json(self.match, seat, playing=self.status == PLAYING, winner=self.winner)
        return state

    def summary(self, seat: int, updated: datetime) -> dict[str, Any]:
        """A table in progress (or open), as a line of ``seat``'s list to go back to."""
        view = self.match.view()
        opponent = self.seats[1 - seat]
        return {
            "id": self.id,
            "code": self.code,
            "status": self.status,
            "rules_name": self.rules_name,
            "ranked": self.ranked,
            "opponent": None
            if opponent is None
            else {"name": opponent.name, "guest": opponent.user_id is None},
            "your_turn": self.status == PLAYING and self.match.turn == seat,
            "round": view.round_number,
            "rounds": view.rounds,
            "totals": [view.totals[seat], view.totals[1 - seat]],
            "updated": updated.isoformat(),
        }

    def replay(self) -> dict[str, Any]:
        """The finished match step by step, every card face up (seats as the match
        counts them: 0 opened the table), with both players' names."""
        ended: dict[str, Any] | None = None
        if self.ending in (RESIGNED, FORFEIT) and self.winner is not None:
            kind = "resign" if self.ending == RESIGNED else "forfeit"
            ended = {"type": kind, "seat": 1 - self.winner}
        match, steps = replay_steps(self.rules, self.seed, self.actions, ended)
        return {
            "id": self.id,
            "player": self.seats[0].name if self.seats[0] else None,
            "players": [
                None if seat is None else {"name": seat.name, "guest": seat.user_id is None}
                for seat in self.seats
            ],
            "difficulty": None,
            "ending": self.ending,
            "rules": self.rules.to_mapping(full=True),
            "rules_name": self.rules_name,
            "outcome": self.outcome(0),
            "totals": list(match.totals),
            "steps": steps,
        }

    def views(self, events: list[dict[str, Any]], now: datetime) -> list[dict[str, Any]]:
        """For each seat, its state and the events from its side: what goes live."""
        return [
            {"state": self.state(seat, now), "events": [seat_event(e, seat) for e in events]}
            for seat in (0, 1)
        ]
