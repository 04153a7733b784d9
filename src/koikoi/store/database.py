"""Where the data lives: the database URL, engines, migrations and backups."""

from __future__ import annotations

import importlib.util
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import platformdirs
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, DBAPIError, InvalidatePoolError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from koikoi.files import nameable

_MIGRATION_LOCK = 0x6B6F696B6F69  # "koikoi": the advisory lock migrations hold on PostgreSQL
_migrating = threading.Lock()
"""Alembic keeps a migration's context in module globals: one migration at a time."""


PING_IDLE_AFTER = 5.0
"""Seconds a pooled PostgreSQL connection may rest before its next use asks the server
whether it is still there (:func:`ping_idle_connections`)."""


class DatabaseError(ValueError):
    """A database URL or file that cannot be used."""


def default_url() -> str:
    """Where a server's database is unless it is told (koikoi.server.settings): a
    SQLite file in the user's data directory."""
    folder = Path(platformdirs.user_data_dir("koikoi", appauthor=False))
    return f"sqlite:///{folder / 'koikoi.sqlite3'}"


def parse_url(url: str) -> URL:
    """The URL, with PostgreSQL going through psycopg 3; names what is wrong otherwise."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise DatabaseError(
            f"database URL {url!r} is not valid; use sqlite:///PATH or postgresql://USER@HOST/DB"
        ) from None
    if parsed.get_backend_name() == "postgresql" and parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername == "postgresql+psycopg" and importlib.util.find_spec("psycopg") is None:
        raise DatabaseError(
            f"database URL {url!r} needs the PostgreSQL driver: pip install 'koikoi[postgresql]'"
        )
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise DatabaseError(
            f"database URL {url!r}: {parsed.get_backend_name()!r} is not supported;"
            " use sqlite or postgresql"
        )
    if parsed.get_backend_name() == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            # SQLAlchemy reads these as an in-memory database: a new, empty one for
            # every connection the server opens.
            raise DatabaseError(
                f"database URL {url!r} names no file; use sqlite:///PATH (an in-memory"
                " database would lose everything, and be a different one for every request)"
            )
        if "uri" in parsed.query or parsed.database.startswith("file:"):
            # A URI file name may be in memory or read-only: the file checks of
            # make_engine need a plain path.
            raise DatabaseError(
                f"database URL {url!r}: SQLite URI file names are not supported; use sqlite:///PATH"
            )
    return parsed


def make_engine(url: str, *, create: bool = True) -> Engine:
    """An engine for ``url``; ``create`` makes a SQLite file (and its folder) when it is
    missing. A SQLite file the server could not use is refused here, by name."""
    parsed = parse_url(url)
    if parsed.get_backend_name() != "sqlite":
        engine = create_engine(parsed)
        ping_idle_connections(engine, PING_IDLE_AFTER)
        return engine
    assert parsed.database  # parse_url refuses SQLite URLs without a file
    if not nameable(parsed.database):
        raise DatabaseError(f"database file {parsed.database!r} is not a name a file can have")
    try:
        _check_sqlite_file(Path(parsed.database), create=create)
    except OSError as error:  # a path the system cannot even look up (too long, a loop)
        raise DatabaseError(
            f"cannot use the database file {parsed.database!r}: {error.strerror}"
        ) from None
    # Writers wait for each other (up to 30 s) instead of failing at once.
    engine = create_engine(parsed, connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _on_connect(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")  # SQLite leaves ON DELETE off by default
        cursor.execute("PRAGMA journal_mode = WAL")  # readers never wait for the writer
        cursor.close()

    return engine


def ping_idle_connections(engine: Engine, idle_after: float) -> None:
    """Before a pooled connection is used again after resting ``idle_after`` seconds or
    more, check that the server still holds it, and connect afresh if not.

    SQLAlchemy's ``pool_pre_ping`` checks before every use: a round trip on every
    request, a tenth of a move's time on a busy server, spent on connections that were
    in use a moment ago. What drops a connection (a database restart, an idle timeout
    on the way) mostly strikes resting ones; one dropped while busy fails the request
    that meets it, and that failure makes the pool replace all its older connections.
    """
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def _rested_from(_dbapi_connection: Any, record: Any) -> None:
        record.info["checked_in"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _still_there(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("checked_in")
        if since is None or time.monotonic() - since < idle_after:
            return  # new, or used a moment ago
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as error:
            # The pool connects anew and tries again; every older connection goes too.
            raise InvalidatePoolError(f"a resting connection was dropped: {error}") from None


class Database(sessionmaker[Session]):
    """Sessions on one engine: ``database()`` for reads, ``database.begin()`` for a
    transaction that writes (committed at its end, rolled back on an error).

    A read runs outside any transaction, each statement on its own: one round trip a
    query instead of three (BEGIN, the query, ROLLBACK), on the requests every move
    makes. It sees what it would inside one, as PostgreSQL's READ COMMITTED already
    gives each statement its own view of what was committed before it; anything that
    must hold between two statements (a count, then an insert) is a write's business.
    """

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, expire_on_commit=False)
        self._reads = engine.execution_options(isolation_level="AUTOCOMMIT")

    def __call__(self, **options: Any) -> Session:
        options.setdefault("bind", self._reads)
        return super().__call__(**options)

    @contextmanager
    def begin(self) -> Iterator[Session]:
        with super().__call__() as session, session.begin():
            yield session


def _check_sqlite_file(path: Path, *, create: bool) -> None:
    folder = path.parent
    if create:
        if folder.exists() and not folder.is_dir():
            raise DatabaseError(f"the database's folder {str(folder)!r} is a file, not a folder")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseError(
                f"cannot make the database's folder {str(folder)!r}: {error.strerror}"
            ) from None
    for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if part.exists() and not os.access(part, os.W_OK):
            # SQLite maps the -shm file into memory: one it cannot write kills the
            # server (SIGBUS) at its first query instead of failing that query.
            raise DatabaseError(
                f"database file {str(part)!r} is not writable; SQLite must write it"
            )
    if not create and not path.exists():
        return  # nothing to open, and nothing to make: the caller says what is missing
    try:
        connection = sqlite3.connect(path, timeout=30)
        try:
            connection.execute("PRAGMA schema_version")  # reads the header
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise DatabaseError(f"cannot open the SQLite database {str(path)!r}: {error}") from None


def alembic_config() -> Config:
    """Alembic's configuration for koikoi's migrations (to run or write revisions)."""
    config = Config()
    config.set_main_option("script_location", str(resources.files("koikoi.store") / "migrations"))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` (the newest by default); a no-op when it is there.

    Safe for several threads, and on PostgreSQL for several processes; a SQLite file
    is meant for one server process.
    """
    config = alembic_config()
    with _migrating, engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # SQLite alters a table by copying it and dropping the old one, and with
            # foreign keys on, a dropped table's rows take every row that refers to
            # them along (a game's reviews, say). Off for the migration (it can only
            # be set outside a transaction), checked at its end, on again after.
            connection.exec_driver_sql("PRAGMA foreign_keys = OFF")
            connection.commit()
        try:
            with connection.begin():
                if not sqlite:
                    # Several workers starting at once: one migrates, the others wait,
                    # then find the schema current.
                    connection.execute(
                        text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK}
                    )
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise DatabaseError(f"the upgrade would break references: {broken}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys = ON")
                connection.commit()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def backup(engine: Engine, target: Path) -> None:
    """Copy a SQLite database, consistently, while the server may be writing to it."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        raise DatabaseError(
            f"backup copies a SQLite file; {url.render_as_string(hide_password=True)!r} is not"
            " one (for PostgreSQL use pg_dump)"
        )
    try:
        found = Path(url.database).is_file()
    except OSError as error:  # a name the system refuses, say: not one that exists
        raise DatabaseError(f"cannot back up {url.database!r}: {error.strerror}") from None
    if not found:
        raise DatabaseError(f"there is no database file {url.database!r} to back up")
    try:
        taken, folder = target.exists(), target.parent.is_dir()
    except OSError as error:
        raise DatabaseError(f"cannot back up to {str(target)!r}: {error.strerror}") from None
    if taken:
        raise DatabaseError(f"backup file {str(target)!r} exists already; choose a new name")
    if not folder:
        raise DatabaseError(f"the folder {str(target.parent)!r} for the backup is missing")
    try:
        source = sqlite3.connect(url.database)
        try:
            copy = sqlite3.connect(target)
            try:
                source.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
    except sqlite3.Error as error:
        target.unlink(missing_ok=True)  # no empty or partial copy that looks like a backup
        raise DatabaseError(f"cannot back up {url.database!r}: {error}") from None


RETRY_AFTER = 5
"""Seconds a request refused for a database that cannot take it now is told to wait."""

_SQLITE_UNAVAILABLE = {
    "SQLITE_FULL": "the disk is full",
    "SQLITE_IOERR": "the disk failed a read or a write",
    "SQLITE_BUSY": "another writer held the database too long",
    "SQLITE_LOCKED": "another writer held the database too long",
    "SQLITE_CANTOPEN": "the database file cannot be opened",
    "SQLITE_READONLY": "the database cannot be written",
}
_POSTGRESQL_UNAVAILABLE = {
    "08": "the database server cannot be reached",
    "25006": "the database is read-only",
    "53": "the database server is out of room (disk, memory or connections)",
    "57": "the database server is restarting or shutting down",
}


def unavailable(error: BaseException) -> str | None:
    """Why the database cannot take a request now, if that is what ``error`` says (a
    full disk, a server restarting or unreachable, a lock held too long): a state of
    the machine that passes, to be answered "try again", not a fault of the program.
    None for any other error."""
    if not isinstance(error, DBAPIError):
        return None
    found = error.orig
    name = getattr(found, "sqlite_errorname", None)
    if isinstance(name, str):
        return next(
            (reason for prefix, reason in _SQLITE_UNAVAILABLE.items() if name.startswith(prefix)),
            None,
        )
    if error.connection_invalidated or (
        isinstance(error, OperationalError) and error.statement is None
    ):  # a connection lost, or none to be had (refused, or the server turns it away)
        return _POSTGRESQL_UNAVAILABLE["08"]
    state = getattr(found, "sqlstate", None)
    if state is None:  # psycopg's own: no connection at all, or one lost
        return _POSTGRESQL_UNAVAILABLE["08"] if isinstance(error, OperationalError) else None
    for prefix in (state, state[:2]):
        if prefix in _POSTGRESQL_UNAVAILABLE:
            return _POSTGRESQL_UNAVAILABLE[prefix]
    return None
