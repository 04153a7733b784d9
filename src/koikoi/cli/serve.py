"""``koikoi serve`` and ``koikoi db``: the browser game and its database."""

from __future__ import annotations

import dataclasses
import gc
import random
import socket
from pathlib import Path

import click
from sqlalchemy.exc import SQLAlchemyError

from koikoi.cli.common import FilePath, fail
from koikoi.server.limits import Limits
from koikoi.server.settings import (
    DATABASE_URL,
    FORWARDED_ALLOW_IPS,
    REDIS_URL,
    Settings,
    SettingsError,
)
from koikoi.store.database import DatabaseError

database_option = click.option(
    "--database",
    "database_url",
    metavar="URL",
    help=(
        "sqlite:///PATH or postgresql://USER@HOST/DB."
        f" Default: ${DATABASE_URL}, else a SQLite file in your user data folder."
    ),
)


def settings_given(**options: object) -> Settings:
    """The environment's settings (koikoi.server.settings), with the options the
    command line gave in their place; a bad variable ends the command, named."""
    try:
        found = Settings.from_environment()
    except SettingsError as error:
        fail(str(error))
    given = {name: value for name, value in options.items() if value is not None}
    return dataclasses.replace(found, **given)  # type: ignore[arg-type]


def database_of(database_url: str | None) -> str:
    """The database a ``koikoi db`` command works on."""
    from koikoi.store.database import default_url

    return settings_given(database_url=database_url).database_url or default_url()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option(
    "--fd",
    type=click.IntRange(0),
    help="Serve on this already-listening socket (from a service manager) instead.",
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    help="Shuffle new games from this seed: for tests and demonstrations only, as it makes"
    " every deal predictable.",
)
@click.option(
    "--forwarded-allow-ips",
    metavar="ADDRESSES",
    help="Behind a reverse proxy: the proxy's addresses or networks (comma-separated, * for"
    " any), whose X-Forwarded-For and X-Forwarded-Proto are believed."
    f" Default: ${FORWARDED_ALLOW_IPS}, else none (the socket's address counts).",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=Limits.header_timeout,
    show_default=True,
    help="Seconds a request's headers may take, and then its body; slower connections are"
    " closed (a late body is answered 408).",
)
@click.option(
    "--keep-alive",
    type=click.IntRange(min=1),
    default=Limits.keep_alive,
    show_default=True,
    help="Seconds an idle connection stays open after a response.",
)
@click.option(
    "--max-connections",
    type=click.IntRange(min=1),
    default=Limits.max_connections,
    show_default=True,
    help="Connections open at once; further ones are closed at once. One client address"
    " holds a tenth of them at most (8 at least; a trusted proxy is not held to it). Keep"
    " it well under the open-files limit (ulimit -n).",
)
@click.option(
    "--max-header-bytes",
    type=click.IntRange(min=1024),
    default=Limits.max_header_bytes,
    show_default=True,
    help="Size of a request's headers; larger ones are refused (431).",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error", "critical"]),
    default="info",
    show_default=True,
    help="info: a Common Log Format line per request on standard output; errors, with"
    " their tracebacks, on standard error at every level.",
)
@click.option(
    "--redis",
    "redis_url",
    metavar="URL",
    help="redis://HOST:PORT/DB: with several server processes on one database, carries"
    " each table's moves to the players connected to the others."
    f" Default: ${REDIS_URL}, else none (one process, in memory).",
)
@database_option
def serve_command(
    host: str,
    port: int,
    fd: int | None,
    seed: int | None,
    forwarded_allow_ips: str | None,
    header_timeout: float,
    keep_alive: int,
    max_connections: int,
    max_header_bytes: int,
    log_level: str,
    redis_url: str | None,
    database_url: str | None,
) -> None:
    """Play koikoi against the computer in the browser (no network needed)."""
    import uvicorn

    from koikoi.server.app import create_app
    from koikoi.server.serving import ServerConfig

    sockets = []
    if fd is not None:
        # socket(fileno=) reads the family from the socket itself (uvicorn's own --fd
        # assumes a Unix socket).
        try:
            sockets.append(socket.socket(fileno=fd))
        except OSError as error:
            fail(f"--fd {fd} is not an open socket: {error.strerror}")
    settings = settings_given(
        database_url=database_url, redis_url=redis_url, forwarded_allow_ips=forwarded_allow_ips
    )
    try:
        app = create_app(settings, rng=None if seed is None else random.Random(seed))
    except (DatabaseError, SQLAlchemyError) as error:
        fail(f"cannot open the database: {error}")
    except ValueError as error:  # a Redis URL that is not one
        fail(str(error))
    settle_collector()
    limits = Limits(header_timeout, keep_alive, max_connections, max_header_bytes)
    config = ServerConfig(
        app,
        host=host,
        port=port,
        limits=limits,
        forwarded_allow_ips=settings.forwarded_allow_ips,
        log_level=log_level,
    )
    server = uvicorn.Server(config)
    if not sockets:
        click.echo(f"koikoi: open http://{host}:{port}/ in a browser (Ctrl+C stops)")
    server.run(sockets=sockets or None)


def settle_collector() -> None:
    """Tune the cycle collector for a server that holds many long-lived objects.

    With a thousand players connected, a full pass of the collector over every
    connection's objects stalls each request in flight for hundreds of milliseconds
    (measured with bench/load.py). What the server made at start (its code, the app)
    is frozen out of the collector's sight, and young passes run less often, so that
    fewer of a request's short-lived objects are still alive when one runs and get
    promoted toward the full passes.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


COLLECTOR_THRESHOLDS = (10_000, 10, 100)
"""gc.set_threshold's three counts for ``koikoi serve`` (Python's are 700, 10, 10)."""


@click.group("db")
def db_command() -> None:
    """The server's database: migrations and backups."""


@db_command.command("upgrade")
@database_option
def upgrade_command(database_url: str | None) -> None:
    """Bring the database's tables to this version of koikoi (the server does it at start)."""
    from koikoi.store.database import current_revision, head_revision, make_engine, upgrade

    try:
        engine = make_engine(database_of(database_url))
        try:
            before = current_revision(engine)
            upgrade(engine)
        finally:
            engine.dispose()
    except (DatabaseError, SQLAlchemyError) as error:
        fail(str(error))
    head = head_revision()
    where = engine.url.render_as_string(hide_password=True)
    if before == head:
        click.echo(f"{where}: already at revision {head}")
    else:
        click.echo(f"{where}: upgraded from revision {before or 'none (empty)'} to {head}")


@db_command.command("backup")
@click.argument("file", type=FilePath(dir_okay=False))
@database_option
def backup_command(file: Path, database_url: str | None) -> None:
    """Copy the SQLite database to FILE, safely while the server runs."""
    from koikoi.store.database import backup, make_engine

    try:
        engine = make_engine(database_of(database_url), create=False)
        try:
            backup(engine, file)
        finally:
            engine.dispose()
    except DatabaseError as error:
        fail(str(error))
    click.echo(f"backed up to {file}")
