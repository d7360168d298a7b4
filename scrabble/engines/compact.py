"""The worker's half of ``compact-numba``: board and rack -> candidate words,
using nothing but the compact signature table (no trie in the worker: even the
cross-check masks come from signature lookups)."""

from __future__ import annotations

import time

from scrabble.board import cross_checks_from_table
from scrabble.engines.span import board_lines, plan
from scrabble.lexicon.table import SignatureTable
from scrabble.position import Position


def candidates(table: SignatureTable, position: Position) -> tuple[list[str], dict[str, float]]:
    started = time.perf_counter()
    lines_a, lines_d = board_lines(position.board, position.size)
    mask_a, probes_a = cross_checks_from_table(lines_a, table)
    mask_d, probes_d = cross_checks_from_table(lines_d, table)
    p = plan(position.board, position.size, position.rack, position.rules.start,
             (mask_a, mask_d), through=position.rules.connection == "through")
    signature_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    rows, probes = table.lookup(p.queries)
    hash_query_ms = (time.perf_counter() - started) * 1000
    words = table.words_of(rows)
    return words, {"hash_lookups": len(p.queries), "hash_hits": int((rows >= 0).sum()),
                   "hash_probes": probes, "cross_check_probes": probes_a + probes_d,
                   "signatures_built": p.built, "spans": len(p.spans),
                   "signature_ms": round(signature_ms, 3),
                   "hash_query_ms": round(hash_query_ms, 4)}
