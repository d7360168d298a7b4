"""uvicorn's httptools protocol with the limits it lacks (``Limits``).

uvicorn bounds neither the size of a request's headers (httptools accumulates
a header value chunk by chunk: a 64 MB header cost 5.4 s of CPU) nor the time
a request may take to arrive (a connection that sends half a request, or
nothing, is held for ever), nor the time an answer may wait for a caller that
does not read it; its graceful shutdown closes idle keep-alive connections at
once, which resets a request the caller has just written. This subclass adds
those four, and answers its refusals in the services' error shape. It is a
small subclass, not a fork, because these hooks are uvicorn's own protocol
callbacks (``docs/service.md``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

import orjson
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from scrabble.http_errors import field_error
from scrabble.serving.limits import Limits

_log = logging.getLogger("serving.protocol")
_END_OF_HEADERS = b"\r\n\r\n"
_LINGER_SECONDS = 2.0  # after a refusal, how long the rest of a request is read and dropped
_LINGER_BYTES = 1 << 20


def refusal(status: int, reason: str, body: dict[str, Any], allow_origin: bytes | None) -> bytes:
    """A complete HTTP/1.1 answer that closes the connection."""
    payload = orjson.dumps(body)
    head = [
        f"HTTP/1.1 {status} {reason}".encode(),
        b"content-type: application/json",
        b"content-length: " + str(len(payload)).encode(),
        b"connection: close",
    ]
    if allow_origin is not None:
        head.append(b"access-control-allow-origin: " + allow_origin)
    if status == 503:
        head.append(b"retry-after: 1")
    return b"\r\n".join(head) + b"\r\n\r\n" + payload


class GuardedProtocol(HttpToolsProtocol):
    limits: ClassVar[Limits] = Limits()
    # the Access-Control-Allow-Origin of answers written here, before the app
    # (and its CORS middleware) sees the request; None: no CORS header
    allow_origin: ClassVar[bytes | None] = None

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._awaiting_headers = True
        self._header_bytes = 0
        self._header_tail = b""
        self._arrival: asyncio.TimerHandle | None = None
        self._send_stall: asyncio.TimerHandle | None = None
        self._drain: asyncio.TimerHandle | None = None
        self._draining = False
        self._lingering = -1  # bytes dropped since a refusal; -1: no refusal

    # connection state ------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_arrival()  # a connection that never sends a request is not held

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._arrival, self._send_stall, self._drain):
            if timer is not None:
                timer.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering >= 0:  # refused: read the rest and drop it, up to a bound
            self._lingering += len(data)
            if self._lingering > _LINGER_BYTES:
                self.transport.abort()
            return
        if self._awaiting_headers:
            if self._arrival is None:
                self._arm_arrival()
            allowed = self.limits.max_header_bytes - self._header_bytes
            if len(data) > allowed:
                # the header block must end within what is allowed of this chunk
                window = self._header_tail + data[: max(allowed, 0) + len(_END_OF_HEADERS)]
                if _END_OF_HEADERS not in window:
                    self._refuse(
                        431,
                        "Request Header Fields Too Large",
                        field_error(
                            "headers",
                            f"request line and headers are larger than "
                            f"{self.limits.max_header_bytes} bytes",
                        ),
                    )
                    return
            self._header_bytes += len(data)
            self._header_tail = data[-(len(_END_OF_HEADERS) - 1) :]
        super().data_received(data)

    def eof_received(self) -> None:
        if self._lingering >= 0:
            self.transport.close()

    # parser callbacks ------------------------------------------------------

    def on_headers_complete(self) -> None:
        self._awaiting_headers = False
        self._header_bytes = 0
        self._header_tail = b""
        over_cap = len(self.connections) > self.limits.max_connections
        if over_cap:
            saved, self.app = self.app, _too_many_connections(self.allow_origin)
            try:
                super().on_headers_complete()
            finally:
                self.app = saved
        else:
            super().on_headers_complete()
        if self.cycle is not None and (self._draining or over_cap):
            self.cycle.keep_alive = False

    def on_message_complete(self) -> None:
        super().on_message_complete()
        if self._arrival is not None:
            self._arrival.cancel()
            self._arrival = None
        self._awaiting_headers = True

    # timers ------------------------------------------------------------------

    def _arm_arrival(self) -> None:
        self._arrival = self.loop.call_later(self.limits.request_timeout, self._arrival_expired)

    def _arrival_expired(self) -> None:
        self._arrival = None
        if self.transport.is_closing():
            return
        if (
            self.cycle is not None
            and not self.cycle.response_complete
            and not self._awaiting_headers
        ):
            if self.cycle.more_body is False:
                return  # it all arrived; the app is working on it
            # the app is still waiting for the body: it gets a disconnect
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        elif self.cycle is not None and not self.cycle.response_complete:
            # a pipelined request behind one still being answered: wait for that
            self._arm_arrival()
            return
        self._refuse(
            408,
            "Request Timeout",
            field_error(
                "request",
                f"the request did not arrive in full within {self.limits.request_timeout:g} s",
            ),
        )

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_stall is None:
            self._send_stall = self.loop.call_later(self.limits.send_timeout, self._send_stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._send_stall is not None:
            self._send_stall.cancel()
            self._send_stall = None

    def _send_stalled(self) -> None:
        self._send_stall = None
        _log.warning(
            "dropped a connection whose caller read nothing of its answer for %g s",
            self.limits.send_timeout,
        )
        self.transport.abort()  # frees what the transport buffered

    # shutdown ----------------------------------------------------------------

    def shutdown(self) -> None:
        """SIGTERM: answer what is in progress with Connection: close; give an
        idle connection ``drain_grace`` for a request already on its way."""
        self._draining = True
        if self.cycle is None or self.cycle.response_complete:
            self._drain = self.loop.call_later(self.limits.drain_grace, self._close_if_idle)
        else:
            self.cycle.keep_alive = False

    def _close_if_idle(self) -> None:
        self._drain = None
        idle = self.cycle is None or self.cycle.response_complete
        if idle and self._awaiting_headers and self._header_bytes == 0:
            self.transport.close()
        # else a request is arriving or being answered: it closes when answered

    # refusals ----------------------------------------------------------------

    def _refuse(self, status: int, reason: str, body: dict[str, Any]) -> None:
        """Answer and close without reading the request further: the answer
        goes out, then the rest the caller sends is read and dropped for a
        moment (closing with unread data would reset the connection before the
        caller has read the answer)."""
        if self.transport.is_closing():
            return
        self.transport.write(refusal(status, reason, body, self.allow_origin))
        self._lingering = 0
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(_LINGER_SECONDS, self._end_linger)

    def _end_linger(self) -> None:
        if not self.transport.is_closing():
            self.transport.close()


def _too_many_connections(allow_origin: bytes | None) -> Any:
    body = orjson.dumps(
        field_error(
            "request",
            "the server has too many open connections; retry shortly",
            error="too many connections",
        )
    )
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        (b"retry-after", b"1"),
    ]
    if allow_origin is not None:
        headers.append((b"access-control-allow-origin", allow_origin))

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 503, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return app


def guarded_protocol(limits: Limits, allow_origin: bytes | None) -> type[GuardedProtocol]:
    """The protocol class for one service's limits."""
    return type(
        "GuardedProtocol",
        (GuardedProtocol,),
        {"limits": limits, "allow_origin": allow_origin},
    )
