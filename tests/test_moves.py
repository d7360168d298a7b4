"""Move ordering: one fixed order, whichever path computes it."""

from __future__ import annotations

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.position import make_position


def test_top_n_agrees_with_the_full_order(lexicon):
    rows = ["." * 15] * 15
    for rack in ("AEINRS?", "EEGIJO?", "QI"):
        moves = TrieEngine(lexicon).generate(make_position(rows, rack))
        full = moves.order()
        for limit in (1, 5, 20, 300, len(moves)):
            assert np.array_equal(moves.order(limit), full[:limit])
        scores = moves.scores[full]
        assert (np.diff(scores) <= 0).all()
        # ties: across before down, then row, column
        m = moves.meta[full]
        same = np.diff(scores) == 0
        keys = m[:, 2] * 10000 + m[:, 0] * 100 + m[:, 1]
        assert (np.diff(keys)[same] >= 0).all()
