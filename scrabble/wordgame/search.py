"""Prospect search: every play the hand makes now, and every play it would
make with up to a few more tiles (the write-up's prospects), in one pass.

For each line (the rows for across plays, the rows of the transposed board
for down plays) and each square a main word may start on, a depth-first walk
of the trie follows board tiles and, on empty squares, the letters the
square's cross-check allows; a letter the hand (with the visible tiles) holds
is taken from it, any other costs one of the line's wild tiles. A word is
recorded when it ends before an empty square or the edge, has two letters or
more, places a tile and, after the first move, holds a board tile. Its score
is the contract's: (board tiles + new tiles x letter multiplier) x the word
multipliers under new tiles, plus every cross word scored the same way.

Rows: ``meta`` = direction, line, start, length, tiles placed, missing tiles,
score, visible tiles used; ``codes`` = the main word's letters (1..26),
``NEW`` added on a tile the play places, ``MISSING`` on one the hand lacks
(``VISIBLE`` too when a visible tile supplies it). A row with no missing tile
is a legal play now. A single tile that forms words
both ways is listed across only, as the shared engine lists it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.wordgame.trie_walk import child, is_terminal, lowest_letter

LETTER = 31  # the low five bits of a code: the letter, 1..26
NEW = 64
MISSING = 128
VISIBLE = 32
(META_DIR, META_LINE, META_START, META_LEN, META_PLACED, META_MISSING, META_SCORE, META_VISIBLE) = (
    range(8)
)
META_WIDTH = 8
LETTER_BITS = (1 << 26) - 1
REACH_DEPTH = 10  # a main word's first board tile lies at most 9 squares ahead


@njit(cache=True)
def reach_masks(tmask, tfirst, depth):
    """reach[node, j]: the letters that can stand j squares after the node's
    own square in some word below it (j = 0: its children). Lets the walk
    toward a board tile stop as soon as that tile's letter cannot follow."""
    nodes = tmask.shape[0]
    reach = np.zeros((nodes, depth), dtype=np.uint32)
    for nd in range(nodes - 1, -1, -1):  # breadth-first numbering: children come later
        m = np.int64(tmask[nd]) & LETTER_BITS
        reach[nd, 0] = np.uint32(m)
        idx = tfirst[nd]
        while m:
            low = m & -m
            m ^= low
            for j in range(1, depth):
                reach[nd, j] |= reach[idx, j - 1]
            idx += 1
    return reach


@njit(cache=True)
def _next_tile(cells):
    """nxt[c] = first square >= c holding a tile (len(cells) if none)."""
    n = cells.shape[0]
    nxt = np.empty(n + 1, dtype=np.int64)
    nxt[n] = n
    for c in range(n - 1, -1, -1):
        nxt[c] = c if cells[c] != 0 else nxt[c + 1]
    return nxt


@njit(cache=True)
def _reach_bounds(cells, cmask, cross, lm, wm, values, letters, max_tiles, bounds):
    """bounds[f, t]: what the squares from f on can still add to a word that
    places at most t more tiles, each empty square at the most valuable of
    ``letters`` its cross-check allows: (0) the main word's letter sum, (1)
    the product of its word multipliers, (2) the cross words' scores. Every
    term only grows as a word goes further, so the farthest reach bounds
    every word the walk can still make."""
    n = cells.shape[0]
    for f in range(n + 1):
        j = f
        letter_sum = 0
        product = 1
        crossing = 0
        while j < n and cells[j] != 0:
            letter_sum += values[(cells[j] & LETTER) - 1]
            j += 1
        bounds[f, 0, 0] = letter_sum
        bounds[f, 0, 1] = product
        bounds[f, 0, 2] = crossing
        for t in range(1, max_tiles + 1):
            allowed = np.int64(cmask[j]) & letters if j < n else 0
            if allowed != 0:  # else no word covers square j: the reach ends
                top = 0
                while allowed:
                    low = allowed & -allowed
                    allowed ^= low
                    top = max(top, np.int64(values[lowest_letter(low)]))
                gain = top * np.int64(lm[j])
                letter_sum += gain
                product *= np.int64(wm[j])
                if cross[j] >= 0:
                    crossing += (np.int64(cross[j]) + gain) * np.int64(wm[j])
                j += 1
                while j < n and cells[j] != 0:
                    letter_sum += values[(cells[j] & LETTER) - 1]
                    j += 1
            bounds[f, t, 0] = letter_sum
            bounds[f, t, 1] = product
            bounds[f, t, 2] = crossing


@njit(cache=True)
def keep_value(heap, size, value):
    """Push ``value`` onto the min-heap of the best values kept (capacity
    ``heap.shape[0]``); returns the new size."""
    keep = heap.shape[0]
    if size < keep:
        at = size
        heap[at] = value
        while at > 0 and heap[(at - 1) // 2] > heap[at]:
            parent = (at - 1) // 2
            heap[parent], heap[at] = heap[at], heap[parent]
            at = parent
        return size + 1
    if value <= heap[0]:
        return size
    heap[0] = value
    at = 0
    while True:
        low = at
        for child_at in (2 * at + 1, 2 * at + 2):
            if child_at < keep and heap[child_at] < heap[low]:
                low = child_at
        if low == at:
            return size
        heap[low], heap[at] = heap[at], heap[low]
        at = low


@njit(cache=True)
def search(
    lines,
    cmask,
    cross,
    lm,
    wm,
    values,
    tmask,
    tfirst,
    reach,
    have,
    vis,
    wild_cap,
    max_tiles,
    empty_board,
    min_score,
    min_score3,
    floor,
    keep_best,
    table3,
    out_meta,
    out_codes,
    counter,
):
    """Plays and prospects of every line whose ``wild_cap[d, r]`` >= 0 (the
    wild tiles allowed on it). ``lines``/``cmask``/``cross``/``lm``/``wm``:
    (2, n, n) per direction. ``have``/``vis``: int64[26] hand and visible
    tiles (restored on return); the hand is used first, then the visible
    tiles, then wild tiles. A prospect is kept only when it scores
    ``min_score`` or more, and one 3 or more tiles away ``min_score3``. With
    ``floor`` > 0 no row scoring under it is kept, a play now or not, and a
    walk stops where no word below it can reach it (a caller that only asks
    whether some row beats ``floor`` gets the same answer sooner). With
    ``keep_best`` = K > 0 a prospect is dropped, and a walk toward prospects
    stopped, once it is worth less than the K best rows found so far: its
    value is its score x the chance of its wild letters in ``table3`` (the
    turn's table, indexed by the missing letters in ascending order), as the
    caller values rows, and the K best rows of the whole search are the K
    best of what is kept (a caller keeping those gets them sooner).
    ``counter[0]``: rows found (may pass the capacity: call again with more);
    ``counter[1]``: trie nodes entered."""
    n = lines.shape[1]
    cap = out_meta.shape[0]
    node = np.empty(n + 1, dtype=np.int64)
    todo = np.empty(n + 1, dtype=np.int64)
    used = np.empty(n + 1, dtype=np.int64)  # -1 none, 0..25 hand, 26 wild, 27+l visible l
    main = np.empty(n + 1, dtype=np.int64)
    mult = np.empty(n + 1, dtype=np.int64)
    xsum = np.empty(n + 1, dtype=np.int64)
    placed = np.empty(n + 1, dtype=np.int64)
    wild = np.empty(n + 1, dtype=np.int64)
    seen = np.empty(n + 1, dtype=np.int64)
    board = np.empty(n + 1, dtype=np.int64)
    last_new = np.empty(n + 1, dtype=np.int64)
    code = np.zeros(n + 1, dtype=np.uint8)
    bounds_any = np.zeros((n + 1, max_tiles + 1, 3), dtype=np.int64)
    bounds_held = np.zeros((n + 1, max_tiles + 1, 3), dtype=np.int64)
    # wild letters so far, ascending (NONE: 26), per depth: a prospect's chance
    wild1 = np.full(n + 1, 26, dtype=np.int64)
    wild2 = np.full(n + 1, 26, dtype=np.int64)
    wild3 = np.full(n + 1, 26, dtype=np.int64)
    keeping = keep_best > 0
    heap = np.empty(max(keep_best, 1), dtype=np.float64)  # the best values, a min-heap
    kept = 0
    bounded = floor > 0 or keeping
    held_letters = np.int64(0)
    for lt in range(26):
        if have[lt] + vis[lt] > 0:
            held_letters |= np.int64(1) << lt
    for d in range(2):
        for r in range(n):
            cap_wild = wild_cap[d, r]
            if cap_wild < 0:
                continue
            cells = lines[d, r]
            nxt = _next_tile(cells)
            if bounded:
                # with a wild tile left any letter may come; without, a held one
                if cap_wild > 0:
                    _reach_bounds(
                        cells, cmask[d, r], cross[d, r], lm[d, r], wm[d, r], values,
                        LETTER_BITS, max_tiles, bounds_any,
                    )  # fmt: skip
                _reach_bounds(
                    cells, cmask[d, r], cross[d, r], lm[d, r], wm[d, r], values,
                    held_letters, max_tiles, bounds_held,
                )  # fmt: skip
            for s in range(n):
                if s > 0 and cells[s - 1] != 0:
                    continue
                if not empty_board and nxt[s] - s > max_tiles:
                    continue  # no board tile within reach of the hand
                node[0] = 0
                main[0] = 0
                mult[0] = 1
                xsum[0] = 0
                placed[0] = 0
                wild[0] = 0
                seen[0] = 0
                board[0] = 0
                last_new[0] = -1
                k = 0
                todo[0] = -1
                used[0] = -1
                while k >= 0:
                    c = s + k
                    if todo[k] < 0:
                        counter[1] += 1
                        kids = np.int64(tmask[node[k]]) & LETTER_BITS
                        if cells[c] != 0:
                            kids &= np.int64(1) << (np.int64(cells[c] & LETTER) - 1)
                        elif placed[k] >= max_tiles:
                            kids = 0
                        else:
                            kids &= np.int64(cmask[d, r, c])
                            if board[k] == 0 and not empty_board:
                                q = nxt[c]
                                if (
                                    np.int64(reach[node[k], q - c])
                                    >> (np.int64(cells[q] & LETTER) - 1)
                                ) & 1 == 0:
                                    kids = 0
                        todo[k] = kids
                        used[k] = -1
                    if used[k] >= 0:
                        if used[k] < 26:
                            have[used[k]] += 1
                        elif used[k] > 26:
                            vis[used[k] - 27] += 1
                        used[k] = -1
                    if todo[k] == 0:
                        k -= 1
                        continue
                    bits = todo[k]
                    low = bits & -bits
                    todo[k] = bits ^ low
                    lt = np.int64(lowest_letter(low))
                    v = np.int64(values[lt])
                    k1 = k + 1
                    if cells[c] != 0:
                        main[k1] = main[k] + v
                        mult[k1] = mult[k]
                        xsum[k1] = xsum[k]
                        placed[k1] = placed[k]
                        wild[k1] = wild[k]
                        seen[k1] = seen[k]
                        board[k1] = 1
                        last_new[k1] = last_new[k]
                        code[k] = np.uint8(lt + 1)
                    else:
                        if have[lt] > 0:
                            have[lt] -= 1
                            used[k] = lt
                            wild[k1] = wild[k]
                            seen[k1] = seen[k]
                            code[k] = np.uint8(lt + 1 + NEW)
                        elif vis[lt] > 0:
                            vis[lt] -= 1
                            used[k] = 27 + lt
                            wild[k1] = wild[k]
                            seen[k1] = seen[k] + 1
                            code[k] = np.uint8(lt + 1 + NEW + MISSING + VISIBLE)
                        elif wild[k] < cap_wild:
                            used[k] = 26
                            wild[k1] = wild[k] + 1
                            seen[k1] = seen[k]
                            code[k] = np.uint8(lt + 1 + NEW + MISSING)
                        else:
                            continue
                        lmc = np.int64(lm[d, r, c])
                        wmc = np.int64(wm[d, r, c])
                        main[k1] = main[k] + v * lmc
                        mult[k1] = mult[k] * wmc
                        xs = xsum[k]
                        if cross[d, r, c] >= 0:
                            xs += (np.int64(cross[d, r, c]) + v * lmc) * wmc
                        xsum[k1] = xs
                        placed[k1] = placed[k] + 1
                        board[k1] = board[k]
                        last_new[k1] = c
                    chance = 1.0  # of the wild letters: read only when keeping the best
                    if keeping:
                        first, second, third = wild1[k], wild2[k], wild3[k]
                        if used[k] == 26:  # a wild letter: into the ascending three
                            if lt < first:
                                first, second, third = lt, first, second
                            elif lt < second:
                                second, third = lt, second
                            else:
                                third = lt
                        wild1[k1], wild2[k1], wild3[k1] = first, second, third
                        if wild[k1] > 0:
                            chance = table3[first, second, third]
                    if bounded:
                        bound = bounds_any[c + 1] if wild[k1] < cap_wild else bounds_held[c + 1]
                        left = max_tiles - placed[k1]
                        most = (main[k1] + bound[left, 0]) * mult[k1] * bound[left, 1]
                        most += xsum[k1] + bound[left, 2]
                        if most < floor:
                            continue
                        # below a prospect every word is one, and waits for at
                        # least these wild letters (the margin: rounding)
                        if (
                            keeping
                            and kept == keep_best
                            and wild[k1] + seen[k1] > 0
                            and most * chance * (1.0 + 1e-9) < heap[0]
                        ):
                            continue
                    nd = child(tmask, tfirst, node[k], lt)
                    ends = c + 1 == n or cells[c + 1] == 0
                    if (
                        ends
                        and k1 >= 2
                        and placed[k1] > 0
                        and (board[k1] == 1 or empty_board)
                        and is_terminal(tmask, nd)
                    ):
                        score = main[k1] * mult[k1] + xsum[k1]
                        dup = d == 1 and placed[k1] == 1 and cross[d, r, last_new[k1]] >= 0
                        away = wild[k1] + seen[k1]
                        value = score * chance
                        if (
                            not dup
                            and score >= floor
                            and (
                                away == 0
                                or (score >= min_score and (wild[k1] < 3 or score >= min_score3))
                            )
                            and (away == 0 or not keeping or kept < keep_best or value >= heap[0])
                        ):
                            if keeping:
                                kept = keep_value(heap, kept, value)
                            row = counter[0]
                            if row < cap:
                                out_meta[row, 0] = d
                                out_meta[row, 1] = r
                                out_meta[row, 2] = s
                                out_meta[row, 3] = k1
                                out_meta[row, 4] = placed[k1]
                                out_meta[row, 5] = wild[k1]
                                out_meta[row, 6] = score
                                out_meta[row, 7] = seen[k1]
                                for i in range(k1):
                                    out_codes[row, i] = code[i]
                                for i in range(k1, out_codes.shape[1]):
                                    out_codes[row, i] = 0
                            counter[0] += 1
                    if c + 1 >= n or np.int64(tmask[nd]) & LETTER_BITS == 0:
                        continue
                    if board[k1] == 0 and not empty_board:
                        ahead = nxt[c + 1]
                        if ahead >= n or ahead - (c + 1) > max_tiles - placed[k1]:
                            continue
                    node[k1] = nd
                    todo[k1] = -1
                    used[k1] = -1
                    k = k1
    return counter[0]
