"""Moves: the flat arrays engines return, their fixed order, and their
conversion to notation and JSON-ready objects (the way out of the engine)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numba import njit

from scrabble.scoring import NEW_FLAG
from scrabble.tiles import ALPHABET, BLANK, BLANK_FLAG, LETTER_MASK

ACROSS, DOWN = 0, 1


@dataclass
class MoveList:
    """Placements as arrays: words (k, board size) cell codes, meta (k, 6) =
    row, col, direction, length, tiles placed, score."""

    words: np.ndarray
    meta: np.ndarray
    stats: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.meta)

    @property
    def scores(self) -> np.ndarray:
        return self.meta[:, 5]

    def order(self, limit: int | None = None, primary: np.ndarray | None = None) -> np.ndarray:
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
            ordered = np.array(sorted(candidates.tolist(), key=lambda i: (
                -int(key[i]), int(meta[i, 2]), int(meta[i, 0]), int(meta[i, 1]),
                int(meta[i, 3]), words[i].tobytes())), dtype=np.intp)
        else:
            m = self.meta[candidates].astype(np.int64)
            w = self.words[candidates].astype(np.int64)
            tie = (m[:, 2] << 18) | (m[:, 0] << 12) | (m[:, 1] << 6) | m[:, 3]
            # 7 bits a letter code, 9 letters an int64 key, most significant first
            width = w.shape[1]
            keys = []
            for lo in range(0, width, 9):
                chunk = w[:, lo:lo + 9]
                shifts = 7 * np.arange(chunk.shape[1] - 1, -1, -1, dtype=np.int64)
                keys.append(chunk @ (np.int64(1) << shifts))
            ordered = candidates[np.lexsort((*reversed(keys), tie, -key[candidates]))]
        return ordered if limit is None else ordered[:limit]


def capacity_for(rack: np.ndarray) -> int:
    """Rows to allocate for a position's moves. An overflow costs a second full
    search, and racks with blanks often pass 8,192 moves (g32: 11,750), so the
    room grows with the blanks held; untouched rows cost no memory."""
    return 8192 << (2 * min(int(rack[BLANK]), 2))


@njit(cache=True)
def record_move(cur, start, end, line, direction, placed, score, out_words, out_meta, k):
    """Write placement ``cur[start..end]`` on ``line`` as row k of a MoveList's
    arrays (if there is room): the one place engines write the move format."""
    if k >= out_meta.shape[0]:
        return
    length = end - start + 1
    for i in range(length):
        out_words[k, i] = cur[start + i]
    for i in range(length, out_words.shape[1]):
        out_words[k, i] = 0
    if direction == 0:
        out_meta[k, 0] = line
        out_meta[k, 1] = start
    else:
        out_meta[k, 0] = start
        out_meta[k, 1] = line
    out_meta[k, 2] = direction
    out_meta[k, 3] = length
    out_meta[k, 4] = placed
    out_meta[k, 5] = score


def coordinate(row: int, col: int, direction: int) -> str:
    """Standard notation: '8H' across (row first), 'H8' down (column first)."""
    return f"{row + 1}{ALPHABET[col]}" if direction == ACROSS else f"{ALPHABET[col]}{row + 1}"


def letter_of(code: int) -> str:
    return _LETTERS[code & (LETTER_MASK | BLANK_FLAG)]


# code & 63 -> letter as shown: upper case, lower case for a blank
_LETTERS = ["?"] * 64
for _i, _ch in enumerate(ALPHABET):
    _LETTERS[_i + 1] = _ch
    _LETTERS[_i + 1 + BLANK_FLAG] = _ch.lower()


@dataclass(frozen=True)
class Move:
    row: int
    col: int
    direction: int
    word: str  # main word, blanks lower case
    tiles: tuple[tuple[int, int, str], ...]  # (row, col, letter) placed by this move
    score: int
    notation: str

    @property
    def direction_name(self) -> str:
        return "across" if self.direction == ACROSS else "down"

    @property
    def coordinate(self) -> str:
        return coordinate(self.row, self.col, self.direction)

    @property
    def tiles_string(self) -> str:
        return "".join(letter for _, _, letter in self.tiles)

    def key(self) -> tuple[int, int, str, str]:
        """Identity as the golden files compare it."""
        return (self.row, self.col, "H" if self.direction == ACROSS else "V", self.word,
                self.tiles_string, self.score)  # type: ignore[return-value]


def move_at(moves: MoveList, i: int) -> Move:
    # Plain Python ints from here on: per-element numpy scalars cost ~1 us each.
    row, col, direction, length, _, score = moves.meta[i].tolist()
    codes = moves.words[i, :length].tolist()
    letters = [_LETTERS[code & 63] for code in codes]
    tiles = []
    notation = []
    in_paren = False
    for k, code in enumerate(codes):
        ch = letters[k]
        if code & NEW_FLAG:
            tiles.append((row, col + k, ch) if direction == ACROSS else (row + k, col, ch))
            if in_paren:
                notation.append(")")
                in_paren = False
        elif not in_paren:
            notation.append("(")
            in_paren = True
        notation.append(ch)
    if in_paren:
        notation.append(")")
    coord = coordinate(row, col, direction)
    return Move(row=row, col=col, direction=direction, word="".join(letters),
                tiles=tuple(tiles), score=score, notation=f"{coord} {''.join(notation)}")


def leave_of(rack: np.ndarray, moves: MoveList, i: int) -> np.ndarray:
    """Rack counts left after move i."""
    left = rack.astype(np.int32)
    for code in moves.words[i, :moves.meta[i, 3]].tolist():
        if code & NEW_FLAG:
            left[BLANK if code & BLANK_FLAG else (code & LETTER_MASK) - 1] -= 1
    return left


def place(board: np.ndarray, moves: MoveList, i: int, size: int) -> np.ndarray:
    """A new board (flat uint8) with move i's tiles on it."""
    out = board.copy()
    row, col, direction, length = (int(x) for x in moves.meta[i, :4])
    for k in range(length):
        code = int(moves.words[i, k])
        if code & NEW_FLAG:
            r, c = (row, col + k) if direction == ACROSS else (row + k, col)
            out[r * size + c] = code & ~NEW_FLAG
    return out
