"""Password throttle by scope; 64-bit match totals; ranked only for whole presets;
ratings.

Failed sign-ins were rows per attempt; the throttle now keeps one row per scope (a
name and an address, a name, an address, a device). The old rows only ever mattered
for 15 minutes, so they are dropped, not converted.

A match is ranked only under a preset's own rules and length: matches that were
ranked under house rules or shortened become friendly, and their ranking points are
withdrawn; single-deal matches stay ranked but earn no points (one round by design).
Every player's rating in each rule set is then computed from the ranked matches that
remain, in the order they finished.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TIMESTAMP = sa.DateTime(timezone=True)
# As koikoi.server.games had them when this revision was written.
RANKED_PRESETS = ("classic", "ten-card", "single-deal", "traditional")
POINTS_PRESETS = ("classic", "ten-card", "traditional")
SCORES = {"won": 1.0, "drawn": 0.5}


def upgrade() -> None:
    op.drop_table("sign_in_failures")
    op.create_table(
        "password_throttle",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("checks", sa.Integer(), nullable=False),
        sa.Column("blocked_until", TIMESTAMP, nullable=False),
        sa.Column("last_check", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_password_throttle")),
    )
    op.create_index(op.f("ix_password_throttle_last_check"), "password_throttle", ["last_check"])
    with op.batch_alter_table("games") as batch:
        for column in ("score", "opponent_score"):
            batch.alter_column(column, type_=sa.BigInteger(), existing_nullable=False)
        batch.add_column(sa.Column("rating_before", sa.Float(), nullable=True))
        batch.add_column(sa.Column("rating_after", sa.Float(), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("rules_name", sa.String(20), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_ratings_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "rules_name", name=op.f("pk_ratings")),
    )
    games = sa.table(
        "games",
        sa.column("id", sa.String()),
        sa.column("user_id", sa.Integer()),
        sa.column("ranked", sa.Boolean()),
        sa.column("rules_name", sa.String()),
        sa.column("difficulty", sa.String()),
        sa.column("status", sa.String()),
        sa.column("points", sa.Integer()),
        sa.column("finished", TIMESTAMP),
        sa.column("rating_before", sa.Float()),
        sa.column("rating_after", sa.Float()),
    )
    op.execute(
        games.update()
        .where(games.c.ranked, games.c.rules_name.not_in(RANKED_PRESETS))
        .values(ranked=False, points=0)
    )
    op.execute(
        games.update()
        .where(games.c.ranked, games.c.rules_name.not_in(POINTS_PRESETS))
        .values(points=0)
    )
    _rate_history(games)


def _rate_history(games: sa.TableClause) -> None:
    """Every ranked finished match, oldest first, moves its player's rating."""
    # The rating model itself is the application's: it has no history before this.
    from koikoi.server.rating import START, START_SIGMA, rated

    connection = op.get_bind()
    finished = connection.execute(
        sa.select(
            games.c.id, games.c.user_id, games.c.rules_name, games.c.difficulty, games.c.status
        )
        .where(games.c.ranked, games.c.status != "playing", games.c.user_id.is_not(None))
        .order_by(games.c.finished, games.c.id)
    ).all()
    ratings: dict[tuple[int, str], tuple[float, float, int]] = {}
    for game in finished:
        key = (game.user_id, game.rules_name)
        mu, sigma, matches = ratings.get(key, (START, START_SIGMA, 0))
        after, sigma = rated(mu, sigma, game.difficulty, SCORES.get(game.status, 0.0))
        ratings[key] = (after, sigma, matches + 1)
        connection.execute(
            games.update().where(games.c.id == game.id).values(rating_before=mu, rating_after=after)
        )
    if ratings:
        table = sa.table(
            "ratings",
            sa.column("user_id", sa.Integer()),
            sa.column("rules_name", sa.String()),
            sa.column("mu", sa.Float()),
            sa.column("sigma", sa.Float()),
            sa.column("matches", sa.Integer()),
        )
        connection.execute(
            table.insert(),
            [
                {"user_id": user, "rules_name": name, "mu": mu, "sigma": sigma, "matches": n}
                for (user, name), (mu, sigma, n) in ratings.items()
            ],
        )


def downgrade() -> None:
    op.drop_table("ratings")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rating_after")
        batch.drop_column("rating_before")
        for column in ("score", "opponent_score"):
            batch.alter_column(column, type_=sa.Integer(), existing_nullable=False)
    op.drop_index(op.f("ix_password_throttle_last_check"), "password_throttle")
    op.drop_table("password_throttle")
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", TIMESTAMP, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_in_failures")),
    )
    op.create_index("ix_sign_in_failures_address_at", "sign_in_failures", ["address", "at"])
    op.create_index("ix_sign_in_failures_name_key_at", "sign_in_failures", ["name_key", "at"])
