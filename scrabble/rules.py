"""The rules of a game as data: board, premiums, letter values, tiles, rack, bonus.

Nothing else in the engine hard-codes 15, 7 or 50; variants (the WordGame rules
among them) are another ``Rules`` value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from scrabble.tiles import ALPHABET, BLANK, RACK_TYPES

# The premium map's symbols (served by GET /rules for clients to draw).
PREMIUM_LEGEND = {
    "T": "triple word",
    "D": "double word",
    "*": "start, double word",
    "t": "triple letter",
    "d": "double letter",
    ".": "plain",
}
STANDARD_PREMIUMS = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...*...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)
STANDARD_VALUES = dict(
    zip(
        ALPHABET,
        (1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10),
        strict=True,
    )
)
STANDARD_COUNTS = dict(
    zip(
        ALPHABET + "?",
        (9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1, 2),
        strict=True,
    )
)

# Connection rules: "touch" = a later move must place a tile next to (or play
# through) a tile on the board; "through" = its main word must contain a tile
# already on the board (the WordGame rule).
CONNECTIONS = ("touch", "through")
# Where the first move may go: "start" = it covers the start square; "anywhere"
# (the WordGame) = any placement of a word of 2+ letters.
OPENINGS = ("start", "anywhere")


class ScoringRules(NamedTuple):
    """What ``scoring.score_line`` needs of the rules, as one kernel argument."""

    values: npt.NDArray[np.int32]  # letter values by index 0..25 (26: the blank, 0)
    rack_size: int
    bingo_bonus: int


@dataclass(frozen=True)
class Rules:
    name: str
    size: int
    premiums: tuple[str, ...]
    letter_values: dict[str, int]
    tile_counts: dict[str, int]
    rack_size: int = 7
    bingo_bonus: int = 50
    connection: str = "touch"
    start: tuple[int, int] | None = None  # square the first move must cover
    opening: str = "start"
    # Derived arrays, built once in __post_init__.
    letter_mult: npt.NDArray[np.int32] = field(init=False, repr=False, compare=False)
    word_mult: npt.NDArray[np.int32] = field(init=False, repr=False, compare=False)
    values: npt.NDArray[np.int32] = field(init=False, repr=False, compare=False)
    counts: npt.NDArray[np.int32] = field(init=False, repr=False, compare=False)
    # the multipliers per line direction, (2, n, n): [ACROSS] the rows, [DOWN]
    # the columns read as rows (as ``board.board_view`` lays out the lines)
    letter_mult_lines: npt.NDArray[np.int32] = field(init=False, repr=False, compare=False)
    word_mult_lines: npt.NDArray[np.int32] = field(init=False, repr=False, compare=False)
    scoring: ScoringRules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.size
        if len(self.premiums) != n or any(len(row) != n for row in self.premiums):
            raise ValueError(f"premium map must be {n}x{n}")
        if self.connection not in CONNECTIONS:
            raise ValueError(f"connection must be one of {CONNECTIONS}")
        if self.opening not in OPENINGS:
            raise ValueError(f"opening must be one of {OPENINGS}")
        lm = np.ones(n * n, dtype=np.int32)
        wm = np.ones(n * n, dtype=np.int32)
        for r, row in enumerate(self.premiums):
            for c, ch in enumerate(row):
                lm[r * n + c] = {"t": 3, "d": 2}.get(ch, 1)
                wm[r * n + c] = {"T": 3, "D": 2, "*": 2}.get(ch, 1)
        values = np.zeros(RACK_TYPES, dtype=np.int32)
        counts = np.zeros(RACK_TYPES, dtype=np.int32)
        for i, ch in enumerate(ALPHABET):
            values[i] = self.letter_values[ch]
            counts[i] = self.tile_counts.get(ch, 0)
        counts[BLANK] = self.tile_counts.get("?", 0)
        for name, arr in (
            ("letter_mult", lm),
            ("word_mult", wm),
            ("values", values),
            ("counts", counts),
        ):
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
        for name, flat in (("letter_mult_lines", lm), ("word_mult_lines", wm)):
            square = flat.reshape(n, n)
            lines = np.ascontiguousarray(np.stack((square, square.T)))
            lines.setflags(write=False)
            object.__setattr__(self, name, lines)
        object.__setattr__(self, "scoring", ScoringRules(values, self.rack_size, self.bingo_bonus))
        if self.start is None:
            object.__setattr__(self, "start", (n // 2, n // 2))

    @property
    def opening_square(self) -> tuple[int, int]:
        """The square the kernels anchor an empty board on; (-1, -1) when the
        first move may go anywhere (then every square is an anchor)."""
        if self.opening == "anywhere":
            return (-1, -1)
        return self.start  # type: ignore[return-value]

    @property
    def start_index(self) -> int:
        r, c = self.start  # type: ignore[misc]
        return r * self.size + c

    @property
    def tile_total(self) -> int:
        return int(self.counts.sum())


STANDARD = Rules(
    name="standard",
    size=15,
    premiums=STANDARD_PREMIUMS,
    letter_values=STANDARD_VALUES,
    tile_counts=STANDARD_COUNTS,
)
