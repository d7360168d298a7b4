"""Tile codes: the one encoding every array in the engine uses.

A board cell, and a cell of a move's main word, is a ``uint8``:

* ``EMPTY`` (0) is an empty square;
* the low five bits (``cell & LETTER_MASK``) are the letter, 1..26 for A..Z,
  so ASCII maps on directly ('A' = 65 -> 1);
* ``BLANK_FLAG`` (32) marks a blank played as that letter ('a' = 97 -> 33);
* ``NEW_FLAG`` (64) marks, in a move's word, a tile this move places.

A letter *index* (0..25) is ``(cell & LETTER_MASK) - 1``. A rack, an unseen
pool or a leave is a count vector of length ``RACK_TYPES`` (27): indices 0..25
for A..Z and ``BLANK`` (26) for blanks.

Direction is ``ACROSS`` (0) or ``DOWN`` (1) everywhere inside the engine; the
words "across"/"down" and the golden files' "H"/"V" exist only in
``scrabble.notation``. Per-direction arrays have the direction as their first
axis, and the down lines are the board's columns read as rows (the transpose),
so one line routine serves both directions.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

EMPTY: Final = 0
LETTER_MASK: Final = 31
BLANK_FLAG: Final = 32
NEW_FLAG: Final = 64
TILE_MASK: Final = LETTER_MASK | BLANK_FLAG  # a cell without the move's NEW_FLAG

BLANK: Final = 26  # index of the blank in rack count vectors
RACK_TYPES: Final = 27
ALL_LETTERS: Final = (1 << 26) - 1  # a 26-bit letter set with every letter in it

ACROSS: Final = 0
DOWN: Final = 1
DIRECTIONS: Final = (ACROSS, DOWN)

ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
RACK_SYMBOLS: Final = ALPHABET + "?"

Counts = npt.NDArray[np.integer]


def letter_index(ch: str) -> int:
    """0..25 for A..Z (either case)."""
    return (ord(ch) & LETTER_MASK) - 1


def tile_index(symbol: str) -> int:
    """0..25 for A..Z, ``BLANK`` for '?'."""
    return BLANK if symbol == "?" else letter_index(symbol)


def rack_counts(rack: str) -> npt.NDArray[np.uint8]:
    """'AEINRS?' -> length-27 count vector (caller validated the characters)."""
    counts = np.zeros(RACK_TYPES, dtype=np.uint8)
    for ch in rack:
        counts[tile_index(ch)] += 1
    return counts


def rack_string(counts: Counts) -> str:
    """Count vector -> canonical rack string (letters in order, blanks last)."""
    return "".join(
        symbol * n for symbol, n in zip(RACK_SYMBOLS, counts.tolist(), strict=True) if n > 0
    )


def cell_char(cell: int) -> str:
    """A cell code as the board text shows it: '.', 'A'-'Z', or 'a'-'z' for a blank."""
    if cell == EMPTY:
        return "."
    ch = ALPHABET[(cell & LETTER_MASK) - 1]
    return ch.lower() if cell & BLANK_FLAG else ch


def placed_tile_index(code: int) -> int:
    """The rack index a placed cell code used up: its letter, or ``BLANK``."""
    return BLANK if code & BLANK_FLAG else (code & LETTER_MASK) - 1
