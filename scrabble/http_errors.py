"""HTTP error bodies both services answer with, and the gateway's request guards.

Every error is `{"error": "<field>: <problem>", "detail": [{"field", "message"}]}`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

Body = dict[str, Any]
_log = logging.getLogger("scrabble.http")
# "board[3]: ...", "cgp: ..." name a field; "invalid literal for int(): ..." does not
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
# Deeper than any request the services take (theirs is 2) and far below the
# parsers' own limits (json.loads: the recursion limit, about 1000; orjson: 1024),
# so every deep body gets the same answer.
MAX_JSON_DEPTH = 64
_FIELD_PREFIX = re.compile(r"[a-z_][a-z0-9_]*(\[[0-9]+\])?")


def _field(loc: Sequence[object]) -> str:
    parts = [str(p) for p in loc if p != "body"]
    return ".".join(parts) if parts else "body"


def field_error(field: str, message: str, error: str | None = None) -> Body:
    """The body of an error about one named field; ``error``, the one-line
    summary, is "field: message" unless given."""
    return {
        "error": error or f"{field}: {message}",
        "detail": [{"field": field, "message": message}],
    }


def too_large(max_bytes: int) -> Body:
    return field_error("body", f"request body is larger than {max_bytes} bytes")


def error_content(errors: Sequence[Mapping[str, Any]]) -> tuple[int, Body]:
    """pydantic's errors -> (status, body): 400 for malformed JSON, else 422,
    with ``detail: [{field, message}]`` and a one-line ``error``."""
    detail = []
    status = 422
    for err in errors:
        kind = err.get("type", "")
        message = str(err.get("msg", "invalid"))
        if message.startswith("Value error, "):
            message = message[len("Value error, ") :]
        field = _field(tuple(err.get("loc", ())))
        if kind == "json_invalid":
            status = 400
            ctx = err.get("ctx") or {}
            message = f"malformed JSON ({ctx.get('error', 'cannot be parsed')})"
            field = "body"
        elif kind == "extra_forbidden":
            message = "unknown field"
        elif kind == "literal_error" and field == "engine":
            message = f"unknown engine {err.get('input')!r}; {message}"
        elif field == "body" and kind == "value_error":
            # model-level checks say "<field>: <problem>"
            prefix, colon, rest = message.partition(": ")
            if colon and _FIELD_PREFIX.fullmatch(prefix):
                field, message = prefix, rest
        detail.append({"field": field, "message": message})
    summary = "; ".join(f"{d['field']}: {d['message']}" for d in detail)
    return status, {"error": summary, "detail": detail}


async def validation_error_response(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)  # the only exception it is registered for
    status, content = error_content(list(exc.errors()))
    return JSONResponse(status_code=status, content=content)


class BodyError(ValueError):
    """A body that is not UTF-8 JSON the services read; 400 with this message."""


def json_text(raw: bytes) -> bytes:
    """The body as the services parse it: UTF-8 with an optional byte-order
    mark (dropped), nested at most ``MAX_JSON_DEPTH`` levels.

    RFC 8259 requires UTF-8 between systems; json.loads would also guess
    UTF-16 and UTF-32 and pydantic's parser would not, so both services refuse
    them here, the same way. A NUL byte cannot occur in UTF-8 JSON (strings
    escape it), but it is valid UTF-8, so it is what gives UTF-16/32 away.
    """
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in raw:
        raise BodyError("must be UTF-8 JSON (this looks like UTF-16 or UTF-32)")
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BodyError(f"must be UTF-8 JSON (invalid UTF-8 at byte {exc.start})") from None
    if raw.count(b"[") + raw.count(b"{") > MAX_JSON_DEPTH and json_depth(raw) > MAX_JSON_DEPTH:
        raise BodyError(f"JSON nested too deeply (at most {MAX_JSON_DEPTH} levels)")
    return raw


def json_depth(raw: bytes) -> int:
    """How deep ``raw``'s brackets nest, strings left out; in C-speed steps
    (a regex and a cumulative sum), so a 64 KiB body costs well under a ms."""
    text = _JSON_STRING.sub(b'""', raw)
    codes = np.frombuffer(text, dtype=np.uint8)
    steps = (codes == ord("[")).astype(np.int32) + (codes == ord("{"))
    steps -= (codes == ord("]")).astype(np.int32) + (codes == ord("}"))
    return int(np.cumsum(steps).max(initial=0))


class BodyGuard:
    """Read a request's whole body (it is small by contract) before the app
    does: 413 over ``max_bytes`` whether announced by Content-Length or sent
    chunked, 400 for a body that is not UTF-8 JSON; the app then receives the
    checked body in one message.

    Reading first also keeps the 413 from reaching the framework as an error
    raised while it parses (FastAPI turns that into 400)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await _answer(scope, send, 413, too_large(self.max_bytes))
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the caller went away: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _answer(scope, send, 413, too_large(self.max_bytes))
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        if raw.strip():
            try:
                raw = json_text(raw)
            except BodyError as exc:
                await _answer(scope, send, 400, field_error("body", str(exc)))
                return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()  # only a disconnect can follow
            delivered = True
            return {"type": "http.request", "body": raw, "more_body": False}

        await self.app(scope, replay, send)


async def _answer(scope: Scope, send: Send, status: int, body: Body) -> None:
    response = JSONResponse(status_code=status, content=body)
    await response(scope, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


class ServerErrorShape:
    """Any exception the app lets out becomes a 500 in the one error shape,
    inside the CORS middleware (Starlette's own 500 is answered outside it, so
    a browser saw a CORS failure instead); the traceback goes to the log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except asyncio.CancelledError:
            # the server stopped waiting for it (SIGTERM's drain ran out):
            # say so in the shape rather than uvicorn's plain-text 500
            if not started:
                await _answer(scope, send, 503, STOPPING)
            raise
        except Exception:
            _log.exception("unhandled error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                raise  # half an answer is out: the server closes the connection
            await _answer(scope, send, 500, SERVER_ERROR)


STOPPING = field_error(
    "request", "the server is stopping and could not finish this request; retry", error="stopping"
)
SERVER_ERROR = field_error(
    "request", "the server failed on this request; it is logged", error="internal server error"
)


async def http_error_response(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's and FastAPI's HTTP errors (404, 405, a body that cannot be
    parsed) in the one shape, their headers (Allow) kept."""
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    if status == 404:
        body = field_error("path", f"no such resource: {request.url.path}", error="not found")
    elif status == 405:
        allowed = (exc.headers or {}).get("Allow") or (exc.headers or {}).get("allow") or ""
        body = field_error(
            "method",
            f"{request.url.path} does not take {request.method}"
            + (f"; it takes {allowed}" if allowed else ""),
            error="method not allowed",
        )
    else:
        body = field_error("body" if status == 400 else "request", str(exc.detail))
    return JSONResponse(status_code=status, content=body, headers=exc.headers)


class JSONByDefault:
    """Read POST bodies as JSON whatever their content type says.

    ``curl -d`` sends ``application/x-www-form-urlencoded``; the body is JSON
    all the same, and a caller should not need to know the header.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") == "POST":
            headers = [(k, v) for k, v in scope.get("headers", []) if k != b"content-type"]
            headers.append((b"content-type", b"application/json"))
            scope = dict(scope, headers=headers)
        await self.app(scope, receive, send)
