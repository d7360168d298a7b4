"""The gateway's connection to the worker (engine ``compact-numba``).

One pooled ``httpx.AsyncClient`` per gateway process with explicit connect and
read timeouts, over a lean transport (``transport``); the worker's URL
comes from ``WORKER_URL``. Anything that keeps
an answer from arriving (refused, reset, timed out, still starting, broken)
becomes ``WorkerUnavailable``, which the gateway turns into a 503 saying so.
No message or health figure names the worker's address: they reach the public
(the gateway logs the address once at start-up).
Nothing is remembered about a failure, so the first request after the worker
comes back succeeds without restarting the gateway.
"""

from __future__ import annotations

import os
from typing import Any

import httpx
import orjson

from scrabble.engines.compact.transport import WorkerTransport
from scrabble.position import Position

DEFAULT_URL = "http://127.0.0.1:8001"
_JSON = {"content-type": "application/json"}


# the worker's /health fields the gateway's /health shows
PUBLIC_HEALTH = (
    "status",
    "backend",
    "lexicon",
    "signatures",
    "capacity",
    "table_bytes",
    "startup_ms",
    "ready_since_process_start_ms",
    "cache_entries",
    "cache_bytes",
    "cache_max_bytes",
)


class WorkerUnavailable(RuntimeError):
    """The worker could not answer; the message says why, for the 503 body."""


class WorkerClient:
    def __init__(
        self,
        url: str | None = None,
        connect_timeout: float | None = None,
        read_timeout: float | None = None,
    ) -> None:
        self.url = (url or os.environ.get("WORKER_URL") or DEFAULT_URL).rstrip("/")
        connect = connect_timeout or float(os.environ.get("WORKER_CONNECT_TIMEOUT", 0.5))
        read = read_timeout or float(os.environ.get("WORKER_READ_TIMEOUT", 5.0))
        self.timeout = httpx.Timeout(connect=connect, read=read, write=read, pool=connect)
        self._candidates_url = httpx.URL(self.url + "/candidates")
        self._client: httpx.AsyncClient | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        # created on first use so it belongs to the event loop that serves requests
        if self._client is None or self._client.is_closed:
            self._client = httpx.AsyncClient(
                base_url=self.url,
                timeout=self.timeout,
                transport=WorkerTransport(max_connections=32, max_keepalive=16),
            )
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def _send(self, request: httpx.Request) -> httpx.Response:
        # one retry for a pooled connection the worker closed (it restarted):
        # the requests are idempotent, and timeouts are never retried
        for attempt in (0, 1):
            try:
                return await self.client.send(request)
            except httpx.ConnectTimeout:
                raise WorkerUnavailable(
                    f"the worker did not accept a connection within {self.timeout.connect} s"
                ) from None
            except httpx.TimeoutException:
                raise WorkerUnavailable(
                    f"the worker did not answer within {self.timeout.read} s"
                ) from None
            except httpx.ConnectError:
                raise WorkerUnavailable("the worker is down (connection refused)") from None
            except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                if attempt:
                    raise WorkerUnavailable(
                        f"the worker dropped the connection ({type(exc).__name__})"
                    ) from None
        raise AssertionError("unreachable")

    async def candidates(self, position: Position) -> dict[str, Any]:
        """The worker's answer for a position (``wire``: words and figures)."""
        # a Request built directly, not by client.request(): no URL, header and
        # cookie merging per call (0.26 -> 0.13-0.21 ms of httpx per call)
        body = {"board": position.rows(), "rack": position.rack_string()}
        response = await self._send(
            httpx.Request("POST", self._candidates_url, headers=_JSON, content=orjson.dumps(body))
        )
        if response.status_code == 503:
            raise WorkerUnavailable(f"the worker is not ready ({_reason(response)})")
        if response.status_code != 200:
            raise WorkerUnavailable(
                f"the worker answered {response.status_code} ({_reason(response)})"
            )
        answer: dict[str, Any] = orjson.loads(response.content)
        return answer

    async def health(self) -> dict[str, Any]:
        """The worker's state for the gateway's /health (never raises)."""
        try:
            # short: the gateway's own /health must not hang on a stuck worker
            response = await self._send(
                self.client.build_request("GET", "/health", timeout=httpx.Timeout(1.0))
            )
        except WorkerUnavailable as exc:
            return {"status": "down", "error": str(exc)}
        try:
            body = response.json()
        except ValueError:
            body = {}
        if response.status_code != 200:
            return {
                "status": body.get("status", "unavailable"),
                "error": body.get("error", f"HTTP {response.status_code}"),
            }
        # only figures that say how it serves, none that say where or as what process
        return {key: body[key] for key in PUBLIC_HEALTH if key in body}


def _reason(response: httpx.Response) -> str:
    try:
        return str(response.json().get("error", response.text[:200]))
    except ValueError:
        return response.text[:200]
