"""What the board says about where tiles may go: anchors and cross-checks.

Every engine works on *lines*: the rows of the board for across moves and the
rows of the transposed board for down moves, so one routine serves both
directions. For a line array, the cross words of a square run along its
column (perpendicular to the line).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.lexicon.table import INC, SignatureTable, probe_many, row_has_word
from scrabble.lexicon.trie import child, is_terminal

ALL_LETTERS = np.uint32((1 << 26) - 1)
NO_CROSS = -1  # cross_score value for a square with no perpendicular neighbour


@njit(cache=True)
def perpendicular_run(lines, r, c):
    """First and last row of the run of tiles through square (r, c) along its
    column, the square itself counted (it may be empty)."""
    n = lines.shape[0]
    top = r
    while top > 0 and lines[top - 1, c] != 0:
        top -= 1
    bottom = r
    while bottom < n - 1 and lines[bottom + 1, c] != 0:
        bottom += 1
    return top, bottom


@njit(cache=True)
def cross_checks(lines, tmask, tfirst, values):
    """For each empty square of ``lines`` (n x n): the letters that make its
    perpendicular word a word (bit mask) and that word's score without the new
    tile (``NO_CROSS`` when there is no perpendicular word)."""
    n = lines.shape[0]
    mask = np.empty((n, n), dtype=np.uint32)
    score = np.empty((n, n), dtype=np.int32)
    for r in range(n):
        for c in range(n):
            mask[r, c] = 0
            score[r, c] = NO_CROSS
            if lines[r, c] != 0:
                continue
            top, bottom = perpendicular_run(lines, r, c)
            if top == r and bottom == r:
                mask[r, c] = ALL_LETTERS
                continue
            s = 0
            node = 0
            for k in range(top, bottom + 1):
                cell = lines[k, c]
                if k == r:
                    continue
                if cell & 32 == 0:
                    s += values[(cell & 31) - 1]
            for k in range(top, r):
                if node >= 0:
                    node = child(tmask, tfirst, node, np.int64(lines[k, c] & 31) - 1)
            score[r, c] = s
            if node < 0:
                continue
            m = np.int64(tmask[node])
            idx = tfirst[node]
            bits = 0
            for letter in range(26):
                if (m >> letter) & 1 == 0:
                    continue
                nd = idx
                idx += 1
                for k in range(r + 1, bottom + 1):
                    nd = child(tmask, tfirst, nd, np.int64(lines[k, c] & 31) - 1)
                    if nd < 0:
                        break
                if nd >= 0 and is_terminal(tmask, nd):
                    bits |= 1 << letter
            mask[r, c] = np.uint32(bits)
    return mask, score


@njit(cache=True)
def table_cross_checks(lines, letters, slots, keys, text, text_off, inc):
    """Cross-check masks from the signature table alone (the worker has no trie):
    a letter is allowed on an empty square when its perpendicular word, looked
    up by signature, is among that row's words. Only the letters in the bit
    mask ``letters`` are tried (the rack's, when it holds no blank: the others
    could not be played anyway); for those, the same result as
    ``cross_checks``'s mask. Returns (mask, probes).

    The signatures of every (square, letter) pair are built first and probed in
    one batch, which overlaps the table's cache misses (see ``probe_many``)."""
    n = lines.shape[0]
    tried = np.empty(26, dtype=np.int64)
    nl = 0
    for lt in range(26):
        if (letters >> lt) & 1:
            tried[nl] = lt
            nl += 1
    mask = np.zeros((n, n), dtype=np.uint32)
    squares = np.empty((n * n, 4), dtype=np.int64)  # r, c, top, bottom
    queries = np.empty((n * n * nl, 2), dtype=np.uint64)
    m = 0
    for r in range(n):
        for c in range(n):
            if lines[r, c] != 0:
                continue
            top, bottom = perpendicular_run(lines, r, c)
            if top == r and bottom == r:
                mask[r, c] = (1 << 26) - 1
                continue
            a = np.uint64(0)
            b = np.uint64(0)
            for k in range(top, bottom + 1):
                if k != r:
                    lt = (lines[k, c] & 31) - 1
                    a += inc[lt, 0]
                    b += inc[lt, 1]
            for j in range(nl):
                queries[m * nl + j, 0] = a + inc[tried[j], 0]
                queries[m * nl + j, 1] = b + inc[tried[j], 1]
            squares[m, 0] = r
            squares[m, 1] = c
            squares[m, 2] = top
            squares[m, 3] = bottom
            m += 1
    rows, probes = probe_many(slots, keys, queries[:m * nl])
    word = np.zeros(32, dtype=np.uint8)
    for i in range(m):
        r, c, top, bottom = squares[i, 0], squares[i, 1], squares[i, 2], squares[i, 3]
        for k in range(top, bottom + 1):
            word[k - top] = lines[k, c] & 31
        bits = 0
        for j in range(nl):
            row = rows[i * nl + j]
            if row < 0:
                continue
            word[r - top] = tried[j] + 1
            if row_has_word(text, text_off, row, word, bottom - top + 1):
                bits |= 1 << tried[j]
        mask[r, c] = np.uint32(bits)
    return mask, probes


def cross_checks_from_table(lines: np.ndarray, table: SignatureTable) -> tuple[np.ndarray, int]:
    """The same masks from the worker's signature table (it holds no trie)."""
    mask, probes = table_cross_checks(lines, np.int64(ALL_LETTERS), table.slots, table.keys,
                                      table.text, table.text_off, INC)
    return mask, int(probes)


@njit(cache=True)
def anchors(lines, start_r, start_c, through):
    """The squares a move must cover, per the connection rule.

    "touch" (``through`` False): empty squares next to a tile in any direction.
    "through": empty squares next to a tile along the line, since a main word
    that holds a board tile and a new tile has a new tile beside a board tile.
    On an empty board: the start square, or every square when ``start_r`` < 0
    (first move anywhere).
    """
    n = lines.shape[0]
    out = np.zeros((n, n), dtype=np.bool_)
    any_tile = False
    for r in range(n):
        for c in range(n):
            if lines[r, c] != 0:
                any_tile = True
                continue
            beside = (c > 0 and lines[r, c - 1] != 0) or (c < n - 1 and lines[r, c + 1] != 0)
            if not through:
                beside = beside or (r > 0 and lines[r - 1, c] != 0) or (
                    r < n - 1 and lines[r + 1, c] != 0)
            if beside:
                out[r, c] = True
    if not any_tile:
        if start_r < 0:
            out[:, :] = True
        else:
            out[start_r, start_c] = True
    return out
