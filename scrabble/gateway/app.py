"""The public gateway app: POST /scrabble-api (and /pages/scrabble-api.php),
GET /health, the web page at /, OpenAPI at /docs (assets served locally)."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline

from scrabble.engines.compact.client import WorkerClient, WorkerUnavailable
from scrabble.gateway.analysis import MoveQuery, answer
from scrabble.gateway.lexicons import choice_refused, choose_engines, open_catalog
from scrabble.gateway.lexicons import health as lexicons_health
from scrabble.gateway.lexicons import router as lexicons_router
from scrabble.gateway.page import add_page
from scrabble.gateway.records import router as records_router
from scrabble.gateway.schemas import ErrorResponse, MoveRequest, MoveResponse
from scrabble.gateway.warmup import warm_gateway
from scrabble.http_errors import (
    BodySizeLimit,
    JSONByDefault,
    field_error,
    validation_error_response,
)
from scrabble.lexicon.catalog import LexiconChoiceError
from scrabble.lexicon.loaded import Lexicon

MAX_BODY_BYTES = int(os.environ.get("GATEWAY_MAX_BODY", 64 * 1024))


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    worker = WorkerClient()  # compact-numba; URL from WORKER_URL
    # Every lexicon store in LEXICON_DIR (issue 12: gateway/lexicons.py); the
    # default one with its in-process signature tables (about 1 s), so no
    # caller's first memory-hash or prime-product request pays for building
    # them; then every compiled path once (loaded from Numba's cache).
    catalog = open_catalog(worker)
    engines = catalog.engines()
    lexicon = engines.lexicon
    warm_gateway(engines)
    # What start-up built lives as long as the process: out of the collector's
    # way, or a full collection walks all of it (123 ms with SOWPODS loaded).
    gc.collect()
    gc.freeze()
    app.state.catalog = catalog
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
app.include_router(lexicons_router)  # issue 12: GET /lexicons, /lexicons/{name}/words/{word}
app.include_router(records_router)  # issue 12: POST /score, POST /gcg/analyze


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


async def find_moves(body: MoveRequest, request: Request) -> Response:
    started = time.perf_counter()
    query = MoveQuery.of(body)
    try:  # issue 12: the request's lexicon, or the CGP's lex opcode
        engines = choose_engines(request.app.state.catalog, body.lexicon, query.lexicon)
    except LexiconChoiceError as exc:
        return choice_refused(exc)
    parse_ms = _ms(started)
    t = time.perf_counter()
    try:
        moves = await engines.generate(body.engine, body.position)
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
    timing = {"parse_ms": parse_ms, "movegen_ms": _ms(t)}
    response = answer(query, body.position, moves, engines, timing)
    response["timing"] = {"total_ms": _ms(started), **response["timing"]}
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
        **lexicons_health(request.app.state.catalog),  # issue 12: memory per lexicon
        "worker": await request.app.state.worker.health(),
    }
