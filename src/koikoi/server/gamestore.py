"""Games in the database: every change is stored before the player hears of it.

A request reads a game's row, rebuilds the match from its record, applies the move
(the computer's thinking included) outside any transaction, then writes the new
record only if the row is still at the version it read. Two requests racing on one
game thus both compute, but only the first write lands; the other is stale.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from koikoi.rules import RuleSet
from koikoi.server.accounts import Clock, SessionInfo
from koikoi.server.games import (
    HUMAN,
    PLAYING,
    RESIGNED,
    GameSession,
    StaleActionError,
    rules_name,
)
from koikoi.store.models import Game

ABANDONED_AFTER = timedelta(days=7)
"""A match nobody has touched this long counts as resigned."""


class GameNotFoundError(LookupError):
    pass


class OwnerGoneError(LookupError):
    """The session or account a new game was for ended while it was being made."""


def owned_by(owner: SessionInfo) -> ColumnElement[bool]:
    """A signed-in player's games from any device; a guest's from this browser."""
    if owner.user_id is not None:
        return Game.user_id == owner.user_id
    return Game.session_id == owner.id


class GameStore:
    def __init__(
        self, sessions: sessionmaker[Session], clock: Clock, expert_options: dict[str, Any]
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.expert_options = expert_options

    def create(
        self, owner: SessionInfo, rules: RuleSet, difficulty: str, seed: int
    ) -> tuple[GameSession, list[dict[str, Any]]]:
        game, events = GameSession.start(
            secrets.token_urlsafe(16),
            rules,
            difficulty,
            seed,
            ranked=owner.user_id is not None,
            expert_options=self.expert_options,
        )
        now = self.clock()
        try:
            with self.sessions.begin() as db:
                db.add(
                    Game(
                        id=game.id,
                        user_id=owner.user_id,
                        session_id=None if owner.user_id is not None else owner.id,
                        difficulty=difficulty,
                        rules=rules.to_mapping(),
                        rules_name=rules_name(rules),
                        seed=seed,
                        ranked=game.ranked,
                        created=now,
                        **self._progress(game, now),
                    )
                )
        except IntegrityError:  # the owner's session or account ended meanwhile
            raise OwnerGoneError("you were signed out meanwhile; reload the page") from None
        return game, events

    def load(self, game_id: str, owner: SessionInfo) -> GameSession:
        with self.sessions.begin() as db:
            self.resign_abandoned(db, Game.id == game_id)
            row = db.scalar(select(Game).where(Game.id == game_id, owned_by(owner)))
            if row is None:
                raise GameNotFoundError(f"no game {game_id!r} for this player")
            return restore(row)

    def act(
        self, game_id: str, owner: SessionInfo, data: Any, version: int
    ) -> tuple[GameSession, list[dict[str, Any]]]:
        game = self.load(game_id, owner)
        read = game.version
        events = game.act(data, version, self.expert_options)
        self._write(game, read)
        return game, events

    def resign(self, game_id: str, owner: SessionInfo) -> tuple[GameSession, list[dict[str, Any]]]:
        game = self.load(game_id, owner)
        read = game.version
        events = game.resign()
        self._write(game, read)
        return game, events

    def in_progress(self, owner: SessionInfo) -> list[tuple[GameSession, datetime]]:
        """The owner's matches in progress, newest first, with when each was last played."""
        with self.sessions.begin() as db:
            self.resign_abandoned(db, owned_by(owner))
            rows = db.scalars(
                select(Game)
                .where(owned_by(owner), Game.status == PLAYING)
                .order_by(Game.updated.desc())
            )
            return [(restore(row), row.updated) for row in rows]

    def resign_abandoned(self, db: Session, *among: ColumnElement[bool]) -> None:
        """Matches untouched for a week end as resigned (``among`` narrows the sweep):
        leaving a bad deal lying about never saves a player's record."""
        now = self.clock()
        db.execute(
            update(Game)
            .where(Game.status == PLAYING, Game.updated < now - ABANDONED_AFTER, *among)
            .values(status=RESIGNED, finished=now, version=Game.version + 1)
        )

    def _write(self, game: GameSession, read: int) -> None:
        with self.sessions.begin() as db:
            written = db.execute(
                update(Game)
                .where(Game.id == game.id, Game.version == read, Game.status == PLAYING)
                .values(**self._progress(game, self.clock()))
            )
            if written.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleActionError(
                    "the game moved on meanwhile (another tab or device?); reload the game"
                )

    @staticmethod
    def _progress(game: GameSession, now: datetime) -> dict[str, Any]:
        """The columns a move changes."""
        over = game.status != PLAYING
        return {
            "actions": game.actions,
            "version": game.version,
            "status": game.status,
            "score": game.match.totals[HUMAN],
            "opponent_score": game.match.totals[1 - HUMAN],
            "points": game.points,
            "yaku": game.yaku_made(),
            "updated": now,
            "finished": now if over else None,
        }


def restore(row: Game) -> GameSession:
    return GameSession.restore(
        row.id,
        RuleSet.from_mapping(row.rules),
        row.difficulty,
        row.seed,
        row.actions,
        ranked=row.ranked,
        resigned=row.status == RESIGNED,
    )
