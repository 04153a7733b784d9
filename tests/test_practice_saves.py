"""Practice matches played on the device, saved to the player's history: the server
replays each record and stores only what replays, once, as a friendly match."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select
from starlette.testclient import TestClient

from koikoi.match import Match
from koikoi.players import make_player
from koikoi.record import Record
from koikoi.round import action_to_json
from koikoi.rules import RuleSet
from koikoi.server.gamestore import PRACTICE_SAVES_PER_MINUTE
from koikoi.store.models import Game, MatchResult, Rating
from servers import Clock, browser, refresh_csrf, sign_up

SINGLE = {"preset": "single-deal"}


def played(rules: dict[str, Any], seed: int, *, stop_after: int | None = None) -> Match:
    """A match from ``seed`` between two computer players, as the device records one
    (to its end, or ``stop_after`` actions)."""
    match = Match(RuleSet.from_mapping(rules), seed)
    seats = [make_player("greedy", seed), make_player("easy", seed + 1)]
    while not match.is_over and (stop_after is None or len(match.actions) < stop_after):
        match.apply(seats[match.turn].choose(match.observation(match.turn)))
    return match


def practice_body(match: Match, difficulty: str = "easy", **extra: Any) -> dict[str, Any]:
    record = Record.from_match(match).to_json()
    return {**record, "difficulty": difficulty, **extra}


def outcome_of(match: Match) -> str:
    return {0: "won", 1: "lost", None: "drawn"}[match.winner]


def signed_up(app: FastAPI, name: str = "ayumi") -> TestClient:
    client = browser(app)
    sign_up(client, name)
    return client


def stored_games(app: FastAPI) -> int:
    with app.state.services.database() as db:
        return int(db.scalar(select(func.count()).select_from(Game)) or 0)


def test_a_practice_match_is_saved_to_the_history_unranked(app: FastAPI) -> None:
    client = signed_up(app)
    match = played(SINGLE, 7)
    response = client.post("/api/games/practice", json=practice_body(match, "normal"))
    assert response.status_code == 201, response.text
    game_id = response.json()["id"]
    assert response.json()["saved"] is True

    profile = client.get("/api/players/ayumi").json()
    assert profile["points"] == 0
    assert profile["ratings"] == {}
    [line] = profile["history"]
    assert line["id"] == game_id
    assert line["outcome"] == outcome_of(match)
    assert line["ranked"] is False
    assert line["points"] == 0
    assert line["rating"] is None
    assert line["difficulty"] == "normal"
    assert line["rules_name"] == "single-deal"
    assert line["totals"] == list(match.totals)
    assert client.get("/api/session").json()["user"]["points"] == 0

    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert replay["player"] == "ayumi"
    assert replay["outcome"] == outcome_of(match)
    assert replay["totals"] == list(match.totals)
    assert replay["steps"][0]["event"]["type"] == "deal"
    with app.state.services.database() as db:
        assert db.scalar(select(func.count()).select_from(Rating)) == 0
        row = db.get(Game, game_id)
        assert row is not None
        assert row.ranked is False
        result = db.scalars(select(MatchResult).where(MatchResult.match_id == game_id)).one()
        assert (result.opponent, result.ranked, result.points) == ("practice", False, 0)
        assert result.rating_after is None
        assert row.actions == [action_to_json(action) for action in match.actions]
    # Not a match in progress anywhere.
    assert client.get("/api/games").json()["games"] == []


def test_a_won_classic_practice_match_earns_nothing(app: FastAPI) -> None:
    client = signed_up(app)
    match = next(m for m in (played({"preset": "classic"}, s) for s in range(40)) if m.winner == 0)
    response = client.post("/api/games/practice", json=practice_body(match, "expert"))
    assert response.status_code == 201, response.text
    profile = client.get("/api/players/ayumi").json()
    assert profile["by_opponent"]["practice"]["wins"] == 1  # on its own line...
    assert profile["wins"] == profile["matches"] == 0  # ...and in no headline figure
    assert profile["points"] == 0
    assert profile["by_difficulty"]["expert"]["matches"] == 0
    assert profile["history"][0]["outcome"] == "won"
    assert profile["history"][0]["opponent"] == "practice"
    board = client.get("/api/leaderboard", params={"rules": "classic"}).json()
    assert all(row["name"] != "ayumi" for row in board["rows"])
    assert board["you"] is None


def test_the_same_record_saved_twice_is_stored_once(app: FastAPI) -> None:
    client = signed_up(app)
    body = practice_body(played(SINGLE, 11))
    first = client.post("/api/games/practice", json=body)
    again = client.post("/api/games/practice", json=body)
    assert first.status_code == 201
    assert again.status_code == 200, again.text
    assert again.json() == {"id": first.json()["id"], "saved": False}
    assert stored_games(app) == 1
    assert len(client.get("/api/players/ayumi").json()["history"]) == 1
    # The rules written out in full are the same record.
    full = {**body, "rules": RuleSet.from_mapping(SINGLE).to_mapping()}
    assert client.post("/api/games/practice", json=full).json()["id"] == first.json()["id"]
    # Another player's copy of it is their own game.
    other = signed_up(app, "botan")
    assert other.post("/api/games/practice", json=body).status_code == 201
    assert stored_games(app) == 2


def test_an_illegal_action_is_refused_by_its_index(app: FastAPI) -> None:
    client = signed_up(app)
    match = played(SINGLE, 3)
    body = practice_body(match)
    body.pop("result")
    actions = list(body["actions"])
    index = next(i for i, a in enumerate(actions) if "play" in a and i > 0)
    first_card = next(a["play"] for a in actions if "play" in a)
    # A card already played can never be played again.
    actions[index] = {"play": first_card}
    response = client.post("/api/games/practice", json={**body, "actions": actions})
    assert response.status_code == 422
    assert f"action {index}" in response.json()["detail"]
    assert stored_games(app) == 0


def test_a_malformed_action_is_refused_by_its_index(app: FastAPI) -> None:
    client = signed_up(app)
    body = practice_body(played(SINGLE, 3))
    body["actions"][2] = {"throw": "the table"}
    response = client.post("/api/games/practice", json=body)
    assert response.status_code == 422
    assert "action 2" in response.json()["detail"]
    assert stored_games(app) == 0


def test_an_unfinished_match_is_refused(app: FastAPI) -> None:
    client = signed_up(app)
    match = played({"preset": "classic"}, 5, stop_after=10)
    assert not match.is_over
    body = practice_body(match)
    body.pop("result")
    response = client.post("/api/games/practice", json=body)
    assert response.status_code == 422
    assert "before the match is over" in response.json()["detail"]
    assert stored_games(app) == 0


def test_a_resigned_match_is_saved_as_resigned(app: FastAPI) -> None:
    client = signed_up(app)
    match = played({"preset": "classic"}, 5, stop_after=10)
    body = practice_body(match, resigned=True)
    body.pop("result")
    response = client.post("/api/games/practice", json=body)
    assert response.status_code == 201, response.text
    [line] = client.get("/api/players/ayumi").json()["history"]
    assert line["outcome"] == "resigned"
    replay = client.get(f"/api/games/{line['id']}/replay").json()
    assert replay["steps"][-1]["event"] == {"type": "resign", "seat": 0}
    # A finished match cannot have been given up.
    finished = practice_body(played(SINGLE, 7), resigned=True)
    refused = client.post("/api/games/practice", json=finished)
    assert refused.status_code == 422
    assert "resigned" in refused.json()["detail"]


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"rules": {"preset": "classic", "tsukimi": "often"}}, "rules"),
        ({"rules": {"preset": "no-such-preset"}}, "preset"),
        ({"seed": -1}, "seed"),
        ({"seed": "12"}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"actions": "all of them"}, "actions"),
        ({"version": 2}, "version"),
        ({"result": {"rounds": [], "totals": [0, 0], "winner": None}}, "result"),
        ({"dealer": 0}, "given deal"),
    ],
)
def test_a_record_that_does_not_replay_is_refused_by_name(
    app: FastAPI, change: dict[str, Any], named: str
) -> None:
    client = signed_up(app)
    body = {**practice_body(played(SINGLE, 9)), **change}
    response = client.post("/api/games/practice", json=body)
    assert response.status_code == 422, response.text
    assert named in str(response.json()["detail"])
    assert stored_games(app) == 0


def test_a_record_without_a_seed_is_refused(app: FastAPI) -> None:
    client = signed_up(app)
    body = practice_body(played(SINGLE, 9))
    del body["seed"]
    response = client.post("/api/games/practice", json=body)
    assert response.status_code == 422
    assert "seed" in response.json()["detail"]


def test_a_guest_cannot_save(app: FastAPI) -> None:
    guest = browser(app)
    response = guest.post("/api/games/practice", json=practice_body(played(SINGLE, 7)))
    assert response.status_code == 401
    assert stored_games(app) == 0


def test_a_save_needs_the_csrf_token(app: FastAPI) -> None:
    client = signed_up(app)
    del client.headers["X-CSRF-Token"]
    response = client.post("/api/games/practice", json=practice_body(played(SINGLE, 7)))
    assert response.status_code == 403
    assert stored_games(app) == 0
    refresh_csrf(client)
    assert client.post("/api/games/practice", json=practice_body(played(SINGLE, 7))).is_success


def test_ranked_is_refused_and_unknown_fields_too(app: FastAPI) -> None:
    client = signed_up(app)
    body = practice_body(played(SINGLE, 7))
    ranked = client.post("/api/games/practice", json={**body, "ranked": True})
    assert ranked.status_code == 422
    assert "never ranked" in ranked.json()["detail"]
    points = client.post("/api/games/practice", json={**body, "points": 100})
    assert points.status_code == 422
    level = client.post("/api/games/practice", json={**body, "difficulty": "grandmaster"})
    assert level.status_code == 422
    assert stored_games(app) == 0
    unranked = client.post("/api/games/practice", json={**body, "ranked": False})
    assert unranked.status_code == 201


def test_saves_per_minute_are_capped(app: FastAPI, clock: Clock) -> None:
    client = signed_up(app)
    bodies = [practice_body(played(SINGLE, seed)) for seed in range(PRACTICE_SAVES_PER_MINUTE + 1)]
    for body in bodies[:-1]:
        assert client.post("/api/games/practice", json=body).status_code == 201
    refused = client.post("/api/games/practice", json=bodies[-1])
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "60"
    # One already saved still answers.
    assert client.post("/api/games/practice", json=bodies[0]).status_code == 200
    clock.advance(minutes=1, seconds=1)
    assert client.post("/api/games/practice", json=bodies[-1]).status_code == 201


def test_practice_records_claim_no_headline_wins(app: FastAPI) -> None:
    """0.6.3's finding: greedy-against-random records saved as "expert" made a profile
    show 26 wins against the expert. The server replays a record but cannot know who
    played seat 1, so practice results stand apart from the headline figures."""
    client = signed_up(app)
    matches = [played(SINGLE, seed) for seed in range(12)]
    bodies = [practice_body(match, "expert") for match in matches]
    won = sum(match.winner == 0 for match in matches)
    for body in bodies:
        assert client.post("/api/games/practice", json=body).status_code == 201
    profile = client.get("/api/players/ayumi").json()
    assert (profile["matches"], profile["wins"], profile["win_rate"]) == (0, 0, None)
    assert profile["by_difficulty"]["expert"] == {
        "matches": 0,
        "wins": 0,
        "points": 0,
        "win_rate": None,
    }
    assert profile["yaku"] == {}
    practice = profile["by_opponent"]["practice"]
    assert (practice["matches"], practice["wins"]) == (len(bodies), won)
    assert won > 0
    assert len(profile["history"]) == len(bodies)
