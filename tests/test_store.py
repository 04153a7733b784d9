"""Storage on SQLite and PostgreSQL: migrations, durable games, racing requests, and
the ``koikoi db`` commands."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, delete, func, inspect, select, text, update
from sqlalchemy.exc import OperationalError

from conftest import POSTGRESQL
from koikoi.cli import cli
from koikoi.match import Match
from koikoi.record import Record, replay
from koikoi.round import action_to_json
from koikoi.rules import RuleSet
from koikoi.server.credentials import name_skeleton
from koikoi.server.gamestore import OwnerGoneError
from koikoi.server.rating import START, START_SIGMA, rated, rated_pair
from koikoi.server.settings import Settings
from koikoi.server.views import state_json
from koikoi.store.database import (
    Database,
    DatabaseError,
    alembic_config,
    backup,
    current_revision,
    default_url,
    head_revision,
    make_engine,
    parse_url,
    ping_idle_connections,
    upgrade,
)
from koikoi.store.models import Base, BrowserSession, Game, MatchResult, Rating
from servers import (
    browser,
    make_app,
    new_game,
    play_on,
    serving,
    sign_up,
    stored_game,
    switch_server,
)

TABLES = {
    "users",
    "sessions",
    "games",
    "ratings",
    "password_throttle",
    "tables",
    "match_queue",
    "reviews",
    "table_reviews",
    "match_results",
    "address_events",
    "health",
    "server_secrets",
    "alembic_version",
}


def test_migrations_build_an_empty_database_to_match_the_models(database_url: str) -> None:
    """Release 0.1.0, the one before the database, kept games in memory, so every
    installation that upgrades starts from an empty database."""
    engine = make_engine(database_url)
    assert current_revision(engine) is None
    upgrade(engine)
    assert current_revision(engine) == head_revision()
    assert set(inspect(engine).get_table_names()) == TABLES
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    upgrade(engine)  # a second run changes nothing
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_release_0_2_data_survives_the_upgrade(database_url: str) -> None:
    """A database made by 0.2.0 (revision 0001): every account and game is kept; matches
    that were ranked under house rules or shortened become friendly and lose their
    points, single-deal ones keep their rank but not their points, a whole preset's
    ranked win keeps them; ratings follow from the ranked matches in order."""
    engine = make_engine(database_url)
    upgrade(engine, "0001")
    when = "2026-11-30 12:00:00+00:00"
    games = [
        ("whole", "classic", True, 30),
        ("house", "house", True, 100),
        ("short", "house", True, 10),
        ("single", "single-deal", True, 30),
        ("friendly", "classic", False, 0),
    ]
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (id, name, name_key, password_hash, created)"
                " VALUES (1, 'Aki', 'aki', 'x', :when)"
            ),
            {"when": when},
        )
        connection.execute(
            text("INSERT INTO sign_in_failures (name_key, address, at) VALUES ('aki', 'a', :when)"),
            {"when": when},
        )
        for game_id, rules_name, ranked, points in games:
            connection.execute(
                text(
                    "INSERT INTO games (id, user_id, difficulty, rules, rules_name, seed,"
                    " actions, version, status, ranked, score, opponent_score, points, yaku,"
                    " created, updated, finished) VALUES (:id, 1, 'normal', '{}', :rules_name,"
                    " 7, '[]', 1, 'won', :ranked, 2147483647, 3, :points, '{}', :when, :when,"
                    " :when)"
                ),
                {
                    "id": game_id,
                    "rules_name": rules_name,
                    "ranked": ranked,
                    "points": points,
                    "when": when,
                },
            )
    upgrade(engine)
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                MatchResult.match_id, MatchResult.ranked, MatchResult.points, MatchResult.score
            ).order_by(MatchResult.match_id)
        ).all()
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    assert sorted(rows) == [
        ("friendly", False, 0, 2**31 - 1),
        ("house", False, 0, 2**31 - 1),
        ("short", False, 0, 2**31 - 1),
        ("single", True, 0, 2**31 - 1),
        ("whole", True, 30, 2**31 - 1),
    ]
    with engine.connect() as connection:
        ratings = connection.execute(
            select(Rating.rules_name, Rating.mu, Rating.matches).order_by(Rating.rules_name)
        ).all()
        moves = connection.execute(
            select(MatchResult.rating_before, MatchResult.rating_after).where(
                MatchResult.match_id == "whole"
            )
        ).one()
    # One win each against normal, from a new player's rating.
    assert [(name, round(mu), matches) for name, mu, matches in ratings] == [
        ("classic", round(rated(START, START_SIGMA, "normal", 1.0)[0]), 1),
        ("single-deal", round(rated(START, START_SIGMA, "normal", 1.0)[0]), 1),
    ]
    assert moves[0] == START
    assert moves[1] is not None
    assert moves[1] > START
    with engine.begin() as connection:  # totals have 64 bits now
        whole = MatchResult.match_id == "whole"
        connection.execute(update(MatchResult).where(whole).values(score=2**40))
        assert connection.scalar(select(MatchResult.score).where(whole)) == 2**40
    engine.dispose()


def test_migrations_go_down_and_up_again(database_url: str) -> None:
    engine = make_engine(database_url)
    upgrade(engine)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    upgrade(engine)
    assert set(inspect(engine).get_table_names()) == TABLES
    engine.dispose()


def test_the_server_upgrades_its_database_at_start(database_url: str) -> None:
    app = make_app(database_url)
    assert current_revision(app.state.services.engine) == head_revision()
    health = browser(app).get("/healthz")
    assert health.status_code == 200
    assert health.json()["status"] == health.json()["database"] == "ok"


def test_a_game_outlives_its_server(database_url: str) -> None:
    """A second server on the same database (after a restart, or another worker)
    knows the browser and carries on its game exactly."""
    first = make_app(database_url)
    client = browser(first)
    sign_up(client, "hana")
    state = play_on(client, new_game(client, "normal")["state"], moves=4)
    second = make_app(database_url)
    switch_server(client, second)
    assert client.get(f"/api/games/{state['id']}").json()["state"] == state
    after = play_on(client, state, moves=2)
    assert after["version"] > state["version"]


def race(clients: list[httpx2.Client], game_id: str, state: dict[str, Any]) -> list[Any]:
    """Every client sends a legal action for ``state`` at the same moment."""
    start = threading.Barrier(len(clients))
    legal = state["legal"]

    def fire(index: int) -> Any:
        start.wait()
        return clients[index].post(
            f"/api/games/{game_id}/actions",
            json={"action": legal[index % len(legal)], "version": state["version"]},
        )

    with ThreadPoolExecutor(len(clients)) as pool:
        return list(pool.map(fire, range(len(clients))))


def test_concurrent_actions_on_one_game_apply_once(database_url: str) -> None:
    app = make_app(database_url)
    with serving(app) as url:
        # A slow machine may answer six racing moves in seconds; a hang still fails.
        clients = [httpx2.Client(base_url=url, timeout=60) for _ in range(6)]
        token = clients[0].get("/api/session").json()["csrf"]
        for client in clients:
            client.cookies.update(clients[0].cookies)
            client.headers["X-CSRF-Token"] = token
        response = clients[0].post("/api/games", json={"difficulty": "normal"})
        state = response.json()["state"]
        game_id = state["id"]
        for _ in range(6):
            if state["over"]:
                break
            answers = race(clients, game_id, state)
            codes = sorted(answer.status_code for answer in answers)
            assert codes == [200] + [409] * (len(clients) - 1), [a.text for a in answers]
            winner = next(answer for answer in answers if answer.status_code == 200)
            state = winner.json()["state"]
            assert clients[1].get(f"/api/games/{game_id}").json()["state"] == state
        for client in clients:
            client.close()
    game = stored_game(app, state["id"])
    assert game.version == state["version"]
    record = Record(RuleSet.from_mapping(state["rules"]), tuple(game.actions), seed=game.seed)
    assert replay(record).actions == game.match.actions


def test_a_read_runs_outside_a_transaction_and_a_write_in_one(postgresql_url: str) -> None:
    """A read costs a query one round trip (no BEGIN and ROLLBACK around it: each
    statement is a transaction of its own); a write's statements are one transaction."""
    engine = make_engine(postgresql_url)
    database = Database(engine)
    transaction = text("SELECT pg_current_xact_id()")
    with database() as db:
        assert db.scalar(transaction) != db.scalar(transaction)
    with database.begin() as db:
        assert db.scalar(transaction) == db.scalar(transaction)

    def fail_halfway() -> None:
        with database.begin() as db:
            db.execute(text("CREATE TABLE kept (n integer)"))
            raise ZeroDivisionError  # the transaction is rolled back: nothing was made

    with pytest.raises(ZeroDivisionError):
        fail_halfway()
    assert "kept" not in inspect(engine).get_table_names()
    engine.dispose()


def _drop_backend(engine: Any) -> int:
    """Have the server end the pooled connection's session, as a restart would; its pid."""
    with engine.connect() as connection:
        pid = connection.scalar(text("SELECT pg_backend_pid()"))
    admin = create_engine(parse_url(POSTGRESQL))
    with admin.connect() as connection:
        assert connection.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    admin.dispose()
    return int(pid)


def test_a_resting_connection_the_database_dropped_is_replaced_unseen(postgresql_url: str) -> None:
    engine = create_engine(parse_url(postgresql_url))
    ping_idle_connections(engine, idle_after=0.0)  # every connection counts as resting
    dropped = _drop_backend(engine)
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT pg_backend_pid()")) != dropped
    engine.dispose()


def test_a_connection_in_use_a_moment_ago_is_not_pinged(postgresql_url: str) -> None:
    """The cost of skipping the round trip: a connection dropped while busy fails the one
    request that meets it, and the pool then connects afresh."""
    engine = create_engine(parse_url(postgresql_url))
    ping_idle_connections(engine, idle_after=3600.0)
    dropped = _drop_backend(engine)
    with pytest.raises(OperationalError), engine.connect() as connection:
        connection.scalar(text("SELECT 1"))
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT pg_backend_pid()")) != dropped
    engine.dispose()


def test_the_default_database_is_a_file_in_the_user_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("KOIKOI_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert Settings.from_environment().database_url is None
    assert default_url() == f"sqlite:///{tmp_path / 'koikoi' / 'koikoi.sqlite3'}"
    monkeypatch.setenv("KOIKOI_DATABASE_URL", "postgresql://db.example/koikoi")
    assert Settings.from_environment().database_url == "postgresql://db.example/koikoi"


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_db_upgrade_on_the_command_line(database_url: str) -> None:
    first = run("db", "upgrade", "--database", database_url)
    assert first.exit_code == 0, first.output
    assert f"from revision none (empty) to {head_revision()}" in first.output
    again = run("db", "upgrade", "--database", database_url)
    assert f"already at revision {head_revision()}" in again.output


def test_db_backup_copies_a_live_sqlite_database(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    app = make_app(url)
    sign_up(browser(app), "hana")
    target = tmp_path / "copy.sqlite3"
    result = run("db", "backup", str(target), "--database", url)
    assert result.exit_code == 0, result.output
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT name FROM users").fetchall() == [("hana",)]
    again = run("db", "backup", str(target), "--database", url)
    assert again.exit_code == 1
    assert "exists already" in again.output


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://postgres@127.0.0.1/test", "not one (for PostgreSQL use pg_dump)"),
        ("mysql://db/koikoi", "'mysql' is not supported"),
        ("sqlite:////nowhere/koikoi.sqlite3", "no database file '/nowhere/koikoi.sqlite3'"),
    ],
)
def test_db_backup_refuses_what_it_cannot_copy(url: str, message: str, tmp_path: Path) -> None:
    result = run("db", "backup", str(tmp_path / "copy.sqlite3"), "--database", url)
    assert result.exit_code == 1
    assert message in result.output
    assert not (tmp_path / "copy.sqlite3").exists()


def test_workers_starting_together_share_one_schema_and_key(database_url: str) -> None:
    """Several server processes on one new database: one migrates, all agree on the
    cookie key, so a browser may talk to any of them."""
    start = threading.Barrier(4)

    def start_one(_: int) -> Any:
        start.wait()
        return make_app(database_url, secret_key=None)

    with ThreadPoolExecutor(4) as pool:
        apps = list(pool.map(start_one, range(4)))
    client = browser(apps[0])
    sign_up(client, "hana")
    for other in apps[1:]:
        switch_server(client, other)
        assert client.get("/api/session").json()["user"]["name"] == "hana"


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**48 - 1), choices=st.lists(st.integers(0, 30), max_size=40))
def test_a_stored_game_rebuilds_to_the_live_one(
    sqlite_url: str, seed: int, choices: list[int]
) -> None:
    """Live play and a rebuild from the stored record agree after every move."""
    app = make_app(sqlite_url, rng=random.Random(seed))
    store = app.state.services.games
    with app.state.services.database.begin() as db:
        owner, _ = app.state.services.sessions.open(db)
    live, _ = store.create(owner, RuleSet.from_mapping({"preset": "classic"}), "normal", seed)
    for choice in choices:
        if live.status != "playing":
            break
        legal = state_json(live)["legal"]
        live, _ = store.act(live.id, owner, legal[choice % len(legal)], live.version)
        assert state_json(store.load(live.id, owner)) == state_json(live)


def test_a_game_for_a_session_that_just_ended_is_refused(database_url: str) -> None:
    """Signed out in another tab while this one starts a match: nothing half-made."""
    app = make_app(database_url)
    parts = app.state.services
    with parts.database.begin() as db:
        owner, _ = parts.sessions.open(db)
    with parts.database.begin() as db:
        db.execute(delete(BrowserSession).where(BrowserSession.id == owner.id))
    with pytest.raises(OwnerGoneError, match="signed out meanwhile"):
        parts.games.create(owner, RuleSet.from_mapping({}), "easy", 7)
    with parts.database() as db:
        assert db.scalar(select(func.count()).select_from(Game)) == 0


# -- database paths and files that cannot serve -------------------------------------------


def refused_database(url: str) -> str:
    """make_engine's refusal, and the same for ``koikoi db upgrade`` and ``db backup``."""
    with pytest.raises(DatabaseError) as caught:
        make_engine(url)
    upgraded = run("db", "upgrade", "--database", url)
    assert upgraded.exit_code == 1, upgraded.output
    assert f"koikoi: error: {caught.value}" in upgraded.stderr
    # backup opens no missing file: it may say so instead.
    backed_up = run("db", "backup", "/nowhere/copy.sqlite3", "--database", url)
    assert backed_up.exit_code == 1, backed_up.output
    assert backed_up.stderr.startswith("koikoi: error: ")
    return str(caught.value)


def test_a_database_under_a_regular_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    message = refused_database(f"sqlite:///{tmp_path / 'file' / 'koikoi.sqlite3'}")
    assert repr(str(tmp_path / "file")) in message
    deeper = refused_database(f"sqlite:///{tmp_path / 'file' / 'sub' / 'koikoi.sqlite3'}")
    assert "file" in deeper


@pytest.mark.parametrize("path", ["/proc/koikoi.sqlite3", "/proc/self/koikoi.sqlite3"])
def test_a_database_where_no_file_can_be_made_is_refused(path: str) -> None:
    assert repr(path) in refused_database(f"sqlite:///{path}")


@pytest.mark.parametrize(
    "name", ["missing/\ud800/koikoi.sqlite3", "\ud800.sqlite3", "a\0b/koikoi.sqlite3"]
)
def test_a_database_name_no_file_can_have_is_refused(tmp_path: Path, name: str) -> None:
    """A lone surrogate (which no file system name encodes) or a NUL in the file's name
    is refused by name, and nothing is made (the fuzz test found a traceback)."""
    path = f"{tmp_path}/{name}"
    assert repr(path) in refused_database(f"sqlite:///{path}")
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the tables you are looking for\n" * 20, encoding="utf-8")
    message = refused_database(f"sqlite:///{path}")
    assert repr(str(path)) in message
    assert "not a database" in message
    assert not (Path("/nowhere") / "copy.sqlite3").exists()


@pytest.mark.parametrize("url", ["sqlite:///", "sqlite://", "sqlite:///:memory:"])
def test_a_database_url_without_a_file_is_refused(url: str) -> None:
    with pytest.raises(DatabaseError, match="sqlite:///PATH") as caught:
        parse_url(url)
    assert repr(url) in str(caught.value)
    refused_database(url)


def test_db_backup_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    run("db", "upgrade", "--database", url)
    target = tmp_path / "missing" / "copy.sqlite3"
    result = run("db", "backup", str(target), "--database", url)
    assert result.exit_code == 1
    assert f"koikoi: error: the folder {str(target.parent)!r}" in result.stderr
    assert not target.parent.exists()


def test_db_backup_to_a_name_too_long_for_the_system_is_refused(tmp_path: Path) -> None:
    """The fuzz test found this: checking whether such a file exists raised OSError
    (name too long), which the command printed as a traceback."""
    url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    run("db", "upgrade", "--database", url)
    target = tmp_path / ("0" * 300)
    result = run("db", "backup", str(target), "--database", url)
    assert result.exit_code == 1
    assert f"koikoi: error: cannot back up to {str(target)!r}: File name too long" in (
        result.stderr
    )
    too_long = f"sqlite:///{tmp_path / ('0' * 300)}"
    refused = run("db", "backup", str(tmp_path / "copy.sqlite3"), "--database", too_long)
    assert refused.exit_code == 1
    assert "Traceback" not in refused.output
    assert "File name too long" in refused.stderr


def test_a_backup_of_a_file_that_is_not_a_database_leaves_no_copy(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n" * 100, encoding="utf-8")
    target = tmp_path / "copy.sqlite3"
    # Past make_engine's own check: backup() cleans up after itself.
    engine = create_engine(f"sqlite:///{path}")
    with pytest.raises(DatabaseError, match="not a database") as caught:
        backup(engine, target)
    assert repr(str(path)) in str(caught.value)
    assert not target.exists()


def make_immutable(path: Path) -> None:
    """A file that os.access says is not writable, even for root (who ignores chmod)."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        return
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"running as root, and chattr +i does not work here: {done.stderr!r}")


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_a_database_file_that_cannot_be_written_is_refused(tmp_path: Path, suffix: str) -> None:
    # SQLite maps the -shm file into memory: one it cannot write ends the server with
    # SIGBUS at the first query, so it is refused before anything opens it.
    path = tmp_path / "koikoi.sqlite3"
    url = f"sqlite:///{path}"
    run("db", "upgrade", "--database", url)
    locked = Path(f"{path}{suffix}")
    locked.touch()
    make_immutable(locked)
    try:
        message = refused_database(url)
    finally:
        subprocess.run(["chattr", "-i", str(locked)], capture_output=True, check=False)
        locked.chmod(0o644)
    assert repr(str(locked)) in message
    assert "not writable" in message


def test_release_0_6_3_data_gets_one_result_per_player(database_url: str) -> None:
    """A database 0.6.3 made (revision 0004): every finished match, against the computer
    and between people, gets its players' results; a ranked match between people
    given up at once is aborted; ratings are computed again in finishing order, the
    matches between people included."""
    engine = make_engine(database_url)
    upgrade(engine, "0004")
    rules = RuleSet.from_mapping({"preset": "single-deal"})
    played_out = Match(rules, 11)
    while not played_out.is_over:
        played_out.apply(played_out.legal_actions()[0])
    actions = [action_to_json(action) for action in played_out.actions]
    at = [f"2026-12-0{day} 12:00:00+00:00" for day in range(1, 5)]
    with engine.begin() as connection:
        for user, name in ((1, "aki"), (2, "ben")):
            connection.execute(
                text(
                    "INSERT INTO users (id, name, name_key, password_hash, created)"
                    " VALUES (:id, :name, :name, 'x', :when)"
                ),
                {"id": user, "name": name, "when": at[0]},
            )
        game = (
            "INSERT INTO games (id, user_id, difficulty, rules, rules_name, seed, actions,"
            " version, status, ranked, score, opponent_score, points, yaku, created, updated,"
            " finished) VALUES (:id, 1, 'normal', '{}', 'classic', 7, '[]', 1, :status,"
            " :ranked, 40, 3, :points, '{\"tane\": 1}', :when, :updated, :when)"
        )
        for game_id, status, ranked, points, when, updated in (
            ("won", "won", True, 30, at[0], at[0]),
            ("pr-practice", "lost", False, 0, at[1], at[1]),
            ("left", "resigned", True, 0, at[3], "2026-11-20 12:00:00+00:00"),
        ):
            connection.execute(
                text(game),
                {
                    "id": game_id,
                    "status": status,
                    "ranked": ranked,
                    "points": points,
                    "when": when,
                    "updated": updated,
                },
            )
        table = (
            "INSERT INTO tables (id, code, rules, rules_name, ranked, seed, actions, version,"
            " status, ending, winner, seat0_user_id, seat1_user_id, move_seconds, timeouts,"
            " rematch, created, updated, finished) VALUES (:id, :code, :rules, 'single-deal',"
            " true, 11, :actions, 9, 'over', :ending, :winner, 1, 2, 30, '[0, 0]',"
            " '[false, false]', :when, :when, :when)"
        )
        for table_id, code, moves, ending, winner, when in (
            ("whole", "AAAAAA", actions, "played", played_out.winner, at[1]),
            ("quick", "BBBBBB", [], "resigned", 0, at[2]),
        ):
            connection.execute(
                text(table),
                {
                    "id": table_id,
                    "code": code,
                    "rules": json.dumps(rules.to_mapping()),
                    "actions": json.dumps(moves),
                    "ending": ending,
                    "winner": winner,
                    "when": when,
                },
            )
        # The coach's reviews, which refer to the match rows the upgrade rebuilds.
        connection.execute(
            text(
                "INSERT INTO reviews (game_id, coach, data, created)"
                " VALUES ('won', 'c1', '{}', :when)"
            ),
            {"when": at[0]},
        )
        connection.execute(
            text(
                "INSERT INTO table_reviews (table_id, seat, coach, data, created)"
                " VALUES ('whole', 1, 'c1', '{}', :when)"
            ),
            {"when": at[1]},
        )
    upgrade(engine)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        skeletons = connection.execute(text("SELECT name, name_skeleton FROM users")).all()
        assert all(skeleton == name_skeleton(name) for name, skeleton in skeletons)
        kept = [
            connection.execute(text(f"SELECT count(*) FROM {name}")).scalar_one()
            for name in ("reviews", "table_reviews")
        ]
        assert kept == [1, 1]  # SQLite copies a table to alter it: nothing hangs on it is lost
        results = {
            (row.match_id, row.user_id): row
            for row in connection.execute(select(MatchResult)).all()
        }
        ratings = {
            (row.user_id, row.rules_name): row.mu
            for row in connection.execute(select(Rating)).all()
        }
    assert sorted(results) == [
        ("left", 1),
        ("pr-practice", 1),
        ("quick", 1),
        ("quick", 2),
        ("whole", 1),
        ("whole", 2),
        ("won", 1),
    ]
    assert (results["won", 1].status, results["won", 1].points) == ("won", 30)
    assert results["won", 1].yaku == {"tane": 1}
    assert (results["pr-practice", 1].opponent, results["pr-practice", 1].ranked) == (
        "practice",
        False,
    )
    assert results["left", 1].ending == "abandoned"  # stored a week after its last move
    assert {results["quick", user].status for user in (1, 2)} == {"aborted"}
    assert results["quick", 1].rating_after is None
    whole = results["whole", 1]
    assert (whole.opponent, whole.opponent_id, whole.score) == ("person", 2, played_out.totals[0])
    # Classic: won against normal, then the abandoned match lost, in that order.
    won = rated(START, START_SIGMA, "normal", 1.0)
    assert ratings[1, "classic"] == pytest.approx(rated(*won, "normal", 0.0)[0])
    score = {0: 1.0, 1: 0.0, None: 0.5}[played_out.winner]
    first, second = rated_pair((START, START_SIGMA), (START, START_SIGMA), score)
    assert ratings[1, "single-deal"] == pytest.approx(first[0])
    assert ratings[2, "single-deal"] == pytest.approx(second[0])
    assert whole.rating_before == START
    engine.dispose()
