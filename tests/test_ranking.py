"""Leaderboards, profiles and replays of finished matches."""

from __future__ import annotations

import itertools
import random
import sqlite3
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select
from starlette.testclient import TestClient

from koikoi.server.ranked import RANKING_POINTS
from koikoi.server.ranking import BOARD_SIZE, MIN_MATCHES
from koikoi.server.rating import START, START_SIGMA, rated
from koikoi.store.models import MatchResult, Rating, User
from servers import Clock, browser, make_app, new_game, play_on, sign_up, winning_seed

_ids = itertools.count()


def finished(
    app: FastAPI,
    clock: Clock,
    name: str,
    status: str,
    *,
    difficulty: str = "normal",
    rules_name: str = "classic",
    score: int = 10,
    ranked: bool = True,
    yaku: dict[str, int] | None = None,
) -> None:
    """A finished match's result stored for ``name`` (boards and profiles read only
    results)."""
    with app.state.services.database.begin() as db:
        user = db.scalar(select(User).where(User.name == name))
        assert user is not None
        clock.advance(minutes=1)
        db.add(
            MatchResult(
                match_id=f"g{next(_ids)}",
                seat=0,
                user_id=user.id,
                opponent="computer",
                level=difficulty,
                rules_name=rules_name,
                ranked=ranked,
                status=status,
                ending="resigned" if status == "resigned" else "played",
                score=score,
                opponent_score=5,
                points=RANKING_POINTS[difficulty] if ranked and status == "won" else 0,
                yaku=yaku or {},
                finished=clock(),
            )
        )


def board(app: FastAPI, **query: str) -> dict[str, Any]:
    """A board (by points unless ``query`` says otherwise: these rows carry no rating)."""
    response = browser(app).get("/api/leaderboard", params={"sort": "points", **query})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_board_ranks_by_points_then_wins(app: FastAPI, clock: Clock) -> None:
    for name in ("aki", "ben", "chie"):
        sign_up(browser(app), name)
    finished(app, clock, "aki", "won", difficulty="expert")  # 100
    finished(app, clock, "ben", "won")  # 30
    finished(app, clock, "ben", "won")  # 60
    finished(app, clock, "chie", "won", difficulty="easy")  # 10
    finished(app, clock, "chie", "lost")
    rows = board(app)["rows"]
    assert [(row["rank"], row["name"], row["points"], row["wins"]) for row in rows] == [
        (1, "aki", 100, 1),
        (2, "ben", 60, 2),
        (3, "chie", 10, 1),
    ]
    # Level on wins, aki is ahead on points: every row has a rank of its own.
    by_wins = board(app, sort="wins")["rows"]
    assert [(row["rank"], row["name"]) for row in by_wins] == [(1, "ben"), (2, "aki"), (3, "chie")]


def test_boards_per_level_and_rule_set(app: FastAPI, clock: Clock) -> None:
    sign_up(browser(app), "aki")
    sign_up(browser(app), "ben")
    finished(app, clock, "aki", "won", difficulty="expert", rules_name="traditional")
    finished(app, clock, "ben", "won", difficulty="easy")
    # One rule set at a time, classic unless asked: never mixed.
    assert [row["name"] for row in board(app)["rows"]] == ["ben"]
    assert [row["name"] for row in board(app, difficulty="easy")["rows"]] == ["ben"]
    assert [row["name"] for row in board(app, rules="traditional")["rows"]] == ["aki"]
    assert board(app, difficulty="easy", rules="traditional")["rows"] == []
    for mixed in ("all", "house"):
        assert browser(app).get(f"/api/leaderboard?rules={mixed}").status_code == 422


def test_best_score_counts_won_matches_only(app: FastAPI, clock: Clock) -> None:
    sign_up(browser(app), "aki")
    finished(app, clock, "aki", "won", score=31)
    finished(app, clock, "aki", "lost", score=70)
    finished(app, clock, "aki", "drawn", score=50)
    (row,) = board(app, sort="best")["rows"]
    assert row["best"] == 31


def test_win_rates_need_a_minimum_of_matches(app: FastAPI, clock: Clock) -> None:
    sign_up(browser(app), "aki")
    sign_up(browser(app), "ben")
    for status in ["won"] * 3 + ["lost"] * (MIN_MATCHES - 3):
        finished(app, clock, "aki", status)
    for _ in range(MIN_MATCHES - 1):
        finished(app, clock, "ben", "won")
    everyone = {row["name"]: row for row in board(app)["rows"]}
    assert everyone["aki"]["win_rate"] == pytest.approx(3 / MIN_MATCHES)
    assert everyone["ben"]["win_rate"] is None  # unbeaten, but not enough matches yet
    by_rate = board(app, sort="win_rate")
    assert by_rate["min_matches"] == MIN_MATCHES
    assert browser(app).get("/api/players/ben").json()["min_matches"] == MIN_MATCHES
    assert [row["name"] for row in by_rate["rows"]] == ["aki"]


def test_unranked_and_unfinished_matches_stay_off_the_board(app: FastAPI, clock: Clock) -> None:
    client = browser(app)
    sign_up(client, "aki")
    finished(app, clock, "aki", "won", ranked=False)
    new_game(client)
    assert board(app)["rows"] == []
    assert client.get("/api/players/aki").json()["matches"] == 1  # the profile shows it


@pytest.mark.parametrize(
    ("query", "bad"),
    [("difficulty=godlike", "godlike"), ("rules=klassic", "klassic"), ("sort=luck", "luck")],
)
def test_bad_board_parameters_are_named(app: FastAPI, query: str, bad: str) -> None:
    response = browser(app).get(f"/api/leaderboard?{query}")
    assert response.status_code == 422
    assert bad in response.text


def test_a_profile_sums_up_a_player(app: FastAPI, clock: Clock) -> None:
    sign_up(browser(app), "aki")
    finished(app, clock, "aki", "won", difficulty="expert", yaku={"goko": 1, "tane": 2})
    finished(app, clock, "aki", "won", difficulty="easy", yaku={"tane": 1})
    finished(app, clock, "aki", "lost", difficulty="easy")
    finished(app, clock, "aki", "resigned", difficulty="normal")
    profile = browser(app).get("/api/players/AKI").json()
    assert profile["name"] == "aki"
    assert (profile["points"], profile["matches"], profile["wins"]) == (110, 4, 2)
    assert (profile["losses"], profile["resigned"], profile["draws"]) == (1, 1, 0)
    assert profile["by_difficulty"]["easy"] == {
        "matches": 2,
        "wins": 1,
        "points": 10,
        "win_rate": None,
    }
    assert profile["yaku"] == {"tane": 3, "goko": 1}
    assert list(profile["yaku"]) == ["tane", "goko"]  # most made first
    outcomes = [game["outcome"] for game in profile["history"]]
    assert outcomes == ["resigned", "lost", "won", "won"]  # newest first
    assert browser(app).get("/api/players/nobody").status_code == 404


def replay_of(app: FastAPI, game_id: str) -> dict[str, Any]:
    response = browser(app).get(f"/api/games/{game_id}/replay")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def cards_on_table(step: dict[str, Any]) -> int:
    piles = sum(len(cards) for pile in step["captured"] for cards in pile.values())
    hands = len(step["hands"][0]) + len(step["hands"][1])
    stock: int = step["stock"]
    return hands + len(step["field"]) + stock + piles


def test_a_finished_match_replays_step_by_step(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "aki")
    state = new_game(client, "normal", rounds=2)["state"]
    running = client.get(f"/api/games/{state['id']}/replay")
    assert running.status_code == 409  # no peeking at a match being played
    final = play_on(client, state)
    replay = replay_of(app, state["id"])
    steps = replay["steps"]
    assert replay["player"] == "aki"
    assert replay["outcome"] == final["status"]
    assert replay["totals"] == final["totals"] == steps[-1]["totals"]
    assert steps[0]["event"] == {"type": "deal"}
    assert all(cards_on_table(step) == 48 for step in steps)
    endings = [step["event"] for step in steps if step["event"]["type"] == "round-over"]
    assert [ending["points"] for ending in endings] == [r["points"] for r in final["results"]]
    deals = [step for step in steps if step["event"]["type"] == "deal"]
    assert [step["round"] for step in deals] == list(range(1, len(deals) + 1))
    # A play moves its card out of that hand and no other card.
    for before, after in itertools.pairwise(steps):
        event = after["event"]
        if event["type"] == "play":
            seat = event["seat"]
            assert set(before["hands"][seat]) - set(after["hands"][seat]) == {event["card"]}


def test_a_zero_sum_match_replays_from_its_starting_points(app: FastAPI) -> None:
    client = browser(app)
    state = new_game(client, "normal", preset="koikoi-japan", rounds=3)["state"]
    final = play_on(client, state)
    steps = replay_of(app, state["id"])["steps"]
    assert steps[0]["totals"] == [30, 30]
    assert steps[-1]["totals"] == final["totals"]
    for step in steps:
        assert sum(step["totals"]) == 60  # every round's points move from one to the other


def test_a_resigned_match_replays_up_to_the_resignation(app: FastAPI) -> None:
    client = browser(app)
    state = play_on(client, new_game(client, "easy")["state"], moves=3)
    client.post(f"/api/games/{state['id']}/resign")
    replay = replay_of(app, state["id"])
    assert replay["player"] is None  # a guest's match
    assert replay["steps"][-1]["event"] == {"type": "resign", "seat": 0}
    assert replay["outcome"] == "resigned"
    assert browser(app).get("/api/games/nothing-here/replay").status_code == 404


def test_an_abandoned_match_counts_on_the_board(app: FastAPI, clock: Clock) -> None:
    client = browser(app)
    sign_up(client, "aki")
    new_game(client)
    assert board(app)["rows"] == []
    clock.advance(days=7, seconds=1)
    app.state.services.games.sweep()  # as the server's own sweep does, each minute
    (row,) = board(app)["rows"]
    assert (row["name"], row["matches"], row["wins"]) == ("aki", 1, 0)


# The exploit found by trying: a ranked match won the moment it was created.
INSTANT_WIN = {
    "first_dealer": "seat-0",
    "hand_size": 20,
    "field_size": 8,
    "teshi": 1,
    "kuttsuki": 1,
    "both_hand_yaku": "dealer",
    "rounds": 1,
}


@pytest.mark.parametrize(
    "rules",
    [INSTANT_WIN, {"rounds": 1}, {"tsukimi": 0}, {"preset": "single-deal", "goko": 12}],
    ids=["instant-win", "shortened", "house", "single-deal-house"],
)
def test_only_a_preset_as_it_stands_is_ranked(app: FastAPI, rules: dict[str, Any]) -> None:
    client = browser(app)
    sign_up(client, "aki")
    response = client.post(
        "/api/games", json={"difficulty": "expert", "rules": {"preset": "classic", **rules}}
    )
    assert response.status_code == 201, response.text
    state = play_on(client, response.json()["state"])
    assert state["ranked"] is False
    assert state["points"] == 0
    assert client.get("/api/session").json()["user"]["points"] == 0
    assert client.get("/api/players/aki").json()["points"] == 0
    assert board(app)["rows"] == []


@pytest.mark.parametrize("preset", ["classic", "ten-card", "single-deal", "traditional"])
def test_a_whole_preset_match_is_ranked(app: FastAPI, preset: str) -> None:
    client = browser(app)
    sign_up(client, "aki")
    assert new_game(client, "easy", preset=preset)["state"]["ranked"] is True


@pytest.mark.parametrize(
    "path",
    [
        "/api/players/a%00b",
        "/api/games/a%00b",
        "/api/games/a%00b/replay",
        "/api/players/" + "x" * 300,
        "/api/games/" + "x" * 300,
    ],
)
def test_ids_no_row_can_have_are_refused_plainly(app: FastAPI, path: str) -> None:
    client = browser(app)
    assert client.get(path).status_code in (404, 422)
    for action in ("actions", "resign"):
        if path.startswith("/api/games/") and path.count("/") == 3:
            response = client.post(f"{path}/{action}", json={"action": {}, "version": 0})
            assert response.status_code in (404, 422)


def test_reads_never_wait_for_a_writer(sqlite_url: str, clock: Clock) -> None:
    """A held write lock (a backup, a long migration, a stuck writer) leaves every read
    answering at once."""
    app = make_app(sqlite_url, clock)
    client = browser(app)
    sign_up(client, "aki")
    state = new_game(client)["state"]
    finished_match = play_on(client, new_game(client)["state"])
    clock.advance(days=8)  # the first match is abandoned now, and nothing stored it so
    app.state.services.engine.dispose()
    holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), timeout=0)
    holder.execute("BEGIN IMMEDIATE")
    try:
        reads = [
            "/api/session",
            "/api/leaderboard",
            "/api/players/aki",
            f"/api/games/{state['id']}",
            f"/api/games/{finished_match['id']}/replay",
            "/api/games",
            "/",
        ]
        for path in reads:
            assert client.get(path).status_code == 200, path
        assert TestClient(app).get("/api/session").status_code == 200  # a new visitor
        assert client.get(f"/api/games/{state['id']}").json()["state"]["status"] == "resigned"
    finally:
        holder.rollback()
        holder.close()


# -- ratings -------------------------------------------------------------------------------


def start(client: TestClient, difficulty: str = "easy", **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"difficulty": difficulty, **body})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()["state"]
    return state


def ratings(client: TestClient, name: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/players/{name}").json()["ratings"]
    return found


def test_a_ranked_match_moves_the_rating_once(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "aki")
    state = start(client, "normal")
    assert state["ranked"] is True
    assert client.post(f"/api/games/{state['id']}/resign").status_code == 200
    assert client.post(f"/api/games/{state['id']}/resign").status_code == 409
    after, sigma = rated(START, START_SIGMA, "normal", 0.0)
    (classic,) = ratings(client, "aki").values()
    assert (classic["rating"], classic["sigma"], classic["matches"]) == (
        round(after),
        round(sigma),
        1,
    )
    assert classic["settled"] is False
    assert [point["rating"] for point in classic["history"]] == [round(after)]
    (match,) = client.get("/api/players/aki").json()["history"]
    assert match["rating"] == round(after)


def test_friendly_matches_leave_the_rating_alone(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "aki")
    friendly = start(client, ranked=False)
    house = start(client, rules={"preset": "classic", "tsukimi": 0})
    for state in (friendly, house):
        assert state["ranked"] is False
        client.post(f"/api/games/{state['id']}/resign")
    assert ratings(client, "aki") == {}
    history = client.get("/api/players/aki").json()["history"]
    assert [match["rating"] for match in history] == [None, None]


def test_ranked_is_refused_where_it_cannot_be(app: FastAPI) -> None:
    guest = browser(app)
    refused = guest.post("/api/games", json={"difficulty": "easy", "ranked": True})
    assert refused.status_code == 403  # as at a table: signing in is what it takes
    assert "sign in" in refused.json()["detail"]
    client = browser(app)
    sign_up(client, "aki")
    body = {"difficulty": "easy", "ranked": True, "rules": {"preset": "classic", "rounds": 6}}
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 422
    assert "'house'" in refused.json()["detail"]
    assert client.get("/api/games").json()["games"] == []


def test_a_single_deal_match_moves_the_rating_and_earns_no_points(app: FastAPI) -> None:
    client = browser(app)
    sign_up(client, "aki")
    final = play_on(client, start(client, "easy", rules={"preset": "single-deal"}))
    assert final["ranked"] is True
    assert final["points"] == 0
    assert client.get("/api/session").json()["user"]["points"] == 0
    assert ratings(client, "aki")["single-deal"]["matches"] == 1
    assert board(app, rules="single-deal")["rows"][0]["points"] == 0


def test_an_abandoned_ranked_match_is_rated_as_a_loss(app: FastAPI, clock: Clock) -> None:
    client = browser(app)
    sign_up(client, "aki")
    start(client, "expert")
    clock.advance(days=7, seconds=1)
    assert ratings(client, "aki") == {}  # reading stores nothing...
    start(client)  # ...the next change stores it, rated
    (classic,) = ratings(client, "aki").values()
    assert classic["rating"] == round(rated(START, START_SIGMA, "expert", 0.0)[0])


def settle(app: FastAPI, name: str, mu: float, sigma: float, rules_name: str = "classic") -> None:
    """Give ``name`` a rating as if earned (tests may look behind the curtain)."""
    with app.state.services.database.begin() as db:
        user = db.scalar(select(User).where(User.name == name))
        assert user is not None
        db.add(Rating(user_id=user.id, rules_name=rules_name, mu=mu, sigma=sigma, matches=20))


def test_beating_easy_moves_a_good_players_rating_less_than_beating_expert(
    database_url: str,
) -> None:
    """Over HTTP, two players of the same settled rating each win a whole classic
    match: against easy it was expected, against expert it was not."""
    gains = {}
    for difficulty in ("easy", "expert"):
        seed = winning_seed(difficulty, {"preset": "classic"})
        app = make_app(database_url, rng=random.Random(seed))
        client = browser(app)
        sign_up(client, f"p{difficulty}")
        settle(app, f"p{difficulty}", 1740.0, 60.0)
        final = play_on(client, start(client, difficulty))
        assert final["status"] == "won"
        gains[difficulty] = ratings(client, f"p{difficulty}")["classic"]["rating"] - 1740
    assert 0 < gains["easy"] < gains["expert"] / 2


def test_wins_against_easy_add_up_slowly_and_a_loss_costs_more() -> None:
    """The model behind the boards: a good player gains little from beating easy again
    and again, and a loss to easy costs more than many such wins bring."""
    mu, sigma = 1800.0, 60.0
    series = [mu]
    for _ in range(10):
        mu, sigma = rated(mu, sigma, "easy", 1.0)
        series.append(mu)
    steps = [after - before for before, after in itertools.pairwise(series)]
    assert all(0 < step < 8 for step in steps)
    assert steps == sorted(steps, reverse=True)  # each win is worth less than the last
    one_expert_win = rated(1800.0, 60.0, "expert", 1.0)[0] - 1800.0
    assert steps[0] < one_expert_win / 2
    loss = 1800.0 - rated(1800.0, 60.0, "easy", 0.0)[0]
    assert loss > 5 * steps[0]
    # All along a long series from a new player's rating, each win against easy is
    # worth less than a win against expert from that same rating would be.
    mu, sigma = START, START_SIGMA
    for _ in range(30):
        easy, expert = rated(mu, sigma, "easy", 1.0), rated(mu, sigma, "expert", 1.0)
        assert easy[0] - mu < expert[0] - mu
        mu, sigma = easy


def test_a_board_by_rating_ranks_every_rating_marking_provisional_ones(
    app: FastAPI, clock: Clock
) -> None:
    for name, mu, sigma in (("ben", 1700, 80), ("aki", 1700, 80), ("chie", 1800, 300)):
        sign_up(browser(app), name)
        finished(app, clock, name, "won", difficulty="easy")
        settle(app, name, mu, sigma)
    by_rating = board(app, sort="rating")
    # Level on everything, aki and ben are ordered by name; chie is not settled yet,
    # and stands by her rating all the same, marked as provisional.
    rows = [(row["rank"], row["name"], row["rating"], row["settled"]) for row in by_rating["rows"]]
    assert rows == [(1, "chie", 1800, False), (2, "aki", 1700, True), (3, "ben", 1700, True)]
    assert by_rating["computer_ratings"] == {"easy": 1500, "normal": 1600, "expert": 1770}
    by_points = board(app)["rows"]
    assert [(row["name"], row["settled"]) for row in by_points] == [
        ("chie", False),
        ("aki", True),
        ("ben", True),
    ]
    assert browser(app).get("/api/leaderboard").json()["sort"] == "rating"  # the default


def test_a_player_sees_their_own_rank_off_the_first_page(app: FastAPI, clock: Clock) -> None:
    names = [f"p{number:02}" for number in range(BOARD_SIZE + 3)]
    clients = {name: browser(app) for name in names}
    for position, name in enumerate(names):
        sign_up(clients[name], name)
        finished(app, clock, name, "won")
        settle(app, name, 2000.0 - position, 80.0)
    last = names[-1]
    page = clients[last].get("/api/leaderboard").json()
    assert len(page["rows"]) == BOARD_SIZE
    assert page["more"] is True
    assert last not in [row["name"] for row in page["rows"]]
    assert page["you"]["name"] == last
    assert page["you"]["rank"] == len(names)
    second = clients[last].get("/api/leaderboard", params={"offset": BOARD_SIZE}).json()
    assert [row["rank"] for row in second["rows"]] == [
        BOARD_SIZE + 1,
        BOARD_SIZE + 2,
        BOARD_SIZE + 3,
    ]
    assert second["more"] is False
    assert clients[names[0]].get("/api/leaderboard").json()["you"]["rank"] == 1
    assert browser(app).get("/api/leaderboard").json()["you"] is None  # a guest
