"""The public gateway app: POST /scrabble-api (and /pages/scrabble-api.php),
GET /health, the web page at /, OpenAPI at /docs (assets served locally)."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline

from gateway.page import add_page
from gateway.schemas import ErrorResponse, MoveRequest, MoveResponse
from gateway.warmup import warm_gateway
from scrabble import cgp as cgp_format
from scrabble.engines.compact.client import WorkerClient, WorkerUnavailable
from scrabble.engines.registry import EngineSet
from scrabble.equity.evaluate import evaluate
from scrabble.equity.options import EquityOptions
from scrabble.http_errors import (
    BodySizeLimit,
    JSONByDefault,
    field_error,
    validation_error_response,
)
from scrabble.lexicon.loaded import Lexicon
from scrabble.notation import breakdown_json, evaluation_json, move_json, unseen_json
from scrabble.position import Position
from scrabble.tiles import tile_index

MAX_BODY_BYTES = int(os.environ.get("GATEWAY_MAX_BODY", 64 * 1024))


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    db = os.environ.get("LEXICON_DB")
    lexicon = Lexicon.load(Path(db) if db else None)
    worker = WorkerClient()  # compact-numba; URL from WORKER_URL
    engines = EngineSet(lexicon, worker)
    # The in-process signature tables (about 1 s), so no caller's first
    # memory-hash or prime-product request pays for building them; then every
    # compiled path once (loaded from Numba's cache) before the first caller.
    engines.prepare()
    warm_gateway(engines)
    # What start-up built lives as long as the process: out of the collector's
    # way, or a full collection walks all of it (123 ms with SOWPODS loaded).
    gc.collect()
    gc.freeze()
    app.state.lexicon = lexicon
    app.state.engines = engines
    app.state.worker = worker
    yield
    await worker.aclose()


# FastAPIOffline: FastAPI with /docs served from the Swagger UI files that
# package ships, not from a CDN. No ReDoc: its bundle loads a logo from its CDN
# (docs/page.md).
app = FastAPIOffline(
    redoc_url=None,
    title="Scrabble engine gateway",
    description="Post a board and a rack; get every legal move, scored and ranked.",
    version="0.1.0",
    lifespan=lifespan,
    responses={
        400: {"model": ErrorResponse},
        413: {"model": ErrorResponse},
        422: {"model": ErrorResponse},
    },
)
app.add_middleware(JSONByDefault)
# Web front ends on other origins call the API from the browser; CORS_ORIGINS
# narrows who may (comma separated), "*" by default for a public read-only API.
app.add_middleware(
    CORSMiddleware,
    allow_origins=os.environ.get("CORS_ORIGINS", "*").split(","),
    allow_methods=["GET", "POST"],
    allow_headers=["content-type"],
)
app.add_middleware(BodySizeLimit, max_bytes=MAX_BODY_BYTES)
app.add_exception_handler(RequestValidationError, validation_error_response)
add_page(app)  # GET / (the page, files in gateway/static/) and GET /api (the JSON index)


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


def equity_options(body: MoveRequest) -> EquityOptions:
    upcoming = tuple(tile_index(ch) for ch in body.upcoming) if body.upcoming else None
    return EquityOptions(
        rank_by=body.rank_by,
        risk=body.risk,
        adversarial=body.adversarial,
        budget_ms=body.budget_ms,
        upcoming=upcoming,
    )


def wants_evaluation(body: MoveRequest) -> bool:
    return bool(body.heuristics or body.adversarial or body.rank_by == "equity")


async def find_moves(body: MoveRequest, request: Request) -> Response:
    started = time.perf_counter()
    lexicon: Lexicon = request.app.state.lexicon
    engines: EngineSet = request.app.state.engines
    position: Position = body.position  # parsed and checked once, by the model
    parsed = body.parsed_cgp
    if parsed is not None and parsed.opcodes.get("lex", lexicon.info.name).lower() not in (
        lexicon.info.name.lower(),
    ):
        return JSONResponse(
            status_code=422,
            content=field_error(
                "cgp",
                f"lexicon {parsed.opcodes['lex']!r} is not loaded; this gateway serves "
                f"{lexicon.info.name!r}",
                error="unknown lexicon",
            ),
        )
    parse_ms = _ms(started)
    t = time.perf_counter()
    try:
        moves = await engines.generate(body.engine, position)
    except WorkerUnavailable as exc:
        return JSONResponse(
            status_code=503,
            content=field_error(
                "engine",
                str(exc),
                error="worker unavailable: engine compact-numba cannot answer "
                "now; the other engines can",
            ),
        )
    movegen_ms = _ms(t)
    t = time.perf_counter()
    evaluation = None
    heuristics_ms = 0.0
    if wants_evaluation(body):
        evaluation = evaluate(position, moves, engines.trie, equity_options(body), limit=body.limit)
        order = evaluation.order
        heuristics_ms = _ms(t)
        t = time.perf_counter()
    else:
        order = moves.order(body.limit)
    rack_size = position.rules.rack_size
    out = [
        move_json(moves, i, rank, position.rack, rack_size)
        for rank, i in enumerate(order.tolist(), start=1)
    ]
    if evaluation is not None:
        for move, i in zip(out, order.tolist(), strict=True):
            move["heuristics"] = breakdown_json(evaluation.breakdowns[i])
    unseen = unseen_json(position, moves, order)
    rank_ms = _ms(t)
    cgp = cgp_format.format_cgp(
        position.rows(),
        position.rack_string(),
        lexicon.info.name,
        opponent_rack=parsed.opponent_rack if parsed else "",
        scores=parsed.scores if parsed else (0, 0),
        zero_turns=parsed.zero_turns if parsed else 0,
    )
    # Built as plain data and dumped once: MoveResponse documents this shape
    # (and the tests check it), re-validating our own output would only cost time.
    response = {
        "lexicon": lexicon.info.as_dict(),
        "engine": body.engine,
        "cgp": cgp,
        "timing": {
            "total_ms": _ms(started),
            "parse_ms": parse_ms,
            "movegen_ms": movegen_ms,
            "rank_ms": rank_ms,
            "heuristics_ms": heuristics_ms,
        },
        "stats": moves.stats,
        "total_moves": len(moves),
        "unseen": unseen,
        "moves": out,
    }
    if evaluation is not None:
        response["heuristics"] = evaluation_json(evaluation)
    # orjson: about 5x faster than json.dumps on a 20-move answer (0.36 ms there)
    return Response(content=orjson.dumps(response), media_type="application/json")


@app.post("/scrabble-api", response_model=MoveResponse, summary="Best moves for a position")
async def scrabble_api(body: MoveRequest, request: Request) -> Response:
    return await find_moves(body, request)


@app.post("/pages/scrabble-api.php", response_model=MoveResponse, include_in_schema=False)
async def scrabble_api_php(body: MoveRequest, request: Request) -> Response:
    return await find_moves(body, request)


@app.get("/health")
async def health(request: Request) -> dict[str, Any]:
    lexicon: Lexicon = request.app.state.lexicon
    return {
        "status": "ok",
        "lexicon": lexicon.info.as_dict(),
        "trie_nodes": lexicon.trie.nodes,
        "lexicon_load_ms": round(lexicon.load_ms, 1),
        "worker": await request.app.state.worker.health(),
    }
