"""The board of an endgame search: tiles, cross-checks and anchors in both
directions, kept up to date as moves are placed and lifted.

``scrabble.board`` computes cross-checks and anchors for a whole board (about
9 us for both directions, most of a node's cost once its lines' moves are
cached). A move changes few of them: the squares it fills, the squares at the
ends of the runs its tiles join (their cross words grow) and the neighbours of
its tiles (new anchors). ``place`` sets the tiles and recomputes just those
squares, logging their old state; ``lift`` restores the log in reverse.
The search refreshes a move only when the node after it generates moves (a
leaf at the horizon or a table hit never needs it). ``tests/test_endgame.py``
checks the kept state against ``scrabble.board``.

Directions follow ``scrabble.board``: lines 0 are the board's rows, lines 1 its
columns (the transposed board); square (row, col) is (row, col) in lines 0 and
(col, row) in lines 1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.board import NO_CROSS, find_anchors, perpendicular_run, trie_cross_checks
from scrabble.lexicon.trie import Trie, child_in, terminal_in
from scrabble.tiles import ALL_LETTERS

LOG_ROWS = 160  # per move: 7 tiles x (2 directions x 3 cross-checks + 4 neighbours x 2)
# log columns: direction, line, square, old mask, old cross score, old anchor
LOG_FIELDS = 6


@njit(cache=True)
def cross_checks(lines, tmask, tfirst, values):
    """The board view's cross-checks of one direction's lines (mask, score)."""
    size = lines.shape[0]
    mask = np.empty((size, size), dtype=np.uint32)
    score = np.empty((size, size), dtype=np.int32)
    trie_cross_checks(lines, Trie(tmask, tfirst), values, mask, score)
    return mask, score


@njit(cache=True)
def anchors(lines, start_r, start_c, through):
    """The board view's anchors of one direction's lines."""
    out = np.empty(lines.shape, dtype=np.bool_)
    find_anchors(lines, start_r, start_c, through, out)
    return out


@njit(cache=True)
def square_cross_check(lines, r, c, tmask, tfirst, values):
    """``board.cross_checks`` for one empty square of ``lines``: (mask, score)."""
    top, bottom = perpendicular_run(lines, r, c)
    if top == r and bottom == r:
        return np.uint32(ALL_LETTERS), np.int32(NO_CROSS)
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
            node = child_in(tmask, tfirst, node, np.int64(lines[k, c] & 31) - 1)
    if node < 0:
        return np.uint32(0), np.int32(s)
    m = np.int64(tmask[node])
    idx = tfirst[node]
    bits = 0
    for letter in range(26):
        if (m >> letter) & 1 == 0:
            continue
        nd = idx
        idx += 1
        for k in range(r + 1, bottom + 1):
            nd = child_in(tmask, tfirst, nd, np.int64(lines[k, c] & 31) - 1)
            if nd < 0:
                break
        if nd >= 0 and terminal_in(tmask, nd):
            bits |= 1 << letter
    return np.uint32(bits), np.int32(s)


@njit(cache=True)
def square_anchor(lines, r, c, through):
    """``board.anchors`` for one square of ``lines`` on a board with tiles."""
    n = lines.shape[0]
    if lines[r, c] != 0:
        return False
    if (c > 0 and lines[r, c - 1] != 0) or (c < n - 1 and lines[r, c + 1] != 0):
        return True
    if through:
        return False
    return (r > 0 and lines[r - 1, c] != 0) or (r < n - 1 and lines[r + 1, c] != 0)


@njit(cache=True)
def initial_state(rows, columns, tmask, tfirst, values, start_r, start_c, through):
    """Cross-check masks, scores and anchors of both directions, each (2, n, n)."""
    n = rows.shape[0]
    cmask = np.empty((2, n, n), dtype=np.uint32)
    cross = np.empty((2, n, n), dtype=np.int32)
    anc = np.empty((2, n, n), dtype=np.bool_)
    for direction in range(2):
        lines = rows if direction == 0 else columns
        sr = start_r if direction == 0 else start_c
        sc = start_c if direction == 0 else start_r
        m, s = cross_checks(lines, tmask, tfirst, values)
        cmask[direction] = m
        cross[direction] = s
        anc[direction] = anchors(lines, sr, sc, through)
    return cmask, cross, anc


@njit(cache=True)
def _save(log, k, direction, r, c, cmask, cross, anc):
    log[k, 0] = direction
    log[k, 1] = r
    log[k, 2] = c
    log[k, 3] = cmask[direction, r, c]
    log[k, 4] = cross[direction, r, c]
    log[k, 5] = anc[direction, r, c]
    return k + 1


@njit(cache=True)
def _refresh_cross(lines, direction, r, c, cmask, cross, anc, tmask, tfirst, values, log, k):
    """Recompute the cross-check of empty square (r, c) of ``lines``."""
    k = _save(log, k, direction, r, c, cmask, cross, anc)
    mask, score = square_cross_check(lines, r, c, tmask, tfirst, values)
    cmask[direction, r, c] = mask
    cross[direction, r, c] = score
    return k


@njit(cache=True)
def put_tiles(rows, columns, squares, cells, count):
    """Put ``cells[i]`` on board square ``squares[i]`` (flat index), i < count."""
    n = rows.shape[0]
    for i in range(count):
        r = squares[i] // n
        c = squares[i] % n
        rows[r, c] = cells[i]
        columns[c, r] = cells[i]


@njit(cache=True)
def refresh(rows, columns, cmask, cross, anc, squares, count, tmask, tfirst, values, through, log):
    """Bring cross-checks and anchors up to date after ``put_tiles`` put tiles on
    ``squares``; returns the length of the log ``lift`` restores from."""
    n = rows.shape[0]
    k = 0
    for i in range(count):
        r = squares[i] // n
        c = squares[i] % n
        # the square itself: filled, as board.cross_checks leaves a tile's square
        for direction in range(2):
            lr = r if direction == 0 else c
            lc = c if direction == 0 else r
            k = _save(log, k, direction, lr, lc, cmask, cross, anc)
            cmask[direction, lr, lc] = 0
            cross[direction, lr, lc] = NO_CROSS
            anc[direction, lr, lc] = False
        # the ends of the runs through it: their cross words changed
        for direction in range(2):
            lines = rows if direction == 0 else columns
            lr = r if direction == 0 else c
            lc = c if direction == 0 else r
            top, bottom = perpendicular_run(lines, lr, lc)
            if top > 0:
                k = _refresh_cross(
                    lines, direction, top - 1, lc, cmask, cross, anc, tmask, tfirst, values, log, k
                )
            if bottom < n - 1:
                k = _refresh_cross(
                    lines,
                    direction,
                    bottom + 1,
                    lc,
                    cmask,
                    cross,
                    anc,
                    tmask,
                    tfirst,
                    values,
                    log,
                    k,
                )
        # its neighbours may now be anchors
        for step in range(4):
            nr = r + (-1 if step == 0 else 1 if step == 1 else 0)
            nc = c + (-1 if step == 2 else 1 if step == 3 else 0)
            if nr < 0 or nr >= n or nc < 0 or nc >= n or rows[nr, nc] != 0:
                continue
            for direction in range(2):
                lines = rows if direction == 0 else columns
                lr = nr if direction == 0 else nc
                lc = nc if direction == 0 else nr
                k = _save(log, k, direction, lr, lc, cmask, cross, anc)
                anc[direction, lr, lc] = square_anchor(lines, lr, lc, through)
    return k


@njit(cache=True)
def place(
    rows, columns, cmask, cross, anc, squares, cells, count, tmask, tfirst, values, through, log
):
    """``put_tiles`` then ``refresh``: returns the log's length."""
    put_tiles(rows, columns, squares, cells, count)
    return refresh(
        rows, columns, cmask, cross, anc, squares, count, tmask, tfirst, values, through, log
    )


@njit(cache=True)
def lift(rows, columns, cmask, cross, anc, squares, count, log, logged):
    """Undo ``place``: restore the ``logged`` rows of the log in reverse (none
    when the tiles were never refreshed), then empty the tiles' squares."""
    for k in range(logged - 1, -1, -1):
        direction = log[k, 0]
        r = log[k, 1]
        c = log[k, 2]
        cmask[direction, r, c] = np.uint32(log[k, 3])
        cross[direction, r, c] = np.int32(log[k, 4])
        anc[direction, r, c] = log[k, 5] != 0
    n = rows.shape[0]
    for i in range(count):
        r = squares[i] // n
        c = squares[i] % n
        rows[r, c] = 0
        columns[c, r] = 0
