"""The worker's half of ``compact-numba``: board and rack -> candidate words,
using nothing but the compact signature table (no trie in the worker: even the
cross-check masks come from signature lookups)."""

from __future__ import annotations

import time

from numba import njit

from scrabble.board import BoardView, rack_letters, table_view_arrays
from scrabble.engines.span import plan_arrays
from scrabble.lexicon.table import INC, SignatureTable
from scrabble.moves import Stats
from scrabble.position import Position


@njit(cache=True)
def table_queries(board, size, rack, opening_row, opening_col, through, table, values,
                  letter_mult, word_mult, inc):  # fmt: skip
    """Cross-checks from the table, spans and distinct signatures in one
    compiled call: (queries, signatures built, spans, cross-check probes)."""
    letters = rack_letters(rack)  # the plan cuts masks to these anyway
    lines, mask, score, anchors, probes = table_view_arrays(
        board, size, letters, table, values, opening_row, opening_col, through
    )
    view = BoardView(lines, mask, score, anchors, letter_mult, word_mult)
    spans, _, queries, built = plan_arrays(view, rack, True, inc)
    return queries, built, spans.shape[0], probes


def find_candidate_words(table: SignatureTable, position: Position) -> tuple[list[str], Stats]:
    """The words the position's spans can take, and the wire statistics."""
    started = time.perf_counter()
    rules = position.rules
    opening_row, opening_col = rules.opening_square
    queries, built, spans, cross_probes = table_queries(
        position.board, rules.size, position.rack, opening_row, opening_col,
        rules.connection == "through", table, rules.values, rules.letter_mult_lines,
        rules.word_mult_lines, INC,
    )  # fmt: skip
    signature_ms = (time.perf_counter() - started) * 1000
    started = time.perf_counter()
    rows, probes = table.lookup(queries)
    hash_query_ms = (time.perf_counter() - started) * 1000
    words = table.words_of(rows)
    return words, {
        "hash_lookups": len(queries),
        "hash_hits": int((rows >= 0).sum()),
        "hash_probes": probes,
        "cross_check_probes": int(cross_probes),
        "signatures_built": int(built),
        "spans": int(spans),
        "signature_ms": round(signature_ms, 3),
        "hash_query_ms": round(hash_query_ms, 4),
    }
