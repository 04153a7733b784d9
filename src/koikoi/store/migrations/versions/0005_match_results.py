"""One result per player for every finished match; events counted per address.

Until now a game against the computer kept its player's result on its own row
(points, totals, yaku, rating before and after) and a table between people kept only
the two ratings, so profiles and boards saw games against the computer alone. Every
finished match now has a result per seated account in ``match_results``, which is
what profiles, histories, graphs and boards read.

This revision builds those results from every match already stored: games against
the computer (and saved practice matches) from their rows, tables between people by
replaying their records. A match between people given up before each player had made
eight actions becomes *aborted*: it counts in no total. Then every player's ratings
are computed again from the ranked results that count, in the order the matches
finished, with the rule that repeated results between the same two accounts within a
day count less (koikoi.server.ranked). The columns the results replace go.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from alembic import op

from koikoi.store.models import UTCDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TIMESTAMP = sa.DateTime(timezone=True)
# As koikoi.server.ranked and koikoi.server.gamestore had them when this was written.
MIN_ACTIONS = 8
REPEAT_WINDOW = timedelta(days=1)
ABANDONED_AFTER = timedelta(days=7)
SCORES = {"won": 1.0, "drawn": 0.5}
GAME_COLUMNS = ("score", "opponent_score", "points", "yaku", "rating_before", "rating_after")


def upgrade() -> None:
    op.create_table(
        "match_results",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("opponent", sa.String(10), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=True),
        sa.Column("level", sa.String(10), nullable=True),
        sa.Column("rules_name", sa.String(20), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("ending", sa.String(10), nullable=False),
        sa.Column("score", sa.BigInteger(), nullable=False),
        sa.Column("opponent_score", sa.BigInteger(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=True),
        sa.Column("rating_after", sa.Float(), nullable=True),
        sa.Column("yaku", sa.JSON(), nullable=False),
        sa.Column("finished", TIMESTAMP, nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_match_results_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"],
            ["users.id"],
            name=op.f("fk_match_results_opponent_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_results")),
        sa.UniqueConstraint("match_id", "seat", name=op.f("uq_match_results_match_id")),
    )
    op.create_index(
        op.f("ix_match_results_opponent_id"), "match_results", ["opponent_id"], unique=False
    )
    op.create_index(
        "ix_match_results_user_id_finished", "match_results", ["user_id", "finished"], unique=False
    )
    op.create_index("ix_match_results_rules_name_ranked", "match_results", ["rules_name", "ranked"])
    op.create_table(
        "health",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("checked", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_health")),
    )
    op.create_table(
        "address_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_address_events")),
    )
    op.create_index(
        "ix_address_events_kind_address", "address_events", ["kind", "address"], unique=False
    )
    op.create_index(op.f("ix_address_events_at"), "address_events", ["at"], unique=False)

    results = sorted(
        [*_game_results(), *_table_results()],
        key=lambda row: (row["finished"], row["match_id"], row["seat"]),
    )
    _rate(results)
    if results:
        op.get_bind().execute(_results_table().insert(), results)

    with op.batch_alter_table("games") as batch:
        for column in GAME_COLUMNS:
            batch.drop_column(column)
    _look_alike_names()


def _look_alike_names() -> None:
    """Each account's name's skeleton, so that no new name may look like it; and on
    SQLite, ids that are never given to another account (a deleted account's device
    cookies must open nothing for the next)."""
    from koikoi.server.credentials import name_skeleton

    sqlite = op.get_bind().dialect.name == "sqlite"
    # (Each copy of the table SQLite makes is told again: its reflection forgets it.)
    autoincrement = {"sqlite_autoincrement": True} if sqlite else {}
    with op.batch_alter_table(
        "users", recreate="always" if sqlite else "auto", table_kwargs=autoincrement
    ) as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(80), nullable=True))
    users = sa.table("users", sa.column("id"), sa.column("name"), sa.column("name_skeleton"))
    connection = op.get_bind()
    for user in connection.execute(sa.select(users.c.id, users.c.name)).all():
        connection.execute(
            users.update()
            .where(users.c.id == user.id)
            .values(name_skeleton=name_skeleton(user.name))
        )
    with op.batch_alter_table("users", table_kwargs=autoincrement) as batch:
        batch.alter_column("name_skeleton", existing_type=sa.String(80), nullable=False)
        batch.create_index(op.f("ix_users_name_skeleton"), ["name_skeleton"], unique=False)
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("ratings")


def _results_table() -> sa.TableClause:
    return sa.table(
        "match_results",
        *(
            sa.column(name)
            for name in (
                "match_id",
                "seat",
                "user_id",
                "opponent",
                "opponent_id",
                "level",
                "rules_name",
                "ranked",
                "status",
                "ending",
                "score",
                "opponent_score",
                "points",
                "rating_before",
                "rating_after",
            )
        ),
        sa.column("yaku", sa.JSON()),
        sa.column("finished", UTCDateTime()),
    )


def _game_results() -> list[dict[str, Any]]:
    """A result for every finished game of an account's (against the computer, or a
    saved practice match), from its row."""
    games = sa.table(
        "games",
        *(
            sa.column(name)
            for name in (
                "id",
                "user_id",
                "difficulty",
                "rules_name",
                "status",
                "ranked",
                "score",
                "opponent_score",
                "points",
            )
        ),
        sa.column("yaku", sa.JSON()),
        sa.column("updated", UTCDateTime()),
        sa.column("finished", UTCDateTime()),
    )
    rows = op.get_bind().execute(
        sa.select(games).where(games.c.status != "playing", games.c.user_id.is_not(None))
    )
    results = []
    for game in rows:
        ending = "played"
        if game.status == "resigned":
            # The sweep that stored an abandoned match left its last move's time alone.
            abandoned = game.finished - game.updated >= ABANDONED_AFTER
            ending = "abandoned" if abandoned else "resigned"
        results.append(
            {
                "match_id": game.id,
                "seat": 0,
                "user_id": game.user_id,
                "opponent": "practice" if game.id.startswith("pr-") else "computer",
                "opponent_id": None,
                "level": game.difficulty,
                "rules_name": game.rules_name,
                "ranked": bool(game.ranked),
                "status": game.status,
                "ending": ending,
                "score": game.score,
                "opponent_score": game.opponent_score,
                "points": game.points,
                "rating_before": None,
                "rating_after": None,
                "yaku": game.yaku or {},
                "finished": game.finished,
            }
        )
    return results


def _table_results() -> list[dict[str, Any]]:
    """A result for every account seated at a finished table, its totals, yaku and
    actions from its record replayed."""
    from koikoi.match import Match
    from koikoi.round import action_from_json
    from koikoi.rules import RuleSet

    tables = sa.table(
        "tables",
        *(
            sa.column(name)
            for name in (
                "id",
                "rules_name",
                "ranked",
                "seed",
                "status",
                "ending",
                "winner",
                "seat0_user_id",
                "seat1_user_id",
            )
        ),
        sa.column("rules", sa.JSON()),
        sa.column("actions", sa.JSON()),
        sa.column("finished", UTCDateTime()),
    )
    rows = op.get_bind().execute(
        sa.select(tables).where(tables.c.status == "over", tables.c.ending != "cancelled")
    )
    results = []
    for table in rows:
        match = Match(RuleSet.from_mapping(table.rules), table.seed)
        made = [0, 0]
        for data in table.actions:
            made[match.turn] += 1
            match.apply(action_from_json(data))
        users = (table.seat0_user_id, table.seat1_user_id)
        aborted = table.ranked and table.ending != "played" and min(made) < MIN_ACTIONS
        for seat, user in enumerate(users):
            if user is None:
                continue
            if aborted:
                status = "aborted"
            elif table.winner is None:
                status = "drawn"
            else:
                status = "won" if table.winner == seat else "lost"
            won = [result for result in match.results if result.winner == seat]
            results.append(
                {
                    "match_id": table.id,
                    "seat": seat,
                    "user_id": user,
                    "opponent": "person",
                    "opponent_id": users[1 - seat],
                    "level": None,
                    "rules_name": table.rules_name,
                    "ranked": bool(table.ranked),
                    "status": status,
                    "ending": table.ending,
                    "score": match.totals[seat],
                    "opponent_score": match.totals[1 - seat],
                    "points": 0,
                    "rating_before": None,
                    "rating_after": None,
                    "yaku": dict(Counter(key for result in won for key in result.yaku[seat])),
                    "finished": table.finished,
                }
            )
    return results


def _rate(results: list[dict[str, Any]]) -> None:
    """Every player's ratings again, from the ranked results that count (in
    ``results``' order: as the matches finished), each result given its rating before
    and after."""
    from koikoi.server.rating import START, START_SIGMA, rated, rated_pair

    connection = op.get_bind()
    ratings: dict[tuple[int, str], tuple[float, float, int]] = {}
    pairs: dict[tuple[int, int, str], list[datetime]] = {}
    by_match: dict[str, list[dict[str, Any]]] = {}
    for row in results:
        by_match.setdefault(row["match_id"], []).append(row)
    for row in results:
        if not row["ranked"] or row["status"] == "aborted" or row["rating_after"] is not None:
            continue
        name = row["rules_name"]
        mine = (row["user_id"], name)
        mu, sigma, matches = ratings.get(mine, (START, START_SIGMA, 0))
        if row["opponent"] == "computer":
            after = rated(mu, sigma, row["level"], SCORES.get(row["status"], 0.0))
            ratings[mine] = (*after, matches + 1)
            row["rating_before"], row["rating_after"] = mu, after[0]
            continue
        other = next((r for r in by_match[row["match_id"]] if r is not row), None)
        if other is None:  # the other seat was a guest's (or its account is gone)
            continue
        theirs = (other["user_id"], name)
        their_mu, their_sigma, their_matches = ratings.get(theirs, (START, START_SIGMA, 0))
        low, high = sorted((row["user_id"], other["user_id"]))
        times = pairs.setdefault((low, high, name), [])
        earlier = sum(1 for at in times if at > row["finished"] - REPEAT_WINDOW)
        times.append(row["finished"])
        weight = 1.0 / (earlier + 1) ** 2
        mine_after, theirs_after = rated_pair(
            (mu, sigma), (their_mu, their_sigma), SCORES.get(row["status"], 0.0), weight
        )
        ratings[mine] = (*mine_after, matches + 1)
        ratings[theirs] = (*theirs_after, their_matches + 1)
        row["rating_before"], row["rating_after"] = mu, mine_after[0]
        other["rating_before"], other["rating_after"] = their_mu, theirs_after[0]
    table = sa.table(
        "ratings",
        *(sa.column(name) for name in ("user_id", "rules_name", "mu", "sigma", "matches")),
    )
    connection.execute(table.delete())
    if ratings:
        connection.execute(
            table.insert(),
            [
                {"user_id": user, "rules_name": name, "mu": mu, "sigma": sigma, "matches": n}
                for (user, name), (mu, sigma, n) in ratings.items()
            ],
        )


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_index(op.f("ix_users_name_skeleton"))
        batch.drop_column("name_skeleton")
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("ratings", sa.JSON(), nullable=True))
    with op.batch_alter_table("games") as batch:
        for name, kind in (("score", sa.BigInteger()), ("opponent_score", sa.BigInteger())):
            batch.add_column(sa.Column(name, kind, nullable=False, server_default="0"))
        batch.add_column(sa.Column("points", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("yaku", sa.JSON(), nullable=False, server_default="{}"))
        batch.add_column(sa.Column("rating_before", sa.Float(), nullable=True))
        batch.add_column(sa.Column("rating_after", sa.Float(), nullable=True))
    games = sa.table("games", *(sa.column(name) for name in ("id", *GAME_COLUMNS)))
    results = sa.table(
        "match_results", *(sa.column(name) for name in ("match_id", "seat", *GAME_COLUMNS))
    )
    # A game's one result (its seat 0) goes back onto its row.
    values = {
        name: sa.select(results.c[name])
        .where(results.c.match_id == games.c.id, results.c.seat == 0)
        .scalar_subquery()
        for name in GAME_COLUMNS
    }
    has_result = sa.exists().where(results.c.match_id == games.c.id, results.c.seat == 0)
    op.execute(games.update().where(has_result).values(values))
    op.drop_table("health")
    op.drop_index(op.f("ix_address_events_at"), "address_events")
    op.drop_index("ix_address_events_kind_address", "address_events")
    op.drop_table("address_events")
    op.drop_index("ix_match_results_rules_name_ranked", "match_results")
    op.drop_index("ix_match_results_user_id_finished", "match_results")
    op.drop_index(op.f("ix_match_results_opponent_id"), "match_results")
    op.drop_table("match_results")
