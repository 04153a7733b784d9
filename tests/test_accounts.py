"""Accounts over HTTP, on SQLite and on PostgreSQL: every flow and every refusal."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select
from starlette.testclient import TestClient

from koikoi.server.accounts import FAILURES_PER_ADDRESS, FAILURES_PER_NAME, THROTTLE_WINDOW
from koikoi.store.models import BrowserSession, Game, User
from servers import (
    PASSWORD,
    Clock,
    browser,
    make_app,
    new_game,
    play_on,
    refresh_csrf,
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
    for name in ("花子", "مريم", "Zoë-K", "ms.ali_2"):
        assert sign_up(browser(app), name)["user"]["name"] == name


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
    }
    assert count(app, Game) == 0


def test_a_token_from_another_session_does_not_do(app: FastAPI) -> None:
    client = browser(app)
    other = browser(app)
    client.headers["X-CSRF-Token"] = other.headers["X-CSRF-Token"]
    assert client.post("/api/games", json={"difficulty": "easy"}).status_code == 403


def test_sign_in_is_throttled_per_account(app: FastAPI, clock: Clock) -> None:
    sign_up(browser(app), "hana")
    attacker = browser(app, address="10.0.0.1")
    for _ in range(FAILURES_PER_NAME):
        assert sign_in(attacker, "hana", "guess work!").status_code == 401
    # Even the right password, from anywhere, waits now.
    owner = browser(app, address="10.0.0.2")
    refused = sign_in(owner, "hana")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) == int(THROTTLE_WINDOW.total_seconds()) + 1
    assert "too many" in refused.json()["detail"]
    assert owner.get("/api/session").json()["user"] is None
    clock.advance(seconds=THROTTLE_WINDOW.total_seconds() - 1)
    assert sign_in(owner, "hana").status_code == 429
    clock.advance(seconds=2)
    assert sign_in(owner, "hana").status_code == 200


def test_sign_in_is_throttled_per_address(app: FastAPI, clock: Clock) -> None:
    attacker = browser(app, address="10.0.0.9")
    for number in range(FAILURES_PER_ADDRESS):
        assert sign_in(attacker, f"user{number}", "guess work!").status_code == 401
    sign_up(browser(app), "hana")
    assert sign_in(attacker, "hana").status_code == 429
    assert sign_in(browser(app, address="10.0.0.10"), "hana").status_code == 200
    clock.advance(minutes=16)
    assert sign_in(attacker, "hana").status_code == 200


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
    rules = {"preset": "classic", "rounds": 2}
    app = make_app(database_url, rng=__import__("random").Random(winning_seed("normal", rules)))
    client = browser(app)
    sign_up(client, "hana")
    state = new_game(client, "normal", rounds=2)["state"]
    assert state["ranked"] is True
    final = play_on(client, state)
    assert final["status"] == "won"
    assert final["points"] == 30
    # Replaying the winning move, or resigning afterwards, changes nothing.
    move = {"action": {"stop": True}, "version": final["version"] - 1}
    assert client.post(f"/api/games/{state['id']}/actions", json=move).status_code == 409
    assert client.post(f"/api/games/{state['id']}/resign").status_code == 409
    assert client.get("/api/session").json()["user"]["points"] == 30
    board = client.get("/api/leaderboard").json()["rows"]
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
    browser(app)  # a guest
    assert count(app, BrowserSession) == 2
    clock.advance(days=31)
    restarted = make_app(database_url, clock)
    assert count(restarted, BrowserSession) == 0
    assert count(restarted, User) == 1
