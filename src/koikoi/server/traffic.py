"""What every request passes through on its way in and out: HEAD answered as GET
without its body, and one access-log line per request in the Common Log Format.

Both are plain ASGI middleware, outermost in the app, so the log sees the bytes
that really went out (compressed, or none for a HEAD).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

ACCESS = logging.getLogger("koikoi.access")


class HeadAsGet:
    """Any page that answers GET answers HEAD: the same status and headers (its
    Content-Length included), no body. FastAPI's routes only take the methods they
    name, so without this ``HEAD /`` is a 405."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


class AccessLog:
    """One line per request on the ``koikoi.access`` logger, in the Common Log Format
    that log tools read: ``host - - [time] "request line" status bytes``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not ACCESS.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        status = 500  # unless the app answers, which it always should
        sent = 0

        async def counting(message: Message) -> None:
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, counting)
        finally:
            ACCESS.info(common_log_line(scope, status, sent, time.time()))


def common_log_line(scope: Scope, status: int, sent: int, when: float) -> str:
    """A request as one Common Log Format line (``-`` for what is not known).

    >>> scope = {"client": ("203.0.113.9", 5000), "method": "GET", "path": "/api/rules",
    ...          "query_string": b"lang=fr", "http_version": "1.1"}
    >>> common_log_line(scope, 200, 512, 0.0)
    '203.0.113.9 - - [01/Jan/1970:00:00:00 +0000] "GET /api/rules?lang=fr HTTP/1.1" 200 512'
    """
    client: Any = scope.get("client")
    host = client[0] if client else "-"
    query = scope.get("query_string", b"").decode("latin-1")
    target = scope["path"]
    if query:
        target += "?" + query
    stamp = time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(when))
    request = f"{scope['method']} {target} HTTP/{scope.get('http_version', '1.1')}"
    # A request line is the client's text: quotes and control characters in it could
    # forge a second line or field, so they are escaped.
    request = request.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    return f'{host} - - [{stamp}] "{request}" {status} {sent or "-"}'
