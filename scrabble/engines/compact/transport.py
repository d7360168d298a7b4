"""The byte mover under the gateway's ``httpx.AsyncClient`` to the worker.

httpx's default transport (httpcore over anyio, h11 parsing in Python) spent
1.0-1.7 ms of CPU per worker call here, more than the worker's own work; a
plain asyncio round trip to the same worker took 0.5 ms. This transport keeps
everything the client promises (pooled keep-alive connections, the connect,
read and pool timeouts of each request, httpx's exception types, which the
worker client turns into 503s) and moves the bytes with an asyncio protocol
and uvicorn's C parser, httptools. Figures: ``docs/worker-transport.md``.

It speaks only what the worker needs: plain HTTP/1.1 to one origin, request
bodies sent whole, responses framed by Content-Length or chunked.
"""

from __future__ import annotations

import asyncio
from collections import deque

import httptools
import httpx


class _Connection(asyncio.Protocol):
    """One keep-alive connection; at most one request in flight on it."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.closed = False
        self.waiter: asyncio.Future[None] | None = None
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.received = False
        self.keep_alive = False

    # asyncio callbacks
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.received = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(httpx.RemoteProtocolError(f"malformed response: {exc}"))
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.received:
            self._fail(httpx.ReadError("connection closed in the middle of a response"))
        else:  # e.g. an idle connection the worker closed as it restarted: retryable
            self._fail(httpx.RemoteProtocolError("server disconnected without a response"))

    # httptools callbacks
    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers.append((name, value))

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.keep_alive = self.parser.should_keep_alive()  # only known until the next message
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    # used by the transport
    def _fail(self, exc: Exception) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(exc)

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    async def exchange(self, data: bytes, read_timeout: float | None) -> None:
        """Send one request and wait until its response is complete."""
        loop = asyncio.get_running_loop()
        self.waiter = loop.create_future()
        self.headers, self.body, self.received, self.keep_alive = [], [], False, False
        self.transport.write(data)  # type: ignore[union-attr]
        timer = None
        if read_timeout is not None:
            timer = loop.call_later(
                read_timeout, self._fail, httpx.ReadTimeout(f"no response within {read_timeout} s")
            )
        try:
            await self.waiter
        finally:
            if timer is not None:
                timer.cancel()
            self.waiter = None


class WorkerTransport(httpx.AsyncBaseTransport):
    def __init__(self, max_connections: int = 32, max_keepalive: int = 16) -> None:
        self._idle: dict[tuple[str, int], deque[_Connection]] = {}
        self._slots = asyncio.Semaphore(max_connections)
        self._max_keepalive = max_keepalive

    async def _connect(self, host: str, port: int, timeout: float | None) -> _Connection:
        loop = asyncio.get_running_loop()
        try:
            _, conn = await asyncio.wait_for(
                loop.create_connection(_Connection, host, port), timeout
            )
        except TimeoutError:
            raise httpx.ConnectTimeout(f"no connection within {timeout} s") from None
        except OSError as exc:
            raise httpx.ConnectError(str(exc)) from None
        return conn

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        if url.scheme != "http":
            raise httpx.UnsupportedProtocol(f"the worker transport speaks http, not {url.scheme}")
        timeouts = request.extensions.get("timeout", {})
        origin = (url.host, url.port or 80)
        if self._slots.locked():
            try:
                await asyncio.wait_for(self._slots.acquire(), timeouts.get("pool"))
            except TimeoutError:
                raise httpx.PoolTimeout("every connection to the worker is busy") from None
        else:
            await self._slots.acquire()  # free: returns without suspending
        conn = None
        try:
            idle = self._idle.setdefault(origin, deque())
            while idle and conn is None:
                candidate = idle.pop()
                if not candidate.closed:
                    conn = candidate
            if conn is None:
                conn = await self._connect(origin[0], origin[1], timeouts.get("connect"))
            head = [b"%s %s HTTP/1.1\r\n" % (request.method.encode(), url.raw_path)]
            head += [b"%s: %s\r\n" % pair for pair in request.headers.raw]
            head.append(b"\r\n")
            await conn.exchange(b"".join(head) + await request.aread(), timeouts.get("read"))
            response = httpx.Response(
                conn.parser.get_status_code(),
                headers=conn.headers,
                content=b"".join(conn.body),
                request=request,
                extensions={"http_version": b"HTTP/1.1"},
            )
            if conn.keep_alive and len(idle) < self._max_keepalive:
                idle.append(conn)
            else:
                conn.close()
            conn = None
            return response
        finally:
            if conn is not None:  # failed or cancelled mid-exchange: its state is unknown
                conn.close()
            self._slots.release()

    async def aclose(self) -> None:
        for idle in self._idle.values():
            while idle:
                idle.pop().close()
        self._idle.clear()
