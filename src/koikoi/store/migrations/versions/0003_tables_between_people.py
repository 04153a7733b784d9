"""Tables between two people, and the quick-match queue.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

TIMESTAMP = sa.DateTime(timezone=True)


def _seat_keys(seat: int) -> list[sa.ForeignKeyConstraint]:
    return [
        sa.ForeignKeyConstraint(
            [f"seat{seat}_user_id"],
            ["users.id"],
            name=op.f(f"fk_tables_seat{seat}_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            [f"seat{seat}_session_id"],
            ["sessions.id"],
            name=op.f(f"fk_tables_seat{seat}_session_id_sessions"),
            ondelete="SET NULL",
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("code", sa.String(8), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("rules_name", sa.String(20), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("ending", sa.String(10), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("seat0_user_id", sa.Integer(), nullable=True),
        sa.Column("seat0_session_id", sa.String(64), nullable=True),
        sa.Column("seat1_user_id", sa.Integer(), nullable=True),
        sa.Column("seat1_session_id", sa.String(64), nullable=True),
        sa.Column("move_seconds", sa.Integer(), nullable=False),
        sa.Column("deadline", TIMESTAMP, nullable=True),
        sa.Column("timeouts", sa.JSON(), nullable=False),
        sa.Column("rematch", sa.JSON(), nullable=False),
        sa.Column("next_id", sa.String(32), nullable=True),
        sa.Column("ratings", sa.JSON(), nullable=True),
        sa.Column("created", TIMESTAMP, nullable=False),
        sa.Column("updated", TIMESTAMP, nullable=False),
        sa.Column("finished", TIMESTAMP, nullable=True),
        *_seat_keys(0),
        *_seat_keys(1),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
        sa.UniqueConstraint("code", name=op.f("uq_tables_code")),
    )
    for seat in (0, 1):
        for column in (f"seat{seat}_user_id", f"seat{seat}_session_id"):
            op.create_index(op.f(f"ix_tables_{column}"), "tables", [column])
    op.create_index("ix_tables_status_deadline", "tables", ["status", "deadline"])
    op.create_table(
        "match_queue",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("session_id", sa.String(64), nullable=True),
        sa.Column("rules_name", sa.String(20), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined", TIMESTAMP, nullable=False),
        sa.Column("seen", TIMESTAMP, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_match_queue_user_id_users"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["sessions.id"],
            name=op.f("fk_match_queue_session_id_sessions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name=op.f("fk_match_queue_table_id_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_queue")),
        sa.UniqueConstraint("user_id", name=op.f("uq_match_queue_user_id")),
        sa.UniqueConstraint("session_id", name=op.f("uq_match_queue_session_id")),
    )
    op.create_index("ix_match_queue_rules_name_joined", "match_queue", ["rules_name", "joined"])


def downgrade() -> None:
    op.drop_table("match_queue")
    op.drop_table("tables")
