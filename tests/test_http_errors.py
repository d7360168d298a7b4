"""A server fault is a 500 in the one error shape with CORS headers (issue 9,
rows 8 and 13): no caller can cause one, so the seam is driven from here, in
the gateway app's own middleware stack and in the compute function."""

from __future__ import annotations

import asyncio
import time

import httpx
import orjson

from scrabble.gateway.analysis import MoveQuery
from scrabble.gateway.app import app
from scrabble.gateway.compute import Kit, Task, compute
from scrabble.lexicon.catalog import Catalog
from scrabble.position import make_position


@app.get("/test-only/fault", include_in_schema=False)
async def fault() -> None:
    raise RuntimeError("a fault in a handler")


def test_an_exception_in_a_handler_is_a_500_in_the_shape_with_cors():
    async def ask() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)  # no lifespan: the route needs no state
        async with httpx.AsyncClient(transport=transport, base_url="http://gateway") as client:
            return await client.get("/test-only/fault", headers={"origin": "https://example.org"})

    r = asyncio.run(ask())
    assert r.status_code == 500
    assert r.headers["access-control-allow-origin"] in ("*", "https://example.org")
    body = r.json()
    assert set(body) == {"error", "detail"} and body["detail"][0]["field"] == "request"
    assert "fault" not in r.text  # the traceback goes to the log, not to the caller


def test_a_fault_in_the_computation_is_a_500_in_the_shape(lexicon):
    kit = Kit(Catalog.open(names=[lexicon.info.name]))
    query = MoveQuery(
        engine="no-such-engine",  # past validation only by a bug: the registry raises
        limit=20,
        heuristics=False,
        adversarial=False,
        rank_by="score",
        count_moves=False,
        risk="neutral",
        budget_ms=300.0,
        upcoming=None,
        lexicon=None,
        opponent_rack="",
        scores=(0, 0),
        zero_turns=0,
    )
    position = make_position(["." * 15] * 15, "QI")
    status, raw = compute(kit, Task(query, position, time.perf_counter()))
    assert status == 500
    body = orjson.loads(raw)
    assert set(body) == {"error", "detail"} and body["detail"][0]["field"] == "request"
