"""Premium waste: spending a word multiplier on a cheap word, plus a per-tile cost.

A word-multiplier square (DW x2, TW x3) can be used once. Covered by a move
whose main word is worth ``base`` before the word multiplier, the square gives
``(W - 1) x base`` extra, where W is the product of the multipliers the move
covers. What it could still have produced is ``sum (w - 1) x REF_BASE`` over
the covered squares, REF_BASE being the base a typical play over such a square
makes: 10.8 points, measured on 300 score-greedy games (2,764 DW plays, mean
10.8, median 10; 1,452 TW plays, mean 10.7, median 10; docs/waste.md). The
shortfall, if any, is charged at WASTE_WEIGHT (the square is as likely to have
gone to the opponent as to us), fading linearly once fewer than FADE_TILES
tiles are unseen (late in the game there is no "later" for the square).

Cross words are left out of both sides of the comparison (the main word is
what a multiplier is spent on); a small cost per tile placed makes equal
scores prefer the move keeping more tiles.

All figures are integer millipoints and the whole move list is done at once
with NumPy (no per-move Python loop).
"""

from __future__ import annotations

import numpy as np

from scrabble.moves import MoveList
from scrabble.rules import Rules
from scrabble.scoring import NEW_FLAG

REF_BASE = 10_800  # millipoints: mean pre-multiplier main-word base over DW/TW plays
WASTE_WEIGHT_PCT = 50  # share of the shortfall charged
PER_TILE = 250  # millipoints per tile placed
FADE_TILES = 30  # below this many unseen tiles the waste charge fades to 0


def move_squares(moves: MoveList, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat board index of every main-word cell (k, 15) and its validity mask."""
    m = moves.meta.astype(np.int64)
    k = np.arange(moves.words.shape[1], dtype=np.int64)[None, :]
    across = (m[:, 2] == 0)[:, None]
    rows = m[:, 0:1] + np.where(across, 0, k)
    cols = m[:, 1:2] + np.where(across, k, 0)
    valid = k < m[:, 3:4]
    idx = np.where(valid, rows * size + cols, 0)
    return idx, valid


def main_base_and_mult(moves: MoveList, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Per move: main-word base (letter premiums on new tiles, no word multiplier)
    and the product of the word multipliers under its new tiles."""
    idx, valid = move_squares(moves, rules.size)
    w = moves.words.astype(np.int64)
    new = valid & (w & NEW_FLAG != 0)
    letter = np.clip((w & 31) - 1, 0, 25)
    face = np.where(w & 32, 0, rules.values[letter].astype(np.int64))
    lmult = np.where(new, rules.letter_mult[idx], 1)
    base = np.where(valid, face * lmult, 0).sum(axis=1)
    wm = np.where(new, rules.word_mult[idx], 1).astype(np.int64)
    return base, wm.prod(axis=1)


def premium_waste(moves: MoveList, rules: Rules, unseen_count: int) -> np.ndarray:
    """Millipoints charged to each move (int64[k], >= 0)."""
    if len(moves) == 0:
        return np.zeros(0, dtype=np.int64)
    idx, valid = move_squares(moves, rules.size)
    w = moves.words.astype(np.int64)
    new = valid & (w & NEW_FLAG != 0)
    base, mult = main_base_and_mult(moves, rules)
    sq = np.where(new, rules.word_mult[idx], 1).astype(np.int64)
    potential = ((sq - 1) * REF_BASE).sum(axis=1)
    gained = (mult - 1) * base * 1000
    short = np.maximum(potential - gained, 0)
    fade = min(FADE_TILES, max(0, int(unseen_count)))
    charge = short * WASTE_WEIGHT_PCT * fade // (100 * FADE_TILES)
    return charge + PER_TILE * moves.meta[:, 4].astype(np.int64)
