"""Move generation at the nodes of an endgame search, over boards kept in place.

The search keeps the board twice, as rows and as columns (the "lines" of
``scrabble.board``), and places and lifts tiles on both, so a node pays neither
a copy nor a transpose. The moves are found by the trie engine's own anchor
search (``scrabble.engines.trie``), so they are exactly ``movegen.generate``'s
moves in the same order (``tests/test_endgame.py`` checks it); only the driver
differs: it skips an anchor whose cross-check admits none of the rack's
letters, since every placement found from an anchor puts a tile on it. With
the 1-7 tile racks of an endgame on a full board most anchors go that way,
which makes a node's generation about 3x cheaper.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.board import anchors, cross_checks
from scrabble.engines.trie import ANCHORS, MAX_LINE, MOVES, _search_anchor
from scrabble.lexicon.trie import child
from scrabble.position import Position

# The trie engine's anchor search compiled again, inlined into the driver: a
# call passes 20-odd arrays (about 0.4 us each time, most of a node's cost).
_search_anchor_inline = njit(cache=True, inline="always")(_search_anchor.py_func)


@njit(cache=True)
def rack_letters(rack):
    """Letters a rack can place, as 26 bits: all of them when it holds a blank."""
    if rack[26] > 0:
        return np.int64((1 << 26) - 1)
    bits = np.int64(0)
    for letter in range(26):
        if rack[letter] > 0:
            bits |= np.int64(1) << letter
    return bits


@njit(cache=True)
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
    ``counter[MOVES]`` (the trie engine's loop over a line's anchors)."""
    n = lines.shape[0]
    cells = lines[r]
    for a in range(n):
        if not anc[r, a]:
            continue
        if np.int64(cmask[r, a]) & letters == 0:
            continue  # no rack letter fits the anchor: nothing covers it
        counter[ANCHORS] += 1
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
        _search_anchor_inline(
            a,
            r,
            direction,
            root,
            root_start,
            limit,
            cells,
            cmask[r],
            cross[r],
            lm[r],
            wm[r],
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
def rack_tiles(rack):
    total = 0
    for i in range(27):
        total += rack[i]
    return total


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
    counter,
    cur,
    left,
    frames,
    cache_key,
    cache_start,
    cache_count,
    store_words,
    store_meta,
    store_top,
    line_words,
    line_meta,
    cache_stats,
):
    """``generate_node``'s moves, in its order, with each line's moves looked up
    in a cache keyed by a 64-bit hash of everything the line's search reads
    (its cells, cross-checks, anchors, index, direction and the rack) and
    searched only on a miss. Between the nodes of one search most lines do
    not change (a move touches a few), so most lines hit."""
    rows, columns, cmask_lines, cross_lines, anc_lines = board
    n = rows.shape[0]
    tiles = rack_tiles(rack)
    letters = rack_letters(rack)
    rack_key = rack_hash(rack)
    table_mask = np.uint64(cache_key.shape[0] - 1)
    total = 0
    for direction in range(2):
        lines = rows if direction == 0 else columns
        cmask = cmask_lines[direction]
        cross = cross_lines[direction]
        anc = anc_lines[direction]
        for r in range(n):
            h = mix(rack_key, np.uint64(direction * 64 + r))
            for c in range(n):
                h = mix(
                    h,
                    np.uint64(lines[r, c])
                    | (np.uint64(anc[r, c]) << np.uint64(7))
                    | (np.uint64(cross[r, c] + 1) << np.uint64(8))
                    | (np.uint64(cmask[r, c]) << np.uint64(32)),
                )
            slot = np.int64(h & table_mask)
            if cache_key[slot] == h:
                cache_stats[0] += 1
                start = cache_start[slot]
                count = cache_count[slot]
            else:
                cache_stats[1] += 1
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
                if count > line_meta.shape[0]:
                    line_words = np.empty((count, 15), dtype=np.uint8)
                    line_meta = np.empty((count, 6), dtype=np.int32)
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
                if store_top[0] + count > store_meta.shape[0]:
                    cache_key[:] = 0  # the store is full: start it again
                    store_top[0] = 0
                start = store_top[0]
                if count <= store_meta.shape[0]:
                    store_words[start : start + count] = line_words[:count]
                    store_meta[start : start + count] = line_meta[:count]
                    store_top[0] += count
                    cache_key[slot] = h
                    cache_start[slot] = start
                    cache_count[slot] = count
                else:
                    # a line too big for the store: serve it from the line buffers
                    for i in range(count):
                        if total + i < out_meta.shape[0]:
                            out_words[total + i] = line_words[i]
                            out_meta[total + i] = line_meta[i]
                    total += count
                    continue
            for i in range(count):
                if total + i < out_meta.shape[0]:
                    out_words[total + i] = store_words[start + i]
                    out_meta[total + i] = store_meta[start + i]
            total += count
    return total


def line_premiums(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """Letter and word multipliers as (2, n, n): rows, then columns."""
    rules = position.rules
    lm = np.ascontiguousarray(np.stack(rules.letter_mult_lines)).astype(np.int32)
    wm = np.ascontiguousarray(np.stack(rules.word_mult_lines)).astype(np.int32)
    return lm, wm


def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The anchor search's work buffers: current line, left part, frame stack."""
    return (
        np.zeros(MAX_LINE, dtype=np.uint8),
        np.zeros(MAX_LINE, dtype=np.uint8),
        np.zeros((10, MAX_LINE + 2), dtype=np.int64),
    )


CACHE_SLOTS = 1 << 18
CACHE_MOVES = 1 << 20


def line_cache(slots: int = CACHE_SLOTS, moves: int = CACHE_MOVES) -> tuple[np.ndarray, ...]:
    """An empty line cache for ``generate_node_cached`` (one per search)."""
    return (
        np.zeros(slots, dtype=np.uint64),
        np.zeros(slots, dtype=np.int64),
        np.zeros(slots, dtype=np.int64),
        np.empty((moves, 15), dtype=np.uint8),
        np.empty((moves, 6), dtype=np.int32),
        np.zeros(1, dtype=np.int64),
        np.empty((4096, 15), dtype=np.uint8),
        np.empty((4096, 6), dtype=np.int32),
        np.zeros(2, dtype=np.int64),
    )
