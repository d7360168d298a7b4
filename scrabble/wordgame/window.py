"""The planner's target slot as a reader sees it: a window on the board (the
way it runs, its first square, its length), the empty squares the hand is to
fill, and the product of the word multipliers on them. One conversion for the
trace and the API, from the planner's line coordinates to rows and columns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WORD_MULTIPLIERS = {"D": 2, "T": 3}  # the premium legend's word squares


@dataclass(frozen=True)
class Window:
    direction: str  # "H" across a row, "V" down a column
    row: int  # its first square
    col: int
    length: int  # squares, the board tiles inside included
    squares: tuple[tuple[int, int], ...]  # (row, col) of its empty squares
    word_multiplier: int  # the product of the word multipliers on them

    @classmethod
    def of_slot(cls, slot: Any, premiums: tuple[str, ...] | list[str]) -> Window:
        """``slot``: the planner's ``Slot`` (direction 0 = the rows, its line
        and start along it; ``new_squares`` flat, row-major)."""
        n = len(premiums)
        if slot.direction == 0:
            row, col, way = slot.line, slot.start, "H"
        else:
            row, col, way = slot.start, slot.line, "V"
        squares = tuple((square // n, square % n) for square in slot.new_squares)
        product = 1
        for r, c in squares:
            product *= WORD_MULTIPLIERS.get(premiums[r][c], 1)
        return cls(way, row, col, slot.length, squares, product)

    def label(self) -> str:
        """``V 1,6 +10 x72``: down from row 1, column 6, 10 squares, x72."""
        return f"{self.direction} {self.row},{self.col} +{self.length} x{self.word_multiplier}"
