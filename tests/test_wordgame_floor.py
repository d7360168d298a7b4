"""The search's two ways to find less: ``floor`` (asked only for rows scoring
the floor or more, it finds exactly the rows of the whole search that do, in
the same order, and enters fewer trie nodes) and ``keep_best`` (the K best rows
by value and every play, as the whole search has them). Checked on real
mid-game boards, hands with visible tiles, 0-3 wild tiles a line, floors
across the range of the scores found, and several K and horizons."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from scrabble.wordgame.kit import Kit, counts26
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.lines import BoardLines
from scrabble.wordgame.row_value import row_values
from scrabble.wordgame.rows import rows_from_search
from scrabble.wordgame.search import META_MISSING, META_SCORE, META_VISIBLE
from tests.wordgame_boards import mid_game

SEEDS = [505, 548, 603, 2010]
Search = tuple[np.ndarray, np.ndarray, np.ndarray]  # hand, visible tiles, wild caps


def searches(seed: int) -> Iterator[tuple[Kit, BoardLines, Search, np.random.Generator]]:
    """Four searches on case ``seed``'s board after greedy's first ten turns:
    a hand from the queue with 0-3 visible tiles, 0-3 wild tiles on random
    lines (-1: the line is skipped); the rng goes on for the caller's draws."""
    case, player = mid_game(seed, load_lexicon("enable"), 10)
    kit = player.kit
    bl = kit.lines(player.board)
    rng = np.random.default_rng(seed)
    for trial in range(4):
        start = int(rng.integers(0, len(case.tiles) - 12))
        hand = counts26(case.tiles[start : start + case.t])
        vis = counts26(case.tiles[start + case.t : start + case.t + trial])
        caps = rng.integers(-1, 4, size=(2, kit.n)).astype(np.int64)
        yield kit, bl, (hand, vis, caps), rng


@pytest.mark.parametrize("seed", SEEDS)
def test_a_floor_keeps_exactly_the_rows_that_reach_it(seed: int) -> None:
    pruned = 0
    for kit, bl, (hand, vis, caps), _ in searches(seed):
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


def best_rows(
    meta: np.ndarray,
    codes: np.ndarray,
    keep: int,
    have: np.ndarray,
    table3: np.ndarray,
    probs: np.ndarray,
) -> np.ndarray:
    """The ``keep`` best rows by value, ranked as the player ranks them."""
    rows = rows_from_search(meta, codes, codes.shape[1], with_foot=False)
    values = row_values(have, rows, table3, probs, 32)[0]
    order = np.argsort(-values, kind="stable")[:keep]
    return np.concatenate([meta[order], codes[order]], axis=1)


def plays(meta: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The rows that are plays now (nothing missing, no visible tile)."""
    now = (meta[:, META_MISSING] == 0) & (meta[:, META_VISIBLE] == 0)
    return np.concatenate([meta[now], codes[now]], axis=1)


@pytest.mark.parametrize("seed", SEEDS)
def test_keeping_the_best_rows_finds_the_same_best_rows_and_every_play(seed: int) -> None:
    # the turn's first search keeps only the prospects that can still be among
    # the K best rows by value (score x the chance of their wild letters): the
    # K best, in the order the caller ranks them, and the plays are the whole
    # search's
    pruned = 0
    for kit, bl, (hand, vis, caps), rng in searches(seed):
        table3 = kit.table3(int(rng.integers(4, 33)))
        have = (hand + vis)[None, :]
        meta, codes, nodes = kit.search(bl, hand, vis, caps, 0, 100)

        assert len(meta) > 100
        for keep in (1, 37, 400):
            kmeta, kcodes, knodes = kit.search(
                bl, hand, vis, caps, 0, 100, keep_best=keep, table3=table3
            )
            assert np.array_equal(
                best_rows(kmeta, kcodes, keep, have, table3, kit.probs),
                best_rows(meta, codes, keep, have, table3, kit.probs),
            )
            assert np.array_equal(plays(kmeta, kcodes), plays(meta, codes))
            assert len(kmeta) <= len(meta) and knodes <= nodes
            pruned += len(meta) - len(kmeta)
    assert pruned > 0  # prospects are dropped
