"""Writing rows the same way on SQLite and PostgreSQL."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

import sqlalchemy
from sqlalchemy import Update, bindparam, update
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


def upsert(db: Session, model: type[Base], row: dict[str, Any]) -> None:
    """Insert ``row``, or set its other columns where its primary key is taken."""
    insert = postgresql_insert if db.get_bind().dialect.name == "postgresql" else sqlite_insert
    keys = [column.name for column in table_of(model).primary_key]
    statement = insert(model).values(row)
    others = {name: statement.excluded[name] for name in row if name not in keys}
    db.execute(statement.on_conflict_do_update(index_elements=keys, set_=others))


def table_of(model: type[Base]) -> sqlalchemy.Table:
    """A model's table, for Core statements."""
    return cast(sqlalchemy.Table, model.__table__)


WHERE = "where_"
"""What names a condition's value among a statement's values."""


def update_where(
    db: Session, model: type[Base], where: dict[str, Any], values: dict[str, Any]
) -> int:
    """Set ``values`` on the rows of ``model`` whose columns equal ``where`` (a write
    over the version read, say); how many rows it set."""
    statement = _update(table_of(model), tuple(where), tuple(values))
    bound = {**values, **{WHERE + name: value for name, value in where.items()}}
    return db.connection().execute(statement, bound).rowcount


@cache
def _update(table: sqlalchemy.Table, where: tuple[str, ...], values: tuple[str, ...]) -> Update:
    # Built once per table and set of columns: the ORM's update is built, cache-keyed
    # and compiled again each time, which cost a move more than the write itself.
    columns = table.c
    return (
        update(table)
        .where(*(columns[name] == bindparam(WHERE + name) for name in where))
        .values({name: bindparam(name, type_=columns[name].type) for name in values})
    )
