"""The ``trie`` engine: Appel-Jacobson move generation over the trie.

For each anchor of a line, the left part is either the tiles already to its
left (followed through the trie) or every rack word-prefix that fits on the
empty non-anchor squares there; from it the word is extended right, branching
at empty squares only to children that are on the rack and allowed by the
square's cross-check mask, following tiles already on the board, and a word is
emitted when a terminal node stands on an empty square (or the edge) after the
anchor is covered. Because a left part never crosses another anchor, each
placement is found from its leftmost anchor only, so once per direction.

The search is one iterative depth-first loop over an explicit frame stack:
Numba passes arrays to a call with reference counting, which made a recursive
version about 10x slower (and recursive functions do not load from Numba's
cache reliably).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.board import anchors, cross_checks
from scrabble.lexicon.trie import child, is_terminal, popcount32
from scrabble.moves import record_move
from scrabble.scoring import NEW_FLAG, score_line

MAX_LINE = 32
# counter slots
MOVES, NODES, ANCHORS = 0, 1, 2
# frame kinds
LEFT, RIGHT = 0, 1


@njit(cache=True, inline="always")
def _lowest_letter(bits):
    """Index of the lowest set bit of a non-zero 26-bit mask."""
    return popcount32((bits & -bits) - 1)


@njit(cache=True, inline="always")
def _rack_letters(rack):
    """Letters a rack can play: all 26 with a blank, else those it holds."""
    if rack[26] > 0:
        return np.int64((1 << 26) - 1)
    bits = np.int64(0)
    for i in range(26):
        if rack[i] > 0:
            bits |= np.int64(1) << i
    return bits


@njit(cache=True)
def _search_anchor(a, line, direction, root, root_start, limit, cells, cmask, cross, lm, wm,
                   rack, tmask, tfirst, values, rack_size, bingo, out_words, out_meta,
                   counter, cur, left, st):
    """All placements whose leftmost anchor is square ``a`` of this line.

    ``root``/``root_start``: the trie node and start square after the tiles
    already left of the anchor; ``limit`` > 0 instead asks for left parts of
    up to ``limit`` rack tiles (then root is 0 and root_start is a).
    """
    n = cells.shape[0]
    kind, node, col, placed, start = st[0], st[1], st[2], st[3], st[4]
    letter, phase, used, fresh = st[5], st[6], st[7], st[9]
    sp = 0
    node[0] = root
    placed[0] = 0
    fresh[0] = 1
    if limit > 0:
        kind[0] = LEFT
        col[0] = 0  # a left frame's col is the left part's length p
    else:
        kind[0] = RIGHT
        col[0] = a
        start[0] = root_start
    while sp >= 0:
        counter[NODES] += fresh[sp]
        if kind[sp] == LEFT:
            p = col[sp]
            if fresh[sp]:
                fresh[sp] = 0
                # letter[] holds the letters still to try at this frame
                letter[sp] = np.int64(tmask[node[sp]]) & ((1 << 26) - 1) & _rack_letters(rack)
                phase[sp] = 0
                used[sp] = -1
                fits = True
                for i in range(p):
                    cur[a - p + i] = left[i]
                    # Under "touch" left-part squares are never constrained; under
                    # "through" one may sit under a board tile (its cross word counts).
                    if (np.int64(cmask[a - p + i]) >> ((left[i] & 31) - 1)) & 1 == 0:
                        fits = False
                if not fits:
                    continue  # longer left parts shift onto other squares: still tried
                # first the words that start with exactly this left part
                sp += 1
                kind[sp] = RIGHT
                node[sp] = node[sp - 1]
                col[sp] = a
                start[sp] = a - p
                placed[sp] = p
                fresh[sp] = 1
                continue
            if used[sp] >= 0:
                rack[used[sp]] += 1
                used[sp] = -1
            if p >= limit:
                sp -= 1
                continue
        else:
            if fresh[sp]:
                fresh[sp] = 0
                nd = node[sp]
                c = col[sp]
                while c < n and cells[c] != 0:
                    nd = child(tmask, tfirst, nd, np.int64(cells[c] & 31) - 1)
                    if nd < 0:
                        break
                    cur[c] = cells[c]
                    c += 1
                if nd < 0:
                    sp -= 1
                    continue
                node[sp] = nd
                col[sp] = c
                s = start[sp]
                if c > a and c - s >= 2 and is_terminal(tmask, nd):
                    emit = True
                    if direction == 1 and placed[sp] == 1:
                        # a single tile that also forms an across word is listed across only
                        for q in range(s, c):
                            if cur[q] & NEW_FLAG and cross[q] >= 0:
                                emit = False
                    if emit:
                        score = score_line(cur, s, c - 1, lm, wm, cross, values, rack_size,
                                           bingo)
                        record_move(cur, s, c - 1, line, direction, placed[sp], score,
                                    out_words, out_meta, counter[MOVES])
                        counter[MOVES] += 1
                if c >= n:
                    sp -= 1
                    continue
                todo = np.int64(cmask[c]) & np.int64(tmask[nd]) & _rack_letters(rack)
                if todo == 0:
                    sp -= 1
                    continue
                letter[sp] = todo
                phase[sp] = 0
                used[sp] = -1
            elif used[sp] >= 0:
                rack[used[sp]] += 1
                used[sp] = -1
        # Next (letter, real tile or blank) choice of the top frame. The rack
        # is restored after each child, so the letters playable here stay
        # those computed when the frame was entered.
        todo = letter[sp]
        ph = phase[sp]
        use = -1
        lt = 0
        while todo != 0:
            lt = _lowest_letter(todo)
            if ph == 0:
                ph = 1
                if rack[lt] > 0:
                    use = lt
                    break
            if ph == 1:
                ph = 2
                if rack[26] > 0:
                    use = 26
                    break
            todo &= todo - 1
            ph = 0
        if use < 0:
            sp -= 1
            continue
        letter[sp] = todo
        phase[sp] = ph
        rack[use] -= 1
        used[sp] = use
        code = (lt + 1) | NEW_FLAG
        if use == 26:
            code |= 32
        nd = child(tmask, tfirst, node[sp], np.int64(lt))
        if kind[sp] == LEFT:
            left[col[sp]] = code
            sp += 1
            kind[sp] = LEFT
            node[sp] = nd
            col[sp] = col[sp - 1] + 1
            fresh[sp] = 1
        else:
            c = col[sp]
            cur[c] = code
            sp += 1
            kind[sp] = RIGHT
            node[sp] = nd
            col[sp] = c + 1
            start[sp] = start[sp - 1]
            placed[sp] = placed[sp - 1] + 1
            fresh[sp] = 1


@njit(cache=True)
def _generate_lines(lines, lm, wm, direction, start_r, start_c, through, rack, tmask, tfirst,
                    values, rack_size, bingo, out_words, out_meta, counter):
    n = lines.shape[0]
    cmask, cross = cross_checks(lines, tmask, tfirst, values)
    anc = anchors(lines, start_r, start_c, through)
    cur = np.zeros(MAX_LINE, dtype=np.uint8)
    left = np.zeros(MAX_LINE, dtype=np.uint8)
    st = np.zeros((10, MAX_LINE + 2), dtype=np.int64)
    tiles = 0
    for i in range(27):
        tiles += rack[i]
    for r in range(n):
        cells = lines[r]
        for a in range(n):
            if not anc[r, a]:
                continue
            counter[ANCHORS] += 1
            # One call site with plain int64 arguments: a literal 0 at a call
            # makes Numba compile another specialisation of the whole search.
            root = 0
            root_start = a
            limit = 0
            if a > 0 and cells[a - 1] != 0:
                root_start = a - 1
                while root_start > 0 and cells[root_start - 1] != 0:
                    root_start -= 1
                for c in range(root_start, a):
                    root = child(tmask, tfirst, root, np.int64(cells[c] & 31) - 1)
                    if root < 0:
                        break
                    cur[c] = cells[c]
                if root < 0:
                    continue
            else:
                k = a - 1
                while k >= 0 and cells[k] == 0 and not anc[r, k]:
                    limit += 1
                    k -= 1
                if limit > tiles - 1:
                    limit = tiles - 1
            _search_anchor(a, r, direction, root, root_start, limit, cells, cmask[r], cross[r],
                           lm[r], wm[r], rack, tmask, tfirst, values, rack_size, bingo,
                           out_words, out_meta, counter, cur, left, st)


@njit(cache=True)
def generate(board, n, lm, wm, values, rack, tmask, tfirst, start_r, start_c, through, rack_size,
             bingo, capacity):
    """All placements of a position, both directions.

    Returns (words, meta, counter): words[k] the main word's cell codes,
    meta[k] = row, col, direction (0 across, 1 down), length, tiles placed,
    score; counter = moves found (may exceed capacity: call again with more),
    trie nodes visited, anchors.
    """
    # Writable C-contiguous copies for both directions: one array type, so the
    # line search is compiled once rather than once per read-only/transposed
    # variant (each variant cost about 20 s of cold compile).
    b = board.reshape(n, n).copy()
    lm2 = lm.reshape(n, n).copy()
    wm2 = wm.reshape(n, n).copy()
    out_words = np.empty((capacity, n), dtype=np.uint8)  # a word is at most a line long
    out_meta = np.empty((capacity, 6), dtype=np.int32)
    counter = np.zeros(3, dtype=np.int64)
    r = rack.astype(np.int32)
    for direction in range(2):
        if direction == 0:
            lines, lml, wml, sr, sc = b, lm2, wm2, start_r, start_c
        else:
            lines = np.ascontiguousarray(b.T)
            lml = np.ascontiguousarray(lm2.T)
            wml = np.ascontiguousarray(wm2.T)
            sr, sc = start_c, start_r
        _generate_lines(lines, lml, wml, direction, sr, sc, through, r, tmask, tfirst, values,
                        rack_size, bingo, out_words, out_meta, counter)
    k = min(counter[MOVES], capacity)
    return out_words[:k], out_meta[:k], counter
