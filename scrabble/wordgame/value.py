"""Action values against prospect rows (the write-up's sections 1-3).

For a play m: score(m) - pen(m) + the best value of a row that m leaves open,
counted against the hand m leaves plus the visible tiles, + the best value of
a setup row m itself advances. For a discard: -D + the best row value against
the hand it keeps (``row_value``, which also values the rows).

Per play the kernel walks the rows in falling order of their best possible
value and stops when none can beat the best found; a leave's value of a row
(the same for every play that leaves that hand) is computed when a walk first
reads it and kept for the plays after.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.wordgame.chance import LOG_FACT
from scrabble.wordgame.row_value import arrival_chance, value_against
from scrabble.wordgame.rows import PRE, PRE_FACTOR, TABLE, Rows
from scrabble.wordgame.search import LETTER, NEW


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
    chance = arrival_chance(
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
                    value = value_against(
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
