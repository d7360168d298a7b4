"""HTTP error bodies both services answer with, and the gateway's request guards.

Every error is `{"error": "<field>: <problem>", "detail": [{"field", "message"}]}`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

Body = dict[str, Any]


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
        elif field == "body" and ":" in message and kind == "value_error":
            # model-level checks say "<field>: <problem>"
            field, _, message = message.partition(": ")
        detail.append({"field": field, "message": message})
    summary = "; ".join(f"{d['field']}: {d['message']}" for d in detail)
    return status, {"error": summary, "detail": detail}


async def validation_error_response(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)  # the only exception it is registered for
    status, content = error_content(list(exc.errors()))
    return JSONResponse(status_code=status, content=content)


class BodySizeLimit:
    """Refuse request bodies over ``max_bytes`` with 413, before reading them all."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await self._refuse(scope, send)
                return
        seen = 0
        refused = False

        async def limited() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    refused = True
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            if refused:
                await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        response = JSONResponse(status_code=413, content=too_large(self.max_bytes))
        await response(scope, _no_receive, send)


class _TooLarge(Exception):
    pass


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


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
