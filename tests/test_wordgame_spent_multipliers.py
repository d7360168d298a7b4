"""A play that lays some of a prospect's letters on their own squares leaves the
rest of the prospect open, but the word multipliers under those tiles are spent:
the prospect's score counted them under new tiles, and when it is made they are
under board tiles. Valued at its full score, such a prospect made a small play
worth the big one it ruins (seed 567: LITERACY for 1,026 on a row that
TELICALLY later took for 10,692, because LITERACY's letters sat on the
squares of a x486 ILLITERACY).
"""

from __future__ import annotations

import numpy as np
import pytest

from scrabble.wordgame.chance import LOG_FACT, three_letter_table
from scrabble.wordgame.kit import counts26
from scrabble.wordgame.row_value import row_values, upper_bounds
from scrabble.wordgame.rows import PROSPECT, make_rows, play_tiles
from scrabble.wordgame.search import NEW
from scrabble.wordgame.value import play_values, pre_index

N = 10
SCORE = 300


def code(letter: str, flags: int = NEW) -> int:
    return (ord(letter) - 64) | flags


def value_of_prospect_after(play_word: str, play_col: int, square_wm: np.ndarray) -> float:
    """The best open prospect value of a vertical one-tile play at
    (4, play_col) against the row CATS across row 4 from column 2, all of
    whose letters the leave holds (so only the multipliers can change it)."""
    codes = np.zeros((1, N), dtype=np.uint8)
    codes[0, :4] = [code(ch) for ch in "CATS"]
    rows = make_rows(
        np.array([0]),
        np.array([4]),
        np.array([2]),
        np.array([4]),
        codes,
        np.array([SCORE]),
        np.array([0]),
        np.array([1.0]),
        N,
        kind=PROSPECT,
    )
    play_codes = np.zeros((1, N), dtype=np.uint8)
    play_codes[0, 0] = code(play_word)
    tile_sq, tile_lt, tile_n, stamp, _ = play_tiles(
        np.array([1]), np.array([play_col]), np.array([4]), np.array([1]), play_codes, N
    )
    probs = np.full(26, 1 / 26)
    table3 = three_letter_table(probs, 8, LOG_FACT)
    haves = counts26("CATS")[None, :] - counts26(play_word)[None, :]
    lvals = row_values(haves, rows, table3, probs, 8)
    upper = upper_bounds(rows)
    order = np.argsort(-upper, kind="stable").astype(np.int64)
    best, *_ = play_values(
        (tile_sq, tile_lt, tile_n, stamp),
        np.zeros(1, dtype=np.int64),
        haves,
        lvals,
        order,
        upper,
        rows,
        pre_index(rows.direction, rows.line, rows.start, rows.length, rows.codes, N),
        table3,
        probs,
        8,
        N,
        np.zeros((2, N), dtype=np.bool_),
        square_wm,
    )
    return float(best[0])


@pytest.mark.parametrize("multiplier", [2, 3])
def test_a_prospects_multiplier_spent_by_the_play_is_taken_off(multiplier: int) -> None:
    square_wm = np.ones(N * N, dtype=np.int64)
    square_wm[4 * N + 3] = multiplier  # under the A of CATS
    # the play lays CATS's A on its own square: CATS stays open, that multiplier spent
    assert value_of_prospect_after("A", 3, square_wm) == pytest.approx(SCORE / multiplier)


def test_a_square_without_a_multiplier_leaves_the_value_whole() -> None:
    square_wm = np.ones(N * N, dtype=np.int64)
    square_wm[4 * N + 4] = 3  # under the T, which the play does not fill
    assert value_of_prospect_after("A", 3, square_wm) == pytest.approx(SCORE)


def test_a_play_on_the_prospects_square_with_another_letter_spoils_it() -> None:
    square_wm = np.ones(N * N, dtype=np.int64)
    assert value_of_prospect_after("E", 3, square_wm) == 0.0
