"""The gateway's HTTP/1.1 transport to the worker, against small loopback servers
that misbehave on purpose (the seam under test is the transport itself; the
real worker behind it is covered in test_worker.py)."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest

from scrabble.engines.compact.transport import WorkerTransport
from tooling.services import free_port

OK = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s"


class Server:
    """A loopback server whose answer to each request is chosen by the test."""

    def __init__(self, answer) -> None:
        self.answer = answer  # async (request_bytes, writer) -> None
        self.connections = 0
        self.requests: list[bytes] = []

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                await self.answer(request, writer)
                if writer.is_closing():
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    @contextlib.asynccontextmanager
    async def running(self):
        port = free_port()
        server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.close()


def run(coro):
    return asyncio.run(coro)


async def _echo(request: bytes, writer: asyncio.StreamWriter) -> None:
    body = request.split(b"\r\n\r\n", 1)[1]
    writer.write(OK % (len(body), body))
    await writer.drain()


def _echo_after(marker: bytes, seconds: float):
    """An echo that first waits ``seconds`` when the request holds ``marker``."""

    async def answer(request: bytes, writer: asyncio.StreamWriter) -> None:
        if marker in request:
            await asyncio.sleep(seconds)
        await _echo(request, writer)

    return answer


def test_sends_the_request_and_reuses_one_connection():
    async def go():
        server = Server(_echo)
        async with server.running() as url:
            async with httpx.AsyncClient(base_url=url, transport=WorkerTransport()) as client:
                first = await client.post(
                    "/candidates?x=1",
                    content=b'{"rack": "AB"}',
                    headers={"content-type": "application/json"},
                )
                second = await client.post("/candidates", json={"rack": "CD"})
        return server, first, second

    server, first, second = run(go())
    assert first.status_code == 200 and first.json() == {"rack": "AB"}
    assert second.json() == {"rack": "CD"}
    assert first.headers["content-type"] == "application/json"
    assert server.requests[0].startswith(b"POST /candidates?x=1 HTTP/1.1\r\n")
    assert b"\r\nhost: 127.0.0.1" in server.requests[0].lower()
    assert server.connections == 1  # keep-alive: the second request used the same socket


def test_reads_chunked_bodies_and_honours_connection_close():
    async def answer(request: bytes, writer: asyncio.StreamWriter) -> None:
        writer.write(
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n"
            b'4\r\n{"a"\r\n3\r\n: 1\r\n1\r\n}\r\n0\r\n\r\n'
        )
        await writer.drain()
        writer.close()

    async def go():
        server = Server(answer)
        async with server.running() as url:
            async with httpx.AsyncClient(base_url=url, transport=WorkerTransport()) as client:
                bodies = [(await client.get("/health")).json() for _ in range(3)]
        return server, bodies

    server, bodies = run(go())
    assert bodies == [{"a": 1}] * 3
    assert server.connections == 3  # closed after each answer, as the server asked


def test_a_connection_the_server_dropped_is_not_reused():
    async def answer(request: bytes, writer: asyncio.StreamWriter) -> None:
        await _echo(request, writer)
        writer.close()  # keep-alive promised, then dropped (a worker restart)

    async def go():
        server = Server(answer)
        async with server.running() as url:
            async with httpx.AsyncClient(base_url=url, transport=WorkerTransport()) as client:
                first = await client.post("/x", content=b"1")
                await asyncio.sleep(0.05)  # the close arrives while the connection is idle
                second = await client.post("/x", content=b"2")
        return server, first, second

    server, first, second = run(go())
    assert (first.content, second.content) == (b"1", b"2")
    assert server.connections == 2


def test_slow_answer_is_a_read_timeout_and_the_connection_is_discarded():
    async def go():
        server = Server(_echo_after(b"slow", 0.5))
        async with server.running() as url:
            async with httpx.AsyncClient(
                base_url=url, transport=WorkerTransport(), timeout=httpx.Timeout(1.0, read=0.05)
            ) as client:
                with pytest.raises(httpx.ReadTimeout):
                    await client.post("/x", content=b"slow")
                after = await client.post("/x", content=b"fast")
        return server, after

    server, after = run(go())
    assert after.content == b"fast"  # not the late answer to the slow request
    assert server.connections == 2


def test_refused_and_malformed_answers_raise_httpx_errors():
    async def garbage(request: bytes, writer: asyncio.StreamWriter) -> None:
        writer.write(b"NOT HTTP AT ALL\r\n\r\n")
        await writer.drain()

    async def early_close(request: bytes, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial")
        await writer.drain()
        writer.close()

    async def go():
        async with httpx.AsyncClient(transport=WorkerTransport()) as client:
            with pytest.raises(httpx.ConnectError):
                await client.get(f"http://127.0.0.1:{free_port()}/health")
            with pytest.raises(httpx.UnsupportedProtocol):
                await client.get("https://127.0.0.1/health")
            async with Server(garbage).running() as url:
                with pytest.raises(httpx.RemoteProtocolError):
                    await client.get(url + "/health")
            async with Server(early_close).running() as url:
                with pytest.raises(httpx.ReadError):
                    await client.get(url + "/health")

    run(go())


def test_a_full_pool_waits_then_times_out():
    release = None

    async def answer(request: bytes, writer: asyncio.StreamWriter) -> None:
        await release.wait()
        await _echo(request, writer)

    async def go():
        nonlocal release
        release = asyncio.Event()
        server = Server(answer)
        async with server.running() as url:
            transport = WorkerTransport(max_connections=1)
            async with httpx.AsyncClient(
                base_url=url, transport=transport, timeout=httpx.Timeout(2.0, pool=0.05)
            ) as client:
                busy = asyncio.ensure_future(client.post("/x", content=b"a"))
                await asyncio.sleep(0.02)
                with pytest.raises(httpx.PoolTimeout):
                    await client.post("/x", content=b"b")
                waiting = asyncio.ensure_future(client.post("/x", content=b"c"))
                await asyncio.sleep(0.02)
                release.set()
                answers = [(await busy).content, (await waiting).content]
        return server, answers

    server, answers = run(go())
    assert answers == [b"a", b"c"]
    assert server.connections == 1


def test_a_cancelled_request_frees_its_slot():
    async def go():
        server = Server(_echo_after(b"hang", 10))
        async with server.running() as url:
            async with httpx.AsyncClient(
                base_url=url, transport=WorkerTransport(max_connections=1)
            ) as client:
                hung = asyncio.ensure_future(client.post("/x", content=b"hang"))
                await asyncio.sleep(0.02)
                hung.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await hung
                after = await asyncio.wait_for(client.post("/x", content=b"ok"), 2)
        return after

    assert run(go()).content == b"ok"
