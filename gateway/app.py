"""The public gateway app: POST /scrabble-api (and /pages/scrabble-api.php),
GET /health, OpenAPI at /docs."""

from __future__ import annotations

import gc
import os
import time
from contextlib import asynccontextmanager
from pathlib import Path

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response

from gateway.errors import (
    BodySizeLimit,
    JSONByDefault,
    field_error,
    validation_error_response,
)
from gateway.schemas import ErrorResponse, MoveRequest, MoveResponse
from gateway.worker_client import WorkerClient, WorkerUnavailable, compact_numba_moves
from scrabble import cgp as cgp_format
from scrabble.heuristics import api as heuristics_api
from scrabble.lexicon.loaded import Lexicon
from scrabble.movegen import EngineUnavailable, generate, prepare
from scrabble.moves import MoveList, leave_of, move_at
from scrabble.position import Position
from scrabble.tiles import rack_string
from scrabble.warmup import warm_gateway

MAX_BODY_BYTES = int(os.environ.get("GATEWAY_MAX_BODY", 64 * 1024))


@asynccontextmanager
async def lifespan(app: FastAPI):
    db = os.environ.get("LEXICON_DB")
    app.state.lexicon = Lexicon.load(Path(db) if db else None)
    # The in-process signature tables (about 1 s), so no caller's first
    # memory-hash or prime-product request pays for building them; then every
    # compiled path once (loaded from Numba's cache) before the first caller.
    prepare(app.state.lexicon)
    warm_gateway(app.state.lexicon)
    # What start-up built lives as long as the process: out of the collector's
    # way, or a full collection walks all of it (123 ms with SOWPODS loaded).
    gc.collect()
    gc.freeze()
    app.state.worker = WorkerClient()  # compact-numba; URL from WORKER_URL
    yield
    await app.state.worker.aclose()


app = FastAPI(
    title="Scrabble engine gateway",
    description="Post a board and a rack; get every legal move, scored and ranked.",
    version="0.1.0",
    lifespan=lifespan,
    responses={400: {"model": ErrorResponse}, 413: {"model": ErrorResponse},
               422: {"model": ErrorResponse}},
)
app.include_router(__import__("gateway.wordgame").wordgame.router)  # POST /wordgame/turn
app.add_middleware(JSONByDefault)
# Web front ends on other origins call the API from the browser; CORS_ORIGINS
# narrows who may (comma separated), "*" by default for a public read-only API.
app.add_middleware(CORSMiddleware, allow_origins=os.environ.get("CORS_ORIGINS", "*").split(","),
                   allow_methods=["GET", "POST"], allow_headers=["content-type"])
app.add_middleware(BodySizeLimit, max_bytes=MAX_BODY_BYTES)
app.add_exception_handler(RequestValidationError, validation_error_response)


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


def move_json(moves: MoveList, i: int, rank: int, rack, rack_size: int) -> dict:
    move = move_at(moves, i)
    placed = len(move.tiles)
    return {
        "rank": rank, "row": move.row, "col": move.col, "direction": move.direction_name,
        "coordinate": move.coordinate, "word": move.word, "notation": move.notation,
        "score": move.score, "bingo": placed == rack_size, "tiles_placed": placed,
        "leave": rack_string(leave_of(rack, moves, i)),
        "tiles": [{"row": r, "col": c, "letter": ch, "blank": ch.islower()}
                  for r, c, ch in move.tiles],
    }


async def find_moves(body: MoveRequest, request: Request) -> Response:
    started = time.perf_counter()
    lexicon: Lexicon = request.app.state.lexicon
    position: Position = body.position  # parsed and checked once, by the model
    parsed = body.parsed_cgp
    if parsed is not None and parsed.opcodes.get("lex", lexicon.info.name).lower() not in (
            lexicon.info.name.lower(),):
        return JSONResponse(status_code=422, content=field_error(
            "cgp", f"lexicon {parsed.opcodes['lex']!r} is not loaded; this gateway serves "
            f"{lexicon.info.name!r}", error="unknown lexicon"))
    parse_ms = _ms(started)
    t = time.perf_counter()
    try:
        if body.engine == "compact-numba":
            moves = await compact_numba_moves(request.app.state.worker, position, lexicon,
                                              body.board, body.rack)
        else:
            moves = generate(position, lexicon, body.engine)
    except WorkerUnavailable as exc:
        return JSONResponse(status_code=503, content=field_error(
            "engine", str(exc), error="worker unavailable: engine compact-numba cannot answer "
            "now; the other engines can"))
    except EngineUnavailable as exc:
        return JSONResponse(status_code=501, content=field_error(
            "engine", str(exc), error="engine not implemented"))
    movegen_ms = _ms(t)
    t = time.perf_counter()
    evaluation = None
    heuristics_ms = 0.0
    if heuristics_api.wants_evaluation(body):
        evaluation = heuristics_api.evaluate_request(position, moves, lexicon, body)
        order = evaluation.order
        heuristics_ms = _ms(t)
        t = time.perf_counter()
    else:
        order = moves.order(body.limit)
    out = [move_json(moves, int(i), rank, position.rack, position.rules.rack_size)
           for rank, i in enumerate(order, start=1)]
    if evaluation is not None:
        heuristics_api.attach_breakdowns(out, order, evaluation)
    unseen = heuristics_api.unseen_json(position, moves, order)
    rank_ms = _ms(t)
    cgp = cgp_format.format_cgp(
        body.board, body.rack, lexicon.info.name,
        opponent_rack=parsed.opponent_rack if parsed else "",
        scores=parsed.scores if parsed else (0, 0),
        zero_turns=parsed.zero_turns if parsed else 0)
    # Built as plain data and dumped once: MoveResponse documents this shape
    # (and the tests check it), re-validating our own output would only cost time.
    response = {
        "lexicon": lexicon.info.as_dict(), "engine": body.engine, "cgp": cgp,
        "timing": {"total_ms": _ms(started), "parse_ms": parse_ms, "movegen_ms": movegen_ms,
                   "rank_ms": rank_ms, "heuristics_ms": heuristics_ms},
        "stats": moves.stats, "total_moves": len(moves), "unseen": unseen, "moves": out}
    if evaluation is not None:
        response["heuristics"] = heuristics_api.summary_json(evaluation)
    # orjson: about 5x faster than json.dumps on a 20-move answer (0.36 ms there)
    return Response(content=orjson.dumps(response), media_type="application/json")


@app.post("/scrabble-api", response_model=MoveResponse, summary="Best moves for a position")
async def scrabble_api(body: MoveRequest, request: Request) -> Response:
    return await find_moves(body, request)


@app.post("/pages/scrabble-api.php", response_model=MoveResponse, include_in_schema=False)
async def scrabble_api_php(body: MoveRequest, request: Request) -> Response:
    return await find_moves(body, request)


@app.get("/", include_in_schema=False)
async def root() -> dict:
    return {"service": "scrabble engine gateway", "api": "POST /scrabble-api",
            "docs": "/docs", "health": "/health"}


@app.get("/health")
async def health(request: Request) -> dict:
    lexicon: Lexicon = request.app.state.lexicon
    return {"status": "ok", "lexicon": lexicon.info.as_dict(),
            "trie_nodes": lexicon.trie.nodes, "lexicon_load_ms": round(lexicon.load_ms, 1),
            "worker": await request.app.state.worker.health()}
