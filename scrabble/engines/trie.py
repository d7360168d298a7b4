"""The ``trie`` engine: Appel-Jacobson move generation over the trie.

For each anchor of a line, the left part is either the tiles already to its
left (followed through the trie) or every rack word-prefix that fits on the
empty non-anchor squares there; from it the word is extended right, branching
at empty squares only to children that are on the rack and allowed by the
square's cross-check mask, following tiles already on the board, and a word is
emitted when a terminal node stands on an empty square (or the edge) after the
anchor is covered. Because a left part never crosses another anchor, each
placement is found from its leftmost anchor only, so once per direction.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.board import anchors, cross_checks
from scrabble.lexicon.trie import child, is_terminal
from scrabble.scoring import NEW_FLAG, score_line

MAX_LINE = 32
# stats slots
MOVES, NODES, ANCHORS = 0, 1, 2


@njit(cache=True)
def _record(cur, start, end, line, direction, placed, score, out_words, out_meta, counter):
    k = counter[MOVES]
    if k < out_meta.shape[0]:
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
    counter[MOVES] = k + 1


@njit(cache=True)
def _extend_right(node, col, start, anchor, placed, line, direction, cells, cmask, cross,
                  lm, wm, rack, cur, tmask, tfirst, values, rack_size, bingo,
                  out_words, out_meta, counter):
    counter[NODES] += 1
    n = cells.shape[0]
    if col < n and cells[col] != 0:
        nd = child(tmask, tfirst, node, np.int64(cells[col] & 31) - 1)
        if nd >= 0:
            cur[col] = cells[col]
            _extend_right(nd, col + 1, start, anchor, placed, line, direction, cells, cmask,
                          cross, lm, wm, rack, cur, tmask, tfirst, values, rack_size, bingo,
                          out_words, out_meta, counter)
        return
    if col > anchor and col - start >= 2 and is_terminal(tmask, node):
        emit = True
        if direction == 1 and placed == 1:
            # A single tile that also forms an across word is listed across only.
            for c in range(start, col):
                if cur[c] & NEW_FLAG and cross[c] >= 0:
                    emit = False
        if emit:
            score = score_line(cur, start, col - 1, lm, wm, cross, values, rack_size, bingo)
            _record(cur, start, col - 1, line, direction, placed, score,
                    out_words, out_meta, counter)
    if col >= n:
        return
    allowed = np.int64(cmask[col]) & np.int64(tmask[node])
    if allowed == 0:
        return
    m = np.int64(tmask[node])
    idx = tfirst[node]
    for letter in range(26):
        if (m >> letter) & 1 == 0:
            continue
        nd = idx
        idx += 1
        if (allowed >> letter) & 1 == 0:
            continue
        if rack[letter] > 0:
            rack[letter] -= 1
            cur[col] = (letter + 1) | NEW_FLAG
            _extend_right(nd, col + 1, start, anchor, placed + 1, line, direction, cells,
                          cmask, cross, lm, wm, rack, cur, tmask, tfirst, values, rack_size,
                          bingo, out_words, out_meta, counter)
            rack[letter] += 1
        if rack[26] > 0:
            rack[26] -= 1
            cur[col] = (letter + 1) | NEW_FLAG | 32
            _extend_right(nd, col + 1, start, anchor, placed + 1, line, direction, cells,
                          cmask, cross, lm, wm, rack, cur, tmask, tfirst, values, rack_size,
                          bingo, out_words, out_meta, counter)
            rack[26] += 1


@njit(cache=True)
def _left_part(node, p, limit, anchor, left, line, direction, cells, cmask, cross, lm, wm,
               rack, cur, tmask, tfirst, values, rack_size, bingo, out_words, out_meta,
               counter):
    counter[NODES] += 1
    for i in range(p):
        cur[anchor - p + i] = left[i]
    _extend_right(node, anchor, anchor - p, anchor, p, line, direction, cells, cmask, cross,
                  lm, wm, rack, cur, tmask, tfirst, values, rack_size, bingo,
                  out_words, out_meta, counter)
    if p >= limit:
        return
    m = np.int64(tmask[node])
    idx = tfirst[node]
    for letter in range(26):
        if (m >> letter) & 1 == 0:
            continue
        nd = idx
        idx += 1
        if rack[letter] > 0:
            rack[letter] -= 1
            left[p] = (letter + 1) | NEW_FLAG
            _left_part(nd, p + 1, limit, anchor, left, line, direction, cells, cmask, cross,
                       lm, wm, rack, cur, tmask, tfirst, values, rack_size, bingo,
                       out_words, out_meta, counter)
            rack[letter] += 1
        if rack[26] > 0:
            rack[26] -= 1
            left[p] = (letter + 1) | NEW_FLAG | 32
            _left_part(nd, p + 1, limit, anchor, left, line, direction, cells, cmask, cross,
                       lm, wm, rack, cur, tmask, tfirst, values, rack_size, bingo,
                       out_words, out_meta, counter)
            rack[26] += 1


@njit(cache=True)
def _generate_lines(lines, lm, wm, direction, start_r, start_c, rack, tmask, tfirst, values,
                    rack_size, bingo, out_words, out_meta, counter):
    n = lines.shape[0]
    cmask, cross = cross_checks(lines, tmask, tfirst, values)
    anc = anchors(lines, start_r, start_c)
    cur = np.zeros(MAX_LINE, dtype=np.uint8)
    left = np.zeros(MAX_LINE, dtype=np.uint8)
    tiles = 0
    for i in range(27):
        tiles += rack[i]
    for r in range(n):
        cells = lines[r]
        for a in range(n):
            if not anc[r, a]:
                continue
            counter[ANCHORS] += 1
            if a > 0 and cells[a - 1] != 0:
                s = a - 1
                while s > 0 and cells[s - 1] != 0:
                    s -= 1
                node = 0
                for c in range(s, a):
                    node = child(tmask, tfirst, node, np.int64(cells[c] & 31) - 1)
                    if node < 0:
                        break
                    cur[c] = cells[c]
                if node >= 0:
                    _extend_right(node, a, s, a, 0, r, direction, cells, cmask[r], cross[r],
                                  lm[r], wm[r], rack, cur, tmask, tfirst, values, rack_size,
                                  bingo, out_words, out_meta, counter)
            else:
                limit = 0
                k = a - 1
                while k >= 0 and cells[k] == 0 and not anc[r, k]:
                    limit += 1
                    k -= 1
                if limit > tiles - 1:
                    limit = tiles - 1
                _left_part(0, 0, limit, a, left, r, direction, cells, cmask[r], cross[r],
                           lm[r], wm[r], rack, cur, tmask, tfirst, values, rack_size, bingo,
                           out_words, out_meta, counter)


@njit(cache=True)
def generate(board, n, lm, wm, values, rack, tmask, tfirst, start_r, start_c, rack_size, bingo,
             capacity):
    """All placements of a position, both directions.

    Returns (words, meta, counter): words[k] the main word's cell codes,
    meta[k] = row, col, direction (0 across, 1 down), length, tiles placed,
    score; counter = moves found (may exceed capacity: call again with more),
    trie nodes visited, anchors.
    """
    b = board.reshape(n, n)
    lm2 = lm.reshape(n, n)
    wm2 = wm.reshape(n, n)
    out_words = np.empty((capacity, 15), dtype=np.uint8)
    out_meta = np.empty((capacity, 6), dtype=np.int32)
    counter = np.zeros(3, dtype=np.int64)
    r = rack.astype(np.int32)
    _generate_lines(b, lm2, wm2, 0, start_r, start_c, r, tmask, tfirst, values, rack_size,
                    bingo, out_words, out_meta, counter)
    _generate_lines(np.ascontiguousarray(b.T), np.ascontiguousarray(lm2.T),
                    np.ascontiguousarray(wm2.T), 1, start_c, start_r, r, tmask, tfirst, values,
                    rack_size, bingo, out_words, out_meta, counter)
    k = min(counter[MOVES], capacity)
    return out_words[:k], out_meta[:k], counter
