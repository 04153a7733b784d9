"""Alembic's entry point: migrations run on the connection koikoi hands over."""

from __future__ import annotations

from alembic import context

from koikoi.store.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite alters a table by copying it; batch mode does that for us.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
