"""Several ``koikoi serve`` processes, one PostgreSQL database and Redis: a table
played across two processes, one of them killed mid-match, and what crosses the wire.

Each player talks to their own process (as a load balancer would send them), so every
move reaches the other player through Redis. Nothing here sleeps: each step waits on
an answer or on a WebSocket message (the timeouts only bound a broken run).
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from hidden import hidden_by_version, leaks
from servers import PASSWORD, Clock, browser, koikoi_serve, listening_socket, make_app, sign_up

WAIT = 60.0
"""Seconds any one answer or message may take before the run counts as broken."""


class Player:
    """A browser: its own cookies and CSRF token, talking to one server process."""

    def __init__(self, url: str) -> None:
        self.http = httpx2.Client(base_url=url, timeout=WAIT)
        self.url = url
        self.seen: list[tuple[int, Any]] = []  # (version, every answer and message)
        self.csrf()

    def close(self) -> None:
        self.http.close()

    def csrf(self) -> None:
        self.http.headers["X-CSRF-Token"] = self.http.get("/api/session").json()["csrf"]

    def move_to(self, url: str) -> None:
        """The balancer sends this browser to another process (cookies kept)."""
        cookies = self.http.cookies
        headers = self.http.headers
        self.http.close()
        self.http = httpx2.Client(base_url=url, timeout=WAIT, cookies=cookies, headers=headers)
        self.url = url

    def post(self, path: str, body: Any = None) -> dict[str, Any]:
        response = self.http.post(path, json=body)
        assert response.status_code in (200, 201), response.text
        data: dict[str, Any] = response.json()
        self.keep(data)
        return data

    def get(self, path: str) -> dict[str, Any]:
        response = self.http.get(path)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        self.keep(data)
        return data

    def keep(self, data: dict[str, Any]) -> None:
        state = data.get("state")
        self.seen.append((state["version"] if state else -1, data))

    @contextmanager
    def live(self, table_id: str) -> Iterator[ClientConnection]:
        address = self.url.replace("http://", "ws://") + f"/api/tables/{table_id}/live"
        cookie = "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())
        with connect(
            address, additional_headers={"Cookie": cookie, "Origin": self.url}, open_timeout=WAIT
        ) as socket_:
            yield socket_

    def hear(self, live: ClientConnection) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(live.recv(timeout=WAIT))
        self.keep(message)
        return message


@contextmanager
def server(database_url: str, redis_url: str) -> Iterator[tuple[str, Any]]:
    sock = listening_socket()
    with sock, koikoi_serve(sock.fileno(), database_url, redis_url=redis_url) as process:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", process


def on_two_processes(
    stack: ExitStack, database_url: str, redis_url: str
) -> tuple[list[str], tuple[Player, Player]]:
    """Two server processes (their addresses), and a browser talking to each."""
    urls = [stack.enter_context(server(database_url, redis_url))[0] for _ in range(2)]
    players = Player(urls[0]), Player(urls[1])
    for player in players:
        stack.callback(player.close)
    return urls, players


def test_two_processes_serve_one_table_and_survive_a_killed_one(
    postgresql_url: str, redis_url: str
) -> None:
    with ExitStack() as stack:
        first_url, _ = stack.enter_context(server(postgresql_url, redis_url))
        second_url, second = stack.enter_context(server(postgresql_url, redis_url))
        host, friend = Player(first_url), Player(second_url)
        players = (host, friend)
        for player in players:
            stack.callback(player.close)
        table = host.post("/api/tables", {"rules": {"preset": "classic"}})["state"]
        table_id = table["id"]
        friend.post(f"/api/tables/{table_id}/seat")
        lives = [
            stack.enter_context(host.live(table_id)),
            stack.enter_context(friend.live(table_id)),
        ]
        for player, live in zip(players, lives, strict=True):
            assert player.hear(live)["type"] == "state"

        def play(moves: int) -> dict[str, Any]:
            """Each move made on the mover's process, heard on the other's."""
            state: dict[str, Any] = {}
            for _ in range(moves):
                states: list[dict[str, Any]] = [
                    player.get(f"/api/tables/{table_id}")["state"] for player in players
                ]
                if states[0]["status"] != "playing":
                    return states[0]
                seat = 0 if states[0]["your_turn"] else 1
                mover, other = players[seat], players[1 - seat]
                state = states[seat]
                answer = mover.post(
                    f"/api/tables/{table_id}/actions",
                    {"action": state["legal"][-1], "version": state["version"]},
                )
                for player, live in ((mover, lives[seat]), (other, lives[1 - seat])):
                    update = player.hear(live)
                    assert update["type"] == "update"
                    assert update["state"]["version"] == answer["state"]["version"]
                state = answer["state"]
            return state

        before = play(40)
        assert before["status"] == "playing"
        friend_view = friend.get(f"/api/tables/{table_id}")["state"]

        second.send_signal(signal.SIGKILL)
        assert second.wait(timeout=WAIT) == -signal.SIGKILL
        lives[1].close()
        # The friend's next request goes to the process still up: the table as it was.
        friend.move_to(first_url)
        lives[1] = stack.enter_context(friend.live(table_id))
        again = friend.hear(lives[1])
        assert again["state"] == {**friend_view, "table": again["state"]["table"]}
        assert again["state"]["version"] == friend_view["version"]

        final = play(2000)
        assert final["status"] in ("won", "lost", "drawn")
        outcomes = {p.get(f"/api/tables/{table_id}")["state"]["status"] for p in players}
        assert outcomes in ({"won", "lost"}, {"drawn"})

    # Nothing either seat received ever named a card it could not see at that moment.
    hidden = hidden_by_version(postgresql_url, table_id)
    for seat, player in enumerate(players):
        assert len(player.seen) > 100
        for _, data in player.seen:
            assert not leaks(hidden, seat, data), data


def test_sign_in_throttling_counts_across_processes(postgresql_url: str, redis_url: str) -> None:
    """Guesses sent to two servers on one database count together. The servers share an
    injected clock (0.6.3 ran two processes on the wall clock, and on a loaded machine
    the second of slowdown passed between two guesses, so the sixth went through)."""
    clock = Clock()
    apps = [make_app(postgresql_url, clock, redis_url=redis_url) for _ in range(2)]
    sign_up(browser(apps[0]), "hana")
    attackers = [browser(app, address="10.9.9.9") for app in apps]
    answers = []
    for attempt in range(6):
        response = attackers[attempt % 2].post(
            "/api/session", json={"name": "hana", "password": f"wrong guess {attempt}"}
        )
        answers.append(response.status_code)
    # Five free guesses between them, then the other server slows the sixth.
    assert answers == [401] * 5 + [429]


def test_signing_out_on_one_process_closes_the_socket_on_another(
    postgresql_url: str, redis_url: str
) -> None:
    with ExitStack() as stack:
        urls, (host, friend) = on_two_processes(stack, postgresql_url, redis_url)
        signed = host.post("/api/account", {"name": "hana", "password": PASSWORD})
        host.http.headers["X-CSRF-Token"] = signed["csrf"]
        table_id = host.post("/api/tables", {})["state"]["id"]
        friend.post(f"/api/tables/{table_id}/seat")
        host.move_to(urls[1])
        with host.live(table_id) as live:
            assert host.hear(live)["type"] == "state"
            host.move_to(urls[0])
            assert host.http.delete("/api/session").status_code == 200
            assert host.hear(live) == {
                "type": "error",
                "detail": "your session has ended; reload the page",
            }
            with pytest.raises(ConnectionClosed) as closed:
                live.recv(timeout=WAIT)
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 4403


@pytest.mark.parametrize("origin", ["http://evil.example", "null"])
def test_a_websocket_from_another_site_is_refused(
    postgresql_url: str, redis_url: str, origin: str
) -> None:
    with server(postgresql_url, redis_url) as (url, _):
        host = Player(url)
        try:
            table_id = host.post("/api/tables", {})["state"]["id"]
            cookie = "; ".join(f"{name}={value}" for name, value in host.http.cookies.items())
            address = url.replace("http://", "ws://") + f"/api/tables/{table_id}/live"
            with pytest.raises(InvalidStatus, match="403"):
                connect(address, additional_headers={"Cookie": cookie, "Origin": origin})
        finally:
            host.close()


def test_the_quick_match_queue_pairs_players_on_different_processes(
    postgresql_url: str, redis_url: str
) -> None:
    with ExitStack() as stack:
        _, (one, two) = on_two_processes(stack, postgresql_url, redis_url)
        assert one.post("/api/queue", {"preset": "ten-card"})["status"] == "waiting"
        paired = two.post("/api/queue", {"preset": "ten-card"})
        assert paired["status"] == "paired"
        assert one.get("/api/queue") == paired
        states = [p.get(f"/api/tables/{paired['table']}")["state"] for p in (one, two)]
        assert [s["status"] for s in states] == ["playing", "playing"]
        assert states[0]["rules_name"] == "ten-card"
        assert sorted(s["your_turn"] for s in states) == [False, True]
