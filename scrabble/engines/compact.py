"""The worker's half of ``compact-numba``: board and rack -> candidate words,
using nothing but the compact signature table (no trie in the worker: even the
cross-check masks come from signature lookups)."""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from scrabble.board import table_cross_checks
from scrabble.engines.span import plan_arrays, rack_letters
from scrabble.lexicon.table import INC, SignatureTable
from scrabble.position import Position


@njit(cache=True)
def table_queries(board, n, rack, start_r, start_c, through, slots, keys, text, text_off, inc):
    """Cross-checks from the table, spans and distinct signatures in one
    compiled call: (queries, signatures built, spans, cross-check probes)."""
    lines_a = board.reshape((n, n)).copy()
    lines_d = np.ascontiguousarray(lines_a.T)
    letters = rack_letters(rack)  # the plan cuts masks to these anyway
    mask_a, probes_a = table_cross_checks(lines_a, letters, slots, keys, text, text_off, inc)
    mask_d, probes_d = table_cross_checks(lines_d, letters, slots, keys, text, text_off, inc)
    spans, _, queries, built = plan_arrays(lines_a, lines_d, mask_a, mask_d, rack, start_r,
                                           start_c, through, True, inc)
    return queries, built, spans.shape[0], probes_a + probes_d


def candidates(table: SignatureTable, position: Position) -> tuple[list[str], dict[str, float]]:
    started = time.perf_counter()
    start_r, start_c = position.rules.opening_square
    queries, built, spans, cross_probes = table_queries(
        position.board, position.size, position.rack, start_r, start_c,
        position.rules.connection == "through", table.slots, table.keys, table.text,
        table.text_off, INC)
    signature_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    rows, probes = table.lookup(queries)
    hash_query_ms = (time.perf_counter() - started) * 1000
    words = table.words_of(rows)
    return words, {"hash_lookups": len(queries), "hash_hits": int((rows >= 0).sum()),
                   "hash_probes": probes, "cross_check_probes": int(cross_probes),
                   "signatures_built": int(built), "spans": int(spans),
                   "signature_ms": round(signature_ms, 3),
                   "hash_query_ms": round(hash_query_ms, 4)}
