"""Serving the app with uvicorn, with limits on connections and what they send.

uvicorn closes a connection left idle after a response (``timeout_keep_alive``),
but not one that has not finished a request's headers: one that connects and sends
nothing, or a byte now and then, holds its socket (an open file) forever, and some
thousands of them exhaust the server's open-files limit. :class:`LimitedHttpTools`,
uvicorn's own httptools protocol with three additions, closes those: each request's
head has :attr:`Limits.header_timeout` seconds from the connection's start or the
previous response's end, at most :attr:`Limits.max_header_bytes` bytes (431
beyond), and connections beyond :attr:`Limits.max_connections` are closed as soon
as they are accepted.

Forwarded headers (X-Forwarded-For, X-Forwarded-Proto) are believed only from the
proxies named: by default from none, so a client cannot choose the address its
sign-in attempts are counted against.
"""

from __future__ import annotations

import asyncio
import copy
import ipaddress
import logging
from contextlib import suppress
from typing import Any

import uvicorn
from uvicorn.config import LOGGING_CONFIG
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

from koikoi.server.boundary import MAX_BODY_BYTES
from koikoi.server.limits import Limits

WS_PING_SECONDS = 20.0
"""How often the server pings a WebSocket, and how long it waits for the pong."""


class ServerConfig(uvicorn.Config):
    """uvicorn's configuration with :class:`Limits`, forwarded headers trusted only
    from ``forwarded_allow_ips`` (comma-separated addresses or networks, ``*`` for
    any; None trusts nobody), and the server's own log on standard error."""

    def __init__(
        self,
        app: Any,
        *,
        limits: Limits | None = None,
        forwarded_allow_ips: str | None = None,
        log_level: str = "info",
        **options: Any,
    ) -> None:
        self.limits = limits or Limits()
        super().__init__(
            app,
            http=LimitedHttpTools,
            timeout_keep_alive=self.limits.keep_alive,
            # uvicorn's default trusts 127.0.0.1, or $FORWARDED_ALLOW_IPS: any local
            # process, and anyone when the server is reached through no proxy at all.
            proxy_headers=forwarded_allow_ips is not None,
            forwarded_allow_ips=forwarded_allow_ips or "",
            log_config=log_config(log_level),
            log_level=log_level,
            # The app writes its own access log (koikoi.server.traffic), in the
            # Common Log Format and with the bytes sent.
            access_log=False,
            # A WebSocket message is held to a request body's limit (a move is a few
            # dozen bytes); a bigger one closes the socket (1009).
            ws_max_size=MAX_BODY_BYTES,
            # The server pings every socket (a browser answers by itself, and sends no
            # pings of its own): proxies see traffic both ways and keep an idle table's
            # connection, and a peer gone without closing is noticed.
            ws_ping_interval=WS_PING_SECONDS,
            ws_ping_timeout=WS_PING_SECONDS,
            **options,
        )
        self.proxies = _networks(forwarded_allow_ips or "")
        """The proxies believed (no address is held to a share of the connections)."""

    def is_proxy(self, host: str | None) -> bool:
        if host is None or not self.proxies:
            return False
        if self.proxies == "*":
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:  # a Unix socket's peer, say: not an address
            return False
        return any(address in network for network in self.proxies)


def _networks(
    allowed: str,
) -> str | list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """``--forwarded-allow-ips`` as networks (``*``: any)."""
    names = [name.strip() for name in allowed.split(",") if name.strip()]
    if "*" in names:
        return "*"
    networks = []
    for name in names:
        with suppress(ValueError):  # uvicorn reads the same setting, and names its errors
            networks.append(ipaddress.ip_network(name, strict=False))
    return networks


def log_config(level: str = "info") -> dict[str, Any]:
    """uvicorn's logging, plus the app's own loggers at ``level``: ``koikoi``, where
    unexpected errors go with their tracebacks, on uvicorn's standard-error handler,
    and the access log ``koikoi.access``, one Common Log Format line a request, on
    standard output."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["line"] = {"format": "%(message)s"}
    config["handlers"]["lines"] = {
        "formatter": "line",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stdout",
    }
    # uvicorn and the websockets library log three lines a WebSocket (accepted, open,
    # closed) on uvicorn's error log: they are traffic, so they go with the access log.
    config["filters"] = {
        "traffic": {"()": ConnectionLines, "wanted": True},
        "no_traffic": {"()": ConnectionLines, "wanted": False},
    }
    config["handlers"]["default"]["filters"] = ["no_traffic"]
    config["handlers"]["connections"] = {**config["handlers"]["lines"], "filters": ["traffic"]}
    config["loggers"]["uvicorn.error"] = {
        **config["loggers"].get("uvicorn.error", {"level": "INFO"}),
        "handlers": ["default", "connections"],
        "propagate": False,
    }
    config["loggers"]["koikoi"] = {"handlers": ["default"], "level": level.upper()}
    config["loggers"]["koikoi.access"] = {
        "handlers": ["lines"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


class ConnectionLines(logging.Filter):
    """Passes the log's lines about single WebSocket connections (``wanted``), or
    everything else."""

    LINES = ("connection open", "connection closed")

    def __init__(self, wanted: bool) -> None:
        super().__init__()
        self.wanted = wanted

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        about_one = record.levelno == logging.INFO and (
            message in self.LINES or message.endswith('"WebSocket %s" [accepted]')
        )
        return about_one == self.wanted


def _host_of(connection: object) -> str | None:
    client = getattr(connection, "client", None)
    return client[0] if client else None


class HeadTooLarge(Exception):
    """Raised from a parser callback: stops parsing a head over the byte limit."""


class LimitedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline and a size limit for every
    request's head, and a limit on connections (see the module's description)."""

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.limits = config.limits if isinstance(config, ServerConfig) else Limits()
        self.head_deadline: asyncio.TimerHandle | None = None
        self.head_bytes = 0
        """Bytes of the current head the parser has handed over (the target, headers)."""
        self.awaiting_head = True
        self.arrived_bytes = 0
        """Bytes received since the current head began, parsed or not: the parser
        keeps an unfinished header to itself, however long it grows."""
        self.head_too_large = False
        self.body_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            self.logger.warning(
                "closed a connection: %d are open, the limit is %d",
                len(self.connections),
                self.limits.max_connections,
            )
            transport.close()
            return
        host = self.client[0] if self.client else None
        trusted = isinstance(self.config, ServerConfig) and self.config.is_proxy(host)
        if host is not None and not trusted:
            held = sum(1 for other in self.connections if _host_of(other) == host)
            if held > self.limits.per_address:
                self.logger.warning(
                    "closed a connection from %s: it holds %d, the most one address may",
                    host,
                    self.limits.per_address,
                )
                transport.close()
                return
        self._start_head_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_deadline()
        self._cancel_body_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.awaiting_head:
            self.arrived_bytes += len(data)
        super().data_received(data)
        if self.awaiting_head and self.arrived_bytes > self.limits.max_header_bytes:
            self.head_too_large = True
            self.send_400_response("")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_bytes = 0

    def on_headers_complete(self) -> None:
        self.awaiting_head = False
        super().on_headers_complete()
        # The body has as long as the head had: one that trickles (or never comes)
        # would hold the connection, and the app's wait for it, for ever.
        self._cancel_head_deadline()
        self.body_deadline = self.loop.call_later(self.limits.header_timeout, self._body_timed_out)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._cancel_body_deadline()
        self.awaiting_head = True
        self.arrived_bytes = 0

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value))
        super().on_header(name, value)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._start_head_deadline()  # for the next request on this connection

    def handle_websocket_upgrade(self) -> None:
        # The connection becomes a WebSocket protocol's, and this one never hears of
        # it again (no connection_lost): its deadline for the next head must go now,
        # or it would close a live table's WebSocket a few seconds in.
        self._cancel_head_deadline()
        self._cancel_body_deadline()
        super().handle_websocket_upgrade()

    def send_400_response(self, msg: str) -> None:
        # uvicorn answers any error raised while parsing with this; the one raised
        # for a head over the limit deserves its own status.
        if not self.head_too_large:
            super().send_400_response(msg)
            return
        if self.transport.is_closing():
            return
        message = f"request headers larger than {self.limits.max_header_bytes} bytes".encode(
            "ascii"
        )
        self.transport.write(
            b"".join(
                [
                    STATUS_LINE[431],
                    b"content-type: text/plain; charset=utf-8\r\n",
                    b"content-length: %d\r\n" % len(message),
                    b"connection: close\r\n\r\n",
                    message,
                ]
            )
        )
        self.transport.close()

    def _count_head(self, size: int) -> None:
        self.head_bytes += size
        if self.head_bytes > self.limits.max_header_bytes:
            self.head_too_large = True
            raise HeadTooLarge

    def _start_head_deadline(self) -> None:
        self._cancel_head_deadline()
        if not self.transport.is_closing():
            self.head_deadline = self.loop.call_later(
                self.limits.header_timeout, self._head_timed_out
            )

    def _cancel_head_deadline(self) -> None:
        if self.head_deadline is not None:
            self.head_deadline.cancel()
            self.head_deadline = None

    def _cancel_body_deadline(self) -> None:
        if self.body_deadline is not None:
            self.body_deadline.cancel()
            self.body_deadline = None

    def _body_timed_out(self) -> None:
        """The body did not arrive whole in time: 408 (if nothing was answered yet),
        and the connection closes, which the app's wait for the body hears."""
        self.body_deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or not self.cycle.response_started:
            message = b"the request body did not arrive in time"
            self.transport.write(
                b"".join(
                    [
                        STATUS_LINE[408],
                        b"content-type: text/plain; charset=utf-8\r\n",
                        b"content-length: %d\r\n" % len(message),
                        b"connection: close\r\n\r\n",
                        message,
                    ]
                )
            )
        self.transport.close()

    def _head_timed_out(self) -> None:
        self.head_deadline = None
        # A request whose head has arrived is the app's to answer, however long it
        # takes; the deadline starts again when its response is complete.
        waiting_for_head = self.cycle is None or self.cycle.response_complete
        if waiting_for_head and not self.transport.is_closing():
            self.transport.close()
