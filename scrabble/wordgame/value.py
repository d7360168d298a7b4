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

import heapq

import numpy as np
from numba import njit

from scrabble.wordgame.chance import LOG_FACT, NONE, p_cover
from scrabble.wordgame.rows import PRE, PRE_FACTOR, TABLE, Rows
from scrabble.wordgame.search import LETTER, NEW

MAX_GENERAL_MISSING = 6  # beyond this a target-line entry counts 0 (bounds the cost)
# a bound from NumPy and a value from a kernel may round apart in the last bits:
# a walk stops only where the bound, so widened, cannot reach the best found
BOUND_SLACK = 1.0 + 1e-9
UNKNOWN = np.nan  # a leave's value of a row not computed yet (``move_values`` fills it)


@njit(cache=True, inline="always")
def _probability(
    need_letter,
    need_count,
    kinds,
    reduce,
    have,
    table3,
    probs,
    horizon,
    log_fact,
    general,
    letters,
    counts,
):
    """The chance that the letters a row needs beyond ``have`` and ``reduce``
    (what the play itself puts there) arrive within ``horizon`` draws: from
    the turn's table up to three, exactly for target-line rows (``general``)
    up to MAX_GENERAL_MISSING, else 0."""
    short_kinds = 0
    total = 0
    for need in range(kinds):
        letter = need_letter[need]
        short = need_count[need] - reduce[letter] - have[letter]
        if short > 0:
            letters[short_kinds] = letter
            counts[short_kinds] = short
            short_kinds += 1
            total += short
    if total == 0:
        return 1.0
    if total <= 3:
        # the missing letters in ascending order, padded with NONE
        first = letters[0]
        second = NONE
        third = NONE
        if counts[0] >= 2:
            second = first
            if counts[0] == 3:
                third = first
            elif short_kinds > 1:
                third = letters[1]
        elif short_kinds > 1:
            second = letters[1]
            if counts[1] == 2:
                third = second
            elif short_kinds > 2:
                third = letters[2]
        return table3[first, second, third]
    if general and total <= MAX_GENERAL_MISSING:
        return p_cover(letters, counts, short_kinds, probs, horizon, log_fact)
    return 0.0


@njit(cache=True, inline="always")
def _row_value(
    row, have, no_reduce, need_letter, need_count, need_k, score, pre, weight, kind, table3,
    probs, horizon, log_fact, letters, counts,
):  # fmt: skip
    """Row ``row``'s value against ``have``, a hand plus the visible tiles."""
    chance = _probability(
        need_letter[row], need_count[row], need_k[row], no_reduce, have, table3, probs, horizon,
        log_fact, kind[row] == TABLE, letters, counts,
    )  # fmt: skip
    return score[row] * chance * weight[row] * PRE_FACTOR ** pre[row]


@njit(cache=True)
def leave_values(
    haves,
    need_letter,
    need_count,
    need_k,
    score,
    pre,
    weight,
    kind,
    table3,
    probs,
    horizon,
    log_fact,
):
    """(L, R): each row's value against each distinct hand-plus-visible."""
    hands = haves.shape[0]
    row_count = score.shape[0]
    out = np.zeros((hands, row_count), dtype=np.float64)
    no_reduce = np.zeros(26, dtype=np.int64)
    letters = np.empty(9, dtype=np.int64)
    counts = np.empty(9, dtype=np.int64)
    for hand in range(hands):
        have = haves[hand]
        for row in range(row_count):
            out[hand, row] = _row_value(
                row, have, no_reduce, need_letter, need_count, need_k, score, pre, weight, kind,
                table3, probs, horizon, log_fact, letters, counts,
            )  # fmt: skip
    return out


@njit(cache=True)
def best_values(
    haves,
    at_least,
    order,
    upper,
    excluded,
    need_letter,
    need_count,
    need_k,
    score,
    pre,
    weight,
    kind,
    table3,
    probs,
    horizon,
    log_fact,
):
    """Per hand-plus-visible in ``haves``: the best value of a row not
    ``excluded``, or ``at_least`` if none is worth more, walking the rows in
    ``order`` of falling ``upper`` and stopping where no row left can beat
    it."""
    hands = haves.shape[0]
    out = np.zeros(hands, dtype=np.float64)
    no_reduce = np.zeros(26, dtype=np.int64)
    letters = np.empty(9, dtype=np.int64)
    counts = np.empty(9, dtype=np.int64)
    for hand in range(hands):
        have = haves[hand]
        top = at_least
        for rank in range(order.shape[0]):
            row = order[rank]
            if upper[row] * BOUND_SLACK <= top:
                break
            if excluded[row]:
                continue
            value = _row_value(
                row, have, no_reduce, need_letter, need_count, need_k, score, pre, weight, kind,
                table3, probs, horizon, log_fact, letters, counts,
            )  # fmt: skip
            if value > top:
                top = value
        out[hand] = top
    return out


@njit(cache=True)
def best_rows(
    have,
    order,
    upper,
    count,
    need_letter,
    need_count,
    need_k,
    score,
    pre,
    weight,
    kind,
    table3,
    probs,
    horizon,
    log_fact,
):
    """The ``count`` rows of most value against ``have``, best first (ties by
    row index, as a stable sort of all the values orders them): the rows
    walked in ``order`` of falling ``upper`` until no row left can reach the
    ``count``-th value found."""
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    no_reduce = np.zeros(26, dtype=np.int64)
    letters = np.empty(9, dtype=np.int64)
    counts = np.empty(9, dtype=np.int64)
    found_row = np.empty(order.shape[0], dtype=np.int64)
    found_value = np.empty(order.shape[0], dtype=np.float64)
    found = 0
    kept = [0.0]  # a min-heap of the ``count`` best values found
    kept.pop()
    for rank in range(order.shape[0]):
        row = order[rank]
        # strict: a row of the same value and a lower index would still enter
        if len(kept) == count and upper[row] * BOUND_SLACK < kept[0]:
            break
        value = _row_value(
            row, have, no_reduce, need_letter, need_count, need_k, score, pre, weight, kind,
            table3, probs, horizon, log_fact, letters, counts,
        )  # fmt: skip
        found_row[found] = row
        found_value[found] = value
        found += 1
        if len(kept) < count:
            heapq.heappush(kept, value)
        elif value > kept[0]:
            heapq.heapreplace(kept, value)
    rows = found_row[:found]
    values = found_value[:found]
    by_index = np.argsort(rows)
    rows = rows[by_index]
    values = values[by_index]
    best = np.argsort(-values, kind="mergesort")[:count]
    return rows[best]


@njit(cache=True)
def _interplay(
    tile_sq, tile_lt, tiles, direction, line, start, length, codes, n, reduce, filled, square_wm
):  # fmt: skip
    """How a play's tiles meet a row: (-1 if they spoil it, else the number of
    its pre-placed squares they fill; the product of the word multipliers under
    the new squares they fill, which the row's score counted under new tiles
    and which under the play's tiles no longer count). ``reduce`` gets the new
    squares filled."""
    for offset in range(length):
        filled[offset] = False
    realized = 0
    spent = 1.0
    for tile in range(tiles):
        square = tile_sq[tile]
        row = square // n
        col = square % n
        along = col if direction == 0 else row
        across = row if direction == 0 else col
        if across == line and start <= along < start + length:
            offset = along - start
            code = codes[offset]
            if code & (NEW | PRE) != 0 and (code & LETTER) - 1 == tile_lt[tile]:
                filled[offset] = True
                if code & PRE:
                    realized += 1
                else:
                    reduce[tile_lt[tile]] += 1
                    spent *= square_wm[square]
            else:
                return -1, spent
    for tile in range(tiles):
        square = tile_sq[tile]
        row = square // n
        col = square % n
        along = col if direction == 0 else row
        across = row if direction == 0 else col
        if across == line:
            if along == start - 1 or along == start + length:
                return -1, spent
        elif across == line - 1 or across == line + 1:
            if start <= along < start + length:
                offset = along - start
                if codes[offset] & (NEW | PRE) != 0 and not filled[offset]:
                    return -1, spent
    return realized, spent


@njit(cache=True, inline="always")
def _after_play(
    play, row, tile_sq, tile_lt, tile_n, d_arr, line_arr, start_arr, len_arr, codes,
    need_letter, need_count, need_k, have, table3, probs, horizon, log_fact, n, general,
    reduce, filled, letters, counts, square_wm,
):  # fmt: skip
    """(the pre-placed squares of ``row`` that ``play`` fills, or -1 if it
    spoils the row; the chance of the row's letters still missing after it,
    divided by the word multipliers the play spends of the row's)."""
    for letter in range(26):
        reduce[letter] = 0
    got, spent = _interplay(
        tile_sq[play], tile_lt[play], tile_n[play], d_arr[row], line_arr[row], start_arr[row],
        len_arr[row], codes[row], n, reduce, filled, square_wm,
    )  # fmt: skip
    if got < 0:
        return got, 0.0
    chance = _probability(
        need_letter[row], need_count[row], need_k[row], reduce, have, table3, probs, horizon,
        log_fact, general, letters, counts,
    )  # fmt: skip
    return got, chance / spent


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
    horizon,
    log_fact,
    n,
    skip_line,
    square_wm,
):
    """Per play: (best open row value, its row, best advanced setup value, its
    row, best advanced target-line value). ``skip_line[d, line]``: prospect
    rows of these lines are ignored (they are searched again after the play).
    ``lvals`` (leaves x rows) holds the rows' values against each leave, or
    UNKNOWN: a value is computed when a walk first reads it (the walks stop
    early, so most are never needed) and kept for the next call."""
    moves = tile_n.shape[0]
    best = np.zeros(moves, dtype=np.float64)
    best_row = np.full(moves, -1, dtype=np.int64)
    real = np.zeros(moves, dtype=np.float64)
    real_row = np.full(moves, -1, dtype=np.int64)
    table_real = np.zeros(moves, dtype=np.float64)
    no_reduce = np.zeros(26, dtype=np.int64)
    reduce = np.zeros(26, dtype=np.int64)
    letters = np.empty(9, dtype=np.int64)
    counts = np.empty(9, dtype=np.int64)
    filled = np.zeros(64, dtype=np.bool_)
    seen_by = np.full(score.shape[0], -1, dtype=np.int64)
    foot_words = foot.shape[1]
    for play in range(moves):
        have = haves[leave_idx[play]]
        top = 0.0
        top_row = -1
        for rank in range(order.shape[0]):
            row = order[rank]
            if upper[row] <= top:
                break
            if weight[row] >= 1.0 and skip_line[d_arr[row], line_arr[row]]:
                continue
            touch = False
            for chunk in range(foot_words):
                if stamp[play, chunk] & foot[row, chunk]:
                    touch = True
                    break
            if not touch:
                value = lvals[leave_idx[play], row]
                if np.isnan(value):
                    value = _row_value(
                        row, have, no_reduce, need_letter, need_count, need_k, score, pre,
                        weight, kind, table3, probs, horizon, log_fact, letters, counts,
                    )  # fmt: skip
                    lvals[leave_idx[play], row] = value
                if value > top:
                    top = value
                    top_row = row
                continue
            if weight[row] < 1.0:
                continue  # a setup row the play touches: valued in the pass below
            got, chance = _after_play(
                play, row, tile_sq, tile_lt, tile_n, d_arr, line_arr, start_arr, len_arr, codes,
                need_letter, need_count, need_k, have, table3, probs, horizon, log_fact, n, False,
                reduce, filled, letters, counts, square_wm,
            )  # fmt: skip
            if got < 0:
                continue
            value = score[row] * chance
            if value > top:
                top = value
                top_row = row
        best[play] = top
        best_row[play] = top_row
        # setup rows this play advances (found through its tiles' squares and
        # letters): they count in full
        setup_top = 0.0
        setup_row = -1
        table_top = 0.0
        for tile in range(tile_n[play]):
            key = tile_sq[play, tile] * 26 + tile_lt[play, tile]
            at = np.searchsorted(pre_key, key)
            while at < pre_key.shape[0] and pre_key[at] == key:
                row = pre_row[at]
                at += 1
                if seen_by[row] == play:
                    continue
                seen_by[row] = play
                got, chance = _after_play(
                    play, row, tile_sq, tile_lt, tile_n, d_arr, line_arr, start_arr, len_arr, codes,
                    need_letter, need_count, need_k, have, table3, probs, horizon, log_fact, n,
                    kind[row] == TABLE, reduce, filled, letters, counts, square_wm,
                )  # fmt: skip
                if got <= 0:
                    continue
                value = score[row] * chance * PRE_FACTOR ** (pre[row] - got)
                if value > setup_top:
                    setup_top = value
                    setup_row = row
                if kind[row] == TABLE and value > table_top:
                    table_top = value
        real[play] = setup_top
        real_row[play] = setup_row
        table_real[play] = table_top
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


def best_row_values(
    haves: np.ndarray,
    rows: Rows,
    order: np.ndarray,
    upper: np.ndarray,
    excluded: np.ndarray,
    table3: np.ndarray,
    probs: np.ndarray,
    unknown: int,
    at_least: float = 0.0,
) -> np.ndarray:
    """``best_values`` of ``rows``: per hand-plus-visible in ``haves``, the
    best value of a row not ``excluded``, or ``at_least`` if none is worth
    more; ``order`` sorts ``upper`` (``upper_bounds``) falling. The same as
    the maximum of ``at_least`` and ``row_values`` over those rows, without
    valuing the rows that cannot reach it."""
    values: np.ndarray = best_values(
        haves,
        at_least,
        order,
        upper,
        excluded,
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


def top_rows(
    have: np.ndarray,
    rows: Rows,
    count: int,
    table3: np.ndarray,
    probs: np.ndarray,
    unknown: int,
) -> np.ndarray:
    """The indices of the ``count`` rows of most value against ``have``, in
    the order a stable sort of every row's value gives them."""
    upper = upper_bounds(rows)
    found: np.ndarray = best_rows(
        have,
        np.argsort(-upper, kind="stable"),
        upper,
        count,
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
    return found


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
    square_wm: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``move_values`` of the plays ``tiles`` (squares, letters, counts,
    stamps: ``rows.play_tiles``) against ``rows``; ``pre`` is the rows'
    ``pre_index``; ``square_wm`` the word multiplier of each square."""
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
        square_wm,
    )
    return found


@njit(cache=True)
def pre_index(d_arr, line_arr, start_arr, len_arr, codes, n):
    """(keys, rows): square * 26 + letter of every pre-placed square, sorted."""
    total = 0
    for row in range(d_arr.shape[0]):
        for offset in range(len_arr[row]):
            if codes[row, offset] & PRE:
                total += 1
    keys = np.empty(total, dtype=np.int64)
    rows = np.empty(total, dtype=np.int64)
    at = 0
    for row in range(d_arr.shape[0]):
        for offset in range(len_arr[row]):
            if codes[row, offset] & PRE:
                along = start_arr[row] + offset
                square = line_arr[row] * n + along if d_arr[row] == 0 else along * n + line_arr[row]
                keys[at] = square * 26 + (codes[row, offset] & LETTER) - 1
                rows[at] = row
                at += 1
    order = np.argsort(keys, kind="mergesort")
    return keys[order], rows[order]


@njit(cache=True)
def window_products(cells, wm, span):
    """win[row, col]: the largest product of empty word multipliers over the
    runs of ``span`` squares through the square, across or down."""
    n = cells.shape[1]
    win = np.ones((n, n), dtype=np.int64)
    span = min(span, n)
    for direction in range(2):
        for line in range(n):
            for first in range(n - span + 1):
                product = 1
                for along in range(first, first + span):
                    if cells[direction, line, along] == 0:
                        product *= wm[direction, line, along]
                for along in range(first, first + span):
                    row, col = (line, along) if direction == 0 else (along, line)
                    if product > win[row, col]:
                        win[row, col] = product
    return win


@njit(cache=True)
def waste_penalties(
    tile_sq, tile_n, wm_flat, win, decay, per_tile, scores, letter_sum, sum_weight, sum_cap
):
    """pen(m): what a play costs beyond its tiles, x decay:

    * the product a square could still make: win(c) for each word-multiplier
      square m covers while m's own product is under half of win(c);
    * the letters it puts under its multipliers: a product P spent on a word
      scoring under ``letter_sum`` points a unit of P (about what a whole-hand
      word's letters make) costs ``sum_weight`` x the shortfall x min(P,
      ``sum_cap``);

    + per_tile x tiles placed. ``scores`` (float, per play) are the plays'
    scores; ``sum_weight`` 0 leaves the second term out."""
    moves = tile_n.shape[0]
    n = win.shape[0]
    pen = np.zeros(moves, dtype=np.float64)
    for play in range(moves):
        product = 1
        for tile in range(tile_n[play]):
            product *= wm_flat[tile_sq[play, tile]]
        total = 0.0
        for tile in range(tile_n[play]):
            square = tile_sq[play, tile]
            if wm_flat[square] > 1:
                window = win[square // n, square % n]
                if 2 * product < window:
                    total += window
        if product > 1 and sum_weight > 0:
            short = letter_sum - scores[play] / product
            if short > 0:
                total += sum_weight * short * min(product, sum_cap)
        pen[play] = total * decay + per_tile * tile_n[play]
    return pen
