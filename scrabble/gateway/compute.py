"""A request's CPU work, as plain data in and bytes out: what the gateway's
compute processes run (``gateway/lanes.py``), and what the single-process
layout (``GATEWAY_PROCESSES=0``) runs on its own event loop.

The accepting process has validated the request (``MoveRequest`` built the
``Position``), chosen the lexicon, and for compact-numba already asked the
worker; a ``Task`` carries that across a pipe. ``compute`` generates the
moves with that lexicon's engines, calls ``analysis.answer`` and writes the
JSON. A ``RecordTask`` (``/score``, ``/gcg/analyze``) is computed by
``record_work``, a ``TurnTask`` (``/wordgame/turn``) by ``wordgame_work``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from scrabble.compile_log import compile_log
from scrabble.engines.compact.client import WorkerClient, WorkerUnavailable
from scrabble.engines.compact.engine import CompactNumbaEngine
from scrabble.engines.registry import EngineSet
from scrabble.gateway.analysis import MoveQuery, answer, placements
from scrabble.gateway.lexicons import configured_catalog
from scrabble.gateway.record_work import RecordTask, compute_record
from scrabble.gateway.warmup import warm_gateway
from scrabble.gateway.wordgame_replay import GameTask, game_answer
from scrabble.gateway.wordgame_work import TurnTask, turn_answer
from scrabble.http_errors import SERVER_ERROR, field_error
from scrabble.lexicon.catalog import Catalog
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
    lexicon: str | None = None  # the served lexicon's key (None: the default)


@dataclass
class Kit:
    """What one process computes with: every served lexicon and its engines,
    warmed (issue 12: ``Catalog``); ``lexicon``/``engines`` are the default's."""

    catalog: Catalog
    compact: dict[str, CompactNumbaEngine] = field(default_factory=dict)

    @classmethod
    def load(cls) -> Kit:
        """The stores ``lexicons.configured_catalog`` names, all loaded: the
        default with its in-process signature tables (about 1 s), so no
        caller's first memory-hash or prime-product request pays for building
        them, every lexicon with its leave and anagram tables; then every
        compiled path once (loaded from Numba's cache)."""
        # the client is never used here (the accepting process asks the
        # worker); the engines only place the words
        catalog = configured_catalog(WorkerClient())
        with compile_log():  # a cold cache compiles the trie and table builders here
            catalog.load(prepare_default=True)
            for entry in catalog.served.values():
                assert entry.engines is not None
                _ = entry.engines.static
        warm_gateway(catalog.engines())
        for entry in catalog.served.values():
            entry.memory()  # counted now (a quarter second for SOWPODS), reported by /health
        return cls(catalog)

    @property
    def engines(self) -> EngineSet:
        return self.catalog.engines()

    @property
    def lexicon(self) -> Lexicon:
        return self.catalog.lexicon()

    def engines_for(self, name: str | None) -> EngineSet:
        return self.catalog.engines(name)

    def compact_for(self, name: str | None) -> CompactNumbaEngine:
        key = self.catalog.resolve(name)
        engine = self.compact.get(key)
        if engine is None:
            engine = CompactNumbaEngine(self.catalog.lexicon(key), WorkerClient())
            self.compact[key] = engine
        return engine

    def info(self) -> dict[str, Any]:
        """What /health reports of this process's lexicons."""
        lexicon = self.lexicon
        return {
            "trie_nodes": lexicon.trie.nodes,
            "lexicon_load_ms": round(lexicon.load_ms, 1),
            "lexicons": {e.info.name: e.memory() for e in self.catalog.served.values()},
        }


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


Work = Task | RecordTask | TurnTask | GameTask  # what a compute process is sent


def compute(kit: Kit, task: Work) -> tuple[int, bytes]:
    """(status, JSON body) for a validated request; never raises."""
    if isinstance(task, RecordTask):
        return compute_record(kit.engines_for(task.lexicon), task)
    if isinstance(task, TurnTask):
        return turn_answer(kit.catalog.lexicon(task.lexicon), task)
    if isinstance(task, GameTask):
        return game_answer(kit.catalog.lexicon(task.lexicon), task)
    try:
        t = time.perf_counter()
        engines = kit.engines_for(task.lexicon)
        if task.query.engine == REMOTE_ENGINE:
            assert task.worker_answer is not None
            compact = kit.compact_for(task.lexicon)
            moves = compact.place(task.position, task.worker_answer, task.worker_ms)
            movegen_ms = round(task.worker_ms + _ms(t), 3)
            whole = True
        else:
            moves, whole = placements(task.query, task.position, engines)
            movegen_ms = _ms(t)
        timing = {**task.timing, "movegen_ms": movegen_ms}
        response = answer(task.query, task.position, moves, engines, timing, whole)
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
