"""The internal worker behind ``compact-numba``: board + rack -> candidate words
from the compact Numba signature table.

The lifespan starts loading in a background thread and returns at once, so
``GET /health`` can answer 503 ("starting") while the SQLite rows become NumPy
arrays and the probe is compiled (or loaded from Numba's disk cache) and
exercised; it answers 200 only when a request would be served at full speed.
Requests never rebuild the index. Run:

    uvicorn scrabble.worker.app:app --host 127.0.0.1 --port ${WORKER_PORT:-8001}
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from scrabble.engines.compact.table_side import find_candidate_words
from scrabble.engines.compact.wire import CandidatesRequest
from scrabble.http_errors import (
    BodyError,
    error_content,
    field_error,
    http_error_response,
    json_text,
    too_large,
    validation_error_response,
)
from scrabble.lexicon.signature import signature_of
from scrabble.lexicon.store import default_db_path, ensure_sound, missing_store_message, read_info
from scrabble.lexicon.table import SignatureTable
from scrabble.position import PositionError, make_position

BACKEND = "numba-fnv1a"
_log = logging.getLogger("worker")
# The answer cache is bounded by the bytes it holds (JSON as sent: two blanks on
# a busy board give a few hundred KB, an opening's answer a few KB), not by
# entries, which let 400 two-blank positions hold 236 MB.
CACHE_BYTES = int(os.environ.get("WORKER_CACHE_BYTES", 32 * 2**20))
MAX_BODY_BYTES = int(os.environ.get("WORKER_MAX_BODY", 64 * 1024))
# Positions that run every compiled path once before the worker says ready:
# an opening, a blank pair, and tiles on the board (cross-checks).
_WARM = [
    (["." * 15] * 15, "AEINRST"),
    (["." * 15] * 15, "AE??"),
    (["." * 15] * 7 + ["....QUIET......"] + ["." * 15] * 7, "SORE?"),
]


@dataclass
class WorkerState:
    status: str = "starting"
    error: str = ""
    table: SignatureTable | None = None
    info: dict[str, object] = field(default_factory=dict)
    startup_ms: float = 0.0  # lifespan start -> ready (table built, code loaded and run)
    process_ms: float | None = None  # process start -> ready (imports included), Linux only
    cache: AnswerCache = field(default_factory=lambda: AnswerCache(CACHE_BYTES))


class AnswerCache:
    """Answers by (board, rack) as the JSON bytes sent, least recently used
    first out, holding at most ``max_bytes`` of keys and answers. An answer
    over an eighth of the bound is not kept: it would evict many to serve one."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.nbytes = 0
        self._entries: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @staticmethod
    def _cost(key: tuple[str, str], answer: bytes) -> int:
        return len(answer) + len(key[0]) + len(key[1]) + 200  # + the entry's own objects

    def get(self, key: tuple[str, str]) -> bytes | None:
        with self._lock:
            answer = self._entries.get(key)
            if answer is not None:
                self._entries.move_to_end(key)
            return answer

    def put(self, key: tuple[str, str], answer: bytes) -> None:
        cost = self._cost(key, answer)
        if cost > self.max_bytes // 8:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.nbytes -= self._cost(key, old)
            self._entries[key] = answer
            self.nbytes += cost
            while self.nbytes > self.max_bytes:
                gone_key, gone = self._entries.popitem(last=False)
                self.nbytes -= self._cost(gone_key, gone)


def _since_process_start_ms() -> float | None:
    """Milliseconds since this process started (10 ms resolution), from /proc."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return round((uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")) * 1000, 1)
    except (OSError, ValueError, IndexError):
        return None


def warm_numba() -> None:
    """Load every compiled function from Numba's cache using a two-row table;
    runs while SQLite reads the real rows (sqlite3 releases the GIL), so the two
    largest start-up costs overlap."""
    tiny = SignatureTable.from_rows([(signature_of("AB"), "AB BA")])
    for rows, rack in _WARM:
        find_candidate_words(tiny, make_position(rows, rack))


def _load(state: WorkerState, db_path: Path, started: float) -> None:
    try:
        if not db_path.is_file():
            raise FileNotFoundError(missing_store_message(db_path))
        ensure_sound(db_path, notice=_log.warning)  # rebuilt from its word list if damaged
        state.info = read_info(db_path).as_dict()
        warm = threading.Thread(target=warm_numba, name="numba-warm", daemon=True)
        warm.start()
        table = SignatureTable.load(db_path)
        warm.join()
        for rows, rack in _WARM:  # and once more on the real table: ready means fast
            find_candidate_words(table, make_position(rows, rack))
        state.table = table
        gc.collect()  # start-up's objects live as long as the process:
        gc.freeze()  # keep them out of every later collection
        state.startup_ms = round((time.perf_counter() - started) * 1000, 1)
        state.process_ms = _since_process_start_ms()
        state.status = "ok"
        _log.info("ready: table loaded and probed in %.0f ms", state.startup_ms)
    except Exception as exc:  # reported by /health, the process stays up to say so
        state.error = f"{type(exc).__name__}: {exc}"
        state.status = "error"
        _log.error("cannot serve: %s", state.error)


@asynccontextmanager
async def lifespan(framework: FastAPI) -> AsyncIterator[None]:
    started = time.perf_counter()
    db = os.environ.get("LEXICON_DB")
    framework.state.worker = WorkerState()
    loader = threading.Thread(
        target=_load,
        name="table-loader",
        daemon=True,
        args=(framework.state.worker, Path(db) if db else default_db_path(), started),
    )
    loader.start()
    yield


# The framework app: /health, /docs, /openapi.json and the lifespan. What
# uvicorn serves is ``app`` below: the hot route in front of this one.
api = FastAPI(title="Scrabble candidate worker", version="0.1.0", lifespan=lifespan)
api.add_exception_handler(RequestValidationError, validation_error_response)
api.add_exception_handler(StarletteHTTPException, http_error_response)


def _not_ready(state: WorkerState) -> dict[str, str]:
    return {"status": state.status, "error": state.error or "worker is loading its table"}


@api.get("/health")
async def health() -> JSONResponse:
    state: WorkerState = api.state.worker
    if state.status != "ok" or state.table is None:
        return JSONResponse(status_code=503, content=_not_ready(state))
    table = state.table
    return JSONResponse(
        {
            "status": "ok",
            "backend": BACKEND,
            "lexicon": state.info,
            "signatures": table.signatures,
            "capacity": table.capacity,
            "table_bytes": table.nbytes,
            "startup_ms": state.startup_ms,
            "ready_since_process_start_ms": state.process_ms,
            "cache_entries": len(state.cache),
            "cache_bytes": state.cache.nbytes,
            "cache_max_bytes": state.cache.max_bytes,
        }
    )


def answer_candidates(raw: bytes) -> tuple[int, bytes]:
    """POST /candidates: request body -> (status, JSON body). Validation by
    ``CandidatesRequest`` and the position parser, errors as the gateway's."""
    started = time.perf_counter()
    state: WorkerState = api.state.worker
    if state.status != "ok" or state.table is None:
        return 503, orjson.dumps(_not_ready(state))
    if not raw.strip():  # as FastAPI answers the gateway's empty bodies
        status, content = error_content(
            [{"type": "missing", "loc": ("body",), "msg": "Field required"}]
        )
        return status, orjson.dumps(content)
    try:
        body = CandidatesRequest.model_validate_json(raw)
    except ValidationError as exc:
        status, content = error_content(exc.errors())
        return status, orjson.dumps(content)
    try:
        position = make_position(body.board, body.rack)
    except PositionError as exc:
        return 422, orjson.dumps(field_error(exc.field, exc.message))
    key = ("/".join(body.board), position.rack_string())  # "AB" and "BA": one entry
    cached = state.cache.get(key)
    hit = cached is not None
    if cached is None:
        words, stats = find_candidate_words(state.table, position)
        cached = orjson.dumps(
            {"words": words, **stats, "lexicon_sha256": state.info.get("sha256", "")}
        )
        state.cache.put(key, cached)
    # the per-request figures go after the cached part: '{...' + ',"cache_hit":..}'
    worker_ms = round((time.perf_counter() - started) * 1000, 3)
    tail = orjson.dumps({"cache_hit": hit, "worker_ms": worker_ms})
    return 200, cached[:-1] + b"," + tail[1:]


class CandidatesRoute:
    """``/candidates`` as bare ASGI in front of the FastAPI app, which gets
    everything else (the lifespan, /health, /docs).

    The gateway calls this once per compact-numba request, so what a call
    costs besides the work counts. As a FastAPI route it cost 0.30 ms in-process,
    and 0.17 ms as a plain Starlette route. In front of FastAPI's middleware
    stack, each real HTTP round trip is another 0.04-0.06 ms shorter. The
    pydantic model still validates the body and documents it (``openapi``
    below). ``docs/worker-transport.md`` has the figures."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != "/candidates":
            await self.app(scope, receive, send)
            return
        if scope["method"] != "POST":
            status, payload = 405, orjson.dumps(field_error("method", "/candidates takes POST"))
        else:
            status, payload = await _read_and_answer(receive)
            if status == 0:
                return  # the client went away
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ]
                + ([(b"allow", b"POST")] if status == 405 else []),
            }
        )
        await send({"type": "http.response.body", "body": payload})


async def _read_and_answer(receive: Receive) -> tuple[int, bytes]:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return 0, b""
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > MAX_BODY_BYTES:
            return 413, orjson.dumps(too_large(MAX_BODY_BYTES))
        if not message.get("more_body"):
            raw = b"".join(chunks)
            try:  # the gateway's rules for encodings and nesting, the same answer
                raw = json_text(raw) if raw.strip() else raw
            except BodyError as exc:
                return 400, orjson.dumps(field_error("body", str(exc)))
            return answer_candidates(raw)


app = CandidatesRoute(api)


def openapi() -> dict[str, Any]:
    """FastAPI's schema plus the bare /candidates route, from its pydantic model."""
    if api.openapi_schema is None:
        schema = get_openapi(title=api.title, version=api.version, routes=api.routes)
        schema.setdefault("components", {}).setdefault("schemas", {})["CandidatesRequest"] = (
            CandidatesRequest.model_json_schema()
        )
        schema["paths"]["/candidates"] = {
            "post": {
                "summary": "Candidate words for a board and rack",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/CandidatesRequest"}
                        }
                    },
                },
                "responses": {
                    "200": {
                        "description": "words, hash_lookups, hash_hits, hash_probes, "
                        "signature_ms, hash_query_ms, worker_ms, cache_hit"
                    },
                    "400": {"description": "malformed JSON"},
                    "413": {"description": "body over the size limit"},
                    "422": {"description": "a field is wrong; detail names it"},
                    "503": {"description": "the table is still loading"},
                },
            }
        }
        api.openapi_schema = schema
    return api.openapi_schema


api.openapi = openapi  # type: ignore[method-assign]
