"""The public gateway app: POST /scrabble-api (and /pages/scrabble-api.php),
GET /health, the web page at /, OpenAPI at /docs (assets served locally)."""

from __future__ import annotations

import gc
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from scrabble.engines.compact.client import WorkerClient, WorkerUnavailable
from scrabble.gateway.analysis import MoveQuery
from scrabble.gateway.compute import REMOTE_ENGINE, Kit, Task, Work, compute, worker_unavailable
from scrabble.gateway.dispatch import run_work
from scrabble.gateway.lanes import Lanes, LaneSettings
from scrabble.gateway.lexicons import choice_refused, configured_catalog
from scrabble.gateway.lexicons import health as lexicons_health
from scrabble.gateway.lexicons import router as lexicons_router
from scrabble.gateway.page import add_page
from scrabble.gateway.records import router as records_router
from scrabble.gateway.schemas import ErrorResponse, MoveRequest, MoveResponse
from scrabble.gateway.wordgame import router as wordgame_router
from scrabble.gateway.wordgame_game import router as wordgame_game_router
from scrabble.http_errors import (
    BodyGuard,
    JSONByDefault,
    ServerErrorShape,
    http_error_response,
    validation_error_response,
)
from scrabble.lexicon.catalog import Catalog, LexiconChoiceError

MAX_BODY_BYTES = int(os.environ.get("GATEWAY_MAX_BODY", 64 * 1024))
_log = logging.getLogger("gateway")


class InProcess:
    """The single-process layout (``GATEWAY_PROCESSES=0``): every request's
    work on the accepting event loop, as before issue 9; the baseline that
    ``scripts/bench_load.py`` compares the lanes with."""

    def __init__(self, kit: Kit) -> None:
        self.kit = kit

    async def run(self, task: Work) -> tuple[int, bytes]:
        return compute(self.kit, task)

    def info(self) -> dict[str, Any]:
        return self.kit.info()

    def health(self) -> dict[str, dict[str, int]]:
        return {}

    async def close(self) -> None:
        pass


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    # every store of LEXICON_DIR (issue 12: gateway/lexicons.py), a damaged
    # one rebuilt from its word list before anything reads it; this process
    # knows their names, the compute processes hold them loaded
    catalog = configured_catalog(check=True)
    worker = WorkerClient()  # compact-numba; URL from WORKER_URL
    settings = LaneSettings.from_env()
    runner: Lanes | InProcess
    if settings.quick > 0:
        runner = Lanes(settings)
        await runner.start()
    else:
        runner = InProcess(Kit.load())
    # What start-up built lives as long as the process: out of the collector's
    # way, or a full collection walks all of it (123 ms with SOWPODS loaded).
    gc.collect()
    gc.freeze()
    _log.info(
        "%s; worker at %s",
        f"{settings.quick} quick + {settings.heavy} heavy compute processes"
        if settings.quick
        else "single process",
        worker.url,  # logged here, never in an answer
    )
    app.state.catalog = catalog
    app.state.runner = runner
    app.state.worker = worker
    yield
    await runner.close()
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
    # every error answer is ErrorResponse (scrabble/http_errors.py); the
    # connection-level ones (408, 431, 503 over the connection cap) too
    responses={
        400: {"model": ErrorResponse, "description": "Malformed JSON or not UTF-8"},
        404: {"model": ErrorResponse, "description": "No such resource"},
        405: {"model": ErrorResponse, "description": "Method not allowed"},
        413: {"model": ErrorResponse, "description": "Body over 64 KiB"},
        422: {"model": ErrorResponse, "description": "A field is wrong; detail names it"},
        500: {"model": ErrorResponse, "description": "A server fault (logged)"},
        503: {
            "model": ErrorResponse,
            "description": "Busy (retry after 1 s), or compact-numba's worker is down",
        },
    },
)
# Middleware, outermost last: CORS wraps everything so that every answer (413,
# 400 for a body that is not UTF-8 JSON, 500) carries its headers.
app.add_middleware(JSONByDefault)
app.add_middleware(BodyGuard, max_bytes=MAX_BODY_BYTES)
app.add_middleware(ServerErrorShape)
# Web front ends on other origins call the API from the browser; CORS_ORIGINS
# narrows who may (comma separated), "*" by default for a public read-only API.
app.add_middleware(
    CORSMiddleware,
    allow_origins=os.environ.get("CORS_ORIGINS", "*").split(","),
    allow_methods=["GET", "POST"],
    allow_headers=["content-type"],
)
app.add_exception_handler(RequestValidationError, validation_error_response)
app.add_exception_handler(StarletteHTTPException, http_error_response)
add_page(app)  # GET / (the page, files in gateway/static/) and GET /api (the JSON index)
app.include_router(lexicons_router)  # issue 12: GET /lexicons, /lexicons/{name}/words/{word}
app.include_router(records_router)  # issue 12: POST /score, POST /gcg/analyze
app.include_router(wordgame_router)  # POST /wordgame/turn
app.include_router(wordgame_game_router)  # POST /wordgame/game (the page at /wordgame plays by it)


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


async def find_moves(body: MoveRequest, request: Request) -> Response:
    """Validated by ``MoveRequest``; the CPU work goes to ``runner`` (a
    compute process, ``gateway/lanes.py``); this loop only waits for it."""
    started = time.perf_counter()
    state = request.app.state
    catalog: Catalog = state.catalog
    query = MoveQuery.of(body)
    try:  # issue 12: the request's lexicon, or the CGP's lex opcode
        name = catalog.choose(body.lexicon, query.lexicon)
    except LexiconChoiceError as exc:
        return choice_refused(exc)
    timing = {"parse_ms": _ms(started)}
    worker_answer, worker_ms = None, 0.0
    if query.engine == REMOTE_ENGINE:  # I/O: asked from here, placed by a compute process
        t = time.perf_counter()
        try:
            worker_answer = await state.worker.candidates(body.position)
        except WorkerUnavailable as exc:
            return JSONResponse(status_code=503, content=worker_unavailable(str(exc)))
        worker_ms = _ms(t)
    task = Task(query, body.position, started, timing, worker_answer, worker_ms, lexicon=name)
    return await run_work(request, task)


@app.post("/scrabble-api", response_model=MoveResponse, summary="Best moves for a position")
async def scrabble_api(body: MoveRequest, request: Request) -> Response:
    return await find_moves(body, request)


@app.post("/pages/scrabble-api.php", response_model=MoveResponse, include_in_schema=False)
async def scrabble_api_php(body: MoveRequest, request: Request) -> Response:
    return await find_moves(body, request)


@app.get("/health")
async def health(request: Request) -> JSONResponse:
    state = request.app.state
    catalog: Catalog = state.catalog
    processes = state.runner.health()
    # degraded: a lane has no ready process (it is being replaced); still 200,
    # the gateway serves the other lane and queues for this one
    ready = all(lane["ready"] for lane in processes.values())
    return JSONResponse(
        {
            "status": "ok" if ready else "degraded",
            "lexicon": catalog.served[catalog.default].info.as_dict(),
            # issue 12: the served stores; runner.info() has the memory per lexicon
            **lexicons_health(catalog),
            **state.runner.info(),
            "processes": processes,
            "worker": await state.worker.health(),
        }
    )
