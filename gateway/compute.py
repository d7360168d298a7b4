"""A request's CPU work, as plain data in and bytes out: what the gateway's
compute processes run (``gateway/lanes.py``), and what the single-process
layout (``GATEWAY_PROCESSES=0``) runs on its own event loop.

The accepting process has validated the request (``MoveRequest`` built the
``Position``) and, for compact-numba, already asked the worker; a ``Task``
carries that across a pipe. ``compute`` generates the moves, calls
``analysis.answer`` and writes the JSON.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from gateway.analysis import MoveQuery, answer
from gateway.warmup import warm_gateway
from scrabble.engines.compact.client import WorkerClient, WorkerUnavailable
from scrabble.engines.compact.engine import CompactNumbaEngine
from scrabble.engines.registry import EngineSet
from scrabble.http_errors import SERVER_ERROR, field_error
from scrabble.lexicon.loaded import Lexicon
from scrabble.position import Position

_log = logging.getLogger("gateway.compute")
REMOTE_ENGINE = "compact-numba"


@dataclass(frozen=True)
class Task:
    query: MoveQuery
    position: Position
    started: float  # time.perf_counter() when the request arrived (CLOCK_MONOTONIC: any process)
    timing: dict[str, float] = field(default_factory=dict)
    worker_answer: dict[str, Any] | None = None  # compact-numba: the worker's words
    worker_ms: float = 0.0


@dataclass
class Kit:
    """What one process computes with: the lexicon, its engines, warmed."""

    lexicon: Lexicon
    engines: EngineSet
    compact: CompactNumbaEngine

    @classmethod
    def load(cls, db_path: Path | None) -> Kit:
        lexicon = Lexicon.load(db_path)
        # the client is never used here (the accepting process asks the
        # worker); the engine only places the words
        engines = EngineSet(lexicon, WorkerClient())
        # The in-process signature tables (about 1 s), so no caller's first
        # memory-hash or prime-product request pays for building them; then
        # every compiled path once (loaded from Numba's cache).
        engines.prepare()
        warm_gateway(engines)
        return cls(lexicon, engines, CompactNumbaEngine(lexicon, WorkerClient()))


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


def compute(kit: Kit, task: Task) -> tuple[int, bytes]:
    """(status, JSON body) for a validated request; never raises."""
    try:
        t = time.perf_counter()
        if task.query.engine == REMOTE_ENGINE:
            assert task.worker_answer is not None
            moves = kit.compact.place(task.position, task.worker_answer, task.worker_ms)
            movegen_ms = round(task.worker_ms + _ms(t), 3)
        else:
            moves = kit.engines[task.query.engine].generate(task.position)
            movegen_ms = _ms(t)
        timing = {**task.timing, "movegen_ms": movegen_ms}
        response = answer(task.query, task.position, moves, kit.engines, timing)
        response["timing"] = {"total_ms": _ms(task.started), **response["timing"]}
        # orjson: about 5x faster than json.dumps on a 20-move answer (0.36 ms there)
        return 200, orjson.dumps(response)
    except WorkerUnavailable as exc:
        return 503, orjson.dumps(worker_unavailable(str(exc)))
    except Exception:
        _log.exception("computing %s failed", task.query)
        return 500, orjson.dumps(SERVER_ERROR)


def worker_unavailable(message: str) -> dict[str, Any]:
    return field_error(
        "engine",
        message,
        error="worker unavailable: engine compact-numba cannot answer now; the other engines can",
    )
