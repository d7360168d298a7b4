"""The public gateway app: POST /scrabble-api (and /pages/scrabble-api.php),
GET /health, the web page at /, OpenAPI at /docs (assets served locally)."""

from __future__ import annotations

import gc
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from gateway.analysis import MoveQuery
from gateway.compute import REMOTE_ENGINE, Kit, Task, compute, worker_unavailable
from gateway.lanes import LaneBusy, Lanes, LaneSettings, WorkFailed
from gateway.page import add_page
from gateway.schemas import ErrorResponse, MoveRequest, MoveResponse
from gateway.wordgame import router as wordgame_router
from scrabble.engines.compact.client import WorkerClient, WorkerUnavailable
from scrabble.http_errors import (
    BodyGuard,
    JSONByDefault,
    ServerErrorShape,
    field_error,
    http_error_response,
    validation_error_response,
)
from scrabble.lexicon.store import LexiconInfo, default_db_path, ensure_sound, read_info

MAX_BODY_BYTES = int(os.environ.get("GATEWAY_MAX_BODY", 64 * 1024))
_log = logging.getLogger("gateway")


class InProcess:
    """The single-process layout (``GATEWAY_PROCESSES=0``): every request's
    work on the accepting event loop, as before issue 9; the baseline that
    ``scripts/bench_load.py`` compares the lanes with."""

    def __init__(self, kit: Kit) -> None:
        self.kit = kit

    async def run(self, task: Task) -> tuple[int, bytes]:
        return compute(self.kit, task)

    def info(self) -> dict[str, Any]:
        lexicon = self.kit.lexicon
        return {"trie_nodes": lexicon.trie.nodes, "lexicon_load_ms": round(lexicon.load_ms, 1)}

    def health(self) -> dict[str, dict[str, int]]:
        return {}

    async def close(self) -> None:
        pass


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    db = os.environ.get("LEXICON_DB")
    db_path = Path(db) if db else None
    # a damaged store is rebuilt from its word list before anything reads it
    ensure_sound(db_path or default_db_path(), notice=_log.warning)
    worker = WorkerClient()  # compact-numba; URL from WORKER_URL
    settings = LaneSettings.from_env()
    runner: Lanes | InProcess
    if settings.quick > 0:
        info = read_info(db_path or default_db_path())
        runner = Lanes(settings, db_path)
        await runner.start()
    else:
        kit = Kit.load(db_path)
        info = kit.lexicon.info
        runner = InProcess(kit)
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
    app.state.lexicon_info = info
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
app.include_router(wordgame_router)  # POST /wordgame/turn
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


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


async def find_moves(body: MoveRequest, request: Request) -> Response:
    """Validated by ``MoveRequest``; the CPU work goes to ``runner`` (a
    compute process, ``gateway/lanes.py``); this loop only waits for it."""
    started = time.perf_counter()
    state = request.app.state
    info: LexiconInfo = state.lexicon_info
    query = MoveQuery.of(body)
    if query.lexicon is not None and query.lexicon.lower() != info.name.lower():
        return JSONResponse(
            status_code=422,
            content=field_error(
                "cgp",
                f"lexicon {query.lexicon!r} is not loaded; this gateway serves {info.name!r}",
                error="unknown lexicon",
            ),
        )
    timing = {"parse_ms": _ms(started)}
    worker_answer, worker_ms = None, 0.0
    if query.engine == REMOTE_ENGINE:  # I/O: asked from here, placed by a compute process
        t = time.perf_counter()
        try:
            worker_answer = await state.worker.candidates(body.position)
        except WorkerUnavailable as exc:
            return JSONResponse(status_code=503, content=worker_unavailable(str(exc)))
        worker_ms = _ms(t)
    task = Task(query, body.position, started, timing, worker_answer, worker_ms)
    try:
        status, content = await state.runner.run(task)
    except (LaneBusy, WorkFailed) as exc:
        return JSONResponse(
            status_code=503,
            content=field_error("request", str(exc), error="busy: retry the request shortly"),
            headers={"retry-after": "1"},
        )
    return Response(content=content, status_code=status, media_type="application/json")


@app.post("/scrabble-api", response_model=MoveResponse, summary="Best moves for a position")
async def scrabble_api(body: MoveRequest, request: Request) -> Response:
    return await find_moves(body, request)


@app.post("/pages/scrabble-api.php", response_model=MoveResponse, include_in_schema=False)
async def scrabble_api_php(body: MoveRequest, request: Request) -> Response:
    return await find_moves(body, request)


@app.get("/health")
async def health(request: Request) -> JSONResponse:
    state = request.app.state
    info: LexiconInfo = state.lexicon_info
    processes = state.runner.health()
    # degraded: a lane has no ready process (it is being replaced); still 200,
    # the gateway serves the other lane and queues for this one
    ready = all(lane["ready"] for lane in processes.values())
    return JSONResponse(
        {
            "status": "ok" if ready else "degraded",
            "lexicon": info.as_dict(),
            **state.runner.info(),
            "processes": processes,
            "worker": await state.worker.health(),
        }
    )
