"""``koikoi serve`` and ``koikoi db``: the browser game and its database."""

from __future__ import annotations

import random
import socket
from pathlib import Path

import click
from sqlalchemy.exc import SQLAlchemyError

from koikoi.cli.common import fail
from koikoi.store.database import URL_VARIABLE, DatabaseError

database_option = click.option(
    "--database",
    "database_url",
    metavar="URL",
    envvar=URL_VARIABLE,
    help=(
        "sqlite:///PATH or postgresql://USER@HOST/DB."
        f" Default: ${URL_VARIABLE}, else a SQLite file in your user data folder."
    ),
)


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
@database_option
def serve_command(
    host: str, port: int, fd: int | None, seed: int | None, database_url: str | None
) -> None:
    """Play koikoi against the computer in the browser (no network needed)."""
    import uvicorn

    from koikoi.server.app import create_app

    try:
        app = create_app(
            database_url=database_url, rng=None if seed is None else random.Random(seed)
        )
    except (DatabaseError, SQLAlchemyError) as error:
        fail(f"cannot open the database: {error}")
    if fd is None:
        click.echo(f"koikoi: open http://{host}:{port}/ in a browser (Ctrl+C stops)")
        uvicorn.run(app, host=host, port=port, log_level="warning")
        return
    # socket(fileno=) reads the family from the socket itself (uvicorn's own --fd
    # assumes a Unix socket).
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[socket.socket(fileno=fd)])


@click.group("db")
def db_command() -> None:
    """The server's database: migrations and backups."""


@db_command.command("upgrade")
@database_option
def upgrade_command(database_url: str | None) -> None:
    """Bring the database's tables to this version of koikoi (the server does it at start)."""
    from koikoi.store.database import (
        current_revision,
        default_url,
        head_revision,
        make_engine,
        upgrade,
    )

    try:
        engine = make_engine(database_url or default_url())
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
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@database_option
def backup_command(file: Path, database_url: str | None) -> None:
    """Copy the SQLite database to FILE, safely while the server runs."""
    from koikoi.store.database import backup, default_url, make_engine

    try:
        engine = make_engine(database_url or default_url(), create=False)
        try:
            backup(engine, file)
        finally:
            engine.dispose()
    except DatabaseError as error:
        fail(str(error))
    click.echo(f"backed up to {file}")
