"""A row's value against a hand, and the walks that find the best without
valuing every row.

A row's value is score x P(its missing letters arrive in the horizon) x
weight x PRE_FACTOR^(pre-placed squares still empty), at most its bound (the
same with the chance 1: ``upper_bounds``). The players read row values only
through a maximum or a top K, so the walks here take the rows in falling order
of the bound and stop where no row left can reach the best found: the same
numbers as valuing every row (``row_values``, the obvious way, which the tests
check them against).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.wordgame.chance import LOG_FACT, NONE, p_cover
from scrabble.wordgame.rows import PRE_FACTOR, TABLE, Rows
from scrabble.wordgame.search import keep_value

MAX_GENERAL_MISSING = 6  # beyond this a target-line entry counts 0 (bounds the cost)
# a bound from NumPy and a value from a kernel may round apart in the last bits:
# a walk stops only where the bound, so widened, cannot reach the best found
BOUND_SLACK = 1.0 + 1e-9
UNKNOWN = np.nan  # a leave's value of a row not computed yet (``move_values`` fills it)


@njit(cache=True, inline="always")
def arrival_chance(
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
def value_against(
    row, have, no_reduce, need_letter, need_count, need_k, score, pre, weight, kind, table3,
    probs, horizon, log_fact, letters, counts,
):  # fmt: skip
    """Row ``row``'s value against ``have``, a hand plus the visible tiles."""
    chance = arrival_chance(
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
            out[hand, row] = value_against(
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
            value = value_against(
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
    heap = np.empty(count, dtype=np.float64)  # the ``count`` best values found
    kept = 0
    for rank in range(order.shape[0]):
        row = order[rank]
        # strict: a row of the same value and a lower index would still enter
        if kept == count and upper[row] * BOUND_SLACK < heap[0]:
            break
        value = value_against(
            row, have, no_reduce, need_letter, need_count, need_k, score, pre, weight, kind,
            table3, probs, horizon, log_fact, letters, counts,
        )  # fmt: skip
        found_row[found] = row
        found_value[found] = value
        found += 1
        kept = keep_value(heap, kept, value)
    rows = found_row[:found]
    values = found_value[:found]
    by_index = np.argsort(rows)
    rows = rows[by_index]
    values = values[by_index]
    best = np.argsort(-values, kind="mergesort")[:count]
    return rows[best]


def upper_bounds(rows: Rows) -> np.ndarray:
    """Each row's value if its missing letters surely arrived: the bound the
    per-play walk stops on."""
    bounds: np.ndarray = rows.score * rows.weight * PRE_FACTOR**rows.pre
    return bounds


ValueArrays = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]


def _value_arrays(rows: Rows) -> ValueArrays:
    """The arrays of ``rows`` a row's value reads, in the kernels' order."""
    return (
        rows.need_letter,
        rows.need_count,
        rows.need_k,
        rows.score,
        rows.pre,
        rows.weight,
        rows.kind,
    )


def falling_bounds(rows: Rows) -> tuple[np.ndarray, np.ndarray]:
    """(each row's bound, ``upper_bounds``; the rows by falling bound, a
    stable sort): what a walk to the best takes."""
    upper = upper_bounds(rows)
    return upper, np.argsort(-upper, kind="stable").astype(np.int64)


def row_values(
    haves: np.ndarray, rows: Rows, table3: np.ndarray, probs: np.ndarray, unknown: int
) -> np.ndarray:
    """``leave_values`` of ``rows``: (L, R), each row against each hand-plus-
    visible in ``haves``; the one place a ``Rows`` becomes the kernel's arrays."""
    values: np.ndarray = leave_values(
        haves,
        *_value_arrays(rows),
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
        *_value_arrays(rows),
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
    upper, order = falling_bounds(rows)
    found: np.ndarray = best_rows(
        have,
        order,
        upper,
        count,
        *_value_arrays(rows),
        table3,
        probs,
        unknown,
        LOG_FACT,
    )
    return found
