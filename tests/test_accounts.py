"""Accounts over HTTP, on SQLite and on PostgreSQL: every flow and every refusal."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2
import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from sqlalchemy import event, func, select
from starlette.testclient import TestClient

from koikoi.server.throttle import FORGET_AFTER, FREE_CHECKS, MAX_DELAY
from koikoi.store.models import BrowserSession, Game, PasswordThrottle, User
from servers import (
    PASSWORD,
    Clock,
    browser,
    make_app,
    new_game,
    play_on,
    refresh_csrf,
    serving,
    sign_up,
    winning_seed,
)


def count(app: FastAPI, model: Any, *where: Any) -> int:
    with app.state.services.database() as db:
        return int(db.scalar(select(func.count()).select_from(model).where(*where)) or 0)


def sign_in(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def test_a_new_browser_is_a_guest_with_a_csrf_token(app: FastAPI) -> None:
    client = TestClient(app)
    body = client.get("/api/session").json()
    assert body["user"] is None
    assert len(body["csrf"]) >= 32
    # The same browser keeps its session and token.
    assert client.get("/api/session").json() == body


def test_sign_up_signs_in_with_a_fresh_session(app: FastAPI) -> None:
    client = browser(app)
    before = client.cookies["koikoi_session"]
    body = sign_up(client, "hana")
    assert body["user"] == {"name": "hana", "points": 0}
    assert client.cookies["koikoi_session"] != before  # no session fixation
    assert client.get("/api/session").json()["user"]["name"] == "hana"
    with app.state.services.database() as db:
        stored = db.scalar(select(User.password_hash).where(User.name == "hana"))
    assert stored.startswith("$argon2id$")
    assert PASSWORD not in stored


def test_sign_out_ends_the_session_everywhere(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "hana")
    old_cookie = client.cookies["koikoi_session"]
    response = client.delete("/api/session")
    assert response.status_code == 200
    assert response.json()["user"] is None
    # A copy of the old cookie is worth nothing now.
    thief = TestClient(app, cookies={"koikoi_session": old_cookie})
    assert thief.get("/api/session").json()["user"] is None


def test_sign_in_with_the_right_password(app: FastAPI) -> None:
    sign_up(browser(app), "hana")
    other = browser(app)
    response = sign_in(other, "HANA")  # names ignore case
    assert response.status_code == 200
    assert response.json()["user"]["name"] == "hana"


def test_a_wrong_password_or_unknown_name_is_refused_alike(app: FastAPI) -> None:
    sign_up(browser(app), "hana")
    client = browser(app)
    wrong = sign_in(client, "hana", "not the password")
    unknown = sign_in(client, "nobody", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "wrong name or password"}
    assert client.get("/api/session").json()["user"] is None


def test_a_taken_name_is_refused_whatever_its_case(app: FastAPI) -> None:
    sign_up(browser(app), "Hana")
    client = browser(app)
    response = client.post("/api/account", json={"name": "hANA", "password": PASSWORD})
    assert response.status_code == 409
    assert "hANA" in response.json()["detail"]
    assert count(app, User) == 1


@pytest.mark.parametrize(
    "name",
    ["a", "x" * 21, "<script>alert(1)</script>", "two words", "_hana", "hana.", "a&b", ""],
)
def test_bad_names_are_refused_and_named(app: FastAPI, name: str) -> None:
    client = browser(app)
    response = client.post("/api/account", json={"name": name, "password": PASSWORD})
    assert response.status_code == 422
    assert repr(name) in response.json()["detail"]
    assert count(app, User) == 0


def test_names_in_any_script_are_welcome(app: FastAPI) -> None:
    for name in ("花子", "مريم", "Zoë-K", "ms.ali_2", "ハナ子", "Hana花子", "김철수", "Иван"):
        assert sign_up(browser(app), name)["user"]["name"] == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u0430dmin", "mixes the scripts cyrillic, latin"),  # a Cyrillic "a"
        ("\u3164\u3164\u3164", "invisible character (U+1160)"),  # Hangul fillers
        ("ha\u115fna", "invisible character (U+115F)"),
        ("\u0391lex", "mixes the scripts greek, latin"),
    ],
)
def test_look_alike_and_invisible_names_are_refused(app: FastAPI, name: str, why: str) -> None:
    sign_up(browser(app), "admin")
    response = browser(app).post("/api/account", json={"name": name, "password": PASSWORD})
    assert response.status_code == 422
    assert why in response.json()["detail"]
    assert count(app, User) == 1


def test_visitors_who_only_look_leave_no_session_rows(app: FastAPI) -> None:
    for path in ("/", "/api/session", "/api/leaderboard", "/api/games", "/api/rules"):
        for _ in range(3):
            assert TestClient(app).get(path).status_code == 200
    client = browser(app)
    assert client.get("/api/session").json()["user"] is None
    assert count(app, BrowserSession) == 0
    # The first change makes the row, and the visitor keeps their token and game.
    token = client.headers["X-CSRF-Token"]
    state = new_game(client)["state"]
    assert count(app, BrowserSession) == 1
    assert client.get("/api/session").json()["csrf"] == token
    assert client.get(f"/api/games/{state['id']}").json()["state"] == state
    assert [game["id"] for game in client.get("/api/games").json()["games"]] == [state["id"]]


def test_an_ended_session_is_not_taken_up_again(app: FastAPI, clock: Clock) -> None:
    client = browser(app)
    state = new_game(client)["state"]
    cookie = client.cookies["koikoi_session"]
    clock.advance(days=31)
    returning = TestClient(app, cookies={"koikoi_session": cookie})
    body = returning.get("/api/session").json()
    assert body["csrf"] != client.headers["X-CSRF-Token"]
    assert returning.get("/api/games").json()["games"] == []
    assert returning.get(f"/api/games/{state['id']}").status_code == 404


def test_a_short_password_is_refused(app: FastAPI) -> None:
    client = browser(app)
    response = client.post("/api/account", json={"name": "hana", "password": "short"})
    assert response.status_code == 422
    assert "8 to 128" in response.json()["detail"]
    assert count(app, User) == 0


def test_changing_the_password_ends_the_other_sessions(app: FastAPI) -> None:
    laptop = browser(app)
    sign_up(laptop, "hana")
    phone = browser(app)
    refresh_csrf(phone, sign_in(phone, "hana").json())
    response = laptop.post(
        "/api/account/password", json={"current": PASSWORD, "new": "a new secret phrase"}
    )
    assert response.status_code == 200
    refresh_csrf(laptop, response.json())
    assert laptop.get("/api/session").json()["user"]["name"] == "hana"
    assert phone.get("/api/session").json()["user"] is None
    assert sign_in(browser(app), "hana").status_code == 401
    assert sign_in(browser(app), "hana", "a new secret phrase").status_code == 200


def test_changing_the_password_needs_the_current_one(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "hana")
    response = client.post(
        "/api/account/password", json={"current": "guess work!", "new": "a new secret phrase"}
    )
    assert response.status_code == 401
    assert sign_in(browser(app), "hana").status_code == 200
    weak = client.post("/api/account/password", json={"current": PASSWORD, "new": "short"})
    assert weak.status_code == 422


def test_deleting_the_account_deletes_its_data_and_sessions(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "hana")
    other = browser(app)
    refresh_csrf(other, sign_in(other, "hana").json())
    new_game(client)
    assert count(app, Game) == 1
    refused = client.request("DELETE", "/api/account", json={"password": "not it at all"})
    assert refused.status_code == 401
    response = client.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert response.status_code == 200
    assert response.json()["user"] is None
    assert count(app, User) == 0
    assert count(app, Game) == 0
    assert count(app, BrowserSession, BrowserSession.user_id.is_not(None)) == 0
    assert other.get("/api/session").json()["user"] is None
    assert client.get("/api/players/hana").status_code == 404
    # The name is free again.
    assert sign_up(browser(app), "hana")["user"]["name"] == "hana"


def state_changing_routes(app: FastAPI) -> list[tuple[str, str]]:
    """Every API route that is not a read, as the API's own schema lists them."""
    return [
        (method.upper(), path.replace("{game_id}", "some-game"))
        for path, operations in app.openapi()["paths"].items()
        for method in operations
        if method.upper() not in ("GET", "HEAD", "OPTIONS")
    ]


def test_every_state_changing_request_needs_the_csrf_token(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "hana")
    token = client.headers.pop("X-CSRF-Token")
    routes = state_changing_routes(app)
    assert len(routes) >= 8
    for method, path in routes:
        for headers in ({}, {"X-CSRF-Token": "forged"}):
            response = client.request(method, path, json={}, headers=headers)
            assert response.status_code == 403, (method, path)
            assert "CSRF" in response.json()["detail"]
    # Nothing happened: still signed in, no game started.
    assert client.get("/api/session").json() == {
        "user": {"name": "hana", "points": 0},
        "csrf": token,
        "ranking_points": {"easy": 10, "normal": 30, "expert": 100},
        "ranked_presets": ["classic", "ten-card", "single-deal", "traditional"],
        "points_presets": ["classic", "ten-card", "traditional"],
    }
    assert count(app, Game) == 0


def test_a_token_from_another_session_does_not_do(app: FastAPI) -> None:
    client = browser(app)
    other = browser(app)
    client.headers["X-CSRF-Token"] = other.headers["X-CSRF-Token"]
    assert client.post("/api/games", json={"difficulty": "easy"}).status_code == 403


GUESS = "guess work!"


def test_wrong_passwords_slow_down_a_name_from_one_address(app: FastAPI, clock: Clock) -> None:
    sign_up(browser(app), "hana")
    attacker = browser(app, address="10.0.0.1")
    for _ in range(FREE_CHECKS["pair"]):
        assert sign_in(attacker, "hana", GUESS).status_code == 401
    # Then each try waits twice as long as the one before.
    for wait in (1, 2, 4):
        refused = sign_in(attacker, "hana")  # even the right password is not read
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) == wait
        assert f"{wait} seconds" in refused.json()["detail"]
        clock.advance(seconds=wait)
        assert sign_in(attacker, "hana", GUESS).status_code == 401
    assert attacker.get("/api/session").json()["user"] is None
    # The owner, elsewhere, is not locked out.
    assert sign_in(browser(app, address="10.0.0.2"), "hana").status_code == 200
    # The right password, from that address, is read once the wait is over.
    clock.advance(seconds=8)
    assert sign_in(attacker, "hana").status_code == 200


def test_the_slowdown_tops_out_and_is_forgotten(app: FastAPI, clock: Clock) -> None:
    attacker = browser(app, address="10.0.0.1")
    for _ in range(30):
        response = sign_in(attacker, "hana", GUESS)
        if response.status_code == 429:
            clock.advance(seconds=int(response.headers["Retry-After"]))
            response = sign_in(attacker, "hana", GUESS)
        assert response.status_code == 401
    assert int(sign_in(attacker, "hana").headers["Retry-After"]) == MAX_DELAY.total_seconds()
    clock.advance(seconds=FORGET_AFTER.total_seconds() + 1)
    for _ in range(FREE_CHECKS["pair"]):
        assert sign_in(attacker, "hana", GUESS).status_code == 401


def test_an_attack_from_many_addresses_never_locks_out_a_known_device(
    app: FastAPI, clock: Clock
) -> None:
    laptop = browser(app, address="192.168.1.5")
    sign_up(laptop, "hana")
    laptop.delete("/api/session")
    refresh_csrf(laptop)
    for number in range(FREE_CHECKS["name"]):
        assert sign_in(browser(app, address=f"10.0.1.{number}"), "hana", GUESS).status_code == 401
    # A new device now waits, wherever it is...
    assert sign_in(browser(app, address="192.168.1.6"), "hana").status_code == 429
    # ...but the browser hana signed in with before does not.
    assert sign_in(laptop, "hana").status_code == 200
    # A device cookie is good for its own account only.
    stranger = browser(app, address="192.168.1.7")
    sign_up(stranger, "kenji")
    stranger.delete("/api/session")
    refresh_csrf(stranger)
    assert sign_in(stranger, "hana").status_code == 429
    forged = browser(app, address="192.168.1.8")
    forged.cookies.set("koikoi_device", "1.forged")
    assert sign_in(forged, "hana").status_code == 429


def test_a_deleted_accounts_device_cookie_opens_nothing_for_the_next_account(
    app: FastAPI,
) -> None:
    """0.6.3's finding: on SQLite, a deleted account's id went to the next account made,
    and the old account's device cookie then skipped the sign-in throttle for the new
    one (30 of 30 guesses checked). Ids are never reused now, and a device cookie names
    the account itself, not its id alone."""
    attacker = browser(app, address="10.0.2.1")
    first = sign_up(attacker, "mallory")
    old_id = user_id(app, "mallory")
    deleted = attacker.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert deleted.status_code == 200
    refresh_csrf(attacker, deleted.json())
    assert first["user"]["name"] == "mallory"
    sign_up(browser(app), "victim")
    assert user_id(app, "victim") != old_id
    # The attacker's browser still holds mallory's device cookie: it counts for nothing.
    codes = [sign_in(attacker, "victim", GUESS).status_code for _ in range(FREE_CHECKS["pair"] + 1)]
    assert codes == [401] * FREE_CHECKS["pair"] + [429]


def test_a_name_that_looks_like_a_taken_one_is_refused(app: FastAPI) -> None:
    """0.6.3 took "cocoa" in Cyrillic letters beside the Latin "cocoa": names are
    compared by what they look like (Unicode's confusables, UTS #39)."""
    sign_up(browser(app), "cocoa")
    cyrillic = "\u0441\u043e\u0441\u043e\u0430"
    for look_alike in (cyrillic, "COCOA", "\uff43\uff4f\uff43\uff4f\uff41"):  # full width
        response = browser(app).post(
            "/api/account", json={"name": look_alike, "password": PASSWORD}
        )
        assert response.status_code == 409, look_alike
        assert "'cocoa'" in response.json()["detail"] or "taken" in response.json()["detail"]
    refused = browser(app).post("/api/account", json={"name": cyrillic, "password": PASSWORD})
    assert "looks like 'cocoa'" in refused.json()["detail"]
    sign_up(browser(app), "cacao")  # a name of its own is free
    with app.state.services.database() as db:
        assert db.scalar(select(func.count()).select_from(User)) == 2


def user_id(app: FastAPI, name: str) -> int:
    with app.state.services.database() as db:
        found = db.scalar(select(User.id).where(User.name == name))
    assert found is not None
    return int(found)


def test_one_address_guessing_many_names_slows_down(app: FastAPI) -> None:
    sign_up(browser(app), "hana")
    attacker = browser(app, address="10.0.0.9")
    for number in range(FREE_CHECKS["address"]):
        assert sign_in(attacker, f"user{number}", GUESS).status_code == 401
    assert sign_in(attacker, "hana").status_code == 429
    assert sign_in(browser(app, address="10.0.0.10"), "hana").status_code == 200


@pytest.mark.parametrize("route", ["password", "delete"])
def test_every_password_check_is_throttled(app: FastAPI, route: str) -> None:
    client = browser(app)
    sign_up(client, "hana")

    def confirm(password: str) -> Any:
        if route == "password":
            body = {"current": password, "new": "a new secret phrase"}
            return client.post("/api/account/password", json=body)
        return client.request("DELETE", "/api/account", json={"password": password})

    client.cookies.delete("koikoi_device")  # a stolen session, on the thief's machine
    for _ in range(FREE_CHECKS["pair"]):
        assert confirm(GUESS).status_code == 401
    assert confirm(PASSWORD).status_code == 429
    assert count(app, User) == 1
    assert sign_in(browser(app, address="10.0.0.3"), "hana").status_code == 200


def parallel(url: str, attempts: list[tuple[str, str]]) -> list[int]:
    """Sign-in attempts sent all at once to a real server; their status codes."""

    def attempt(name_and_password: tuple[str, str]) -> int:
        name, password = name_and_password
        # 31 hashes one after another take seconds on a slow machine; a hang still fails.
        with httpx2.Client(base_url=url, timeout=60) as client:
            csrf = client.get("/api/session").json()["csrf"]
            response = client.post(
                "/api/session",
                json={"name": name, "password": password},
                headers={"X-CSRF-Token": csrf},
            )
            return response.status_code

    with ThreadPoolExecutor(max_workers=len(attempts)) as pool:
        return list(pool.map(attempt, attempts))


# Hashing that takes a real while, as in production, so racing checks overlap.
SLOW_HASHER = PasswordHasher(time_cost=2, memory_cost=16384, parallelism=1)


def test_parallel_guesses_are_counted_one_by_one(database_url: str, clock: Clock) -> None:
    app = make_app(database_url, clock, password_hasher=SLOW_HASHER)
    sign_up(browser(app), "hana")
    with serving(app) as url:
        codes = parallel(url, [("hana", GUESS)] * 30 + [("hana", PASSWORD)])
    # No more wrong passwords were read than the free checks allow; the right one
    # was read if it came among them (and then took its own check back).
    assert codes.count(401) <= FREE_CHECKS["pair"]
    assert codes.count(401) + codes.count(200) in (FREE_CHECKS["pair"], FREE_CHECKS["pair"] + 1)
    assert codes.count(429) == 31 - codes.count(401) - codes.count(200)


def test_parallel_guesses_at_many_names_are_counted_one_by_one(
    database_url: str, clock: Clock
) -> None:
    app = make_app(database_url, clock, password_hasher=SLOW_HASHER)
    with serving(app) as url:
        codes = parallel(url, [(f"user{number}", GUESS) for number in range(60)])
    assert codes.count(401) == FREE_CHECKS["address"]
    assert codes.count(429) == 60 - FREE_CHECKS["address"]


@pytest.mark.parametrize("name", ["x" * 200, "\ufb03" * 30, "a\x00b", "\u00df" * 41])
def test_a_name_no_account_can_have_is_refused_before_any_check(app: FastAPI, name: str) -> None:
    response = sign_in(browser(app), name)
    assert response.status_code == 422
    with app.state.services.database() as db:
        assert db.scalar(select(func.count()).select_from(PasswordThrottle)) == 0


def test_a_guest_who_signs_up_mid_match_keeps_it(app: FastAPI) -> None:
    client = browser(app)
    state = play_on(client, new_game(client)["state"], moves=3)
    assert state["ranked"] is False
    sign_up(client, "hana")
    games = client.get("/api/games").json()["games"]
    assert [(game["id"], game["ranked"]) for game in games] == [(state["id"], False)]
    resumed = client.get(f"/api/games/{state['id']}").json()["state"]
    assert resumed == state
    # From another device too, once signed in there.
    phone = browser(app)
    refresh_csrf(phone, sign_in(phone, "hana").json())
    assert phone.get(f"/api/games/{state['id']}").json()["state"] == state
    after = play_on(phone, resumed, moves=1)
    assert after["version"] > state["version"]


def test_acting_in_someone_elses_game_is_refused(app: FastAPI) -> None:
    owner = browser(app)
    sign_up(owner, "hana")
    state = new_game(owner)["state"]
    intruder = browser(app)
    sign_up(intruder, "kenji")
    for client in (intruder, browser(app)):
        assert client.get(f"/api/games/{state['id']}").status_code == 404
        move = {"action": state["legal"][0], "version": state["version"]}
        assert client.post(f"/api/games/{state['id']}/actions", json=move).status_code == 404
        assert client.post(f"/api/games/{state['id']}/resign").status_code == 404
    assert owner.get(f"/api/games/{state['id']}").json()["state"] == state


def test_a_result_the_server_did_not_see_is_refused(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "hana")
    state = new_game(client, "expert")["state"]
    claims: list[tuple[str, dict[str, Any]]] = [
        ("/api/games", {"difficulty": "expert", "status": "won", "points": 100}),
        (
            f"/api/games/{state['id']}/actions",
            {"action": state["legal"][0], "version": state["version"], "winner": 0},
        ),
        (f"/api/games/{state['id']}/actions", {"action": {"win": True}, "version": 0}),
    ]
    for path, body in claims:
        assert client.post(path, json=body).status_code in (400, 409, 422), (path, body)
    for path in ("/api/results", "/api/leaderboard", "/api/players/hana"):
        assert client.post(path, json={"name": "hana", "points": 100}).status_code in (404, 405)
    assert client.get("/api/session").json()["user"]["points"] == 0
    assert client.get("/api/players/hana").json()["points"] == 0
    assert client.get(f"/api/games/{state['id']}").json()["state"] == state


def test_winning_earns_points_exactly_once(database_url: str) -> None:
    rules = {"preset": "classic"}
    app = make_app(database_url, rng=__import__("random").Random(winning_seed("normal", rules)))
    client = browser(app)
    sign_up(client, "hana")
    state = new_game(client, "normal")["state"]
    assert state["ranked"] is True
    final = play_on(client, state)
    assert final["status"] == "won"
    assert final["points"] == 30
    # Replaying the winning move, or resigning afterwards, changes nothing.
    move = {"action": {"stop": True}, "version": final["version"] - 1}
    assert client.post(f"/api/games/{state['id']}/actions", json=move).status_code == 409
    assert client.post(f"/api/games/{state['id']}/resign").status_code == 409
    assert client.get("/api/session").json()["user"]["points"] == 30
    board = client.get("/api/leaderboard?sort=points").json()["rows"]
    assert [(row["name"], row["points"], row["wins"]) for row in board] == [("hana", 30, 1)]


def test_resigning_is_a_loss(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "hana")
    state = play_on(client, new_game(client, "normal")["state"], moves=2)
    body = client.post(f"/api/games/{state['id']}/resign").json()
    assert body["state"]["status"] == "resigned"
    assert body["state"]["over"] is True
    assert body["state"]["legal"] == []
    assert body["state"]["your_turn"] is False
    assert body["events"][-1] == {
        "type": "match-over",
        "totals": state["totals"],
        "winner": 1,
        "resigned": True,
    }
    move = {"action": state["legal"][0], "version": body["state"]["version"]}
    assert client.post(f"/api/games/{state['id']}/actions", json=move).status_code == 409
    profile = client.get("/api/players/hana").json()
    assert (profile["matches"], profile["resigned"], profile["points"]) == (1, 1, 0)
    assert client.get("/api/games").json()["games"] == []


def test_a_match_left_for_seven_days_counts_as_resigned(app: FastAPI, clock: Clock) -> None:
    client = browser(app)
    sign_up(client, "hana")
    state = play_on(client, new_game(client)["state"], moves=1)
    clock.advance(days=6, hours=23)
    assert client.get(f"/api/games/{state['id']}").json()["state"]["status"] == "playing"
    clock.advance(hours=2)  # reading it did not count as playing it
    app.state.services.games.sweep()  # as the server's own sweep does, each minute
    assert client.get("/api/players/hana").json()["resigned"] == 1
    after = client.get(f"/api/games/{state['id']}").json()["state"]
    assert after["status"] == "resigned"
    move = {"action": state["legal"][0], "version": state["version"]}
    assert client.post(f"/api/games/{state['id']}/actions", json=move).status_code == 409


def test_a_session_unused_for_a_month_ends(app: FastAPI, clock: Clock) -> None:
    client = browser(app)
    sign_up(client, "hana")
    clock.advance(days=29)
    assert client.get("/api/session").json()["user"]["name"] == "hana"
    clock.advance(days=31)
    assert client.get("/api/session").json()["user"] is None


def test_ended_sessions_are_forgotten_at_the_next_start(database_url: str, clock: Clock) -> None:
    app = make_app(database_url, clock)
    sign_up(browser(app), "hana")
    new_game(browser(app))  # a guest who played
    assert count(app, BrowserSession) == 2
    clock.advance(days=31)
    restarted = make_app(database_url, clock)
    assert count(restarted, BrowserSession) == 0
    assert count(restarted, User) == 1


def test_a_session_in_use_is_marked_every_few_minutes_not_every_request(
    app: FastAPI, clock: Clock
) -> None:
    client = browser(app)
    new_game(client)  # the visitor's session is stored
    updates: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE SESSIONS SET LAST_SEEN"):
            updates.append(statement)

    engine = app.state.services.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        for _ in range(3):
            new_game(client)
        assert updates == []  # marked moments ago, as each request read
        clock.advance(minutes=6)
        new_game(client)
        assert len(updates) == 1
        with app.state.services.database() as db:
            stored = db.scalars(select(BrowserSession)).one()
        assert stored.last_seen == clock.now
    finally:
        event.remove(engine, "before_cursor_execute", count)
