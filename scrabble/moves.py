"""Moves: the flat arrays every engine returns and their one fixed order.

A ``MoveList`` holds k placements as two arrays:

* ``words`` (k, board size) uint8: the main word's cell codes (``scrabble.tiles``:
  ``NEW_FLAG`` on the tiles the move places), zero padded;
* ``meta`` (k, 6) int32: the columns ``ROW``, ``COL`` (the main word's first
  square), ``DIRECTION``, ``LENGTH``, ``PLACED`` (tiles placed) and ``SCORE``.

Notation and JSON are made from these in ``scrabble.notation``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.tiles import ACROSS, BLANK, BLANK_FLAG, LETTER_MASK, NEW_FLAG, RACK_TYPES

ROW: Final = 0
COL: Final = 1
DIRECTION: Final = 2
LENGTH: Final = 3
PLACED: Final = 4
SCORE: Final = 5
META_COLUMNS: Final = 6

Stats = dict[str, int | float | bool]


@dataclass
class MoveList:
    words: npt.NDArray[np.uint8]
    meta: npt.NDArray[np.int32]
    stats: Stats = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.meta)

    @property
    def scores(self) -> npt.NDArray[np.int32]:
        return self.meta[:, SCORE]

    def order(
        self, limit: int | None = None, primary: npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.intp]:
        """Indices of the best ``limit`` moves: ``primary`` (default: score)
        descending, then across before down, row, column, length and letters
        ascending, so the order is a fixed function of the move set."""
        k = len(self)
        key = self.scores.astype(np.int64) if primary is None else primary.astype(np.int64)
        if k == 0:
            return np.empty(0, dtype=np.intp)
        candidates = np.arange(k)
        if limit is not None and limit < k:
            # Only moves that can reach the top `limit` need the full tie-break.
            cut = -np.partition(-key, limit - 1)[limit - 1]
            candidates = np.nonzero(key >= cut)[0]
        if len(candidates) <= 256:
            # Few candidates (the usual top-N request): Python tuples sort them
            # faster than building numpy keys would.
            meta, words = self.meta, self.words
            ordered = np.array(
                sorted(
                    candidates.tolist(),
                    key=lambda i: (
                        -int(key[i]),
                        int(meta[i, DIRECTION]),
                        int(meta[i, ROW]),
                        int(meta[i, COL]),
                        int(meta[i, LENGTH]),
                        words[i].tobytes(),
                    ),
                ),
                dtype=np.intp,
            )
        else:
            m = self.meta[candidates].astype(np.int64)
            w = self.words[candidates].astype(np.int64)
            tie = (m[:, DIRECTION] << 18) | (m[:, ROW] << 12) | (m[:, COL] << 6) | m[:, LENGTH]
            # 7 bits a letter code, 9 letters an int64 key, most significant first
            keys = []
            for lo in range(0, w.shape[1], 9):
                chunk = w[:, lo : lo + 9]
                shifts = 7 * np.arange(chunk.shape[1] - 1, -1, -1, dtype=np.int64)
                keys.append(chunk @ (np.int64(1) << shifts))
            ordered = candidates[np.lexsort((*reversed(keys), tie, -key[candidates]))]
        return ordered if limit is None else ordered[:limit]


def empty_moves(width: int) -> MoveList:
    return MoveList(
        words=np.zeros((0, width), dtype=np.uint8),
        meta=np.zeros((0, META_COLUMNS), dtype=np.int32),
    )


def capacity_for(rack: npt.NDArray[np.integer]) -> int:
    """Rows to allocate for a position's moves. An overflow costs a second full
    search, and racks with blanks often pass 8,192 moves (g32: 11,750), so the
    room grows with the blanks held; untouched rows cost no memory."""
    return 8192 << (2 * min(int(rack[BLANK]), 2))


@njit(cache=True)
def record_move(word, start, end, line, direction, placed, score, out_words, out_meta, k):
    """Write placement ``word[start..end]`` on ``line`` as row k of a MoveList's
    arrays (if there is room): the one place engines write the move format."""
    if k >= out_meta.shape[0]:
        return
    length = end - start + 1
    for i in range(length):
        out_words[k, i] = word[start + i]
    for i in range(length, out_words.shape[1]):
        out_words[k, i] = 0
    if direction == ACROSS:
        out_meta[k, ROW] = line
        out_meta[k, COL] = start
    else:
        out_meta[k, ROW] = start
        out_meta[k, COL] = line
    out_meta[k, DIRECTION] = direction
    out_meta[k, LENGTH] = length
    out_meta[k, PLACED] = placed
    out_meta[k, SCORE] = score


def placed_tiles(moves: MoveList, i: int) -> list[tuple[int, int, int]]:
    """(row, col, cell code without NEW_FLAG) of each tile move i places."""
    row, col, direction, length = moves.meta[i, :4].tolist()
    out = []
    for k, code in enumerate(moves.words[i, :length].tolist()):
        if code & NEW_FLAG:
            square = (row, col + k) if direction == ACROSS else (row + k, col)
            out.append((*square, code & ~NEW_FLAG))
    return out


def leave_of(rack: npt.NDArray[np.integer], moves: MoveList, i: int) -> npt.NDArray[np.int32]:
    """Rack counts left after move i."""
    left = rack.astype(np.int32)
    for code in moves.words[i, : moves.meta[i, LENGTH]].tolist():
        if code & NEW_FLAG:
            left[BLANK if code & BLANK_FLAG else (code & LETTER_MASK) - 1] -= 1
    return left


def leaves_of(rack: npt.NDArray[np.integer], moves: MoveList) -> npt.NDArray[np.int64]:
    """(k, 27) rack counts left after each move."""
    w = moves.words.astype(np.int64)
    k = len(moves)
    valid = np.arange(w.shape[1])[None, :] < moves.meta[:, LENGTH : LENGTH + 1]
    new = valid & (w & NEW_FLAG != 0)
    tile = np.where(w & BLANK_FLAG, BLANK, (w & LETTER_MASK) - 1)
    used = np.zeros((k, RACK_TYPES), dtype=np.int64)
    rows = np.broadcast_to(np.arange(k)[:, None], w.shape)
    np.add.at(used, (rows[new], tile[new]), 1)
    return np.asarray(rack, dtype=np.int64)[None, :] - used


def place(
    board: npt.NDArray[np.uint8], moves: MoveList, i: int, size: int
) -> npt.NDArray[np.uint8]:
    """A new board (flat uint8) with move i's tiles on it."""
    out = board.copy()
    for row, col, code in placed_tiles(moves, i):
        out[row * size + col] = code
    return out
