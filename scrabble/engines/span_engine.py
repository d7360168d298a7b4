"""The pipeline the signature engines share: board view, spans and their
distinct signatures, one lookup per distinct signature (the only part that
differs between engines), then fitting and scoring.

A lookup is any object with ``lookup(queries) -> (words, stats)`` taking the
(q, 2) uint64 packed signatures of ``span.plan``; its stats use the names
``lookups`` (distinct signatures looked up) and ``hits``, plus its own.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Protocol

import numpy as np
import numpy.typing as npt

from scrabble.board import BoardView
from scrabble.engines.fit import fit
from scrabble.engines.span import Plan, plan
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import MoveList, Stats
from scrabble.position import Position


class Lookup(Protocol):
    def lookup(self, queries: npt.NDArray[np.uint64]) -> tuple[list[str], Mapping[str, int]]: ...


def finish(
    position: Position, view: BoardView, spans: Plan, words: list[str], stats: Stats
) -> MoveList:
    """Fit the candidate words and attach the statistics every signature engine
    reports (spans, signatures built, candidate words, fit checks) to its own."""
    moves, checks = fit(position, view, spans.spans, words)
    moves.stats = {
        "spans": len(spans.spans),
        "signatures_built": spans.built,
        **stats,
        "candidate_words": len(set(words)),
        "fit_checks": checks,
    }
    return moves


class SpanEngine:
    """An engine made of the shared pipeline and one lookup."""

    def __init__(self, name: str, lexicon: Lexicon, lookup: Lookup) -> None:
        self.name = name
        self.lexicon = lexicon
        self.lookup = lookup

    def generate(self, position: Position) -> MoveList:
        view = position.view(self.lexicon.trie)
        started = time.perf_counter()
        spans = plan(view, position.rack)
        signature_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        words, stats = self.lookup.lookup(spans.queries)
        lookup_ms = (time.perf_counter() - started) * 1000
        return finish(
            position,
            view,
            spans,
            words,
            {**stats, "signature_ms": round(signature_ms, 3), "lookup_ms": round(lookup_ms, 3)},
        )
