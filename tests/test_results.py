"""One result for every match: matches between people count like matches against the
computer, ratings come only from real play, and per-player limits hold under races.

Each test here is a finding of 0.6.3 tried as a player and as an attacker would."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy import func, select
from starlette.testclient import TestClient

from koikoi.server.credentials import HASHING_AT_ONCE, Passwords
from koikoi.server.gamestore import MAX_IN_PROGRESS, PRACTICE_SAVES_PER_MINUTE
from koikoi.server.ranked import MIN_ACTIONS
from koikoi.server.rating import START, START_SIGMA, rated_pair
from koikoi.server.tablestore import MAX_OPEN
from koikoi.server.throttle import SIGN_UPS_PER_HOUR
from koikoi.store.models import Game, MatchResult, Table, User
from servers import (
    PASSWORD,
    Clock,
    browser,
    koikoi_serve,
    listening_socket,
    make_app,
    play_on,
    serving,
    sign_up,
    winning_seed,
)
from test_practice_saves import SINGLE, played, practice_body
from test_tables import move, mover, open_table, play_actions, state_of

SINGLE_DEAL = {"preset": "single-deal"}


def ranked_table(host: TestClient, guest: TestClient, rules: dict[str, Any]) -> str:
    table = open_table(host, ranked=True, rules=rules)
    response = guest.post(f"/api/tables/{table['id']}/seat")
    assert response.status_code == 200, response.text
    return str(table["id"])


def play_out(host: TestClient, guest: TestClient, table_id: str) -> dict[str, Any]:
    """Play a table to its end (the first legal action each time); host's state then."""
    while True:
        state = state_of(host, table_id)
        if state["status"] != "playing":
            return state
        client, state = mover(host, guest, table_id)
        move(client, table_id, state)


def rating(client: TestClient, name: str, rules: str = "classic") -> float:
    """The player's rating under ``rules`` as their profile shows it (START if none)."""
    ratings = client.get(f"/api/players/{name}").json()["ratings"]
    return float(ratings[rules]["rating"]) if rules in ratings else START


def profile(client: TestClient, name: str) -> dict[str, Any]:
    response = client.get(f"/api/players/{name}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# -- a match between people counts like any other ---------------------------------------


def test_a_ranked_match_between_people_reaches_profiles_histories_graphs_and_boards(
    app: FastAPI,
) -> None:
    host, guest = browser(app), browser(app)
    sign_up(host, "hana")
    sign_up(guest, "kaze")
    table_id = ranked_table(host, guest, SINGLE_DEAL)
    final = play_out(host, guest, table_id)
    assert final["status"] in ("won", "lost", "drawn")
    outcome = {"hana": final["status"]}
    outcome["kaze"] = {"won": "lost", "lost": "won", "drawn": "drawn"}[final["status"]]
    for name, other in (("hana", "kaze"), ("kaze", "hana")):
        shown = profile(host, name)
        assert shown["matches"] == 1
        assert shown["wins"] == (outcome[name] == "won")
        assert shown["by_opponent"]["person"]["matches"] == 1
        (entry,) = shown["history"]
        assert (entry["id"], entry["opponent"], entry["opponent_name"]) == (
            table_id,
            "person",
            other,
        )
        assert (entry["outcome"], entry["table"], entry["ranked"]) == (outcome[name], True, True)
        assert entry["rating_before"] == START
        (point,) = shown["ratings"]["single-deal"]["history"]
        assert point["rating"] == entry["rating"]
    # Both stand on the board by rating (provisional, after one match), and each sees
    # their own row.
    board = host.get("/api/leaderboard", params={"rules": "single-deal"}).json()
    assert {row["name"] for row in board["rows"]} == {"hana", "kaze"}
    assert all(row["settled"] is False for row in board["rows"])
    assert board["you"]["name"] == "hana"
    wins = host.get("/api/leaderboard", params={"rules": "single-deal", "sort": "wins"})
    assert {row["name"] for row in wins.json()["rows"]} == {"hana", "kaze"}


def test_a_provisional_player_is_on_the_default_board_after_one_ranked_match(
    database_url: str,
) -> None:
    seed = winning_seed("easy", {"preset": "classic"})
    app = make_app(database_url, rng=random.Random(seed))
    client = browser(app)
    sign_up(client, "aki")
    state = client.post("/api/games", json={"difficulty": "easy"}).json()["state"]
    final = play_on(client, state)
    assert final["status"] == "won"
    board = client.get("/api/leaderboard").json()
    (row,) = board["rows"]
    assert (row["name"], row["settled"], row["rank"]) == ("aki", False, 1)
    assert board["you"] == row


def test_the_summary_names_the_rating_before_and_after(database_url: str) -> None:
    """Against the computer and between people, a finished ranked match's state says
    how the seated players' ratings moved."""
    seed = winning_seed("easy", {"preset": "classic"})
    app = make_app(database_url, rng=random.Random(seed))
    client = browser(app)
    sign_up(client, "aki")
    final = play_on(client, client.post("/api/games", json={"difficulty": "easy"}).json()["state"])
    assert final["rating"]["before"] == START
    assert final["rating"]["after"] == profile(client, "aki")["ratings"]["classic"]["rating"]
    assert final["rating"]["after"] > START
    assert final["points"] == 10
    again = client.get(f"/api/games/{final['id']}").json()["state"]
    assert again["rating"] == final["rating"]

    host, guest = browser(app), browser(app)
    sign_up(host, "hana")
    sign_up(guest, "kaze")
    table_id = ranked_table(host, guest, SINGLE_DEAL)
    ended = play_out(host, guest, table_id)
    seen = state_of(guest, table_id)
    mine, theirs = ended["table"]["players"]
    assert ended["rating"] == mine["rating"] == seen["table"]["players"][1]["rating"]
    assert seen["rating"] == theirs["rating"]
    assert mine["rating"]["before"] == theirs["rating"]["before"] == START
    if ended["status"] == "won":
        assert mine["rating"]["after"] > START > theirs["rating"]["after"]


def test_a_genuine_ranked_match_moves_both_ratings_as_the_model_says(app: FastAPI) -> None:
    host, guest = browser(app), browser(app)
    sign_up(host, "hana")
    sign_up(guest, "kaze")
    final = play_out(host, guest, ranked_table(host, guest, SINGLE_DEAL))
    score = {"won": 1.0, "drawn": 0.5, "lost": 0.0}[final["status"]]
    first, second = rated_pair((START, START_SIGMA), (START, START_SIGMA), score)
    assert rating(host, "hana", "single-deal") == round(first[0])
    assert rating(host, "kaze", "single-deal") == round(second[0])


# -- a rating means real play ------------------------------------------------------------


def test_a_ranked_match_given_up_at_once_is_aborted(app: FastAPI) -> None:
    host, guest = browser(app), browser(app)
    sign_up(host, "hana")
    sign_up(guest, "kaze")
    table_id = ranked_table(host, guest, {"preset": "classic"})
    resigned = guest.post(f"/api/tables/{table_id}/resign")
    assert resigned.status_code == 200
    assert resigned.json()["state"]["status"] == "aborted"
    assert state_of(host, table_id)["status"] == "aborted"
    assert state_of(host, table_id)["rating"] is None
    for name in ("hana", "kaze"):
        shown = profile(host, name)
        assert (shown["matches"], shown["wins"], shown["aborted"]) == (0, 0, 1)
        assert shown["ratings"] == {}
        assert [entry["outcome"] for entry in shown["history"]] == ["aborted"]
    assert host.get("/api/leaderboard", params={"sort": "wins"}).json()["rows"] == []


def test_against_the_computer_a_resignation_is_a_loss_nobody_gains_from(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "aki")
    state = client.post("/api/games", json={"difficulty": "easy"}).json()["state"]
    resigned = client.post(f"/api/games/{state['id']}/resign").json()["state"]
    assert resigned["status"] == "resigned"
    assert resigned["rating"]["after"] < resigned["rating"]["before"] == START


def test_thirty_fresh_accounts_resigning_at_once_move_the_farmer_at_most_50(
    app: FastAPI,
) -> None:
    """The 0.6.3 script: fresh accounts from as many addresses sit at the farmer's ranked
    table and resign at once (it took the farmer from 1500 to 2370)."""
    farmer = browser(app)
    sign_up(farmer, "farmer")
    for number in range(30):
        puppet = browser(app, address=f"203.0.113.{number + 1}")
        sign_up(puppet, f"puppet{number}")
        table_id = ranked_table(farmer, puppet, {"preset": "classic"})
        assert puppet.post(f"/api/tables/{table_id}/resign").status_code == 200
    assert abs(rating(farmer, "farmer") - START) <= 50


def test_one_puppet_resigning_and_accepting_the_rematch_moves_the_farmer_at_most_50(
    app: FastAPI,
) -> None:
    farmer, puppet = browser(app), browser(app)
    sign_up(farmer, "farmer")
    sign_up(puppet, "puppet")
    table_id = ranked_table(farmer, puppet, {"preset": "classic"})
    for _ in range(10):
        assert puppet.post(f"/api/tables/{table_id}/resign").status_code == 200
        farmer.post(f"/api/tables/{table_id}/rematch")
        accepted = puppet.post(f"/api/tables/{table_id}/rematch").json()["state"]
        table_id = accepted["table"]["next"]
    assert abs(rating(farmer, "farmer") - START) <= 50


def test_quick_matched_fresh_accounts_resigning_move_nobody_more_than_50(
    app: FastAPI,
) -> None:
    one, two = browser(app), browser(app)
    sign_up(one, "hana")
    sign_up(two, "kaze")
    assert one.post("/api/queue", json={"preset": "classic"}).json()["status"] == "waiting"
    paired = two.post("/api/queue", json={"preset": "classic"}).json()
    assert paired["status"] == "paired"
    assert two.post(f"/api/tables/{paired['table']}/resign").status_code == 200
    assert abs(rating(one, "hana") - START) <= 50
    assert abs(rating(one, "kaze") - START) <= 50


def test_one_round_then_resigning_ten_times_gains_a_third_of_ten_genuine_wins(
    app: FastAPI,
) -> None:
    """A puppet that plays a whole hand (MIN_ACTIONS each) before resigning, ten times
    in a day: the pair's repeated results count less and less."""
    farmer, puppet = browser(app), browser(app)
    sign_up(farmer, "farmer")
    sign_up(puppet, "puppet")
    for _ in range(10):
        table_id = ranked_table(farmer, puppet, {"preset": "classic"})
        if play_actions(farmer, puppet, table_id, MIN_ACTIONS):
            resigned = puppet.post(f"/api/tables/{table_id}/resign").json()["state"]
            assert resigned["status"] == "lost"  # it counts: a hand was played
    farmed = rating(farmer, "farmer") - START
    # Ten genuine wins, each against a fresh account, as the same model rates them.
    genuine = (START, START_SIGMA)
    for _ in range(10):
        genuine, _ = rated_pair(genuine, (START, START_SIGMA), 1.0)
    assert 0 < farmed <= (genuine[0] - START) / 3
    # The k-th result of the pair moved the farmer 1/k² as far as the model would: the
    # tenth at most a tenth as far as the first.
    with app.state.services.database() as db:
        moves = (
            db.execute(
                select(MatchResult.rating_after - MatchResult.rating_before)
                .join(User, User.id == MatchResult.user_id)
                .where(User.name == "farmer")
                .order_by(MatchResult.finished, MatchResult.id)
            )
            .scalars()
            .all()
        )
    assert len(moves) == 10
    assert 0 < moves[9] <= moves[0] / 10
    # The tenth result moved the pair a hundredth as far as the first would have.
    history = profile(farmer, "farmer")["ratings"]["classic"]["history"]
    assert len(history) == 10


def test_sign_up_is_throttled_per_address(app: FastAPI, clock: Clock) -> None:
    for number in range(SIGN_UPS_PER_HOUR):
        sign_up(browser(app, address="198.51.100.7"), f"twin{number}")
    refused = browser(app, address="198.51.100.7").post(
        "/api/account", json={"name": "onetoomany", "password": PASSWORD}
    )
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert "address" in refused.json()["detail"]
    sign_up(browser(app, address="198.51.100.8"), "neighbour")  # another address: free
    clock.advance(hours=1, seconds=1)
    sign_up(browser(app, address="198.51.100.7"), "nexthour")


def test_sign_ups_are_counted_per_address_behind_a_trusted_proxy(tmp_path: Path) -> None:
    """koikoi serve behind a proxy it was told to believe: accounts are counted per
    forwarded client address, so many people behind one proxy are not one address."""
    sock = listening_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    database = f"sqlite:///{tmp_path / 'koikoi.sqlite3'}"
    options = ("--forwarded-allow-ips", "127.0.0.1")

    def sign_up_from(address: str, name: str) -> int:
        with httpx2.Client(base_url=url, timeout=60) as client:
            client.headers["X-Forwarded-For"] = address
            client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
            body = {"name": name, "password": PASSWORD}
            return client.post("/api/account", json=body).status_code

    with sock, koikoi_serve(sock.fileno(), database, options=options):
        codes = [sign_up_from("203.0.113.9", f"twin{n}") for n in range(SIGN_UPS_PER_HOUR + 1)]
        assert codes == [201] * SIGN_UPS_PER_HOUR + [429]
        assert sign_up_from("203.0.113.10", "neighbour") == 201


def test_only_a_few_password_hashes_run_at_once() -> None:
    """Thirty sign-ups at once: their hashes take turns, a few at a time."""
    running, most = 0, 0
    lock = threading.Lock()

    class Counted(PasswordHasher):
        def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            try:
                return super().hash(password, salt=salt)
            finally:
                with lock:
                    running -= 1

    passwords = Passwords(Counted())
    with ThreadPoolExecutor(30) as pool:
        hashes = list(pool.map(passwords.hash, [f"password {n}" for n in range(30)]))
    assert len(set(hashes)) == 30
    assert 1 <= most <= HASHING_AT_ONCE


# -- limits hold under races -------------------------------------------------------------


def at_once(count: int, send: Callable[[int], httpx2.Response]) -> list[int]:
    """``count`` requests sent at the same moment; their statuses."""
    start = threading.Barrier(count)

    def fire(index: int) -> int:
        start.wait()
        return send(index).status_code

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(fire, range(count)))


def served_player(url: str, name: str) -> httpx2.Client:
    client = httpx2.Client(base_url=url, timeout=120)
    csrf = client.get("/api/session").json()["csrf"]
    client.headers["X-CSRF-Token"] = csrf
    body = client.post("/api/account", json={"name": name, "password": PASSWORD}).json()
    client.headers["X-CSRF-Token"] = body["csrf"]
    return client


def count_rows(app: FastAPI, model: type[Game] | type[Table]) -> int:
    with app.state.services.database() as db:
        return int(db.scalar(select(func.count()).select_from(model)) or 0)


def test_thirty_parallel_new_games_never_pass_the_limit(database_url: str) -> None:
    app = make_app(database_url)
    with serving(app) as url:
        client = served_player(url, "hana")
        statuses = at_once(30, lambda _: client.post("/api/games", json={"difficulty": "easy"}))
        client.close()
    assert statuses.count(201) == MAX_IN_PROGRESS
    assert set(statuses) == {201, 409}
    assert count_rows(app, Game) == MAX_IN_PROGRESS


def test_thirty_parallel_new_tables_never_pass_the_limit(database_url: str) -> None:
    app = make_app(database_url)
    with serving(app) as url:
        client = served_player(url, "hana")
        statuses = at_once(30, lambda _: client.post("/api/tables", json={}))
        client.close()
    assert statuses.count(201) == MAX_OPEN
    assert count_rows(app, Table) == MAX_OPEN


def test_parallel_practice_saves_never_pass_the_limit(database_url: str) -> None:
    app = make_app(database_url)
    bodies = [practice_body(played(SINGLE, seed)) for seed in range(PRACTICE_SAVES_PER_MINUTE + 5)]
    with serving(app) as url:
        client = served_player(url, "hana")
        statuses = at_once(
            len(bodies), lambda index: client.post("/api/games/practice", json=bodies[index])
        )
        client.close()
    assert statuses.count(201) == PRACTICE_SAVES_PER_MINUTE
    assert set(statuses) == {201, 429}


def test_quick_match_and_rematch_keep_to_the_table_limit(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "hana")
    for _ in range(MAX_OPEN):
        open_table(client)
    queued = client.post("/api/queue", json={"preset": "classic"})
    assert queued.status_code == 409
    assert "tables open" in queued.json()["detail"]
    # A rematch, too, waits for room.
    host, guest = browser(app), browser(app)
    sign_up(host, "aki")
    sign_up(guest, "kaze")
    table_id = ranked_table(host, guest, {"preset": "classic"})
    guest.post(f"/api/tables/{table_id}/resign")
    for _ in range(MAX_OPEN):
        open_table(host)
    assert host.post(f"/api/tables/{table_id}/rematch").status_code == 200
    refused = guest.post(f"/api/tables/{table_id}/rematch")
    assert refused.status_code == 409
