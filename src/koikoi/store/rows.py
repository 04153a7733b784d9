"""Writing rows the same way on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from koikoi.store.models import Base


def insert_new(db: Session, model: type[Base], rows: list[dict[str, Any]]) -> None:
    """Insert the rows whose primary key is not taken yet, in one statement, which
    waits for (or takes) the rows' write locks: callers then read them knowing
    they exist."""
    insert = postgresql_insert if db.get_bind().dialect.name == "postgresql" else sqlite_insert
    db.execute(insert(model).values(rows).on_conflict_do_nothing())
