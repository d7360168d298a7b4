"""Premium waste: spending a word multiplier on a cheap word, plus a per-tile cost.

A word-multiplier square (DW x2, TW x3) can be used once. Covered by a move
whose main word is worth ``base`` before the word multiplier, the square gives
``(W - 1) x base`` extra, where W is the product of the multipliers the move
covers. What it could still have produced is ``sum (w - 1) x REF_BASE`` over
the covered squares, REF_BASE being the base a typical play over such a square
makes: 10.8 points, measured on 300 score-greedy games (2,764 DW plays, mean
10.8, median 10; 1,452 TW plays, mean 10.7, median 10; docs/waste.md). The
shortfall, if any, is charged at ``waste_weight_pct`` (the square is as likely
to have gone to the opponent as to us), fading linearly once fewer than
``fade_tiles`` tiles are unseen (late in the game there is no "later" for the
square). The figures are fields of ``EquityOptions``.

Cross words are left out of both sides of the comparison (the main word is
what a multiplier is spent on); a small cost per tile placed makes equal
scores prefer the move keeping more tiles.

All figures are integer millipoints and the whole move list is done at once
with NumPy (no per-move Python loop).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from scrabble.equity.millipoints import PER_POINT
from scrabble.equity.options import EquityOptions
from scrabble.moves import COL, DIRECTION, LENGTH, PLACED, ROW, MoveList
from scrabble.rules import Rules
from scrabble.tiles import ACROSS, BLANK_FLAG, LETTER_MASK, NEW_FLAG

Squares = tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]


def move_squares(moves: MoveList, size: int) -> Squares:
    """Flat board index of every main-word cell (k, width) and its validity mask."""
    m = moves.meta.astype(np.int64)
    k = np.arange(moves.words.shape[1], dtype=np.int64)[None, :]
    across = (m[:, DIRECTION] == ACROSS)[:, None]
    rows = m[:, ROW : ROW + 1] + np.where(across, 0, k)
    cols = m[:, COL : COL + 1] + np.where(across, k, 0)
    valid = k < m[:, LENGTH : LENGTH + 1]
    idx = np.where(valid, rows * size + cols, 0)
    return idx, valid


def main_base_and_mult(
    moves: MoveList, rules: Rules
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per move: main-word base (letter premiums on new tiles, no word multiplier)
    and the product of the word multipliers under its new tiles."""
    idx, valid = move_squares(moves, rules.size)
    w = moves.words.astype(np.int64)
    new = valid & (w & NEW_FLAG != 0)
    letter = np.clip((w & LETTER_MASK) - 1, 0, 25)
    face = np.where(w & BLANK_FLAG, 0, rules.values[letter].astype(np.int64))
    lmult = np.where(new, rules.letter_mult[idx], 1)
    base = np.where(valid, face * lmult, 0).sum(axis=1)
    wm = np.where(new, rules.word_mult[idx], 1).astype(np.int64)
    return base, wm.prod(axis=1)


def premium_waste(
    moves: MoveList, rules: Rules, unseen_count: int, options: EquityOptions
) -> npt.NDArray[np.int64]:
    """Millipoints charged to each move (int64[k], >= 0)."""
    if len(moves) == 0:
        return np.zeros(0, dtype=np.int64)
    idx, valid = move_squares(moves, rules.size)
    w = moves.words.astype(np.int64)
    new = valid & (w & NEW_FLAG != 0)
    base, mult = main_base_and_mult(moves, rules)
    sq = np.where(new, rules.word_mult[idx], 1).astype(np.int64)
    potential = ((sq - 1) * options.waste_ref_base).sum(axis=1)
    gained = (mult - 1) * base * PER_POINT
    short = np.maximum(potential - gained, 0)
    fade = min(options.fade_tiles, max(0, int(unseen_count)))
    charge = short * options.waste_weight_pct * fade // (100 * options.fade_tiles)
    return charge + options.per_tile * moves.meta[:, PLACED].astype(np.int64)  # type: ignore[no-any-return]
