"""Rows found again: ``same_rows`` (spans matched all at once, letters only
where a span matches) is the obviously-correct comparison of every pair, on
the rows a real search finds on a real board."""

from __future__ import annotations

import numpy as np
import pytest

from scrabble.wordgame.kit import counts26
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.rows import Rows, need_counts, rows_from_search, same_rows
from tests.wordgame_boards import mid_game


def brute_same_rows(found: Rows, rows: Rows, among: np.ndarray) -> list[int]:
    def placement(r: Rows, i: int) -> tuple[object, ...]:
        return (r.direction[i], r.line[i], r.start[i], r.length[i], tuple(r.codes[i]))

    wanted = [placement(rows, int(a)) for a in among]
    return [i for i in range(len(found)) if placement(found, i) in wanted]


@pytest.mark.parametrize("seed", [548, 603])
def test_same_rows_is_the_comparison_of_every_pair(seed: int) -> None:
    case, player = mid_game(seed, load_lexicon("enable"), 12)
    kit = player.kit
    bl = kit.lines(player.board)
    caps = np.ones((2, kit.n), dtype=np.int64)  # one wild tile on every line
    none = np.zeros(26, dtype=np.int64)

    def found_with(hand: str) -> Rows:
        meta, codes, _ = kit.search(bl, counts26(hand), none, caps)
        return rows_from_search(meta, codes, kit.n, with_foot=False)

    # two hands sharing letters find many of the same placements
    rows, found = found_with(case.tiles[:7]), found_with(case.tiles[3:10])
    rng = np.random.default_rng(seed)
    for among in (
        np.arange(len(rows), dtype=np.int64),
        np.sort(rng.choice(len(rows), size=len(rows) // 3, replace=False)).astype(np.int64),
        np.zeros(0, dtype=np.int64),
    ):
        want = brute_same_rows(found, rows, among)
        idx, needs = same_rows(found, rows, among)
        assert idx.tolist() == want
        assert np.array_equal(needs, need_counts(found)[want])
        if len(among) == len(rows):
            assert want  # the comparison is not vacuous
