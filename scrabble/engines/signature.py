"""The pipeline the four signature engines share: board analysis, spans and
their distinct signatures, one lookup per distinct signature (the only part
that differs between engines), then fitting and scoring.

A lookup is any object with ``lookup(queries) -> (words, stats)`` taking the
(q, 2) uint64 packed signatures of ``span.plan``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from scrabble.board import cross_checks
from scrabble.engines.fit import fit
from scrabble.engines.span import Plan, board_lines, plan
from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.store import group_by_signature, load_rows
from scrabble.moves import MoveList
from scrabble.position import Position


class Lookup(Protocol):
    def lookup(self, queries: np.ndarray) -> tuple[list[str], dict[str, int]]: ...


@dataclass(frozen=True)
class Analysis:
    """Cross-check masks and cross-word scores of the across and down lines."""

    mask_a: np.ndarray
    mask_d: np.ndarray
    cross_a: np.ndarray
    cross_d: np.ndarray


def analyse(position: Position, lexicon: Lexicon) -> Analysis:
    lines_a, lines_d = board_lines(position.board, position.size)
    t = lexicon.trie
    values = position.rules.values
    mask_a, cross_a = cross_checks(lines_a, t.mask, t.first, values)
    mask_d, cross_d = cross_checks(lines_d, t.mask, t.first, values)
    return Analysis(mask_a=mask_a, mask_d=mask_d, cross_a=cross_a, cross_d=cross_d)


def plan_position(position: Position, analysis: Analysis, signatures: bool = True) -> Plan:
    return plan(position.board, position.size, position.rack, position.rules.opening_square,
                (analysis.mask_a, analysis.mask_d), signatures,
                through=position.rules.connection == "through")


def finish(position: Position, analysis: Analysis, p: Plan, words: list[str],
           stats: dict[str, int | float]) -> MoveList:
    """Fit the candidate words and attach the statistics every engine reports."""
    moves, checks = fit(position, p.spans, analysis, words)
    moves.stats = {"spans": len(p.spans), "signatures_built": p.built,
                   "distinct_signatures": len(p.queries), **stats,
                   "candidate_words": len(set(words)), "fit_checks": checks}
    return moves


def generate_with(position: Position, lexicon: Lexicon, lookup: Lookup) -> MoveList:
    analysis = analyse(position, lexicon)
    started = time.perf_counter()
    p = plan_position(position, analysis)
    signature_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    words, stats = lookup.lookup(p.queries)
    lookup_ms = (time.perf_counter() - started) * 1000
    return finish(position, analysis, p, words,
                  {**stats, "signature_ms": round(signature_ms, 3),
                   "lookup_ms": round(lookup_ms, 3)})


def lexicon_rows(lexicon: Lexicon) -> list[tuple[bytes, str]]:
    """(signature, words) rows of a lexicon: from its SQLite file, or grouped
    from its word list when it has none (small test lexicons)."""
    if lexicon.db_path.is_file():
        return load_rows(lexicon.db_path)
    groups = group_by_signature(lexicon.words)
    return sorted((sig, " ".join(sorted(ws))) for sig, ws in groups.items())
