"""A table's WebSocket has bounds: the messages it takes in, how fast, and how many
one session holds open (#36: 0.6.3 queued and answered 15,000 messages of 62 KB from
one guest in 27 s, and let one session open 300 sockets)."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.websockets import WebSocketDisconnect

from koikoi.server.routes.tablesocket import (
    CLOSE_FLOODED,
    CLOSE_REPLACED,
    FLOOD_MESSAGES,
    MAX_SOCKETS,
)
from test_tables import seated_pair


def closed_with(live: Any) -> tuple[str, int]:
    """What a socket hears as it is closed: the reason, then the close code (the
    answers to earlier messages may come first)."""
    while True:
        try:
            message = live.receive_json()
        except WebSocketDisconnect as gone:
            return "", int(gone.code)
        if message.get("type") == "error":
            with pytest.raises(WebSocketDisconnect) as closed:
                live.receive_json()
            return str(message["detail"]), int(closed.value.code)


def test_a_socket_that_floods_is_closed(app: FastAPI) -> None:
    host, _, table_id = seated_pair(app)
    with host.websocket_connect(f"/api/tables/{table_id}/live") as live:
        assert live.receive_json()["type"] == "state"
        for _ in range(FLOOD_MESSAGES):
            live.send_text("x" * 60_000)  # not JSON: each would be refused, one by one
        detail, code = closed_with(live)
    assert code == CLOSE_FLOODED
    assert "more messages" in detail


def test_a_page_at_play_is_no_flood(app: FastAPI) -> None:
    host, _, table_id = seated_pair(app)
    with host.websocket_connect(f"/api/tables/{table_id}/live") as live:
        assert live.receive_json()["type"] == "state"
        for _ in range(FLOOD_MESSAGES - 1):  # refused moves, answered one by one
            live.send_text("{}")
            assert live.receive_json()["type"] == "refused"
        for _ in range(3 * FLOOD_MESSAGES):  # pings cost nothing, and do not count
            live.send_text("ping")
            assert live.receive_text() == "pong"


def test_a_session_holds_at_most_so_many_sockets_the_oldest_closing(app: FastAPI) -> None:
    host, _, table_id = seated_pair(app)
    path = f"/api/tables/{table_id}/live"
    with ExitStack() as stack:
        sockets = [stack.enter_context(host.websocket_connect(path)) for _ in range(MAX_SOCKETS)]
        for live in sockets:
            assert live.receive_json()["type"] == "state"
        newest = stack.enter_context(host.websocket_connect(path))
        assert newest.receive_json()["type"] == "state"
        detail, code = closed_with(sockets[0])
        assert code == CLOSE_REPLACED
        assert "oldest" in detail
        for live in [*sockets[1:], newest]:  # the newest eight play on
            live.send_text("ping")
            assert live.receive_text() == "pong"


def gone_but_one(app: FastAPI) -> None:
    """Wait until one socket alone listens to a session (a closed page's handler has
    said it is gone, which it does before it stops listening)."""
    broker = app.state.services.broker
    deadline = time.monotonic() + 10
    while True:
        with broker._lock:
            counts = [len(found) for name, found in broker._listeners.items() if "session:" in name]
        if counts == [1]:
            return
        assert time.monotonic() < deadline, counts
        time.sleep(0.01)


def test_a_closed_socket_leaves_room_for_another(app: FastAPI) -> None:
    host, _, table_id = seated_pair(app)
    path = f"/api/tables/{table_id}/live"
    with ExitStack() as stack:
        first = stack.enter_context(host.websocket_connect(path))
        assert first.receive_json()["type"] == "state"
        for _ in range(MAX_SOCKETS):  # reloads: each page closes before the next opens
            with host.websocket_connect(path) as page:
                assert page.receive_json()["type"] == "state"
            gone_but_one(app)
        first.send_text("ping")
        assert first.receive_text() == "pong"
