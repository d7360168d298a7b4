"""The search's ``floor``: asked only for rows scoring the floor or more, it
finds exactly the rows of the whole search that do, in the same order, and
enters fewer trie nodes (its walks stop where no word can reach the floor).
Checked on real mid-game boards, hands with visible tiles, 0-3 wild tiles a
line and floors across the range of the scores found."""

from __future__ import annotations

import numpy as np
import pytest

from scrabble.wordgame.kit import counts26
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.search import META_SCORE
from tests.wordgame_boards import mid_game


@pytest.mark.parametrize("seed", [505, 548, 603, 2010])
def test_a_floor_keeps_exactly_the_rows_that_reach_it(seed: int) -> None:
    case, player = mid_game(seed, load_lexicon("enable"), 10)
    kit = player.kit
    n = kit.n
    bl = kit.lines(player.board)
    rng = np.random.default_rng(seed)
    pruned = 0
    for trial in range(4):
        start = int(rng.integers(0, len(case.tiles) - 12))
        hand = counts26(case.tiles[start : start + case.t])
        vis = counts26(case.tiles[start + case.t : start + case.t + trial])
        caps = rng.integers(-1, 4, size=(2, n)).astype(np.int64)  # -1: the line is skipped
        meta, codes, nodes = kit.search(bl, hand, vis, caps, 0, 100)
        scores = meta[:, META_SCORE]
        assert len(scores) > 50
        for floor in {int(np.quantile(scores, q)) for q in (0.0, 0.5, 0.9, 0.99)} | {1}:
            kept = scores >= floor
            fmeta, fcodes, fnodes = kit.search(bl, hand, vis, caps, 0, 100, floor=floor)
            assert np.array_equal(fmeta, meta[kept])
            assert np.array_equal(fcodes, codes[kept])
            assert fnodes <= nodes
            pruned += nodes - fnodes
        # past the best score nothing is kept
        top = int(scores.max()) + 1
        none, _, _ = kit.search(bl, hand, vis, caps, 0, 100, floor=top)
        assert len(none) == 0
    assert pruned > 0  # the walks do stop early
