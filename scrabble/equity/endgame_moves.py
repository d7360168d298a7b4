"""Move generation at the nodes of an endgame search, over boards kept in place.

The search keeps the board as rows and as columns (the "lines" of
``scrabble.board``) with their cross-checks and anchors (``endgame_board``).
A node's moves are exactly ``movegen.generate``'s, in its order
(``tests/test_endgame.py`` checks it): the trie engine's anchor search, line by
line, with three differences in the driving only. An anchor whose cross-check
admits none of the rack's letters is skipped (every placement found from an
anchor puts a tile on it). Each line's moves are cached under a hash of what
its search reads, since a move changes few lines. And the anchor search is
written without row views (``anchor_placements``), whose reference counts
were 40 % of the search's time.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.board import rack_letters, rack_tiles
from scrabble.engines.sink import ANCHORS, MOVES, NODES
from scrabble.engines.trie import LEFT, MAX_LINE, RIGHT
from scrabble.equity.endgame_board import anchors, cross_checks
from scrabble.lexicon.trie import child_in, lowest_letter, terminal_in
from scrabble.position import Position
from scrabble.tiles import NEW_FLAG

# frame fields of the anchor search's explicit stack (rows of ``frames``)
KIND, NODE, COL, PLACED, START, LETTER, PHASE, USED, FRESH = 0, 1, 2, 3, 4, 5, 6, 7, 9


@njit(cache=True, inline="always")
def anchor_placements(
    a,
    line,
    direction,
    root,
    root_start,
    limit,
    lines,
    cmask,
    cross,
    lm,
    wm,
    rack,
    tmask,
    tfirst,
    values,
    rack_size,
    bingo,
    out_words,
    out_meta,
    counter,
    cur,
    left,
    st,
):
    """``scrabble.engines.trie._search_anchor`` step for step, with every array
    read by (row, column) instead of through row views: a view costs two
    atomic reference counts, and the trie engine's 13 views an anchor were 40 %
    of an endgame search's time. Same placements, same order, same scores
    (``tests/test_endgame.py`` compares every golden position with movegen)."""
    n = lines.shape[1]
    r = line
    sp = 0
    st[NODE, 0] = root
    st[PLACED, 0] = 0
    st[FRESH, 0] = 1
    if limit > 0:
        st[KIND, 0] = LEFT
        st[COL, 0] = 0  # a left frame's col is the left part's length p
    else:
        st[KIND, 0] = RIGHT
        st[COL, 0] = a
        st[START, 0] = root_start
    while sp >= 0:
        counter[NODES] += st[FRESH, sp]
        if st[KIND, sp] == LEFT:
            p = st[COL, sp]
            if st[FRESH, sp]:
                st[FRESH, sp] = 0
                st[LETTER, sp] = (
                    np.int64(tmask[st[NODE, sp]]) & ((1 << 26) - 1) & rack_letters(rack)
                )
                st[PHASE, sp] = 0
                st[USED, sp] = -1
                fits = True
                for i in range(p):
                    cur[a - p + i] = left[i]
                    if (np.int64(cmask[r, a - p + i]) >> ((left[i] & 31) - 1)) & 1 == 0:
                        fits = False
                if not fits:
                    continue
                sp += 1
                st[KIND, sp] = RIGHT
                st[NODE, sp] = st[NODE, sp - 1]
                st[COL, sp] = a
                st[START, sp] = a - p
                st[PLACED, sp] = p
                st[FRESH, sp] = 1
                continue
            if st[USED, sp] >= 0:
                rack[st[USED, sp]] += 1
                st[USED, sp] = -1
            if p >= limit:
                sp -= 1
                continue
        else:
            if st[FRESH, sp]:
                st[FRESH, sp] = 0
                nd = st[NODE, sp]
                c = st[COL, sp]
                while c < n and lines[r, c] != 0:
                    nd = child_in(tmask, tfirst, nd, np.int64(lines[r, c] & 31) - 1)
                    if nd < 0:
                        break
                    cur[c] = lines[r, c]
                    c += 1
                if nd < 0:
                    sp -= 1
                    continue
                st[NODE, sp] = nd
                st[COL, sp] = c
                s = st[START, sp]
                if c > a and c - s >= 2 and terminal_in(tmask, nd):
                    emit = True
                    if direction == 1 and st[PLACED, sp] == 1:
                        # a single tile that also forms an across word is listed across only
                        for q in range(s, c):
                            if cur[q] & NEW_FLAG and cross[r, q] >= 0:
                                emit = False
                    if emit:
                        # scoring.score_line over row r of the line arrays
                        main = 0
                        main_mult = 1
                        cross_total = 0
                        placed = 0
                        for q in range(s, c):
                            code = cur[q]
                            v = 0 if code & 32 else values[(code & 31) - 1]
                            if code & NEW_FLAG:
                                placed += 1
                                main += v * lm[r, q]
                                main_mult *= wm[r, q]
                                if cross[r, q] >= 0:
                                    cross_total += (cross[r, q] + v * lm[r, q]) * wm[r, q]
                            else:
                                main += v
                        score = main * main_mult + cross_total
                        if placed == rack_size:
                            score += bingo
                        # moves.record_move
                        k = counter[MOVES]
                        if k < out_meta.shape[0]:
                            length = c - s
                            for i in range(length):
                                out_words[k, i] = cur[s + i]
                            for i in range(length, out_words.shape[1]):
                                out_words[k, i] = 0
                            if direction == 0:
                                out_meta[k, 0] = line
                                out_meta[k, 1] = s
                            else:
                                out_meta[k, 0] = s
                                out_meta[k, 1] = line
                            out_meta[k, 2] = direction
                            out_meta[k, 3] = length
                            out_meta[k, 4] = st[PLACED, sp]
                            out_meta[k, 5] = score
                        counter[MOVES] += 1
                if c >= n:
                    sp -= 1
                    continue
                todo = np.int64(cmask[r, c]) & np.int64(tmask[nd]) & rack_letters(rack)
                if todo == 0:
                    sp -= 1
                    continue
                st[LETTER, sp] = todo
                st[PHASE, sp] = 0
                st[USED, sp] = -1
            elif st[USED, sp] >= 0:
                rack[st[USED, sp]] += 1
                st[USED, sp] = -1
        todo = st[LETTER, sp]
        ph = st[PHASE, sp]
        use = -1
        lt = 0
        while todo != 0:
            lt = lowest_letter(todo)
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
        st[LETTER, sp] = todo
        st[PHASE, sp] = ph
        rack[use] -= 1
        st[USED, sp] = use
        code = (lt + 1) | NEW_FLAG
        if use == 26:
            code |= 32
        nd = child_in(tmask, tfirst, st[NODE, sp], np.int64(lt))
        if st[KIND, sp] == LEFT:
            left[st[COL, sp]] = code
            sp += 1
            st[KIND, sp] = LEFT
            st[NODE, sp] = nd
            st[COL, sp] = st[COL, sp - 1] + 1
            st[FRESH, sp] = 1
        else:
            c = st[COL, sp]
            cur[c] = code
            sp += 1
            st[KIND, sp] = RIGHT
            st[NODE, sp] = nd
            st[COL, sp] = c + 1
            st[START, sp] = st[START, sp - 1]
            st[PLACED, sp] = st[PLACED, sp - 1] + 1
            st[FRESH, sp] = 1


@njit(cache=True, inline="always")
def line_moves(
    lines,
    r,
    direction,
    cmask,
    cross,
    anc,
    lm,
    wm,
    values,
    rack,
    letters,
    tiles,
    tmask,
    tfirst,
    rack_size,
    bingo,
    out_words,
    out_meta,
    counter,
    cur,
    left,
    frames,
):
    """The placements whose leftmost anchor is on line ``r``, appended at
    ``counter[MOVES]`` (the trie engine's loop over a line's anchors, without
    row views, as ``anchor_placements``)."""
    n = lines.shape[0]
    for a in range(n):
        if not anc[r, a]:
            continue
        if np.int64(cmask[r, a]) & letters == 0:
            continue  # no rack letter fits the anchor: nothing covers it
        counter[ANCHORS] += 1
        root = 0
        root_start = a
        limit = 0
        if a > 0 and lines[r, a - 1] != 0:
            root_start = a - 1
            while root_start > 0 and lines[r, root_start - 1] != 0:
                root_start -= 1
            for c in range(root_start, a):
                root = child_in(tmask, tfirst, root, np.int64(lines[r, c] & 31) - 1)
                if root < 0:
                    break
                cur[c] = lines[r, c]
            if root < 0:
                continue
        else:
            k = a - 1
            while k >= 0 and lines[r, k] == 0 and not anc[r, k]:
                limit += 1
                k -= 1
            if limit > tiles - 1:
                limit = tiles - 1
        anchor_placements(
            a,
            r,
            direction,
            root,
            root_start,
            limit,
            lines,
            cmask,
            cross,
            lm,
            wm,
            rack,
            tmask,
            tfirst,
            values,
            rack_size,
            bingo,
            out_words,
            out_meta,
            counter,
            cur,
            left,
            frames,
        )


@njit(cache=True)
def generate_node(
    rows,
    columns,
    lm_lines,
    wm_lines,
    values,
    rack,
    tmask,
    tfirst,
    start_r,
    start_c,
    through,
    rack_size,
    bingo,
    out_words,
    out_meta,
    counter,
    cur,
    left,
    frames,
):
    """Every placement of ``rack`` on the board held as ``rows`` (n x n) and its
    transpose ``columns``, written to ``out_words``/``out_meta`` in the move
    format of ``scrabble.moves``. Returns the number found (it may exceed the
    buffers' rows: then call again with larger ones)."""
    n = rows.shape[0]
    counter[:] = 0
    tiles = rack_tiles(rack)
    letters = rack_letters(rack)
    for direction in range(2):
        lines = rows if direction == 0 else columns
        sr = start_r if direction == 0 else start_c
        sc = start_c if direction == 0 else start_r
        cmask, cross = cross_checks(lines, tmask, tfirst, values)
        anc = anchors(lines, sr, sc, through)
        for r in range(n):
            line_moves(
                lines,
                r,
                direction,
                cmask,
                cross,
                anc,
                lm_lines[direction],
                wm_lines[direction],
                values,
                rack,
                letters,
                tiles,
                tmask,
                tfirst,
                rack_size,
                bingo,
                out_words,
                out_meta,
                counter,
                cur,
                left,
                frames,
            )
    return counter[MOVES]


MIX = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def mix(h, v):
    h = (h ^ v) * MIX
    return h ^ (h >> np.uint64(29))


@njit(cache=True)
def rack_hash(rack):
    h = np.uint64(0x51ED270B27A1C3F5)
    for i in range(27):
        h = mix(h, np.uint64(rack[i] * 32 + i))
    return h


@njit(cache=True, inline="always")
def line_key(lines, cmask, cross, anc, direction, r, rack_key):
    """The line cache's key: everything the search of line ``r`` reads."""
    h = mix(rack_key, np.uint64(direction * 64 + r))
    for c in range(lines.shape[1]):
        h = mix(
            h,
            np.uint64(lines[r, c])
            | (np.uint64(anc[r, c]) << np.uint64(7))
            | (np.uint64(cross[r, c] + 1) << np.uint64(8))
            | (np.uint64(cmask[r, c]) << np.uint64(32)),
        )
    return h


@njit(cache=True)
def cached_move(board, rack, cache_table, store_words, store_meta, move_words, move_meta, k):
    """Row of the line cache's store holding move ``k`` of ``move_words`` /
    ``move_meta`` as a move of this rack on this board (its line's entry is
    current), or -1 when that line is not cached or the move is not in it.
    A hit is the move as generation would give it: legal, with today's score."""
    rows, columns, cmask_lines, cross_lines, anc_lines = board
    direction = move_meta[k, 2]
    r = move_meta[k, 0] if direction == 0 else move_meta[k, 1]
    lines = rows if direction == 0 else columns
    h = line_key(
        lines,
        cmask_lines[direction],
        cross_lines[direction],
        anc_lines[direction],
        direction,
        r,
        rack_hash(rack),
    )
    slot = np.int64(h & np.uint64(cache_table.shape[0] - 1))
    if cache_table[slot, 0] != h:
        return -1
    start = np.int64(cache_table[slot, 1] >> np.uint64(24))
    count = np.int64(cache_table[slot, 1] & np.uint64(0xFFFFFF))
    length = move_meta[k, 3]
    for i in range(start, start + count):
        same = True
        for f in range(5):
            if store_meta[i, f] != move_meta[k, f]:
                same = False
                break
        if same:
            for q in range(length):
                if store_words[i, q] != move_words[k, q]:
                    same = False
                    break
        if same:
            return i
    return -1


@njit(cache=True)
def generate_node_cached(
    board,
    lm_lines,
    wm_lines,
    values,
    rack,
    tmask,
    tfirst,
    rack_size,
    bingo,
    out_words,
    out_meta,
    offset,
    best_only,
    counter,
    cur,
    left,
    frames,
    cache_table,
    store_words,
    store_meta,
    store_top,
    line_words,
    line_meta,
    cache_stats,
):
    """``generate_node``'s moves, in its order, written from row ``offset`` of
    ``out_words``/``out_meta`` on, with each line's moves looked up
    in a cache keyed by a 64-bit hash of everything the line's search reads
    (its cells, cross-checks, anchors, index, direction and the rack) and
    searched only on a miss. Between the nodes of one search most lines do
    not change (a move touches a few), so most lines hit.

    ``best_only``: write just the first of the highest-scoring moves and return
    1 (0 when there is none): for a one-tile rack, where every move goes out
    and only the best score matters."""
    rows, columns, cmask_lines, cross_lines, anc_lines = board
    n = rows.shape[0]
    tiles = rack_tiles(rack)
    letters = rack_letters(rack)
    rack_key = rack_hash(rack)
    table_mask = np.uint64(cache_table.shape[0] - 1)
    total = 0
    best = -1
    for direction in range(2):
        lines = rows if direction == 0 else columns
        cmask = cmask_lines[direction]
        cross = cross_lines[direction]
        anc = anc_lines[direction]
        for r in range(n):
            viable = False
            for c in range(n):
                if anc[r, c] and np.int64(cmask[r, c]) & letters != 0:
                    viable = True
                    break
            if not viable:
                continue  # no anchor a rack letter fits: no moves (as line_moves finds)
            h = line_key(lines, cmask, cross, anc, direction, r, rack_key)
            slot = np.int64(h & table_mask)
            from_words = store_words
            from_meta = store_meta
            if cache_table[slot, 0] == h:
                cache_stats[0] += 1
                start = np.int64(cache_table[slot, 1] >> np.uint64(24))
                count = np.int64(cache_table[slot, 1] & np.uint64(0xFFFFFF))
            else:
                cache_stats[1] += 1
                while True:
                    counter[MOVES] = 0
                    line_moves(
                        lines,
                        r,
                        direction,
                        cmask,
                        cross,
                        anc,
                        lm_lines[direction],
                        wm_lines[direction],
                        values,
                        rack,
                        letters,
                        tiles,
                        tmask,
                        tfirst,
                        rack_size,
                        bingo,
                        line_words,
                        line_meta,
                        counter,
                        cur,
                        left,
                        frames,
                    )
                    count = counter[MOVES]
                    if count <= line_meta.shape[0]:
                        break
                    line_words = np.empty((count, 15), dtype=np.uint8)
                    line_meta = np.empty((count, 6), dtype=np.int32)
                if store_top[0] + count > store_meta.shape[0]:
                    cache_table[:, 0] = 0  # the store is full: start it again
                    store_top[0] = 0
                start = store_top[0]
                if count <= store_meta.shape[0]:
                    store_words[start : start + count] = line_words[:count]
                    store_meta[start : start + count] = line_meta[:count]
                    store_top[0] += count
                    cache_table[slot, 0] = h
                    cache_table[slot, 1] = (np.uint64(start) << np.uint64(24)) | np.uint64(count)
                else:
                    # a line too big for the store: serve it from the line buffers
                    from_words = line_words
                    from_meta = line_meta
                    start = 0
            # Copies written out here, not in a helper: a call passing arrays
            # costs two atomic reference counts per array, per move copied.
            if best_only:
                for i in range(start, start + count):
                    if from_meta[i, 5] > best:
                        best = from_meta[i, 5]
                        if offset < out_meta.shape[0]:
                            for k in range(15):
                                out_words[offset, k] = from_words[i, k]
                            for k in range(6):
                                out_meta[offset, k] = from_meta[i, k]
                continue
            room = min(count, out_meta.shape[0] - offset - total)
            for i in range(room):
                for k in range(15):
                    out_words[offset + total + i, k] = from_words[start + i, k]
                for k in range(6):
                    out_meta[offset + total + i, k] = from_meta[start + i, k]
            total += count
    if best_only:
        return 1 if best >= 0 else 0
    return total


def line_premiums(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """Letter and word multipliers as (2, n, n): rows, then columns."""
    rules = position.rules
    lm = rules.letter_mult_lines.astype(np.int32)  # writable copies, (2, n, n)
    wm = rules.word_mult_lines.astype(np.int32)
    return lm, wm


def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The anchor search's work buffers: current line, left part, frame stack."""
    return (
        np.zeros(MAX_LINE, dtype=np.uint8),
        np.zeros(MAX_LINE, dtype=np.uint8),
        np.zeros((10, MAX_LINE + 2), dtype=np.int64),
    )


CACHE_SLOTS = 1 << 16
CACHE_MOVES = 1 << 20


def line_cache(slots: int = CACHE_SLOTS, moves: int = CACHE_MOVES) -> tuple[np.ndarray, ...]:
    """An empty line cache for ``generate_node_cached`` (one per search): the
    table (key, start << 24 | count per slot, one cache line a lookup), the
    store of moves, its fill, a line's buffers, and hit / miss counts."""
    return (
        np.zeros((slots, 2), dtype=np.uint64),
        np.empty((moves, 15), dtype=np.uint8),
        np.empty((moves, 6), dtype=np.int32),
        np.zeros(1, dtype=np.int64),
        np.empty((4096, 15), dtype=np.uint8),
        np.empty((4096, 6), dtype=np.int32),
        np.zeros(2, dtype=np.int64),
    )
