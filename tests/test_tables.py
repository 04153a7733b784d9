"""Tables between two people over the API: seats, turns, the clock, resign, rematch,
the quick-match queue, and what each seat's WebSocket hears."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import delete, event, select
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from koikoi.cards import SLUGS
from koikoi.match import Match
from koikoi.round import action_from_json
from koikoi.rules import PRESETS
from koikoi.server import tables as tables_module
from koikoi.server.live import Broker
from koikoi.server.ranked import MIN_ACTIONS
from koikoi.server.tables import MAX_TIMEOUTS, MOVE_SECONDS, PLAYING
from koikoi.server.tablestore import TableStore
from koikoi.server.throttle import CODE_MISSES
from koikoi.store.models import BrowserSession, Rating, User
from servers import PASSWORD, Clock, browser, make_app, refresh_csrf, sign_up


def open_table(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()["state"]
    return state


def seated_pair(app: FastAPI, **body: Any) -> tuple[TestClient, TestClient, str]:
    """Two browsers at one table, the match begun."""
    host, friend = browser(app), browser(app)
    table = open_table(host, **body)
    response = friend.post(f"/api/tables/{table['id']}/seat")
    assert response.status_code == 200, response.text
    return host, friend, table["id"]


def state_of(client: TestClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()["state"]
    return state


def mover(host: TestClient, friend: TestClient, table_id: str) -> tuple[TestClient, dict[str, Any]]:
    """The browser whose turn it is, and its state."""
    for client in (host, friend):
        state = state_of(client, table_id)
        if state["your_turn"]:
            return client, state
    raise AssertionError("nobody is to move")


def move(client: TestClient, table_id: str, state: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": state["legal"][0], "version": state["version"]},
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def play_actions(host: TestClient, friend: TestClient, table_id: str, each: int) -> bool:
    """Play on until both seats have made ``each`` actions; whether the match goes on
    (a big enough round can end it sooner)."""
    made = {id(host): 0, id(friend): 0}
    while min(made.values()) < each:
        client, state = mover(host, friend, table_id)
        if move(client, table_id, state)["state"]["status"] != "playing":
            return False
        made[id(client)] += 1
    return True


def hidden_cards(app: FastAPI, table_id: str, seat: int) -> set[str]:
    """What ``seat`` may not see: the other hand and the stock, as the database holds them."""
    game = app.state.services.tables.load(table_id).match.round
    hidden = game.hands[1 - seat] | sum(1 << card for card in game.stock_left)
    return {SLUGS[card] for card in range(48) if hidden >> card & 1}


def test_a_friend_sits_down_by_the_link_or_the_code(app: FastAPI) -> None:
    host, friend = browser(app), browser(app)
    table = open_table(host)
    assert table["status"] == "open"
    assert "hand" not in table  # no cards before the match begins
    code = table["table"]["code"]
    found = friend.get(f"/api/tables/code/{code}")
    assert found.json() == {"id": table["id"]}
    shown = friend.get(f"/api/tables/{table['id']}").json()
    assert shown["state"] is None
    assert shown["table"]["players"][1] is None
    seated = friend.post(f"/api/tables/{table['id']}/seat").json()["state"]
    assert seated["status"] == "playing"
    assert len(seated["hand"]) == 8
    host_view = state_of(host, table["id"])
    assert set(host_view["hand"]).isdisjoint(seated["hand"])
    assert host_view["table"]["players"][1] == {"name": None, "guest": True, "rating": None}
    # Seats count from the viewer: each sees the other's hand as a number only.
    assert host_view["opponent_hand"] == len(seated["hand"])
    assert host_view["dealer"] == 1 - seated["dealer"]
    assert host_view["turn"] == 1 - seated["turn"]


def test_a_third_person_at_a_full_table_is_refused(app: FastAPI) -> None:
    _, _, table_id = seated_pair(app)
    third = browser(app)
    assert third.post(f"/api/tables/{table_id}/seat").status_code == 409
    refused = third.get(f"/api/tables/{table_id}")
    assert refused.status_code == 403
    assert "full" in refused.json()["detail"]
    with third.websocket_connect(f"/api/tables/{table_id}/live") as socket:
        assert socket.receive_json() == {"type": "error", "detail": "you do not sit at this table"}
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4403


def test_the_host_cannot_take_the_second_seat(app: FastAPI) -> None:
    host = browser(app)
    table = open_table(host)
    response = host.post(f"/api/tables/{table['id']}/seat")
    assert response.status_code == 409
    assert "already sit" in response.json()["detail"]


def test_moves_out_of_turn_for_the_other_seat_or_stale_are_refused(app: FastAPI) -> None:
    host, friend, table_id = seated_pair(app)
    client, state = mover(host, friend, table_id)
    other = friend if client is host else host
    waiting = state_of(other, table_id)
    out_of_turn = other.post(
        f"/api/tables/{table_id}/actions",
        json={"action": state["legal"][0], "version": waiting["version"]},
    )
    assert out_of_turn.status_code == 409
    assert "not your turn" in out_of_turn.json()["detail"]
    my_seat = 0 if client is host else 1
    for_other = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": state["legal"][0], "version": state["version"], "seat": 1 - my_seat},
    )
    assert for_other.status_code == 403
    assert f"seat {1 - my_seat}" in for_other.json()["detail"]
    stale = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": state["legal"][0], "version": state["version"] - 1},
    )
    assert stale.status_code == 409
    assert "state" in stale.json()["detail"]
    outsider = browser(app).post(
        f"/api/tables/{table_id}/actions",
        json={"action": state["legal"][0], "version": state["version"]},
    )
    assert outsider.status_code == 403
    assert state_of(client, table_id)["version"] == state["version"]  # nothing changed


@pytest.mark.parametrize("code", ["ABC", "abcdef", "AAAAA0", "../../x", "AAAAAAA"])
def test_a_forged_table_code_is_refused(app: FastAPI, code: str) -> None:
    response = browser(app).get(f"/api/tables/code/{code}")
    assert response.status_code in (404, 422)


def test_an_unknown_code_of_the_right_shape_is_not_found(app: FastAPI) -> None:
    response = browser(app).get("/api/tables/code/ZZZZZZ")
    assert response.status_code == 404
    assert "ZZZZZZ" in response.json()["detail"]


def test_a_code_names_its_table_only_while_it_is_open(app: FastAPI) -> None:
    """0.6.3 resolved the codes of tables long begun or finished: a code is for sitting
    down, so it names its table only while a seat is free."""
    host, friend, table_id = seated_pair(app)
    code = state_of(host, table_id)["table"]["code"]
    assert browser(app).get(f"/api/tables/code/{code}").status_code == 404
    friend.post(f"/api/tables/{table_id}/resign")
    assert browser(app).get(f"/api/tables/code/{code}").status_code == 404


def test_failed_code_look_ups_are_throttled_per_address(app: FastAPI, clock: Clock) -> None:
    """0.6.3 answered 238 wrong guesses a second from one client: past CODE_MISSES a
    minute, an address's look-ups wait (429), a right code's too, while another
    address goes on."""
    guesser = browser(app, address="198.51.100.66")
    host = browser(app)
    code = open_table(host)["table"]["code"]
    wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
    for _ in range(CODE_MISSES.limit):
        assert guesser.get(f"/api/tables/code/{wrong}").status_code == 404
    refused = guesser.get(f"/api/tables/code/{code}")
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert "address" in refused.json()["detail"]
    assert browser(app).get(f"/api/tables/code/{code}").status_code == 200
    clock.advance(minutes=1, seconds=1)
    assert guesser.get(f"/api/tables/code/{code}").status_code == 200


def test_each_seat_hears_every_move_on_its_websocket(app: FastAPI) -> None:
    host, friend, table_id = seated_pair(app)
    with (
        host.websocket_connect(f"/api/tables/{table_id}/live") as host_live,
        friend.websocket_connect(f"/api/tables/{table_id}/live") as friend_live,
    ):
        first = [host_live.receive_json(), friend_live.receive_json()]
        assert [m["type"] for m in first] == ["state", "state"]
        for _ in range(6):
            client, state = mover(host, friend, table_id)
            answer = move(client, table_id, state)
            heard = [host_live.receive_json(), friend_live.receive_json()]
            assert [m["type"] for m in heard] == ["update", "update"]
            mine = heard[0] if client is host else heard[1]
            theirs = heard[1] if client is host else heard[0]
            assert mine["state"] == answer["state"]
            assert theirs["state"]["version"] == answer["state"]["version"]
            # The same events, from each side.
            assert [e["type"] for e in mine["events"]] == [e["type"] for e in theirs["events"]]
            for seat, message in ((0, heard[0]), (1, heard[1])):
                text = json.dumps(message)
                hidden = hidden_cards(app, table_id, seat)
                shown = set(message["state"]["hand"]) | set(message["state"]["field"])
                assert not hidden & shown
                assert str(app.state.services.tables.load(table_id).seed) not in text


def socket_move(state: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {"type": "move", "action": state["legal"][0], "version": state["version"], **changes}


def test_moves_over_the_websocket_reach_both_seats_once(app: FastAPI) -> None:
    host, friend, table_id = seated_pair(app)
    with (
        host.websocket_connect(f"/api/tables/{table_id}/live") as host_live,
        friend.websocket_connect(f"/api/tables/{table_id}/live") as friend_live,
    ):
        sockets = {id(host): host_live, id(friend): friend_live}
        assert [host_live.receive_json()["type"], friend_live.receive_json()["type"]] == [
            "state",
            "state",
        ]
        for _ in range(8):
            client, state = mover(host, friend, table_id)
            other = friend if client is host else host
            sockets[id(client)].send_json(socket_move(state))
            mine = sockets[id(client)].receive_json()
            theirs = sockets[id(other)].receive_json()
            assert mine["type"] == theirs["type"] == "update"
            assert mine["state"] == state_of(client, table_id)  # stored, as the mover sees it
            assert theirs["state"] == state_of(other, table_id)
            assert mine["state"]["version"] > state["version"]
            for message, seat in ((mine, int(client is friend)), (theirs, int(other is friend))):
                shown = set(message["state"]["hand"]) | set(message["state"]["field"])
                assert not hidden_cards(app, table_id, seat) & shown
            # The change's broadcast reached the mover too, and was not sent again.
            sockets[id(client)].send_text("ping")
            assert sockets[id(client)].receive_text() == "pong"


@pytest.mark.parametrize(
    ("sent", "status", "named"),
    [
        ("not json", 422, "not standard JSON"),
        ('{"type": "move", "action": {"play": "pine-crane"}}', 422, "version"),
        ('{"type": "resign", "action": {}, "version": 1}', 422, "type"),
        ('{"type": "move", "action": {"play": "x"}, "version": 1, "extra": 1}', 422, "extra"),
        ('{"type": "move", "action": [], "version": 1, "n": NaN}', 422, "not standard JSON"),
    ],
)
def test_a_malformed_socket_message_is_refused_by_name(
    app: FastAPI, sent: str, status: int, named: str
) -> None:
    host, friend, table_id = seated_pair(app)
    client, state = mover(host, friend, table_id)
    with client.websocket_connect(f"/api/tables/{table_id}/live") as live:
        assert live.receive_json()["type"] == "state"
        live.send_text(sent)
        refused = live.receive_json()
        assert refused["type"] == "refused"
        assert refused["status"] == status
        assert named in refused["detail"]
        live.send_bytes(b"\x00")
        assert live.receive_json()["detail"].startswith("the message is not standard JSON")
        live.send_text("ping")
        assert live.receive_text() == "pong"  # the socket stays open
    assert state_of(client, table_id) == state


def test_socket_moves_out_of_turn_for_the_other_seat_stale_or_illegal_are_refused(
    app: FastAPI,
) -> None:
    host, friend, table_id = seated_pair(app)
    client, state = mover(host, friend, table_id)
    other = friend if client is host else host
    my_seat = int(client is friend)
    with (
        client.websocket_connect(f"/api/tables/{table_id}/live") as live,
        other.websocket_connect(f"/api/tables/{table_id}/live") as other_live,
    ):
        assert live.receive_json()["type"] == other_live.receive_json()["type"] == "state"
        other_live.send_json(socket_move(state))
        assert other_live.receive_json() == {
            "type": "refused",
            "status": 409,
            "detail": "it is not your turn",
            "version": state["version"],
        }
        for changes, status, named in [
            ({"seat": 1 - my_seat}, 403, f"seat {1 - my_seat}"),
            ({"version": state["version"] - 1}, 409, "state"),
            ({"action": {"koikoi": True}}, 400, "legal"),
            ({"action": {"play": "no-such-card"}}, 400, "no-such-card"),
        ]:
            live.send_json(socket_move(state, **changes))
            refused = live.receive_json()
            assert (refused["type"], refused["status"]) == ("refused", status)
            assert named in refused["detail"]
        assert state_of(client, table_id) == state  # nothing changed


def test_a_socket_opens_on_one_read_of_the_table_and_one_of_the_session(app: FastAPI) -> None:
    """As a process that died sends its thousand players to the others at once, each
    socket's opening costs those two reads only (it listens first, so it needs no
    second look for what may have changed meanwhile)."""
    host, _, table_id = seated_pair(app)
    engine = app.state.services.engine
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        with host.websocket_connect(f"/api/tables/{table_id}/live") as live:
            assert live.receive_json()["type"] == "state"
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(statements) == 2
    assert sum("FROM sessions" in statement for statement in statements) == 1


def closed_as_ended(live: Any) -> int:
    """What a socket hears once its session has ended: why, then its close code."""
    assert live.receive_json() == {
        "type": "error",
        "detail": "your session has ended; reload the page",
    }
    with pytest.raises(WebSocketDisconnect) as closed:
        live.receive_json()
    return int(closed.value.code)


def test_a_socket_closes_as_soon_as_its_session_ends(app: FastAPI) -> None:
    host, friend = browser(app), browser(app)
    sign_up(host, "leaver")
    table = open_table(host)
    assert friend.post(f"/api/tables/{table['id']}/seat").status_code == 200
    before = state_of(friend, table["id"])["version"]
    with host.websocket_connect(f"/api/tables/{table['id']}/live") as live:
        live.receive_json()
        assert host.delete("/api/session").status_code == 200  # signed out on this page
        assert closed_as_ended(live) == 4403  # with no move sent to find out
    assert state_of(friend, table["id"])["version"] == before


def test_a_new_password_closes_the_sockets_of_the_accounts_other_sessions(
    app: FastAPI,
) -> None:
    laptop, phone, friend = browser(app), browser(app), browser(app)
    sign_up(laptop, "hana")
    refresh_csrf(
        phone, phone.post("/api/session", json={"name": "hana", "password": PASSWORD}).json()
    )
    table = open_table(phone)
    assert friend.post(f"/api/tables/{table['id']}/seat").status_code == 200
    with phone.websocket_connect(f"/api/tables/{table['id']}/live") as live:
        live.receive_json()
        changed = laptop.post(
            "/api/account/password", json={"current": PASSWORD, "new": "a new secret phrase"}
        )
        assert changed.status_code == 200
        assert closed_as_ended(live) == 4403


def test_a_socket_reads_its_session_again_once_the_last_read_is_old(
    app: FastAPI, clock: Clock
) -> None:
    """Its end is announced, so a socket's moves go by the session it read; one ended
    unannounced (a lost announcement, say) is found at the first move five minutes on."""
    host, friend = browser(app), browser(app)
    sign_up(host, "hana")
    sign_up(friend, "kaze")
    table_id = open_table(host, move_seconds=120)["id"]
    assert friend.post(f"/api/tables/{table_id}/seat").status_code == 200
    engine = app.state.services.engine
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    sockets = {id(c): c.websocket_connect(f"/api/tables/{table_id}/live") for c in (host, friend)}
    with sockets[id(host)] as host_live, sockets[id(friend)] as friend_live:
        lives = {id(host): host_live, id(friend): friend_live}
        states = {key: live.receive_json()["state"] for key, live in lives.items()}
        client = host if states[id(host)]["your_turn"] else friend
        live, state = lives[id(client)], states[id(client)]
        event.listen(engine, "before_cursor_execute", count)
        try:
            live.send_json(socket_move(state))
            state = live.receive_json()["state"]
        finally:
            event.remove(engine, "before_cursor_execute", count)
        assert not [s for s in statements if "FROM sessions" in s]
        # The session ends with no word of it (as the idle sweep ends one).
        with app.state.services.database.begin() as db:
            db.execute(delete(BrowserSession))
        clock.advance(minutes=5, seconds=1)
        other = lives[id(friend if client is host else host)]
        other_state = other.receive_json()["state"]
        mover_live = other if other_state["your_turn"] else live
        turn = other_state if other_state["your_turn"] else state
        mover_live.send_json(socket_move(turn))
        refused = mover_live.receive_json()
        assert (refused["type"], refused["status"]) == ("refused", 403)
        with pytest.raises(WebSocketDisconnect) as closed:
            mover_live.receive_json()
        assert closed.value.code == 4403


def test_the_clock_moves_for_an_absent_player_then_forfeits(app: FastAPI, clock: Clock) -> None:
    host, friend, table_id = seated_pair(app)
    store = app.state.services.tables
    client, state = mover(host, friend, table_id)
    seat = 0 if client is host else 1
    clock.advance(seconds=MOVE_SECONDS - 1)
    assert store.expire() == 0
    assert state_of(client, table_id)["version"] == state["version"]
    timeouts = 0
    while True:
        current = state_of(host, table_id)
        if current["status"] != "playing":
            break
        clock.advance(seconds=MOVE_SECONDS)
        turn = store.load(table_id).match.turn
        store.expire()
        timeouts += 1
        assert timeouts < 100
        if turn != seat:  # the other player moves in time
            other_client = host if turn == 0 else friend
            other_state = state_of(other_client, table_id)
            if other_state["your_turn"]:
                move(other_client, table_id, other_state)
    final = store.load(table_id)
    assert final.ending == "forfeit"
    assert final.winner == 1 - seat
    assert final.timeouts[seat] == MAX_TIMEOUTS
    assert state_of(client, table_id)["status"] == "lost"


def test_resign_then_rematch_opens_a_new_table_for_both(app: FastAPI) -> None:
    host, friend, table_id = seated_pair(app)
    resigned = friend.post(f"/api/tables/{table_id}/resign")
    assert resigned.status_code == 200
    assert resigned.json()["state"]["status"] == "lost"
    assert state_of(host, table_id)["status"] == "won"
    assert host.post(f"/api/tables/{table_id}/resign").status_code == 409
    offered = host.post(f"/api/tables/{table_id}/rematch").json()["state"]
    assert offered["table"]["rematch"] == [True, False]
    assert offered["table"]["next"] is None
    accepted = friend.post(f"/api/tables/{table_id}/rematch").json()["state"]
    again = accepted["table"]["next"]
    assert again
    assert state_of(host, again)["status"] == "playing"
    assert state_of(friend, again)["status"] == "playing"


def test_no_move_starts_at_a_table_while_a_view_of_it_is_made(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page's view of a table (a reload, a rematch offer) is made from the copy this
    process keeps, which the next move changes in place: made while another thread
    could move, it could show half a move, or fail."""
    host, friend, table_id = seated_pair(app)
    lock = app.state.services.tables._lock(table_id)
    free_to_move: list[bool] = []

    def free() -> bool:
        """Whether another thread (a move's) could take the table now."""
        taken: list[bool] = []

        def probe() -> None:
            taken.append(lock.acquire(blocking=False))
            if taken[0]:
                lock.release()

        thread = threading.Thread(target=probe)
        thread.start()
        thread.join()
        return taken[0]

    made = tables_module.TableSession.state

    def state(table: tables_module.TableSession, seat: int, now: Any) -> dict[str, Any]:
        free_to_move.append(free())
        return made(table, seat, now)

    monkeypatch.setattr(tables_module.TableSession, "state", state)
    assert state_of(host, table_id)["your_turn"] != state_of(friend, table_id)["your_turn"]
    assert friend.post(f"/api/tables/{table_id}/resign").status_code == 200
    assert host.post(f"/api/tables/{table_id}/rematch").status_code == 200
    # Two reloads; the resign and the offer, two seats' views each; the offer's answer.
    assert free_to_move == [False] * 7


def test_a_ranked_table_moves_both_ratings(app: FastAPI) -> None:
    host, friend = browser(app), browser(app)
    sign_up(host, "Hana")
    sign_up(friend, "Kaze")
    table = open_table(host, ranked=True)
    guest = browser(app)
    assert guest.post(f"/api/tables/{table['id']}/seat").status_code == 403
    assert friend.post(f"/api/tables/{table['id']}/seat").status_code == 200
    assert state_of(host, table["id"])["table"]["players"][1]["name"] == "Kaze"
    play_actions(host, friend, table["id"], MIN_ACTIONS)  # enough play to count
    friend.post(f"/api/tables/{table['id']}/resign")
    ratings = app.state.services.tables.load(table["id"]).ratings
    assert ratings[0][1] > ratings[0][0]
    assert ratings[1][1] < ratings[1][0]
    assert PASSWORD


def test_the_quick_match_queue_pairs_close_ratings_and_widens(app: FastAPI, clock: Clock) -> None:
    one, two = browser(app), browser(app)
    assert one.post("/api/queue", json={"preset": "classic"}).json()["status"] == "waiting"
    paired = two.post("/api/queue", json={"preset": "classic"}).json()
    assert paired["status"] == "paired"
    assert one.get("/api/queue").json() == paired
    state = state_of(one, paired["table"])
    assert state["status"] == "playing"
    three = browser(app)
    three.post("/api/queue", json={"preset": "classic"})
    assert three.delete("/api/queue").json() == {"status": "none"}
    assert three.get("/api/queue").json() == {"status": "none"}
    bad = three.post("/api/queue", json={"preset": "nonsense"})
    assert bad.status_code == 422
    assert "nonsense" in bad.json()["detail"]


def set_rating(app: FastAPI, name: str, mu: float) -> None:
    with app.state.services.database.begin() as db:
        user = db.scalar(select(User).where(User.name == name))
        assert user is not None
        db.add(Rating(user_id=user.id, rules_name="classic", mu=mu, sigma=100.0, matches=9))


def test_the_queue_waits_for_a_close_rating_then_widens(app: FastAPI, clock: Clock) -> None:
    strong, weak = browser(app), browser(app)
    sign_up(strong, "Tsuki")
    sign_up(weak, "Hoshi")
    set_rating(app, "Tsuki", 1850.0)
    set_rating(app, "Hoshi", 1500.0)
    assert strong.post("/api/queue", json={"preset": "classic"}).json()["status"] == "waiting"
    waiting = weak.post("/api/queue", json={"preset": "classic"}).json()
    assert waiting["status"] == "waiting"  # 350 apart: too far for a new wait
    assert waiting["ranked"]
    clock.advance(seconds=20)
    assert strong.get("/api/queue").json()["range"] == 100 + 50 * 4
    clock.advance(seconds=10)  # 30 s: the range is 400 now
    paired = weak.get("/api/queue").json()
    assert paired["status"] == "paired"
    state = state_of(strong, paired["table"])
    assert state["ranked"]
    assert {p["name"] for p in state["table"]["players"]} == {"Tsuki", "Hoshi"}


def test_guests_and_players_queue_apart(app: FastAPI) -> None:
    player, guest = browser(app), browser(app)
    sign_up(player, "Ame")
    player.post("/api/queue", json={"preset": "classic"})
    assert guest.post("/api/queue", json={"preset": "classic"}).json()["status"] == "waiting"
    assert player.get("/api/queue").json()["status"] == "waiting"
    refused = player.post("/api/queue", json={"preset": "koikoi-japan"})
    assert refused.status_code == 422


def test_a_table_owes_its_timeouts_to_whoever_looks_first(app: FastAPI, clock: Clock) -> None:
    host, friend, table_id = seated_pair(app)
    before = state_of(host, table_id)
    clock.advance(seconds=MOVE_SECONDS)
    after = state_of(friend, table_id)  # no sweep ran: the read makes the move
    assert after["version"] == before["version"] + 1
    assert after["table"]["timeouts"][0] + after["table"]["timeouts"][1] == 1


def test_the_host_closes_an_open_table_and_a_day_closes_a_forgotten_one(
    app: FastAPI, clock: Clock
) -> None:
    host, friend = browser(app), browser(app)
    table = open_table(host)
    assert friend.delete(f"/api/tables/{table['id']}").status_code == 403
    closed = host.delete(f"/api/tables/{table['id']}")
    assert closed.status_code == 200
    assert closed.json()["state"]["table"]["ending"] == "cancelled"
    assert closed.json()["state"]["status"] == "cancelled"
    assert "hand" not in closed.json()["state"]  # it never began: no cards
    assert friend.post(f"/api/tables/{table['id']}/seat").status_code == 409
    gone = friend.get(f"/api/tables/{table['id']}")
    assert gone.status_code == 410
    assert "closed" in gone.json()["detail"]
    forgotten = open_table(host)
    clock.advance(days=1, seconds=1)
    app.state.services.tables.expire()
    assert state_of(host, forgotten["id"])["table"]["ending"] == "cancelled"
    _, seated, playing = seated_pair(app)
    assert seated.delete(f"/api/tables/{playing}").status_code == 409


def test_nobody_is_paired_with_a_page_that_stopped_asking(app: FastAPI, clock: Clock) -> None:
    gone, waiting, late = browser(app), browser(app), browser(app)
    gone.post("/api/queue", json={"preset": "classic"})
    clock.advance(seconds=21)  # the page was closed: it no longer asks
    assert waiting.post("/api/queue", json={"preset": "classic"}).json()["status"] == "waiting"
    app.state.services.queue.pair_waiting()
    assert gone.get("/api/queue").json() == {"status": "none"}
    assert late.post("/api/queue", json={"preset": "classic"}).json()["status"] == "paired"


def test_two_rematch_offers_at_once_both_land(app: FastAPI) -> None:
    """Offers do not conflict: the one that finds the table moved on offers again."""
    for _ in range(4):
        host, friend, table_id = seated_pair(app)
        friend.post(f"/api/tables/{table_id}/resign")
        start = threading.Barrier(2)
        answers: list[int] = []

        def offer(
            client: TestClient, start: threading.Barrier, answers: list[int], table_id: str
        ) -> None:
            start.wait()
            answers.append(client.post(f"/api/tables/{table_id}/rematch").status_code)

        threads = [
            threading.Thread(target=offer, args=(c, start, answers, table_id))
            for c in (host, friend)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert answers == [200, 200]
        assert state_of(host, table_id)["table"]["next"]


def test_a_process_whose_copy_of_the_table_is_behind_reads_it_afresh(
    database_url: str, clock: Clock
) -> None:
    """Two server processes on one database, each seat on its own: every move finds
    the other process's kept copy one move behind."""
    first, second = make_app(database_url, clock), make_app(database_url, clock)
    host, friend = browser(first), browser(second)
    table = open_table(host)
    assert friend.post(f"/api/tables/{table['id']}/seat").status_code == 200
    for _ in range(30):
        client, state = mover(host, friend, table["id"])
        if state["status"] != "playing":
            break
        stale = client.post(
            f"/api/tables/{table['id']}/actions",
            json={"action": state["legal"][0], "version": state["version"] - 1},
        )
        assert stale.status_code == 409
        answer = move(client, table["id"], state)
        assert answer["state"]["version"] == state["version"] + 1
    stored = first.state.services.tables.load(table["id"])
    assert stored.version > 20


def test_a_copy_behind_the_table_catches_up_instead_of_replaying_the_match(
    database_url: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes, a seat on each: each finds its copy a move or two behind, plays
    only the moves it missed on it (no match is rebuilt), and shows what a table
    rebuilt from its row shows."""
    first, second = make_app(database_url, clock), make_app(database_url, clock)
    host, friend = browser(first), browser(second)
    table_id = open_table(host)["id"]
    assert friend.post(f"/api/tables/{table_id}/seat").status_code == 200
    state_of(host, table_id), state_of(friend, table_id)  # both processes hold a copy
    rebuilt: list[Any] = []
    real = Match

    def counted(*args: Any) -> Match:
        rebuilt.append(args)
        return real(*args)

    monkeypatch.setattr(tables_module, "Match", counted)
    for _ in range(20):
        client, state = mover(host, friend, table_id)
        move(client, table_id, state)
    assert rebuilt == []
    monkeypatch.undo()
    fresh = first.state.services.tables.load(table_id)
    assert fresh.version > 20
    for client, seat in ((host, 0), (friend, 1)):
        assert state_of(client, table_id) == fresh.state(seat, clock())


def test_news_of_the_other_processs_move_brings_a_copy_up_to_date_without_a_read(
    app: FastAPI, clock: Clock
) -> None:
    """Two processes on one database and one broker, a seat each: at each move the
    mover's copy is behind the other process's move, and that process's news brings it
    up to date, so the move is one write and no read, and ends where the row does."""
    services = app.state.services
    broker = Broker()
    stores = [TableStore(services.database, clock, broker, random.Random(s)) for s in (0, 1)]
    with services.database.begin() as db:
        owners = [services.sessions.open(db)[0] for _ in (0, 1)]
    table_id = stores[0].create(owners[0], PRESETS["classic"]).id
    stores[1].sit(table_id, owners[1])
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement.lstrip().split(None, 1)[0].upper())

    movers = []
    for _ in range(40):
        stored = stores[0].load(table_id)
        if stored.status != PLAYING:
            break
        seat = next(s for s in (0, 1) if stored.state(s, clock())["your_turn"])
        state = stored.state(seat, clock())
        statements.clear()
        event.listen(services.engine, "before_cursor_execute", count)
        try:
            change = stores[seat].act(
                table_id, owners[seat], state["legal"][0], state["version"], None
            )
        finally:
            event.remove(services.engine, "before_cursor_execute", count)
        if seat in movers:  # this process has a copy: no read, whoever moved last
            assert statements == ["UPDATE"]
        movers.append(seat)
        after = stores[seat].load(table_id)
        for viewer in (0, 1):
            assert change.table.state(viewer, clock()) == after.state(viewer, clock())
    assert len(movers) > 30
    assert set(movers) == {0, 1}


def test_a_copy_that_a_failed_change_took_off_the_tables_path_is_not_taken_over(
    app: FastAPI,
) -> None:
    host, friend, table_id = seated_pair(app)
    store = app.state.services.tables
    client, state = mover(host, friend, table_id)
    while len(state["legal"]) < 2:
        move(client, table_id, state)
        client, state = mover(host, friend, table_id)
    astray = store.load(table_id)
    astray.match.apply(action_from_json(state["legal"][1]))  # not what is played
    move(client, table_id, state)  # legal[0]
    taken = store.load(table_id, astray)
    assert taken.match is not astray.match
    assert taken.actions == store.load(table_id).actions
    assert taken.actions[-1] == state["legal"][0]


def test_each_player_lists_their_tables_and_a_finished_one_replays(
    app: FastAPI, clock: Clock
) -> None:
    host, friend, table_id = seated_pair(app)
    clock.advance(seconds=1)
    waiting = open_table(host)
    listed = host.get("/api/tables").json()["tables"]
    assert [line["id"] for line in listed] == [waiting["id"], table_id]
    assert listed[1]["status"] == "playing"
    assert listed[1]["opponent"] == {"name": None, "guest": True}
    assert [line["id"] for line in friend.get("/api/tables").json()["tables"]] == [table_id]
    assert browser(app).get("/api/tables").json() == {"tables": []}
    assert friend.get(f"/api/tables/{table_id}/replay").status_code == 409  # hidden in play
    for _ in range(5):
        client, state = mover(host, friend, table_id)
        move(client, table_id, state)
    friend.post(f"/api/tables/{table_id}/resign")
    replay = browser(app).get(f"/api/tables/{table_id}/replay").json()
    assert replay["ending"] == "resigned"
    assert replay["outcome"] == "won"  # from the host's side, seat 0
    assert replay["steps"][-1]["event"] == {"type": "resign", "seat": 1}
    plays = [s for s in replay["steps"] if s["event"]["type"] in ("play", "draw")]
    assert len([s for s in plays if s["event"]["type"] == "play"]) >= 3
    first = replay["steps"][0]
    assert len(first["hands"][0]) == len(first["hands"][1]) == 8  # every card face up now
    assert [line["id"] for line in friend.get("/api/tables").json()["tables"]] == []


def test_a_move_at_a_table_this_process_holds_reads_once_and_writes_once(app: FastAPI) -> None:
    """The move's statements: the session with its player's name (one read, signed in
    or not) and the write over the version read; the table itself comes from the copy
    this process kept, and both names still reach the view."""
    host, friend = browser(app), browser(app)
    sign_up(host, "Hana")
    sign_up(friend, "Kaze")
    table = open_table(host)
    assert friend.post(f"/api/tables/{table['id']}/seat").status_code == 200
    client, state = mover(host, friend, table["id"])
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement.lstrip().split(None, 1)[0].upper())

    engine = app.state.services.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        after = move(client, table["id"], state)["state"]
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert statements == ["SELECT", "UPDATE"]
    names = [player["name"] for player in after["table"]["players"]]
    assert sorted(names) == ["Hana", "Kaze"]
