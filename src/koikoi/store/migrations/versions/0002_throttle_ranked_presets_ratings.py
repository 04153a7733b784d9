"""Password throttle by scope; 64-bit match totals; ranked only for whole presets.

Failed sign-ins were rows per attempt; the throttle now keeps one row per scope (a
name and an address, a name, an address, a device). The old rows only ever mattered
for 15 minutes, so they are dropped, not converted.

A match is ranked only under a preset's own rules and length (classic, ten-card,
traditional): matches that were ranked under house rules, shortened or single-deal,
become friendly and their ranking points are withdrawn.

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
RANKED_PRESETS = ("classic", "ten-card", "traditional")
"""As koikoi.server.games.RANKED_PRESETS was when this revision was written."""


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
    games = sa.table(
        "games",
        sa.column("ranked", sa.Boolean()),
        sa.column("rules_name", sa.String()),
        sa.column("points", sa.Integer()),
    )
    op.execute(
        games.update()
        .where(games.c.ranked, games.c.rules_name.not_in(RANKED_PRESETS))
        .values(ranked=False, points=0)
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
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
