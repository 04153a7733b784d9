"""The HTTP API: whole matches through HTTP, refusals, and no hidden card ever sent."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from koikoi.cards import SLUGS, cards_from_slugs, ids
from koikoi.players.baseline import GreedyPlayer
from koikoi.round import action_to_json
from koikoi.rules import PRESETS, RuleSet
from koikoi.server.games import COMPUTER, GameSession
from koikoi.server.gamestore import MAX_IN_PROGRESS
from koikoi.yaku import progress
from servers import browser, make_app, stored_game


@pytest.fixture
def client(sqlite_url: str) -> TestClient:
    return browser(make_app(sqlite_url))


def session_of(client: TestClient, game_id: str) -> GameSession:
    """The game as stored (tests may look behind the curtain; browsers cannot)."""
    app: Any = client.app
    return stored_game(app, game_id)


def hidden_slugs(session: GameSession) -> set[str]:
    game = session.match.round
    hidden = game.hands[COMPUTER] | sum(1 << card for card in game.stock_left)
    return {SLUGS[card] for card in ids(hidden)}


def new_game(client: TestClient, difficulty: str, rules: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/games", json={"difficulty": difficulty, "rules": rules})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def play_through(client: TestClient, body: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play random legal moves until the match ends, checking every response."""
    rng = random.Random(seed)
    state = body["state"]
    assert_nothing_hidden(body, session_of(client, state["id"]))
    while not state["over"]:
        assert state["your_turn"], state
        action = rng.choice(state["legal"])
        response = client.post(
            f"/api/games/{state['id']}/actions",
            json={"action": action, "version": state["version"]},
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert_nothing_hidden(body, session_of(client, state["id"]))
        state = body["state"]
    final: dict[str, Any] = state
    return final


def assert_nothing_hidden(body: dict[str, Any], session: GameSession) -> None:
    """No card of the computer's hand or the stock, and not the seed, is in a response.

    Events before the response's last deal belong to a finished round: the cards they
    name were revealed by play then, and may be in the new deal's hidden cards now.
    The yaku progress names the cards a yaku needs wherever they are: it is a function
    of the two piles alone (test_a_state_says_what_each_pile_is_closest_to), so it is
    left out of the search.
    """
    events = body.get("events", [])
    deals = [index for index, event in enumerate(events) if event["type"] == "deal"]
    state = {key: value for key, value in body["state"].items() if key != "progress"}
    current = json.dumps([state, events[deals[-1] :] if deals else events])
    sent = {slug for slug in SLUGS if f'"{slug}"' in current}
    if not session.match.is_over:
        assert not sent & hidden_slugs(session)
    for event in events[: deals[-1]] if deals else []:
        assert event["type"] in ("play", "draw", "koikoi", "stop", "yaku", "round-over")
    text = json.dumps(body)
    assert str(session.match.seed) not in text
    assert "seed" not in text


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("difficulty", ["easy", "normal", "expert"])
def test_whole_matches_through_http(client: TestClient, preset: str, difficulty: str) -> None:
    rules = {"preset": preset, "rounds": 2} if preset != "single-deal" else {"preset": preset}
    body = new_game(client, difficulty, rules)
    state = play_through(client, body, seed=len(preset))
    assert state["over"]
    assert state["winner"] in (0, 1, None)
    start = PRESETS[preset].starting_points
    # Zero-sum rules (koikoi-japan) start both at their points and move each round's.
    won = [r["points"][0] - (r["points"][1] if start else 0) for r in state["results"]]
    assert start + sum(won) == state["totals"][0]
    assert len(state["results"]) <= (1 if preset == "single-deal" else 2)


def test_a_state_shows_the_table(client: TestClient) -> None:
    state = new_game(client, "normal", {"preset": "classic"})["state"]
    assert len(state["hand"]) == 8 or state["turn"] == 1
    assert state["opponent_hand"] in (7, 8)
    assert set(state["captured"][0]) == {"bright", "animal", "ribbon", "plain"}
    assert state["round"] == 1
    assert state["rounds"] == 12
    assert state["target_score"] == 50
    assert state["rules"]["goko"] == 10
    assert state["your_turn"]
    assert state["phase"] == "play"
    assert all(set(action) == {"play"} for action in state["legal"])


def test_a_state_says_what_each_pile_is_closest_to(client: TestClient) -> None:
    """Both seats' progress toward yaku, from the two piles the player sees, and
    nothing else (so it cannot tell a hidden card)."""
    body = new_game(client, "easy", {"preset": "classic"})
    seen = 0
    state = body["state"]
    rng = random.Random(3)
    while not state["over"] and seen < 12:
        response = client.post(
            f"/api/games/{state['id']}/actions",
            json={"action": rng.choice(state["legal"]), "version": state["version"]},
        )
        state = response.json()["state"]
        seen += 1
        piles = [
            cards_from_slugs([c for cards in pile.values() for c in cards])
            for pile in state["captured"]
        ]
        rules = RuleSet.from_mapping(state["rules"])
        month = (state["round"] - 1) % 12 + 1
        expected = [
            [entry.to_json() for entry in progress(piles[s], piles[1 - s], rules, month)]
            for s in (0, 1)
        ]
        assert state["progress"] == expected
    assert any(state["progress"])


def test_an_illegal_action_is_refused_and_changes_nothing(client: TestClient) -> None:
    state = new_game(client, "easy", {"preset": "classic"})["state"]
    not_in_hand = next(slug for slug in SLUGS if slug not in state["hand"])
    response = client.post(
        f"/api/games/{state['id']}/actions",
        json={"action": {"play": not_in_hand}, "version": state["version"]},
    )
    assert response.status_code == 400
    assert not_in_hand in response.json()["detail"]
    after = client.get(f"/api/games/{state['id']}").json()["state"]
    assert after == state


def test_a_malformed_action_is_refused(client: TestClient) -> None:
    state = new_game(client, "easy", {"preset": "classic"})["state"]
    response = client.post(
        f"/api/games/{state['id']}/actions",
        json={"action": {"dance": 1}, "version": state["version"]},
    )
    assert response.status_code == 400
    assert "dance" in response.json()["detail"]


def test_a_stale_action_is_refused(client: TestClient) -> None:
    state = new_game(client, "easy", {"preset": "classic"})["state"]
    response = client.post(
        f"/api/games/{state['id']}/actions",
        json={"action": state["legal"][0], "version": state["version"] - 1},
    )
    assert response.status_code == 409
    assert "reload" in response.json()["detail"]
    assert client.get(f"/api/games/{state['id']}").json()["state"]["version"] == state["version"]


def test_another_browser_cannot_see_or_play_a_game(client: TestClient) -> None:
    state = new_game(client, "easy", {"preset": "classic"})["state"]
    app: Any = client.app
    stranger = browser(app)
    assert stranger.get(f"/api/games/{state['id']}").status_code == 404
    response = stranger.post(
        f"/api/games/{state['id']}/actions",
        json={"action": state["legal"][0], "version": state["version"]},
    )
    assert response.status_code == 404


def test_bad_house_rules_name_the_key(client: TestClient) -> None:
    response = client.post("/api/games", json={"difficulty": "easy", "rules": {"gokoo": 3}})
    assert response.status_code == 422
    assert "gokoo" in response.json()["detail"]


@pytest.mark.parametrize(
    "rules",
    [
        {"hand_size": 1, "field_size": 46, "redeal_four_of_month": True},
        {"teshi": 2**31},
        {"teshi": 2**63},
        {"goko": -1},
    ],
)
def test_rules_no_game_can_use_are_refused(client: TestClient, rules: dict[str, Any]) -> None:
    response = client.post("/api/games", json={"difficulty": "easy", "rules": rules})
    assert response.status_code == 422
    assert any(key in response.json()["detail"] for key in rules)
    assert client.get("/api/games").json()["games"] == []


def test_a_player_has_a_limited_number_of_matches_in_progress(client: TestClient) -> None:
    for _ in range(MAX_IN_PROGRESS):
        new_game(client, "easy", {"preset": "classic"})
    response = client.post("/api/games", json={"difficulty": "easy"})
    assert response.status_code == 409
    assert f"{MAX_IN_PROGRESS} matches in progress" in response.json()["detail"]
    games = client.get("/api/games").json()["games"]
    assert len(games) == MAX_IN_PROGRESS
    assert client.post(f"/api/games/{games[0]['id']}/resign").status_code == 200
    new_game(client, "easy", {"preset": "classic"})


def test_an_unknown_difficulty_is_refused(client: TestClient) -> None:
    response = client.post("/api/games", json={"difficulty": "godlike"})
    assert response.status_code == 422


def test_acting_after_the_match_is_over_is_refused(client: TestClient) -> None:
    body = new_game(client, "easy", {"preset": "single-deal"})
    state = play_through(client, body, seed=3)
    response = client.post(
        f"/api/games/{state['id']}/actions",
        json={"action": {"stop": True}, "version": state["version"]},
    )
    assert response.status_code == 409


def test_events_show_the_computers_moves(client: TestClient) -> None:
    state = new_game(client, "normal", {"preset": "classic"})["state"]
    seen: list[tuple[str, int]] = []
    while ("draw", 1) not in seen:
        response = client.post(
            f"/api/games/{state['id']}/actions",
            json={"action": state["legal"][0], "version": state["version"]},
        ).json()
        seen += [(event["type"], event["seat"]) for event in response["events"] if "seat" in event]
        state = response["state"]
    # The human's play and draw come first, then the computer's play and draw.
    assert seen.index(("play", 0)) < seen.index(("draw", 0)) < seen.index(("play", 1))
    assert seen.index(("play", 1)) < seen.index(("draw", 1))


def test_house_rules_and_the_rules_catalog(client: TestClient) -> None:
    catalog = client.get("/api/rules").json()
    assert {field["key"] for field in catalog["fields"]} >= {"goko", "decision", "target_score"}
    assert catalog["presets"]["traditional"]["double_at"] == 8
    state = new_game(client, "easy", {"preset": "traditional", "rounds": 3, "goko": 12})["state"]
    assert state["rules"]["goko"] == 12
    assert state["rounds"] == 3


def test_the_openapi_schema_describes_the_api(client: TestClient) -> None:
    schema = client.get("/api/openapi.json").json()
    assert "/api/games" in schema["paths"]
    assert "/api/games/{game_id}/actions" in schema["paths"]


def test_the_session_cookie_is_signed_and_http_only(client: TestClient) -> None:
    response = TestClient(client.app).get("/api/session")
    cookie = response.headers["set-cookie"]
    assert "koikoi_session=" in cookie
    assert "httponly" in cookie.lower()
    assert "samesite=lax" in cookie.lower()


def test_card_pictures_are_served(client: TestClient) -> None:
    response = client.get("/cards/susuki-moon.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in response.text
    assert client.get("/cards/back.svg").status_code == 200
    missing = client.get("/cards/susuki-mon.svg")
    assert missing.status_code == 404
    assert "susuki-moon" in missing.json()["detail"]


def test_round_endings_say_how_the_points_were_made(client: TestClient) -> None:
    """The browser shows the server's scoring facts instead of recomputing the rules."""
    rules = {"preset": "classic", "rounds": 12, "target_score": 0, "multiplier": "opponent-called"}
    rules["double_at"] = 2
    state = new_game(client, "easy", rules)["state"]
    assert state["multiplier"] == state["opponent_multiplier"] == 1
    assert state["koikoi_multiplier"] == 1  # opponent-called: one's own call does not count
    endings = []
    calls = 0
    # The human plays greedily (from its own observation) and always calls koi-koi.
    greedy = GreedyPlayer(0)
    while not state["over"]:
        match = session_of(client, state["id"]).match
        if state["phase"] == "decision":
            assert state["stake_doubled"] == (sum(state["yaku"][0].values()) >= 2)
            action: dict[str, Any] = {"koikoi": True}
        else:
            action = action_to_json(greedy.choose(match.observation(0)))
        body = client.post(
            f"/api/games/{state['id']}/actions",
            json={"action": action, "version": state["version"]},
        ).json()
        endings += [event for event in body["events"] if event["type"] == "round-over"]
        for event in body["events"]:
            if event["type"] == "koikoi":
                calls += 1
                caller = event["seat"]
                assert event["multipliers"][1 - caller] == 2
                assert event["multipliers"][caller] == (
                    2 if body["state"]["calls"][1 - caller] else 1
                )
        state = body["state"]
    assert endings
    assert calls  # the koi-koi events above were checked
    assert any(event["scoring"] for event in endings)
    for event in endings:
        assert event["reason"] in (
            "stop",
            "final-turn",
            "no-call-allowed",
            "hand-yaku",
            "exhausted",
        )
        if event["scoring"] is not None:
            seat = event["winner"]
            scoring = event["scoring"]
            assert scoring["total"] == sum(event["yaku"][seat].values())
            factor = scoring["multiplier"] * (2 if scoring["doubled"] else 1)
            assert event["points"][seat] == scoring["total"] * factor


def test_pages_forbid_foreign_code_and_framing(client: TestClient) -> None:
    for path in ("/", "/api/session", "/static/app.js", "/cards/back.svg"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy
        assert "frame-ancestors 'none'" in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
    # The API docs page too, its one inline script (which starts Swagger UI) allowed by
    # its hash and no other (0.6.3 served it without a policy).
    docs = client.get("/api/docs").headers
    assert docs["content-security-policy"].startswith("default-src 'self';")
    assert "script-src 'self' 'sha256-" in docs["content-security-policy"]
    assert "unsafe-inline" not in docs["content-security-policy"]
    assert docs["x-frame-options"] == "DENY"
