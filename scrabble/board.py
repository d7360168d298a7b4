"""What the board says about where tiles may go: the per-direction board view.

Every engine works on *lines*: the rows of the board for across moves and the
columns, read as rows, for down moves, so one routine serves both directions.
For a line, the cross word of a square runs along its column (perpendicular
to the line). A ``BoardView`` holds, for both directions at once (axis 0 is
``ACROSS``/``DOWN``), everything move generation and scoring read:

* ``lines``        uint8  the cells, line by line;
* ``cross_mask``   uint32 per empty square, the letters its cross word allows
  (bit l for letter index l; every letter when it has no cross word; 0 on a tile);
* ``cross_score``  int32  per empty square, its cross word's score without the
  new tile, or ``NO_CROSS`` when it has no cross word;
* ``anchors``      bool   the squares a move must cover, per the connection rule;
* ``letter_mult``, ``word_mult`` int32 the rules' premiums laid out the same way.

It is computed once per board (``Position.view``) and shared by the trie, the
span engines, scoring and the equity terms.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.lexicon.table import INC, probe_signatures, row_has_word
from scrabble.lexicon.trie import Trie, child, is_terminal
from scrabble.rules import Rules
from scrabble.tiles import ALL_LETTERS, BLANK, BLANK_FLAG, EMPTY, LETTER_MASK

NO_CROSS = -1  # cross_score of a square with no perpendicular neighbour


class BoardView(NamedTuple):
    lines: npt.NDArray[np.uint8]
    cross_mask: npt.NDArray[np.uint32]
    cross_score: npt.NDArray[np.int32]
    anchors: npt.NDArray[np.bool_]
    letter_mult: npt.NDArray[np.int32]
    word_mult: npt.NDArray[np.int32]


@njit(cache=True, inline="always")
def rack_letters(rack):
    """The letter set a rack can put down: all 26 with a blank, else those it holds."""
    if rack[BLANK] > 0:
        return np.int64(ALL_LETTERS)
    letters = np.int64(0)
    for letter in range(26):
        if rack[letter] > 0:
            letters |= np.int64(1) << letter
    return letters


@njit(cache=True, inline="always")
def rack_tiles(rack):
    """How many tiles a rack (counts per tile kind) holds."""
    tiles = 0
    for i in range(rack.shape[0]):
        tiles += rack[i]
    return tiles


@njit(cache=True)
def board_lines(board, size):
    """(2, n, n) lines: [ACROSS] the rows, [DOWN] the columns as rows."""
    lines = np.empty((2, size, size), dtype=np.uint8)
    for row in range(size):
        for col in range(size):
            cell = board[row * size + col]
            lines[0, row, col] = cell
            lines[1, col, row] = cell
    return lines


@njit(cache=True, inline="always")
def perpendicular_run(line_cells, line, square):
    """First and last line index of the run of tiles through ``square`` of
    ``line`` along its column, the square itself counted (it may be empty)."""
    size = line_cells.shape[0]
    top = line
    while top > 0 and line_cells[top - 1, square] != EMPTY:
        top -= 1
    bottom = line
    while bottom < size - 1 and line_cells[bottom + 1, square] != EMPTY:
        bottom += 1
    return top, bottom


@njit(cache=True)
def cross_score_of(line_cells, line, square, top, bottom, values):
    """Face value of the tiles of a cross word, the square itself left out
    (blanks count 0)."""
    total = 0
    for k in range(top, bottom + 1):
        cell = line_cells[k, square]
        if k != line and cell & BLANK_FLAG == 0:
            total += values[(cell & LETTER_MASK) - 1]
    return total


@njit(cache=True)
def trie_cross_checks(line_cells, trie, values, mask, score):
    """Cross-check masks and cross scores of one direction's lines, from the trie."""
    size = line_cells.shape[0]
    for line in range(size):
        for square in range(size):
            mask[line, square] = 0
            score[line, square] = NO_CROSS
            if line_cells[line, square] != EMPTY:
                continue
            top, bottom = perpendicular_run(line_cells, line, square)
            if top == line and bottom == line:
                mask[line, square] = ALL_LETTERS
                continue
            score[line, square] = cross_score_of(line_cells, line, square, top, bottom, values)
            node = 0
            for k in range(top, line):
                if node >= 0:
                    node = child(trie, node, np.int64(line_cells[k, square] & LETTER_MASK) - 1)
            if node < 0:
                continue
            letters = np.int64(trie.mask[node])
            next_child = trie.first[node]
            bits = 0
            for letter in range(26):
                if (letters >> letter) & 1 == 0:
                    continue
                below = next_child
                next_child += 1
                for k in range(line + 1, bottom + 1):
                    below = child(trie, below, np.int64(line_cells[k, square] & LETTER_MASK) - 1)
                    if below < 0:
                        break
                if below >= 0 and is_terminal(trie, below):
                    bits |= 1 << letter
            mask[line, square] = np.uint32(bits)


@njit(cache=True)
def table_cross_checks(line_cells, letters, table, values, mask, score):
    """The same masks from the signature table alone (the worker holds no trie):
    a letter is allowed on an empty square when its cross word, looked up by
    signature, is among that row's words. Only the letters in the bit set
    ``letters`` are tried (the rack's, when it holds no blank: the others could
    not be played anyway); for those, the same mask as ``trie_cross_checks``.
    Returns the slots probed.

    The signatures of every (square, letter) pair are built first and probed in
    one batch, which overlaps the table's cache misses (``probe_signatures``)."""
    size = line_cells.shape[0]
    tried = np.empty(26, dtype=np.int64)
    n_tried = 0
    for letter in range(26):
        if (letters >> letter) & 1:
            tried[n_tried] = letter
            n_tried += 1
    squares = np.empty((size * size, 4), dtype=np.int64)  # line, square, top, bottom
    queries = np.empty((size * size * n_tried, 2), dtype=np.uint64)
    n_squares = 0
    for line in range(size):
        for square in range(size):
            mask[line, square] = 0
            score[line, square] = NO_CROSS
            if line_cells[line, square] != EMPTY:
                continue
            top, bottom = perpendicular_run(line_cells, line, square)
            if top == line and bottom == line:
                mask[line, square] = ALL_LETTERS
                continue
            score[line, square] = cross_score_of(line_cells, line, square, top, bottom, values)
            low = np.uint64(0)
            high = np.uint64(0)
            for k in range(top, bottom + 1):
                if k != line:
                    letter = (line_cells[k, square] & LETTER_MASK) - 1
                    low += INC[letter, 0]
                    high += INC[letter, 1]
            for j in range(n_tried):
                queries[n_squares * n_tried + j, 0] = low + INC[tried[j], 0]
                queries[n_squares * n_tried + j, 1] = high + INC[tried[j], 1]
            squares[n_squares, 0] = line
            squares[n_squares, 1] = square
            squares[n_squares, 2] = top
            squares[n_squares, 3] = bottom
            n_squares += 1
    rows, probes = probe_signatures(table.slots, table.keys, queries[: n_squares * n_tried])
    word = np.zeros(size, dtype=np.uint8)
    for i in range(n_squares):
        line, square, top, bottom = squares[i, 0], squares[i, 1], squares[i, 2], squares[i, 3]
        for k in range(top, bottom + 1):
            word[k - top] = line_cells[k, square] & LETTER_MASK
        bits = 0
        for j in range(n_tried):
            row = rows[i * n_tried + j]
            if row < 0:
                continue
            word[line - top] = tried[j] + 1
            if row_has_word(table.text, table.text_off, row, word, bottom - top + 1):
                bits |= 1 << tried[j]
        mask[line, square] = np.uint32(bits)
    return probes


@njit(cache=True)
def find_anchors(line_cells, opening_row, opening_col, through, out):
    """The squares a move must cover, per the connection rule, into ``out``.

    "touch" (``through`` False): empty squares next to a tile in any direction.
    "through": empty squares next to a tile along the line, since a main word
    that holds a board tile and a new tile has a new tile beside a board tile.
    On an empty board: the opening square, or every square when
    ``opening_row`` < 0 (first move anywhere)."""
    size = line_cells.shape[0]
    any_tile = False
    for line in range(size):
        cells = line_cells[line]
        for square in range(size):
            out[line, square] = False
            if cells[square] != EMPTY:
                any_tile = True
                continue
            beside = (square > 0 and cells[square - 1] != EMPTY) or (
                square < size - 1 and cells[square + 1] != EMPTY
            )
            if not through:
                beside = (
                    beside
                    or (line > 0 and line_cells[line - 1, square] != EMPTY)
                    or (line < size - 1 and line_cells[line + 1, square] != EMPTY)
                )
            out[line, square] = beside
    if not any_tile:
        if opening_row < 0:
            out[:, :] = True
        else:
            out[opening_row, opening_col] = True


@njit(cache=True)
def trie_view_arrays(board, size, trie, values, opening_row, opening_col, through):
    """Lines, cross-checks (from the trie) and anchors of both directions in
    one compiled call."""
    lines = board_lines(board, size)
    mask = np.empty((2, size, size), dtype=np.uint32)
    score = np.empty((2, size, size), dtype=np.int32)
    anchors = np.empty((2, size, size), dtype=np.bool_)
    for direction in range(2):
        trie_cross_checks(lines[direction], trie, values, mask[direction], score[direction])
    # the down lines see the opening square with row and column swapped
    find_anchors(lines[0], opening_row, opening_col, through, anchors[0])
    find_anchors(lines[1], opening_col, opening_row, through, anchors[1])
    return lines, mask, score, anchors


@njit(cache=True)
def table_view_arrays(board, size, letters, table, values, opening_row, opening_col, through):
    """As ``trie_view_arrays`` with the masks from the signature table; also
    returns the slots probed."""
    lines = board_lines(board, size)
    mask = np.empty((2, size, size), dtype=np.uint32)
    score = np.empty((2, size, size), dtype=np.int32)
    anchors = np.empty((2, size, size), dtype=np.bool_)
    probes = 0
    for direction in range(2):
        probes += table_cross_checks(
            lines[direction], letters, table, values, mask[direction], score[direction]
        )
    find_anchors(lines[0], opening_row, opening_col, through, anchors[0])
    find_anchors(lines[1], opening_col, opening_row, through, anchors[1])
    return lines, mask, score, anchors, probes


def trie_view(board: npt.NDArray[np.uint8], rules: Rules, trie: Trie) -> BoardView:
    """The board view with cross-checks from a lexicon's trie."""
    row, col = rules.opening_square
    lines, mask, score, anchors = trie_view_arrays(
        board, rules.size, trie, rules.values, row, col, rules.connection == "through"
    )
    return BoardView(lines, mask, score, anchors, rules.letter_mult_lines, rules.word_mult_lines)
