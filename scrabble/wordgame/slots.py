"""Slots: the planner's targets.

A slot is a placement window on one line whose empty squares number exactly
T (a whole hand fills it), holding at least one board tile (any window of T
squares on the empty board), with empty squares or the edge just outside.
Its family is every word that fits it: board letters agree, each empty
square's cross-check allows its letter. Each family member needs a multiset
N of T letters and scores when played (cross words included); members with
the same N keep the best score.

For the hand held now, ``keep_table`` gives, for every sub-multiset K of the
hand kept, the chance that the refill (the visible tiles first, then i.i.d.
draws) completes some N exactly, and the expected score of that: the events
"the hand becomes N" are disjoint, so the sum is exact. It walks the family
once and, for each N, only the sub-multisets of N held in the hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

W_START, W_LEN, W_LINE, W_DIR, W_PROD = range(5)


@njit(cache=True)
def _window(cells, cmask, wm, d, r, s, empties):
    """The window of line (d, r) from square s holding ``empties`` empty
    squares and running on through the board tiles just after them: (end,
    product of the empty squares' word multipliers, board tiles inside);
    end -1 when the line ends first or an empty square's cross-check is
    closed (no letter can stand there)."""
    n = cells.shape[1]
    found = 0
    tiles = 0
    prod = 1
    c = s
    while c < n and found < empties:
        if cells[d, r, c] == 0:
            if cmask[d, r, c] == 0:
                return -1, 0, 0
            found += 1
            prod *= wm[d, r, c]
        else:
            tiles += 1
        c += 1
    if found < empties:
        return -1, 0, 0
    while c < n and cells[d, r, c] != 0:
        tiles += 1
        c += 1
    return c, prod, tiles


@njit(cache=True, inline="always")
def word_fits(matrix, w, cells, cmask, start, length):
    """Whether word ``w`` of the bank's ``matrix`` fits the window of this line
    from ``start``: its letters agree with the board tiles and each empty
    square's cross-check allows its letter."""
    for i in range(length):
        c = start + i
        lt = matrix[w, i]
        if cells[c] != 0:
            if (cells[c] & 31) != lt:
                return False
        elif (np.int64(cmask[c]) >> (lt - 1)) & 1 == 0:
            return False
    return True


@njit(cache=True)
def slot_windows(cells, cmask, wm, t, empty_board, lm):
    """Rows (start, length, line, direction, potential) of every slot window;
    the potential ranks windows before their families are built: the product
    of the word multipliers on the empty squares x their mean letter
    multiplier (x100, an integer)."""
    n = cells.shape[1]
    out = np.zeros((2 * n * n, 5), dtype=np.int64)
    k = 0
    for d in range(2):
        for r in range(n):
            for s in range(n):
                if s > 0 and cells[d, r, s - 1] != 0:
                    continue
                end, prod, tiles = _window(cells, cmask, wm, d, r, s, t)
                if end < 0 or (tiles != 0 if empty_board else tiles == 0):
                    continue
                letters = 0
                for c in range(s, end):
                    if cells[d, r, c] == 0:
                        letters += lm[d, r, c]
                out[k, 0] = s
                out[k, 1] = end - s
                out[k, 2] = r
                out[k, 3] = d
                out[k, 4] = prod * letters * 100 // t
                k += 1
    return out[:k]


@njit(cache=True)
def slot_family(cells, cmask, cross, lm, wm, values, matrix, offsets, start, length, keys):
    """The family of one window (this line's arrays): (needs (F, 26) uint8,
    scores (F,)), members with the same need merged (best score kept)."""
    lo = offsets[length]
    hi = offsets[length + 1]
    cap = hi - lo
    needs = np.zeros((cap, 26), dtype=np.uint8)
    scores = np.zeros(cap, dtype=np.int64)
    hashes = np.zeros(cap, dtype=np.uint64)
    mult = 1
    for i in range(length):
        c = start + i
        if cells[c] == 0:
            mult *= wm[c]
    f = 0
    for w in range(lo, hi):
        if not word_fits(matrix, w, cells, cmask, start, length):
            continue
        main = 0
        xs = 0
        h = np.uint64(0)
        for i in range(length):
            c = start + i
            lt = matrix[w, i]
            v = values[lt - 1]
            if cells[c] == 0:
                needs[f, lt - 1] += 1
                h += keys[lt - 1]
                main += v * lm[c]
                if cross[c] >= 0:
                    xs += (cross[c] + v * lm[c]) * wm[c]
            else:
                main += v
        scores[f] = main * mult + xs
        hashes[f] = h
        f += 1
    # merge equal needs
    order = np.argsort(hashes[:f])
    out_needs = np.zeros((f, 26), dtype=np.uint8)
    out_scores = np.zeros(f, dtype=np.int64)
    m = 0
    prev = np.uint64(0)
    for oi in range(f):
        i = order[oi]
        if m > 0 and hashes[i] == prev:
            if scores[i] > out_scores[m - 1]:
                out_scores[m - 1] = scores[i]
            continue
        out_needs[m] = needs[i]
        out_scores[m] = scores[i]
        prev = hashes[i]
        m += 1
    return out_needs[:m], out_scores[:m]


@njit(cache=True)
def keep_table(needs, scores, hand, radix, known, logp, log_fact, t):
    """For every sub-multiset K of ``hand`` (mixed-radix index over the hand's
    letters, ``radix[l]`` the stride of letter l, 0 if not held): (chance the
    refill completes a family need exactly, expected score of that, index of
    the member contributing most). ``known[u]``: the visible tiles among the
    first u drawn (26 counts), u = 0..t."""
    size = 1
    for lt in range(26):
        if hand[lt] > 0:
            size *= hand[lt] + 1
    p1 = np.zeros(size, dtype=np.float64)
    s1 = np.zeros(size, dtype=np.float64)
    top = np.full(size, -1, dtype=np.int64)
    top_v = np.zeros(size, dtype=np.float64)
    inter = np.zeros(26, dtype=np.int64)
    sub = np.zeros(26, dtype=np.int64)
    letters = np.zeros(26, dtype=np.int64)
    for f in range(needs.shape[0]):
        k = 0
        for lt in range(26):
            inter[lt] = min(needs[f, lt], hand[lt])
            sub[lt] = 0
            if inter[lt] > 0:
                letters[k] = lt
                k += 1
        # odometer over the sub-multisets of inter
        while True:
            size_k = 0
            idx = 0
            for j in range(k):
                lt = letters[j]
                size_k += sub[lt]
                idx += sub[lt] * radix[lt]
            u = t - size_k
            ok = True
            lp = 0.0
            m = 0
            for lt in range(26):
                delta = needs[f, lt] - sub[lt] - known[u, lt]
                if delta < 0:
                    ok = False
                    break
                if delta > 0:
                    lp += delta * logp[lt] - log_fact[delta]
                    m += delta
            if ok:
                # the unknown draws number u - |known[u]| = m: multinomial
                p = np.exp(lp + log_fact[m])
                p1[idx] += p
                v = p * scores[f]
                s1[idx] += v
                if v > top_v[idx]:
                    top_v[idx] = v
                    top[idx] = f
            j = 0
            while j < k:
                lt = letters[j]
                sub[lt] += 1
                if sub[lt] <= inter[lt]:
                    break
                sub[lt] = 0
                j += 1
            if j == k:
                break
    return p1, s1, top


@njit(cache=True)
def fresh_chance(needs, scores, logp, log_fact, t):
    """(chance a fresh hand of t i.i.d. tiles is a family need, expected score)."""
    p_total = 0.0
    s_total = 0.0
    for f in range(needs.shape[0]):
        lp = log_fact[t]
        for lt in range(26):
            c = needs[f, lt]
            if c > 0:
                lp += c * logp[lt] - log_fact[c]
        p = np.exp(lp)
        p_total += p
        s_total += p * scores[f]
    return p_total, s_total


@njit(cache=True)
def anchor_windows(cells, cmask, wm, t, min_product):
    """Rows (direction, line, start, anchor, product, length) of windows that
    one more letter makes a slot: t + 1 empty squares (every cross-check
    open), board tiles anywhere in between, empty or edge just outside. The
    anchor is an empty square without a word multiplier (the big play should
    get those); the product is over the other t empty squares' word
    multipliers, and only products >= ``min_product`` are kept."""
    n = cells.shape[1]
    out = np.zeros((2 * n * n * (t + 1), 6), dtype=np.int64)
    k = 0
    for d in range(2):
        for r in range(n):
            for s in range(n):
                if s > 0 and cells[d, r, s - 1] != 0:
                    continue
                c, prod, _ = _window(cells, cmask, wm, d, r, s, t + 1)
                if c < 0 or prod < min_product:
                    continue
                for q in range(s, c):
                    if cells[d, r, q] != 0 or wm[d, r, q] != 1:
                        continue
                    out[k, 0] = d
                    out[k, 1] = r
                    out[k, 2] = s
                    out[k, 3] = q
                    out[k, 4] = prod
                    out[k, 5] = c - s
                    k += 1
    return out[:k]


@njit(cache=True)
def crossing_placements(codes, lengths, legal, windows, values, lm, wm, meta_width):
    """First moves that cross an empty window's line at its anchor square: for
    each legal word and each of its letters, the word placed perpendicular to
    the window with that letter on the anchor. ``windows`` rows: direction,
    line, start, anchor. Rows as the search gives them (all tiles new)."""
    n = lm.shape[1]
    total = 0
    for w in range(codes.shape[0]):
        if legal[w]:
            total += lengths[w] * windows.shape[0]
    meta = np.zeros((total, meta_width), dtype=np.int32)
    out = np.zeros((total, n), dtype=np.uint8)
    k = 0
    for w in range(codes.shape[0]):
        if not legal[w]:
            continue
        ln = lengths[w]
        for x in range(windows.shape[0]):
            d = windows[x, 0]
            r = windows[x, 1]
            q = windows[x, 3]
            dp = 1 - d  # the play's direction; its line is the anchor's column q
            for j in range(ln):
                start = r - j
                if start < 0 or start + ln > n:
                    continue
                main = 0
                mult = 1
                for i in range(ln):
                    lt = (codes[w, i] & 31) - 1
                    main += values[lt] * lm[dp, q, start + i]
                    mult *= wm[dp, q, start + i]
                meta[k, 0] = dp
                meta[k, 1] = q
                meta[k, 2] = start
                meta[k, 3] = ln
                meta[k, 4] = ln
                meta[k, 5] = 0
                meta[k, 6] = main * mult
                meta[k, 7] = 0
                for i in range(ln):
                    out[k, i] = (codes[w, i] & 31) | 64
                k += 1
    return meta[:k], out[:k]
