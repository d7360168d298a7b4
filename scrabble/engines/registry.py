"""The one table of engines: the request schema, warm-up, benchmarks and tests
all read it.

Every engine returns exactly the same moves for the same position; each
reports its own statistics (``stats`` below names them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from scrabble.engines.compact.client import WorkerClient
from scrabble.engines.compact.engine import CompactNumbaEngine
from scrabble.engines.memory_hash import MemoryHash
from scrabble.engines.prime_product import PrimeProduct
from scrabble.engines.span_engine import Lookup, SpanEngine
from scrabble.engines.sqlite_hash import SqliteHash
from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.static import StaticEquity
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import MoveList
from scrabble.position import Position


class Engine(Protocol):
    name: str

    def generate(self, position: Position) -> MoveList: ...


class RemoteEngine(Protocol):
    name: str

    async def generate(self, position: Position) -> MoveList: ...


SPAN_STATS = ("spans", "signatures_built", "lookups", "hits", "candidate_words", "fit_checks")


@dataclass(frozen=True)
class EngineSpec:
    name: str
    summary: str  # how it finds candidate words (README, OpenAPI)
    stats: tuple[str, ...]  # the statistics it reports, always
    lookup: Callable[[Lexicon], Lookup] | None = None  # for the span engines
    remote: bool = False


ENGINES: dict[str, EngineSpec] = {
    spec.name: spec
    for spec in (
        EngineSpec(
            "trie",
            "Appel-Jacobson over a flat-array trie: anchors, cross-checks, extend right",
            ("anchors", "nodes_visited"),
        ),
        EngineSpec(
            "sqlite-hash",
            "span signatures looked up in the SQLite store, in batches",
            (*SPAN_STATS, "sqlite_queries"),
            lookup=lambda lexicon: SqliteHash(lexicon.db_path),
        ),
        EngineSpec(
            "memory-hash",
            "span signatures looked up in an in-process dict",
            SPAN_STATS,
            lookup=MemoryHash.for_lexicon,
        ),
        EngineSpec(
            "compact-numba",
            "span signatures looked up by the worker in its Numba FNV-1a table",
            (*SPAN_STATS, "probes", "worker_ms", "cache_hit", "worker_roundtrip_ms"),
            remote=True,
        ),
        EngineSpec(
            "prime-product",
            "span multisets keyed by 64-bit prime products, true signature compared",
            (*SPAN_STATS, "probes", "collisions"),
            lookup=PrimeProduct.for_lexicon,
        ),
    )
}
ENGINE_NAMES = tuple(ENGINES)
DEFAULT_ENGINE = "trie"


class EngineSet:
    """The engines for one lexicon. The span engines' tables take about 0.5 s
    each for SOWPODS, so they are built on first use, or all at once by
    ``prepare`` (a service's start-up)."""

    def __init__(self, lexicon: Lexicon, worker: WorkerClient | None = None) -> None:
        self.lexicon = lexicon
        self._trie = TrieEngine(lexicon)
        self._static: StaticEquity | None = None
        self.local: dict[str, Engine] = {DEFAULT_ENGINE: self._trie}
        self.remote: dict[str, RemoteEngine] = {}
        if worker is not None:
            self.remote["compact-numba"] = CompactNumbaEngine(lexicon, worker)

    def __getitem__(self, name: str) -> Engine:
        engine = self.local.get(name)
        if engine is None:
            spec = ENGINES[name]
            if spec.lookup is None:
                raise KeyError(f"{name} is not an in-process engine")
            engine = SpanEngine(name, self.lexicon, spec.lookup(self.lexicon))
            self.local[name] = engine
        return engine

    @property
    def static(self) -> StaticEquity:
        """The lexicon's static equity (its leave table, its anagram table)."""
        if self._static is None:
            self._static = StaticEquity.for_lexicon(self.lexicon)
        return self._static

    def prepare(self) -> None:
        for spec in ENGINES.values():
            if not spec.remote:
                self[spec.name]
        self._static = self.static  # built now, not on the first request

    @property
    def trie(self) -> TrieEngine:
        return self._trie

    async def generate(self, name: str, position: Position) -> MoveList:
        if name in self.remote:
            return await self.remote[name].generate(position)
        return self[name].generate(position)
