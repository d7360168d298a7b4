"""Tile codes: the one encoding every array in the engine uses.

A board cell is a ``uint8``: 0 is an empty square, 1..26 a tile A..Z, and
``BLANK_FLAG`` (32) is added when the tile is a blank played as that letter,
so ``cell & LETTER_MASK`` is always the letter and ASCII maps on directly
('A' = 65 -> 1, 'a' = 97 -> 33).

A rack is a count vector of length 27: index 0..25 for A..Z, 26 for blanks.
"""

from __future__ import annotations

import numpy as np

EMPTY = 0
BLANK_FLAG = 32
LETTER_MASK = 31
BLANK = 26  # index of the blank in rack count vectors
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
RACK_SYMBOLS = ALPHABET + "?"


def letter_index(ch: str) -> int:
    """0..25 for A..Z (either case)."""
    return (ord(ch) & LETTER_MASK) - 1


def rack_counts(rack: str) -> np.ndarray:
    """'AEINRS?' -> length-27 count vector (caller validated the characters)."""
    counts = np.zeros(27, dtype=np.uint8)
    for ch in rack:
        counts[BLANK if ch == "?" else letter_index(ch)] += 1
    return counts


def rack_string(counts: np.ndarray) -> str:
    """Count vector -> canonical rack string (letters in order, blanks last)."""
    return "".join(symbol * n for symbol, n in zip(RACK_SYMBOLS, counts.tolist(), strict=True)
                   if n > 0)


def cell_char(cell: int) -> str:
    if cell == EMPTY:
        return "."
    ch = ALPHABET[(cell & LETTER_MASK) - 1]
    return ch.lower() if cell & BLANK_FLAG else ch
