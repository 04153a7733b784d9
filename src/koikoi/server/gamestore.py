"""Games in the database: every change is stored before the player hears of it.

A request reads a game's row, rebuilds the match from its record, applies the move
(the computer's thinking included, in the store's :class:`Thinking` pool) outside any
transaction, then writes the new record only if the row is still at the version it
read. Two requests racing on one game thus both compute, but only the first write
lands; the other is stale.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, case, func, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from koikoi.coach import HINT_ROLLOUTS, REVIEW_ROLLOUTS, advice
from koikoi.match import Match
from koikoi.record import Record, RecordError, replay
from koikoi.round import action_to_json
from koikoi.rules import RuleSet
from koikoi.server.clock import Clock
from koikoi.server.errors import GameOverError, Refused, StaleActionError
from koikoi.server.games import HUMAN, PRACTICE_PREFIX, GameSession
from koikoi.server.ranked import RANKED_PRESETS, check_rankable, rules_name
from koikoi.server.results import Ending, Status, finish, stored
from koikoi.server.reviews import Reviews
from koikoi.server.sessions import SessionInfo, hold
from koikoi.server.thinking import Chooser, Thinking
from koikoi.server.throttle import HINTS, count_address, held_address
from koikoi.store.models import Game, Review
from koikoi.store.rows import table_of, update_where

ABANDONED_AFTER = timedelta(days=7)
"""A match nobody has touched this long counts as resigned."""
MAX_IN_PROGRESS = 10
"""Matches one player may have in progress at once."""
SWEEP_BATCH = 100
"""Abandoned matches one sweep stores at most (the rest wait for the next)."""
PRACTICE_SAVES_PER_MINUTE = 30
"""Practice matches one player may save in a minute (a device catching up after a
trip offline saves a handful; the store keeps the 20 newest)."""
KEPT_HINTS = 1024
"""Hints a process keeps to answer the same position again."""
MAX_SEED = 2**63 - 1
"""The largest seed a game row holds (the device deals from 48-bit seeds)."""


class GameNotFoundError(Refused):
    status = 404


class OwnerGoneError(Refused):
    """The session or account a new game was for ended while it was being made."""

    status = 403


class TooManyGamesError(Refused):
    status = 409


class PracticeRecordError(Refused):
    """A practice match's record that cannot be saved: it does not replay, or it is not
    a whole match from a seed."""

    status = 422


class TooManySavesError(Refused):
    status = 429


class RankedMatchError(Refused):
    """Help asked for in a ranked match, where the player plays alone."""

    status = 403


class MatchNotOverError(Refused):
    status = 409


# A match left untouched for ABANDONED_AFTER is resigned, whether or not a write has
# stored that yet: readers work it out from the row, so reading never writes (and
# never waits for a writer). Writes store it as they pass (see GameStore.sweep).


def abandoned(now: datetime) -> ColumnElement[bool]:
    return and_(Game.status == Status.PLAYING, Game.updated < now - ABANDONED_AFTER)


def status_at(now: datetime) -> ColumnElement[str]:
    """A game's status as of ``now``, abandoned matches resigned."""
    return case((abandoned(now), Status.RESIGNED.value), else_=Game.status)


def finished_at(row: Game) -> datetime:
    """When a finished match ended: an abandoned one not yet swept, a week after its
    last move."""
    return row.finished or row.updated + ABANDONED_AFTER


def row_status(row: Game | Row[Any], now: datetime) -> Status:
    if row.status == Status.PLAYING and row.updated < now - ABANDONED_AFTER:
        return Status.RESIGNED
    return Status(row.status)


def owned_by(owner: SessionInfo) -> ColumnElement[bool]:
    """A signed-in player's games from any device; a guest's from this browser."""
    if owner.user_id is not None:
        return Game.user_id == owner.user_id
    return Game.session_id == owner.id


_GAMES = table_of(Game)
_OWNER_COLUMNS = {True: _GAMES.c.user_id, False: _GAMES.c.session_id}
LOAD = {
    signed_in: select(_GAMES).where(
        _GAMES.c.id == bindparam("game_id"), column == bindparam("owner")
    )
    for signed_in, column in _OWNER_COLUMNS.items()
}
"""A game of its owner's (an account's, or a guest browser's): Core statements built
once, read as plain rows, as every move reads one (the ORM rebuilt and loaded it)."""


class GameStore:
    """The games of one server; ``thinking`` (by default: in the request) is where its
    computer thinks, ``expert_options`` tune the expert (``rollouts``, ``budget_ms``)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        clock: Clock,
        expert_options: dict[str, Any],
        thinking: Thinking | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.expert_options = expert_options
        self.thinking = thinking or Thinking(inline=True)
        self.chooser = Chooser(self.thinking, expert_options)
        # The coach thinks as the expert does: a test server's smaller budget serves both.
        rollouts = expert_options.get("rollouts")
        self.coach_rollouts = rollouts or HINT_ROLLOUTS
        self.reviews = Reviews(
            sessions, self.thinking, min(rollouts or REVIEW_ROLLOUTS, REVIEW_ROLLOUTS)
        )
        self._hints: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        """The latest hints worked out, by game and version (a position's is always the
        same: asked again, it costs nothing)."""
        self._hints_lock = threading.Lock()

    def create(
        self,
        owner: SessionInfo,
        rules: RuleSet,
        difficulty: str,
        seed: int,
        ranked: bool | None = None,
    ) -> tuple[GameSession, list[dict[str, Any]]]:
        """A new match; ``ranked`` (by default: whenever it can be) only for a signed-in
        player under a preset as it stands."""
        name = rules_name(rules)
        if ranked is None:
            ranked = owner.user_id is not None and name in RANKED_PRESETS
        elif ranked:
            check_rankable(name, owner.user_id is not None)
        self.sweep()
        with self.sessions() as db:
            self._check_room(db, owner)  # early: before the computer thinks for nothing
        game, events = GameSession.start(
            secrets.token_urlsafe(16),
            rules,
            difficulty,
            seed,
            ranked=ranked,
            chooser=self.chooser,
        )
        now = self.clock()
        with self.sessions.begin() as db:
            # Counted and inserted under the owner's lock: racing requests wait their
            # turn, so none slips past the limit.
            if not hold(db, owner.user_id, owner.id):
                raise OwnerGoneError("you were signed out meanwhile; reload the page")
            self._check_room(db, owner)
            db.add(
                Game(
                    id=game.id,
                    user_id=owner.user_id,
                    session_id=None if owner.user_id is not None else owner.id,
                    difficulty=difficulty,
                    rules=rules.to_mapping(),
                    rules_name=name,
                    seed=seed,
                    ranked=game.ranked,
                    created=now,
                    **self._progress(game, now),
                )
            )
            if game.status != Status.PLAYING:  # over at the deal (hand yaku)
                db.flush()
                [game.result, _] = finish(db, game.finished(owner.user_id), now)
        return game, events

    @staticmethod
    def _check_room(db: Session, owner: SessionInfo) -> None:
        playing = db.scalar(
            select(func.count()).where(owned_by(owner), Game.status == Status.PLAYING)
        )
        if playing is not None and playing >= MAX_IN_PROGRESS:
            raise TooManyGamesError(
                f"you have {playing} matches in progress, the most one player may have;"
                " finish or resign one first"
            )

    def save_practice(
        self, user_id: int, record: dict[str, Any], difficulty: str, resigned: bool
    ) -> tuple[str, bool]:
        """Store a practice match the device dealt and played, once its record replays
        as a whole match from a seed (finished, or given up): a friendly game of the
        player's, so it earns no points and moves no rating. Returns its id and whether
        it is new (the same record saved again is the game already stored)."""
        match = practice_match(record, resigned)
        assert match.seed is not None  # a match from a seed, never a given deal
        game = GameSession(
            practice_id(user_id, match, difficulty, resigned),
            difficulty,
            match.seed,
            match,
            ranked=False,
            resigned=resigned,
        )
        with self.sessions() as db:
            if db.get(Game, game.id) is not None:
                return game.id, False
        now = self.clock()
        try:
            with self.sessions.begin() as db:
                # Under the player's lock: two saves racing count each other.
                if not hold(db, user_id):
                    raise OwnerGoneError("you were signed out meanwhile; reload the page")
                recent = db.scalar(
                    select(func.count()).where(
                        Game.user_id == user_id,
                        Game.id.startswith(PRACTICE_PREFIX),
                        Game.created > now - timedelta(minutes=1),
                    )
                )
                if recent is not None and recent >= PRACTICE_SAVES_PER_MINUTE:
                    raise TooManySavesError(
                        f"{recent} practice matches saved in the last minute, the most one"
                        " player may save; the rest are saved in a minute",
                        retry_after=60,
                    )
                db.add(
                    Game(
                        id=game.id,
                        user_id=user_id,
                        session_id=None,
                        difficulty=difficulty,
                        rules=match.rules.to_mapping(),
                        rules_name=rules_name(match.rules),
                        seed=match.seed,
                        ranked=False,
                        created=now,
                        **self._progress(game, now),
                    )
                )
                db.flush()
                finish(db, game.finished(user_id), now)
        except IntegrityError:  # saved meanwhile
            with self.sessions() as db:
                if db.get(Game, game.id) is not None:
                    return game.id, False
            raise OwnerGoneError("you were signed out meanwhile; reload the page") from None
        return game.id, True

    def load(self, game_id: str, owner: SessionInfo) -> GameSession:
        signed_in = owner.user_id is not None
        key = {"game_id": game_id, "owner": owner.user_id if signed_in else owner.id}
        with self.sessions() as db:
            row = db.connection().execute(LOAD[signed_in], key).one_or_none()
        if row is None:
            raise GameNotFoundError(f"no game {game_id!r} for this player")
        game = restore(row, self.clock())
        if game.status != Status.PLAYING and signed_in:
            with self.sessions() as db:
                [game.result] = stored(db, game.id, [HUMAN])
        return game

    def act(
        self, game_id: str, owner: SessionInfo, data: Any, version: int
    ) -> tuple[GameSession, list[dict[str, Any]]]:
        self.sweep(owned_by(owner))
        game = self.load(game_id, owner)
        read = game.version
        events = game.act(data, version, self.chooser)
        self._write(game, read, owner)
        return game, events

    def resign(self, game_id: str, owner: SessionInfo) -> tuple[GameSession, list[dict[str, Any]]]:
        self.sweep(owned_by(owner))
        game = self.load(game_id, owner)
        read = game.version
        events = game.resign()
        self._write(game, read, owner)
        return game, events

    def advice(self, game_id: str, owner: SessionInfo) -> tuple[GameSession, dict[str, Any]]:
        """The coach's hint for the player's move (and the risk meter at a decision),
        in a practice match only: a ranked one is the player's own play."""
        game = self.load(game_id, owner)
        if game.ranked:
            raise RankedMatchError("hints are for practice matches; this match is ranked")
        if game.status != Status.PLAYING:
            raise GameOverError(f"the match is over ({game.status})")
        if game.match.turn != HUMAN or game.match.round.is_over:
            raise StaleActionError("it is not your turn")
        position = (game.id, game.version)
        with self._hints_lock:
            hint = self._hints.get(position)
        if hint is not None:  # the same position's hint: the same, for nothing
            return game, hint
        now = self.clock()
        with self.sessions.begin() as db:
            count_address(db, HINTS, held_address(db, HINTS, owner.id, now), now)
        # Seeded by the position only: the same hint each time it is asked for, and
        # nothing of the match's own (secret) seed in it.
        digest = hashlib.sha256(f"hint:{game.id}:{game.version}".encode()).digest()
        seed = int.from_bytes(digest[:6], "big")
        observation = game.match.observation(HUMAN)
        hint = self.thinking.coach(advice, observation, seed, self.coach_rollouts)
        with self._hints_lock:
            self._hints[position] = hint
            while len(self._hints) > KEPT_HINTS:
                self._hints.popitem(last=False)
        return game, hint

    def review(self, game_id: str, address: str) -> dict[str, Any]:
        """The coach's review of a finished match (public, like its replay), made once."""
        now = self.clock()
        with self.sessions() as db:
            row = db.get(Game, game_id)
            if row is None:
                raise GameNotFoundError(f"no game {game_id!r}")
            if row_status(row, now) == Status.PLAYING:
                raise MatchNotOverError("the match is still being played; reviews come after")
            # The row is the record: the review replays it, so nothing replays it here.
            record = Record(RuleSet.from_mapping(row.rules), tuple(row.actions), seed=row.seed)
        key = {"game_id": game_id}
        return self.reviews.kept_or_made(Review, key, record, HUMAN, now, address)

    def in_progress(self, owner: SessionInfo) -> list[tuple[GameSession, datetime]]:
        """The owner's matches in progress, newest first, with when each was last played."""
        now = self.clock()
        with self.sessions() as db:
            rows = db.scalars(
                select(Game)
                .where(owned_by(owner), status_at(now) == Status.PLAYING)
                .order_by(Game.updated.desc())
            ).all()
        return [(restore(row, now), row.updated) for row in rows]

    def sweep(self, *among: ColumnElement[bool]) -> None:
        """Store the resignation of matches untouched for a week (``among`` narrows the
        sweep), a batch at a time, each rated as a loss: leaving a bad deal lying
        about never saves a player's record."""
        now = self.clock()
        with self.sessions() as db:
            rows = db.scalars(select(Game).where(abandoned(now), *among).limit(SWEEP_BATCH)).all()
        for row in rows:
            with self.sessions.begin() as db:
                swept = db.execute(
                    update(Game)
                    .where(
                        Game.id == row.id,
                        Game.version == row.version,
                        Game.status == Status.PLAYING,
                    )
                    .values(status=Status.RESIGNED, finished=now, version=Game.version + 1)
                )
                if swept.rowcount == 1:  # type: ignore[attr-defined]
                    game = restore(row, now)
                    finish(db, game.finished(row.user_id, Ending.ABANDONED), now)

    def _write(self, game: GameSession, read: int, owner: SessionInfo) -> None:
        now = self.clock()
        with self.sessions.begin() as db:
            # The first statement writes: on SQLite it takes the write lock, so the
            # rating that finish moves is read and written by one match at a time.
            where = {"id": game.id, "version": read, "status": Status.PLAYING}
            if update_where(db, Game, where, self._progress(game, now)) != 1:
                raise StaleActionError(
                    "the game moved on meanwhile (another tab or device?); reload the game"
                )
            if game.status != Status.PLAYING:
                [game.result, _] = finish(db, game.finished(owner.user_id), now)

    @staticmethod
    def _progress(game: GameSession, now: datetime) -> dict[str, Any]:
        """The columns a move changes."""
        over = game.status != Status.PLAYING
        return {
            "actions": game.actions,
            "version": game.version,
            "status": game.status,
            "updated": now,
            "finished": now if over else None,
        }


def practice_match(data: dict[str, Any], resigned: bool) -> Match:
    """The match a practice record describes, replayed by the server's engine; raises
    :class:`PracticeRecordError` naming what is wrong (the action's index for an
    illegal one)."""
    if any(key in data for key in ("dealer", "hands", "field", "stock")):
        raise PracticeRecordError(
            "a practice match is dealt from a seed: a record of a given deal cannot be saved"
        )
    if "seed" not in data:
        raise PracticeRecordError("a practice match's record needs its 'seed'")
    try:
        record = Record.from_json(data)
        if record.seed is not None and record.seed > MAX_SEED:
            raise RecordError(f"record 'seed' must be at most {MAX_SEED}, not {record.seed}")
        match = replay(record)
    except RecordError as error:
        raise PracticeRecordError(str(error)) from None
    if resigned and match.is_over:
        raise PracticeRecordError("the match was played to its end: it cannot have been resigned")
    if not resigned and not match.is_over:
        raise PracticeRecordError(
            f"the record stops after {len(record.actions)} actions, before the match is over;"
            " only a finished (or resigned) match can be saved"
        )
    return match


def practice_id(user_id: int, match: Match, difficulty: str, resigned: bool) -> str:
    """A saved practice match's id: the same player's same record always has the same."""
    key = {
        "user": user_id,
        "rules": match.rules.to_mapping(),
        "seed": match.seed,
        "actions": [action_to_json(action) for action in match.actions],
        "difficulty": difficulty,
        "resigned": resigned,
    }
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return PRACTICE_PREFIX + digest[: 32 - len(PRACTICE_PREFIX)]


def restore(row: Game | Row[Any], now: datetime) -> GameSession:
    """The game a row holds, as of ``now`` (a match abandoned by then is resigned)."""
    return GameSession.restore(
        row.id,
        RuleSet.from_mapping(row.rules),
        row.difficulty,
        row.seed,
        row.actions,
        ranked=row.ranked,
        resigned=row_status(row, now) == Status.RESIGNED,
    )
