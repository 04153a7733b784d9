"""The HTTP boundary: what every request must pass before a route sees it, and what
every refusal looks like.

A request body is at most :data:`MAX_BODY_BYTES` (413 otherwise, from its
Content-Length before any of it is read, else counted as it streams); a JSON body
must be standard JSON (RFC 8259: UTF-8, no NaN or Infinity, no lone surrogates, no
number a double cannot hold or an integer past 2**53, nesting at most
:data:`MAX_JSON_DEPTH` deep). Every
refusal, a route's own or a validation error, answers :class:`ErrorBody`: a
readable ``detail`` string, and for invalid input the ``errors`` it lists, never
echoing the input itself. An unexpected exception answers 500 ``internal error``,
its traceback in the log, and the connection stays usable.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import math
import re
from collections.abc import Iterable, Mapping
from email.message import Message as MimeMessage
from functools import cache
from typing import Any, TypeVar

import pydantic_core
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from koikoi.server.errors import answer_of
from koikoi.store.database import RETRY_AFTER, unavailable

ModelT = TypeVar("ModelT", bound=BaseModel)

MAX_BODY_BYTES = 64 * 1024
"""The largest request body read: a game's largest legitimate body is a few hundred bytes."""
MAX_JSON_DEPTH = 32
"""The deepest nesting of arrays and objects in a body (a game's bodies nest three deep)."""
MAX_EXACT_INTEGER = 2**53 - 1
"""The largest integer every JSON reader holds exactly (RFC 7493 §2.2)."""
SHOWN_VALUE = 40
"""How much of a bad value a refusal quotes."""

logger = logging.getLogger("koikoi.server")


class Issue(BaseModel):
    """One problem with a request's input."""

    loc: list[str | int] = Field(description='Where: e.g. ["body", "difficulty"].')
    msg: str = Field(description="What is wrong there.")
    type: str = Field(description="The kind of problem, e.g. missing or literal_error.")


class ErrorBody(BaseModel):
    """Every refusal and error: ``detail`` to show a person, ``errors`` for programs."""

    detail: str = Field(description="What went wrong, in a sentence that names the bad value.")
    errors: list[Issue] | None = Field(
        default=None, description="For invalid input (422): each problem, where it is."
    )


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI's description of the refusals ``codes``, all of them :class:`ErrorBody`."""
    meanings = {
        400: "The action is not legal in this state.",
        401: "Not signed in, or the password is wrong.",
        403: "The CSRF token is missing or wrong, the session has ended, or it is not"
        " this player's to do (a full table, the other seat's move).",
        404: "There is no such thing (or it is not this browser's).",
        409: "The state has moved on (another tab, a finished match): reload.",
        410: "It is gone: a table closed before anyone sat down at it.",
        413: f"The request body is larger than {MAX_BODY_BYTES} bytes.",
        422: "The input is invalid: not standard JSON, or not what the route takes.",
        429: "Too many attempts: wait for Retry-After seconds.",
        500: "An unexpected error (it is logged on the server).",
        503: "The database cannot take the request now (a full disk, a restart), or the"
        " coach is busy: try again after Retry-After seconds.",
    }
    described: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        described[code] = {"model": ErrorBody, "description": meanings[code]}
    for waited in {429, 503} & set(codes):
        described[waited]["headers"] = {
            "Retry-After": {
                "description": "Seconds to wait before trying again.",
                "schema": {"type": "integer"},
            }
        }
    return described


def _shown(value: Any) -> str:
    """A bad value as a refusal quotes it: short, and never bigger than a line."""
    if isinstance(value, str | bytes | int | float | bool) or value is None:
        text = repr(value)
        return text if len(text) <= SHOWN_VALUE else f"{text[:SHOWN_VALUE]}…"
    return "an object" if isinstance(value, Mapping) else f"a {type(value).__name__}"


def _issues(errors: Iterable[Any]) -> tuple[str, list[dict[str, Any]]]:
    """Pydantic's errors as one readable sentence and as :class:`Issue` dicts."""
    sentences, listed = [], []
    for error in errors:
        loc = [part if isinstance(part, int) else str(part) for part in error.get("loc", ())]
        msg = str(error.get("msg", "invalid"))
        kind = str(error.get("type", "invalid"))
        where = ".".join(str(part) for part in loc) or "request"
        # A missing field's "input" is the object around it: nothing to name.
        got = f" (got {_shown(error['input'])})" if "input" in error and kind != "missing" else ""
        sentences.append(f"{where}: {msg}{got}")
        listed.append({"loc": loc, "msg": msg, "type": kind})
    return "; ".join(sentences), listed


def refusal(status: int, detail: str, **extra: Any) -> JSONResponse:
    headers = extra.pop("headers", None)
    return JSONResponse({"detail": detail, **extra}, status_code=status, headers=headers)


class MessageError(ValueError):
    """A WebSocket message refused as its request would be: the status HTTP would answer
    and the sentence that names the problem."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def parsed_message(text: str, model: type[ModelT]) -> ModelT:
    """A WebSocket message read as ``model``, held to the rules of a JSON request body."""
    try:
        check_json(text.encode("utf-8", "surrogatepass"))
    except NotStandardJSON as error:
        raise MessageError(422, f"the message is not standard JSON: {error.message}") from None
    try:
        return model.model_validate_json(text)
    except ValidationError as error:
        raise MessageError(422, _issues(error.errors())[0]) from None


async def validation_error(_request: Request, error: Exception) -> JSONResponse:
    """422 for invalid input, naming each problem; the input itself is never echoed,
    as it may be anything (bytes that are not text, numbers JSON cannot write)."""
    assert isinstance(error, RequestValidationError)
    detail, listed = _issues(error.errors())
    return refusal(422, detail, errors=listed)


async def http_error(request: Request, error: Exception) -> JSONResponse:
    """A route's or the router's refusal, its ``detail`` always a string. A 405 names
    every method the path allows (the router names only the first route's)."""
    assert isinstance(error, HTTPException)
    detail = error.detail if isinstance(error.detail, str) else str(error.detail)
    headers = error.headers
    if error.status_code == 405:
        named = (headers or {}).get("Allow", "")
        headers = {**(headers or {}), "Allow": ", ".join(allowed_methods(request, named))}
    return refusal(error.status_code, detail, headers=headers)


def allowed_methods(request: Request, named: str = "") -> list[str]:
    """The methods the app answers at the request's path: those ``named`` (the
    router's Allow) and every operation the API's schema has at a path template that
    matches it."""
    methods = {method.strip() for method in named.split(",") if method.strip()}
    paths: dict[str, dict[str, Any]] = request.app.openapi()["paths"]
    for template, operations in paths.items():
        if _template(template).fullmatch(request.url.path):
            methods |= {method.upper() for method in operations if method in _METHODS}
    if "GET" in methods:
        methods.add("HEAD")  # every GET route answers HEAD (traffic.HeadAsGet)
    return sorted(methods)


_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


@cache
def _template(template: str) -> re.Pattern[str]:
    """A path template of the schema (``/api/tables/{table_id}``) as a pattern."""
    parts = re.split(r"\{[^}]+\}", template)
    return re.compile("[^/]+".join(re.escape(part) for part in parts))


async def domain_error(_request: Request, error: Exception) -> JSONResponse:
    """A refusal from below the routes (koikoi.server.errors), answered by its status."""
    status, detail, headers = answer_of(error)
    return refusal(status, detail, headers=headers)


class NotStandardJSON(ValueError):
    """A body that is JSON to a lenient reader only (or not at all)."""

    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        """Where in the body, when the body parsed."""


_POSITION = re.compile(r"at line (\d+) column (\d+)$")


def _excerpt(body: bytes, message: str) -> str:
    """The text at the position a parse error names, to show what was refused."""
    found = _POSITION.search(message)
    if found is None:
        return ""
    line, column = int(found[1]), int(found[2])
    lines = body.split(b"\n")
    if line > len(lines):
        return ""
    # The reader names where it gave up, often just after the bad part: show both.
    at = lines[line - 1][max(column - 13, 0) : column + 8]
    return f" (at {at.decode('utf-8', 'backslashreplace')!r})" if at else ""


def check_json(body: bytes) -> None:
    """Raise :class:`NotStandardJSON` unless ``body`` is standard JSON that every
    reader takes the same way; the message names what is wrong and where."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = body[error.start : error.end]
        raise NotStandardJSON(f"it is not UTF-8 (byte {bad!r} at offset {error.start})") from None
    try:
        # pydantic's reader is strict where Python's json module is lenient: it
        # refuses NaN and Infinity, invalid UTF-8 and lone surrogates.
        value = pydantic_core.from_json(body, allow_inf_nan=False)
    except ValueError as error:
        message = str(error)
        if message.startswith("recursion limit exceeded"):
            raise NotStandardJSON(f"it is nested deeper than {MAX_JSON_DEPTH} levels") from None
        raise NotStandardJSON(message + _excerpt(body, message)) from None
    # Readers disagree on which of two equal keys wins (pydantic's takes the last,
    # others the first, some refuse): a body that says two things is refused.
    json.loads(body, object_pairs_hook=_one_of_each)
    # Iteratively, so no nesting can exhaust the stack; each value with its path.
    pending: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while pending:
        item, path = pending.pop()
        where = ".".join(str(part) for part in path) or "the body"
        if isinstance(item, dict | list):
            if len(path) >= MAX_JSON_DEPTH:
                raise NotStandardJSON(f"it is nested deeper than {MAX_JSON_DEPTH} levels", path)
            children = item.items() if isinstance(item, dict) else enumerate(item)
            pending.extend((child, (*path, key)) for key, child in children)
        elif isinstance(item, float) and not math.isfinite(item):
            raise NotStandardJSON(
                f"the number at {where} is too large for a double ({_number_at(body)})", path
            )
        elif isinstance(item, int) and abs(item) > MAX_EXACT_INTEGER:
            raise NotStandardJSON(
                f"the integer {_shown(str(item))} at {where} is beyond ±{MAX_EXACT_INTEGER},"
                " the most JSON readers hold exactly",
                path,
            )


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members, refused where one key appears twice."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise NotStandardJSON(f"the key {_shown(key)} appears twice in one object")
        found[key] = value
    return found


def _number_at(body: bytes) -> str:
    """The first number literal with an exponent past a double's range, as written."""
    for found in re.finditer(rb"-?\d+(?:\.\d+)?[eE][+-]?\d+", body):
        if not math.isfinite(float(found[0])):
            return found[0].decode("ascii")
    return "an overflowing literal"


def _is_json(content_type: str | None) -> bool:
    """Whether FastAPI will read a body of this type as JSON (the same test it makes)."""
    if not content_type:
        return False
    message = MimeMessage()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


class BodyGuard:
    """Reads each request's body, refuses an oversized or non-standard-JSON one, and
    hands the app the body it read.

    The body is small by then, so reading it whole costs nothing, and every route,
    whether it reads its body or not, sees only bodies that passed. (Starlette's
    body limit, behind FastAPI's ``max_body_size``, answers a declared oversized
    body with its own plain-text 413 whatever the app sends, and keeps the
    connection, so the server goes on reading the whole body to reach the next
    request: hence this one.)
    """

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            # Refused before a byte of it is read (a client that sent
            # "Expect: 100-continue" is never asked for it).
            await self._too_large(scope, receive, send, f"of {int(declared)} bytes ")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client went away mid-body: nobody to answer
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large(scope, receive, send, "")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and _is_json(headers.get("content-type")):
            try:
                check_json(body)
            except NotStandardJSON as error:
                detail = f"the request body is not standard JSON: {error.message}"
                loc = ["body", *error.path]
                issue = {"loc": loc, "msg": error.message, "type": "json_invalid"}
                await refusal(422, detail, errors=[issue])(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # the client's disconnect, when it comes
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send, size: str) -> None:
        detail = (
            f"the request body {size}is larger than {self.max_bytes} bytes"
            f" ({self.max_bytes / 1024:g} KiB), the most this server reads"
        )
        # Closing the connection spares reading the rest of the body.
        response = refusal(413, detail, headers={"Connection": "close"})
        await response(scope, receive, send)


class ErrorGuard:
    """Answers an exception no route handled with 500 ``internal error`` and logs
    its traceback; or, where the database cannot take the request now (a full disk,
    a server restarting: koikoi.store.database.unavailable), with 503 and
    Retry-After, logged in a line.

    Starlette's own last-resort handler re-raises after answering, so the server
    closes the connection and the browser's next request on it is reset; handled
    here, the exception goes no further and the connection stays usable.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as error:
            reason = unavailable(error)
            if reason is not None:  # the machine's state, not a fault: no traceback
                logger.warning("%s %s: %s", scope["method"], scope["path"], reason)
            else:
                logger.exception("unexpected error answering %s %s", scope["method"], scope["path"])
            if started:
                raise  # half an answer sent: only closing the connection can end it
            if reason is not None:
                answer = refusal(
                    503,
                    f"the game cannot store anything now ({reason}); try again shortly",
                    headers={"Retry-After": str(RETRY_AFTER)},
                )
            else:
                answer = refusal(500, "internal error")
            await answer(scope, receive, send)


class InlineScriptPolicy:
    """The Content-Security-Policy of pages that start themselves with inline scripts
    (Swagger UI's, at ``paths``): ``policy``, with those very scripts allowed by
    their SHA-256, so no other inline script could run there. Read from the page
    itself (it is small, and buffered whole), so it holds whatever the page holds."""

    def __init__(self, app: ASGIApp, paths: set[str], policy: str) -> None:
        self.app = app
        self.paths = paths
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in self.paths:
            await self.app(scope, receive, send)
            return
        start: Message = {}
        body: list[bytes] = []

        async def held(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            page = b"".join(body)
            MutableHeaders(scope=start)["Content-Security-Policy"] = script_policy(
                self.policy, page
            )
            await send(start)
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, held)


_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def script_policy(policy: str, page: bytes) -> str:
    """``policy`` with a ``script-src`` that allows the page's inline scripts by hash."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"
        for script in _INLINE_SCRIPT.findall(page)
    )
    return f"{policy}; script-src 'self' {hashes}".rstrip()


class ResponseHeaders:
    """Adds ``headers`` to every response that has not set them itself, refusals and
    errors included, and ``Cache-Control: no-store`` to API answers that set no
    caching of their own: they carry the CSRF token and players' games, which no
    cache may keep."""

    def __init__(self, app: ASGIApp, headers: Mapping[str, str]) -> None:
        self.app = app
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        private = path.startswith("/api/") or path == "/healthz"

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    headers.setdefault(name, value)
                if private:
                    headers.setdefault("Cache-Control", "no-store")
            await send(message)

        await self.app(scope, receive, with_headers)
