"""What every request passes through on its way in and out: HEAD answered as GET
without its body, one access-log line per request in the Common Log Format, the
files every device downloads compressed once, at the best level, and the client's
scripts minified.

All are plain ASGI middleware; the first two are outermost in the app, so the log
sees the bytes that really went out (compressed, or none for a HEAD).
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection
from functools import lru_cache
from os import PathLike
from typing import Any, ClassVar

import anyio.to_thread
import brotli
import rjsmin
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
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


BEST_ENCODINGS = ("br", "gzip")
"""The codings :class:`BestCompression` uses, the smaller first: brotli at quality 11
is about a sixth smaller than zstd, brotli or gzip at the levels that suit a response
made per request (starlette-compress's)."""


class BestCompression:
    """The files every device downloads (the service worker's list: the client, card
    art, catalogs), compressed at the best level once and kept, not at a quick level
    at every request: the offline download is what a phone pays for most.

    It asks the app inside for the plain answer, then sends it brotli-11 or gzip-9
    packed when the browser accepts one and the packed body is smaller. Packed
    bodies are kept by the hash of the plain one, so an answer that changes is packed
    again, never stale. Anything else (an error, a 304, other addresses) goes as the
    app inside answers; put this outside the per-request compression.
    """

    KEPT = 512
    """Packed bodies kept, shared by every app of the process (each address of the
    list has one or two)."""
    packed: ClassVar[OrderedDict[tuple[bytes, str], bytes]] = OrderedDict()
    lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, app: ASGIApp, paths: Callable[[], Collection[str]]) -> None:
        self.app = app
        self.paths = paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "GET"
            or scope.get("query_string")
            or scope["path"] not in self.paths()
        ):
            await self.app(scope, receive, send)
            return
        accepted = accepted_codings(Headers(scope=scope).get("accept-encoding", ""))
        coding = next((name for name in BEST_ENCODINGS if name in accepted), None)
        if coding is None:
            await self.app(scope, receive, send)
            return
        headers = [(k, v) for k, v in scope["headers"] if k != b"accept-encoding"]
        plain_scope = {**scope, "headers": [*headers, (b"accept-encoding", b"identity")]}
        start: Message | None = None
        chunks: list[bytes] = []

        async def keep(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(plain_scope, receive, keep)
        assert start is not None, "the app sent no response"
        body = b"".join(chunks)
        answer = MutableHeaders(raw=list(start["headers"]))
        answer.add_vary_header("Accept-Encoding")
        if start["status"] == 200 and "content-encoding" not in answer:
            packed = self.kept(body, coding)
            if packed is None:  # the first time: packing takes up to a fifth of a second
                packed = await anyio.to_thread.run_sync(self.pack, body, coding)
            if len(packed) < len(body):
                body = packed
                answer["Content-Encoding"] = coding
                answer["Content-Length"] = str(len(body))
        await send({**start, "headers": answer.raw})
        await send({"type": "http.response.body", "body": body})

    @classmethod
    def kept(cls, body: bytes, coding: str) -> bytes | None:
        """The body packed before, if it is still kept."""
        key = (hashlib.sha256(body).digest(), coding)
        with cls.lock:
            if key in cls.packed:
                cls.packed.move_to_end(key)
                return cls.packed[key]
        return None

    @classmethod
    def pack(cls, body: bytes, coding: str) -> bytes:
        """The body packed with ``coding`` at its best level, kept for next time."""
        key = (hashlib.sha256(body).digest(), coding)
        if coding == "br":
            packed: bytes = brotli.compress(body, quality=11)
        else:
            packed = gzip.compress(body, compresslevel=9, mtime=0)
        with cls.lock:
            cls.packed[key] = packed
            while len(cls.packed) > cls.KEPT:
                cls.packed.popitem(last=False)
        return packed


def accepted_codings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts (``*`` as itself).

    >>> sorted(accepted_codings("gzip, deflate, br;q=0.5, zstd;q=0"))
    ['br', 'deflate', 'gzip']
    """
    accepted = set()
    for item in header.split(","):
        coding, _, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if coding.strip() and quality > 0:
            accepted.add(coding.strip().lower())
    return accepted


class ClientFiles(StaticFiles):
    """The browser client's folder, its scripts sent without their comments and spare
    whitespace (rjsmin). The modules stay as written, with every comment, in the
    package; the devices that download them, offline caches included, get a third
    less to unpack and keep. Anything else goes as the folder holds it."""

    def file_response(
        self,
        full_path: PathLike[str] | str,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        if not os.fspath(full_path).endswith((".js", ".mjs")):
            return super().file_response(full_path, stat_result, scope, status_code)
        body, etag = minified(os.fspath(full_path), stat_result.st_mtime_ns, stat_result.st_size)
        if Headers(scope=scope).get("if-none-match") == etag:
            return Response(status_code=304, headers={"ETag": etag})
        return Response(body, status_code, {"ETag": etag}, media_type="text/javascript")


@lru_cache(maxsize=256)
def minified(path: str, mtime_ns: int, size: int) -> tuple[bytes, str]:
    """A script's minified text and its ETag, made once per version of the file (its
    modification time and size are part of the key for that)."""
    del mtime_ns, size
    with open(path, encoding="utf-8") as handle:
        body = rjsmin.jsmin(handle.read()).encode()
    return body, f'"{hashlib.sha256(body).hexdigest()[:32]}"'
