"""Action values against prospect rows (the write-up's sections 1-3).

For a play m: score(m) - pen(m) + the best value of a row that m leaves open,
counted against the hand m leaves plus the visible tiles, + the best value of
a setup row m itself advances. For a discard: -D + the best row value against
the hand it keeps. A row's value is score x P(its missing letters arrive in
the horizon) x weight x PRE_FACTOR^(pre-placed squares still empty).

The kernels work per distinct leave first (the row values do not depend on
which play left that hand), then per play walk the rows in falling order of
their best possible value and stop when none can beat the best found.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.wordgame.chance import LOG_FACT, NONE, p_cover
from scrabble.wordgame.rows import LETTER, NEW, PRE, PRE_FACTOR, TABLE, Rows

MAX_GENERAL_MISSING = 6  # beyond this a target-line entry counts 0 (bounds the cost)


@njit(cache=True, inline="always")
def _probability(
    need_letter, need_count, k, reduce, have, table3, probs, h, log_fact, general, letters, counts
):
    m = 0
    total = 0
    for j in range(k):
        lt = need_letter[j]
        short = need_count[j] - reduce[lt] - have[lt]
        if short > 0:
            letters[m] = lt
            counts[m] = short
            m += 1
            total += short
    if total == 0:
        return 1.0
    if total <= 3:
        # the missing letters in ascending order, padded with NONE
        a = letters[0]
        b = NONE
        c = NONE
        if counts[0] >= 2:
            b = a
            if counts[0] == 3:
                c = a
            elif m > 1:
                c = letters[1]
        elif m > 1:
            b = letters[1]
            if counts[1] == 2:
                c = b
            elif m > 2:
                c = letters[2]
        return table3[a, b, c]
    if general and total <= MAX_GENERAL_MISSING:
        return p_cover(letters, counts, m, probs, h, log_fact)
    return 0.0


@njit(cache=True)
def leave_values(
    haves, need_letter, need_count, need_k, score, pre, weight, kind, table3, probs, h, log_fact
):
    """(L, R): each row's value against each distinct hand-plus-visible."""
    nl = haves.shape[0]
    nr = score.shape[0]
    out = np.zeros((nl, nr), dtype=np.float64)
    reduce = np.zeros(26, dtype=np.int64)
    letters = np.empty(9, dtype=np.int64)
    counts = np.empty(9, dtype=np.int64)
    for a in range(nl):
        have = haves[a]
        for i in range(nr):
            p = _probability(
                need_letter[i],
                need_count[i],
                need_k[i],
                reduce,
                have,
                table3,
                probs,
                h,
                log_fact,
                kind[i] == TABLE,
                letters,
                counts,
            )
            out[a, i] = score[i] * p * weight[i] * PRE_FACTOR ** pre[i]
    return out


@njit(cache=True)
def _interplay(tile_sq, tile_lt, tiles, d, line, start, length, codes, n, reduce, filled):
    """How a play's tiles meet a row: -1 if they spoil it, else the number of
    its pre-placed squares they fill (``reduce`` gets the new squares filled)."""
    for j in range(length):
        filled[j] = False
    realized = 0
    for t in range(tiles):
        sq = tile_sq[t]
        row = sq // n
        col = sq % n
        along = col if d == 0 else row
        across = row if d == 0 else col
        if across == line and start <= along < start + length:
            j = along - start
            code = codes[j]
            if code & (NEW | PRE) != 0 and (code & LETTER) - 1 == tile_lt[t]:
                filled[j] = True
                if code & PRE:
                    realized += 1
                else:
                    reduce[tile_lt[t]] += 1
            else:
                return -1
    for t in range(tiles):
        sq = tile_sq[t]
        row = sq // n
        col = sq % n
        along = col if d == 0 else row
        across = row if d == 0 else col
        if across == line:
            if along == start - 1 or along == start + length:
                return -1
        elif across == line - 1 or across == line + 1:
            if start <= along < start + length:
                j = along - start
                if codes[j] & (NEW | PRE) != 0 and not filled[j]:
                    return -1
    return realized


@njit(cache=True, inline="always")
def _after_play(
    m, r, tile_sq, tile_lt, tile_n, d_arr, line_arr, start_arr, len_arr, codes,
    need_letter, need_count, need_k, have, table3, probs, h, log_fact, n, general,
    reduce, filled, letters, counts,
):  # fmt: skip
    """(pre-placed squares play m fills in row r, or -1 if it spoils the row;
    the chance of the row's letters still missing after m)."""
    for lt in range(26):
        reduce[lt] = 0
    got = _interplay(
        tile_sq[m], tile_lt[m], tile_n[m], d_arr[r], line_arr[r], start_arr[r], len_arr[r],
        codes[r], n, reduce, filled,
    )  # fmt: skip
    if got < 0:
        return got, 0.0
    p = _probability(
        need_letter[r], need_count[r], need_k[r], reduce, have, table3, probs, h, log_fact,
        general, letters, counts,
    )  # fmt: skip
    return got, p


@njit(cache=True)
def move_values(
    tile_sq,
    tile_lt,
    tile_n,
    stamp,
    leave_idx,
    haves,
    lvals,
    order,
    upper,
    d_arr,
    line_arr,
    start_arr,
    len_arr,
    codes,
    score,
    pre,
    weight,
    kind,
    need_letter,
    need_count,
    need_k,
    foot,
    pre_key,
    pre_row,
    table3,
    probs,
    h,
    log_fact,
    n,
    skip_line,
):
    """Per play: (best open row value, its row, best advanced setup value, its
    row, best advanced target-line value). ``skip_line[d, line]``: prospect
    rows of these lines are ignored (they are searched again after the play)."""
    moves = tile_n.shape[0]
    best = np.zeros(moves, dtype=np.float64)
    best_row = np.full(moves, -1, dtype=np.int64)
    real = np.zeros(moves, dtype=np.float64)
    real_row = np.full(moves, -1, dtype=np.int64)
    table_real = np.zeros(moves, dtype=np.float64)
    reduce = np.zeros(26, dtype=np.int64)
    letters = np.empty(9, dtype=np.int64)
    counts = np.empty(9, dtype=np.int64)
    filled = np.zeros(64, dtype=np.bool_)
    seen_by = np.full(score.shape[0], -1, dtype=np.int64)
    nw = foot.shape[1]
    for m in range(moves):
        have = haves[leave_idx[m]]
        b = 0.0
        br = -1
        for oi in range(order.shape[0]):
            r = order[oi]
            if upper[r] <= b:
                break
            if weight[r] >= 1.0 and skip_line[d_arr[r], line_arr[r]]:
                continue
            touch = False
            for w in range(nw):
                if stamp[m, w] & foot[r, w]:
                    touch = True
                    break
            if not touch:
                v = lvals[leave_idx[m], r]
                if v > b:
                    b = v
                    br = r
                continue
            if weight[r] < 1.0:
                continue  # a setup row the play touches: valued in the pass below
            got, p = _after_play(
                m, r, tile_sq, tile_lt, tile_n, d_arr, line_arr, start_arr, len_arr, codes,
                need_letter, need_count, need_k, have, table3, probs, h, log_fact, n, False,
                reduce, filled, letters, counts,
            )  # fmt: skip
            if got < 0:
                continue
            v = score[r] * p
            if v > b:
                b = v
                br = r
        best[m] = b
        best_row[m] = br
        # setup rows this play advances (found through its tiles' squares and
        # letters): they count in full
        rb = 0.0
        rr = -1
        tb = 0.0
        for t in range(tile_n[m]):
            key = tile_sq[m, t] * 26 + tile_lt[m, t]
            lo = np.searchsorted(pre_key, key)
            while lo < pre_key.shape[0] and pre_key[lo] == key:
                r = pre_row[lo]
                lo += 1
                if seen_by[r] == m:
                    continue
                seen_by[r] = m
                got, p = _after_play(
                    m, r, tile_sq, tile_lt, tile_n, d_arr, line_arr, start_arr, len_arr, codes,
                    need_letter, need_count, need_k, have, table3, probs, h, log_fact, n,
                    kind[r] == TABLE, reduce, filled, letters, counts,
                )  # fmt: skip
                if got <= 0:
                    continue
                v = score[r] * p * PRE_FACTOR ** (pre[r] - got)
                if v > rb:
                    rb = v
                    rr = r
                if kind[r] == TABLE and v > tb:
                    tb = v
        real[m] = rb
        real_row[m] = rr
        table_real[m] = tb
    return best, best_row, real, real_row, table_real


def upper_bounds(rows: Rows) -> np.ndarray:
    """Each row's value if its missing letters surely arrived: the bound the
    per-play walk stops on."""
    bounds: np.ndarray = rows.score * rows.weight * PRE_FACTOR**rows.pre
    return bounds


def row_values(
    haves: np.ndarray, rows: Rows, table3: np.ndarray, probs: np.ndarray, unknown: int
) -> np.ndarray:
    """``leave_values`` of ``rows``: (L, R), each row against each hand-plus-
    visible in ``haves``; the one place a ``Rows`` becomes the kernel's arrays."""
    values: np.ndarray = leave_values(
        haves,
        rows.need_letter,
        rows.need_count,
        rows.need_k,
        rows.score,
        rows.pre,
        rows.weight,
        rows.kind,
        table3,
        probs,
        unknown,
        LOG_FACT,
    )
    return values


def play_values(
    tiles: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    leave_idx: np.ndarray,
    haves: np.ndarray,
    lvals: np.ndarray,
    order: np.ndarray,
    upper: np.ndarray,
    rows: Rows,
    pre: tuple[np.ndarray, np.ndarray],
    table3: np.ndarray,
    probs: np.ndarray,
    unknown: int,
    n: int,
    skip_line: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``move_values`` of the plays ``tiles`` (squares, letters, counts,
    stamps: ``rows.play_tiles``) against ``rows``; ``pre`` is the rows'
    ``pre_index``."""
    tile_sq, tile_lt, tile_n, stamp = tiles
    found: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] = move_values(
        tile_sq,
        tile_lt,
        tile_n,
        stamp,
        leave_idx,
        haves,
        lvals,
        order,
        upper,
        rows.direction,
        rows.line,
        rows.start,
        rows.length,
        rows.codes,
        rows.score,
        rows.pre,
        rows.weight,
        rows.kind,
        rows.need_letter,
        rows.need_count,
        rows.need_k,
        rows.foot,
        pre[0],
        pre[1],
        table3,
        probs,
        unknown,
        LOG_FACT,
        n,
        skip_line,
    )
    return found


@njit(cache=True)
def pre_index(d_arr, line_arr, start_arr, len_arr, codes, n):
    """(keys, rows): square * 26 + letter of every pre-placed square, sorted."""
    total = 0
    for r in range(d_arr.shape[0]):
        for j in range(len_arr[r]):
            if codes[r, j] & PRE:
                total += 1
    keys = np.empty(total, dtype=np.int64)
    rows = np.empty(total, dtype=np.int64)
    k = 0
    for r in range(d_arr.shape[0]):
        for j in range(len_arr[r]):
            if codes[r, j] & PRE:
                c = start_arr[r] + j
                sq = line_arr[r] * n + c if d_arr[r] == 0 else c * n + line_arr[r]
                keys[k] = sq * 26 + (codes[r, j] & LETTER) - 1
                rows[k] = r
                k += 1
    order = np.argsort(keys, kind="mergesort")
    return keys[order], rows[order]


@njit(cache=True)
def window_products(cells, wm, span):
    """win[row, col]: the largest product of empty word multipliers over the
    runs of ``span`` squares through the square, across or down."""
    n = cells.shape[1]
    win = np.ones((n, n), dtype=np.int64)
    span = min(span, n)
    for d in range(2):
        for r in range(n):
            for a in range(n - span + 1):
                prod = 1
                for c in range(a, a + span):
                    if cells[d, r, c] == 0:
                        prod *= wm[d, r, c]
                for c in range(a, a + span):
                    row, col = (r, c) if d == 0 else (c, r)
                    if prod > win[row, col]:
                        win[row, col] = prod
    return win


@njit(cache=True)
def waste_penalties(tile_sq, tile_n, wm_flat, win, decay, per_tile):
    """pen(m) = sum of win(c) over the word-multiplier squares m covers when
    m's own word multiplier is under half of win(c) (x decay), + per_tile x
    tiles placed."""
    moves = tile_n.shape[0]
    n = win.shape[0]
    pen = np.zeros(moves, dtype=np.float64)
    for m in range(moves):
        mult = 1
        for t in range(tile_n[m]):
            mult *= wm_flat[tile_sq[m, t]]
        total = 0.0
        for t in range(tile_n[m]):
            sq = tile_sq[m, t]
            if wm_flat[sq] > 1:
                w = win[sq // n, sq % n]
                if 2 * mult < w:
                    total += w
        pen[m] = total * decay + per_tile * tile_n[m]
    return pen
