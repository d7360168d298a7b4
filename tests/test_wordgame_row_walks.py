"""The row values a player reads, found without valuing every row: the best
value per hand (``best_row_values``), the K best rows (``top_rows``) and the
leaves' values read by the per-play walks (``play_values`` on a matrix filled
as it is read). Each is checked against every row valued
(``row_values``, the obviously correct way) on real mid-game boards with
hands, visible tiles and horizons drawn at random: the same numbers, bit for
bit, and fewer rows valued."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from scrabble.wordgame.kit import Kit, counts26, unique_submultisets
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.row_value import (
    UNKNOWN,
    best_row_values,
    row_values,
    top_rows,
    upper_bounds,
)
from scrabble.wordgame.rows import Rows, play_tiles, rows_from_search, with_footprints
from scrabble.wordgame.search import META_LEN, META_LINE, META_MISSING, META_START, META_VISIBLE
from scrabble.wordgame.value import play_values, pre_index
from tests.wordgame_boards import mid_game

SEEDS = [505, 548, 603, 2010]
Turn = tuple[Kit, Rows, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]


def turns(seed: int) -> Iterator[Turn]:
    """Three turns on case ``seed``'s board after greedy's first ten: the
    rows a search finds for a hand from the queue with 0-2 visible tiles (as
    prospects), its plays (meta, codes), the hand, the visible tiles, the
    turn's three-letter table and its horizon."""
    case, player = mid_game(seed, load_lexicon("enable"), 10)
    kit = player.kit
    bl = kit.lines(player.board)
    rng = np.random.default_rng(seed)
    caps = np.full((2, kit.n), 2, dtype=np.int64)
    for trial in range(3):
        start = int(rng.integers(0, len(case.tiles) - 12))
        hand = counts26(case.tiles[start : start + case.t])
        vis = counts26(case.tiles[start + case.t : start + case.t + trial])
        meta, codes, _ = kit.search(bl, hand, vis, caps, 0, 100)
        rows = with_footprints(rows_from_search(meta, codes, kit.n, with_foot=False), kit.n)
        now = (meta[:, META_MISSING] == 0) & (meta[:, META_VISIBLE] == 0)
        horizon = int(rng.integers(4, 33))
        yield kit, rows, meta[now], codes[now], hand, vis, horizon


@pytest.mark.parametrize("seed", SEEDS)
def test_the_best_value_per_hand_is_the_maximum_of_every_rows_value(seed: int) -> None:
    for kit, rows, _, _, hand, vis, horizon in turns(seed):
        rng = np.random.default_rng(seed + horizon)
        table3 = kit.table3(horizon)
        # keeps of the hand, as a discard keeps them
        keeps = np.minimum(hand[None, :], rng.integers(0, 3, size=(40, 26)))
        haves = np.ascontiguousarray(unique_submultisets(keeps, hand)[0] + vis[None, :])
        every = row_values(haves, rows, table3, kit.probs, horizon)
        upper = upper_bounds(rows)
        order = np.argsort(-upper, kind="stable").astype(np.int64)
        excluded = rng.random(len(rows)) < 0.2
        shown = np.where(excluded[None, :], 0.0, every)
        for at_least in (0.0, float(np.quantile(shown.max(axis=1), 0.5))):
            best = best_row_values(
                haves, rows, order, upper, excluded, table3, kit.probs, horizon, at_least
            )
            assert np.array_equal(best, np.maximum(shown.max(axis=1), at_least))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_best_rows_are_those_a_stable_sort_of_every_value_ranks_first(seed: int) -> None:
    for kit, rows, _, _, hand, vis, horizon in turns(seed):
        table3 = kit.table3(horizon)
        have = hand + vis
        values = row_values(have[None, :], rows, table3, kit.probs, horizon)[0]
        ranked = np.argsort(-values, kind="stable")
        assert len(np.unique(values)) < len(values)  # ties to break, as the sort does
        for count in (1, 7, 64, len(rows) + 5):
            found = top_rows(have, rows, count, table3, kit.probs, horizon)
            assert np.array_equal(found, ranked[:count])


def batch_values(
    kit: Kit,
    rows: Rows,
    meta: np.ndarray,
    codes: np.ndarray,
    hand: np.ndarray,
    vis: np.ndarray,
    horizon: int,
    lazy: bool,
) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """``play_values`` of every play against the rows, given every leave's
    value of every row, or (``lazy``) none of them; with the matrix the
    walks read."""
    n = kit.n
    tile_sq, tile_lt, tile_n, stamp, used = play_tiles(
        meta[:, 0].astype(np.int64),
        meta[:, META_LINE].astype(np.int64),
        meta[:, META_START].astype(np.int64),
        meta[:, META_LEN].astype(np.int64),
        codes,
        n,
    )
    uniq, leave_idx = unique_submultisets(hand[None, :] - used, hand)
    haves = np.ascontiguousarray(uniq + vis[None, :])
    table3 = kit.table3(horizon)
    if lazy:
        lvals = np.full((len(haves), len(rows)), UNKNOWN)
    else:
        lvals = row_values(haves, rows, table3, kit.probs, horizon)
    upper = upper_bounds(rows)
    found = play_values(
        (tile_sq, tile_lt, tile_n, stamp),
        leave_idx.astype(np.int64),
        haves,
        lvals,
        np.argsort(-upper, kind="stable").astype(np.int64),
        upper,
        rows,
        pre_index(rows.direction, rows.line, rows.start, rows.length, rows.codes, n),
        table3,
        kit.probs,
        horizon,
        n,
        np.zeros((2, n), dtype=np.bool_),
        kit.rules.word_mult.astype(np.int64),
    )
    return found, lvals


@pytest.mark.parametrize("seed", SEEDS)
def test_the_leaves_values_computed_as_the_walks_read_them_give_the_same_answers(
    seed: int,
) -> None:
    computed = cells = 0
    for kit, rows, meta, codes, hand, vis, horizon in turns(seed):
        assert len(meta) > 20
        every, full = batch_values(kit, rows, meta, codes, hand, vis, horizon, False)
        read, lazy = batch_values(kit, rows, meta, codes, hand, vis, horizon, True)
        for a, b in zip(every, read, strict=True):
            assert np.array_equal(a, b)
        known = ~np.isnan(lazy)
        assert np.array_equal(lazy[known], full[known])
        computed += int(known.sum())
        cells += lazy.size
    assert 0 < computed < cells / 2  # most values are never needed
