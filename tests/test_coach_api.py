"""The coach over HTTP: hints in practice matches only, reviews of finished ones."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from starlette.testclient import TestClient

from koikoi.cards import SLUGS, ids
from koikoi.record import Record
from koikoi.server import gamestore
from koikoi.server.games import COMPUTER
from koikoi.server.results import Status
from koikoi.server.thinking import COACH_WAITING, CoachBusy, Thinking
from koikoi.server.throttle import HINTS, REVIEWS
from koikoi.store.models import Review, TableReview
from servers import Clock, browser, make_app, new_game, plain_move, play_on, sign_up, stored_game
from test_coach import choices_of
from test_tables import move, mover, seated_pair

T = TypeVar("T")


@pytest.fixture
def client(database_url: str) -> TestClient:
    return browser(make_app(database_url))


def hidden(client: TestClient, game_id: str) -> set[str]:
    app: Any = client.app
    game = stored_game(app, game_id).match.round
    cards = game.hands[COMPUTER] | sum(1 << card for card in game.stock_left)
    return {SLUGS[card] for card in ids(cards)}


def hint(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/games/{state['id']}/hint")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    # Nothing the player cannot see: no card of the computer's hand or of the stock.
    sent = json.dumps(body)
    assert not {slug for slug in hidden(client, state["id"]) if f'"{slug}"' in sent}
    return body


def test_a_practice_match_gets_hints_and_risk_meters(client: TestClient) -> None:
    state = new_game(client, "normal")["state"]
    assert not state["ranked"]
    decisions = 0
    while state["status"] == Status.PLAYING and decisions < 2:
        body = hint(client, state)
        assert body["version"] == state["version"]
        assert body["hint"]["best"] in state["legal"]
        if {"stop": True} in state["legal"]:
            decisions += 1
            meter = body["risk"]
            assert meter is not None
            assert 0 <= meter["next_turn"] <= meter["before_end"] <= 1
            assert meter["stop_points"] > 0
        else:
            assert body["risk"] is None
        # Asked again: the same hint (it is seeded by the position, not by the clock).
        assert hint(client, state) == body
        response = client.post(
            f"/api/games/{state['id']}/actions",
            json={"action": plain_move(state), "version": state["version"]},
        )
        state = response.json()["state"]
    assert decisions, "no stop-or-koi-koi decision in the match"


def test_no_hints_in_a_ranked_match(client: TestClient) -> None:
    sign_up(client, "ranked-player")
    state = new_game(client, "normal")["state"]
    assert state["ranked"]
    response = client.get(f"/api/games/{state['id']}/hint")
    assert response.status_code == 403
    assert "ranked" in response.json()["detail"]


def test_hints_only_for_the_players_own_move_in_their_own_match(client: TestClient) -> None:
    state = new_game(client, "easy")["state"]
    app: Any = client.app
    stranger = browser(app, "203.0.113.9")
    assert stranger.get(f"/api/games/{state['id']}/hint").status_code == 404
    assert client.get("/api/games/no-such-game/hint").status_code == 404
    over = play_on(client, state)
    response = client.get(f"/api/games/{over['id']}/hint")
    assert response.status_code == 409
    assert "over" in response.json()["detail"]


def test_a_finished_match_is_reviewed_once_and_kept(client: TestClient) -> None:
    state = new_game(client, "normal")["state"]
    response = client.get(f"/api/games/{state['id']}/review")
    assert response.status_code == 409
    state = play_on(client, state)
    first = client.get(f"/api/games/{state['id']}/review")
    assert first.status_code == 200, first.text
    review = first.json()
    assert review["seat"] == 0
    assert review["decisions"]
    counts = review["counts"]
    assert sum(counts.values()) == len(review["decisions"])
    # Each decision finds the replay step it was made at: the last one before its
    # action (a choice between two field cards comes after a play that showed nothing).
    steps = client.get(f"/api/games/{state['id']}/replay").json()["steps"]
    for decision in review["decisions"]:
        shown = [step for step in steps if step["actions"] <= decision["index"]][-1]
        assert shown["round"] == decision["round"]
    app: Any = client.app
    with app.state.services.database() as db:
        kept = db.get(Review, (state["id"], review["coach"]))
        assert kept is not None
        assert kept.data == review
    # Public, like the replay; the second answer is the one kept.
    assert browser(app, "198.51.100.4").get(f"/api/games/{state['id']}/review").json() == review
    assert client.get("/api/games/no-such-game/review").status_code == 404


def test_a_finished_match_between_people_is_reviewed_for_each_seat(app: Any) -> None:
    host, friend, table_id = seated_pair(app)
    assert host.get(f"/api/tables/{table_id}/review?seat=0").status_code == 409
    for _ in range(12):
        client, state = mover(host, friend, table_id)
        move(client, table_id, state)
    friend.post(f"/api/tables/{table_id}/resign")
    table = app.state.services.tables.load(table_id)
    record = Record(table.rules, tuple(table.actions), seed=table.seed)
    for seat in (0, 1):
        response = browser(app).get(f"/api/tables/{table_id}/review?seat={seat}")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["seat"] == seat
        assert [d["index"] for d in body["decisions"]] == choices_of(record, seat)
        assert browser(app).get(f"/api/tables/{table_id}/review?seat={seat}").json() == body
    with app.state.services.database() as db:
        assert db.get(TableReview, (table_id, 1, body["coach"])) is not None
    assert host.get(f"/api/tables/{table_id}/review?seat=2").status_code == 422
    assert host.get(f"/api/tables/{table_id}/review").status_code == 422
    assert host.get("/api/tables/no-such-table/review?seat=0").status_code == 404


# -- the coach below the moves (#36 finding 2: 40 hint loops made others' expert moves
# -- take 28 to 48 s; eight first requests for one review each made it) ------------------


class CountedThinking(Thinking):
    """The server's thinking, in the request, counting the coach's jobs it runs."""

    def __init__(self) -> None:
        super().__init__(inline=True)
        self.coached = 0
        self._count = threading.Lock()

    def coach(self, function: Callable[..., T], *arguments: Any) -> T:
        with self._count:
            self.coached += 1
        return super().coach(function, *arguments)


def test_the_same_positions_hint_is_worked_out_once(database_url: str) -> None:
    thinking = CountedThinking()
    client = browser(make_app(database_url, thinking=thinking))
    state = new_game(client, "normal")["state"]
    first = client.get(f"/api/games/{state['id']}/hint").json()
    for _ in range(5):
        assert client.get(f"/api/games/{state['id']}/hint").json() == first
    assert thinking.coached == 1


def test_a_browser_past_its_hint_budget_waits(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(The budget made small, to reach it in a few moves: HINTS.limit a minute.)"""
    monkeypatch.setattr(gamestore, "HINTS", dataclasses.replace(HINTS, limit=3))
    clock = Clock()
    client = browser(make_app(database_url, clock))
    state = new_game(client, "normal")["state"]
    for _ in range(3):
        assert client.get(f"/api/games/{state['id']}/hint").status_code == 200
        state = client.post(
            f"/api/games/{state['id']}/actions",
            json={"action": plain_move(state), "version": state["version"]},
        ).json()["state"]
    refused = client.get(f"/api/games/{state['id']}/hint")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert "for one browser" in refused.json()["detail"]
    clock.advance(minutes=1, seconds=1)
    assert client.get(f"/api/games/{state['id']}/hint").status_code == 200


def test_a_full_coach_lane_answers_503_and_never_takes_a_moves_worker() -> None:
    """A pool of two: the coach runs one job at a time (the other worker is the moves'),
    COACH_WAITING more wait, and one more is refused at once, not queued."""
    thinking = Thinking(2)
    assert thinking.processes == 2
    inline = Thinking(inline=True)  # the lane's counting, without starting processes
    release = threading.Event()
    with ThreadPoolExecutor(COACH_WAITING + 1) as pool:
        busy = [pool.submit(inline.coach, release.wait) for _ in range(COACH_WAITING + 1)]
        time.sleep(0.2)  # all of them in the lane: one running, the rest waiting
        with pytest.raises(CoachBusy) as refused:
            inline.coach(release.wait)
        release.set()
        assert all(job.result() for job in busy)
    assert refused.value.status == 503
    assert refused.value.retry_after == 5
    thinking.close()


def test_eight_at_once_asking_for_a_new_review_make_it_once(database_url: str) -> None:
    thinking = CountedThinking()
    app = make_app(database_url, thinking=thinking)
    client = browser(app)
    state = new_game(client, "easy")["state"]
    game_id = state["id"]
    client.post(f"/api/games/{game_id}/resign")
    start = threading.Barrier(8)

    def ask(_: int) -> Any:
        start.wait()
        return browser(app).get(f"/api/games/{game_id}/review")

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(ask, range(8)))
    assert [answer.status_code for answer in answers] == [200] * 8
    assert len({json.dumps(answer.json(), sort_keys=True) for answer in answers}) == 1
    assert thinking.coached == 1


def test_reviews_not_made_yet_are_counted_per_address(database_url: str) -> None:
    app = make_app(database_url)
    player = browser(app)
    finished = []
    for _ in range(REVIEWS.limit + 1):
        state = new_game(player, "easy")["state"]
        player.post(f"/api/games/{state['id']}/resign")
        finished.append(state["id"])
    asker = browser(app, address="198.51.100.77")
    for game_id in finished[:-1]:
        assert asker.get(f"/api/games/{game_id}/review").status_code == 200
    refused = asker.get(f"/api/games/{finished[-1]}/review")
    assert refused.status_code == 429
    assert "Retry-After" in refused.headers
    # A review made already is read back for anyone, and counts for nothing.
    assert asker.get(f"/api/games/{finished[0]}/review").status_code == 200
    assert browser(app).get(f"/api/games/{finished[-1]}/review").status_code == 200
