"""Place value Phi (the write-up's section 5).

A place is a board tile with no tile beside it along a line, and a window of
T + 1 squares on that line holding it, whose other T squares, their
perpendicular neighbours and the squares just outside the window are empty:
a spot where a whole fresh hand could go through that one letter. Its value
is S[letter][i] (the letter at offset i of the window) x the product of the
word multipliers on the T empty squares, where S[l][i] sums, over the words
of length T + 1 with l at i, the chance that T fresh tiles are exactly the
word's other letters times the word's letter-value sum. Phi is the sum over
every place on the board.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from scrabble.wordgame.chance import LOG_FACT
from scrabble.wordgame.wordbank import bank_for


@njit(cache=True)
def letter_position_table(matrix, lengths, length, probs, values, log_fact):
    """S[l, i] for the words of ``length`` letters (matrix rows of codes 1..26)."""
    t = length - 1
    table = np.zeros((26, length), dtype=np.float64)
    logp = np.log(probs)
    counts = np.zeros(26, dtype=np.int64)
    for w in range(matrix.shape[0]):
        if lengths[w] != length:
            continue
        for lt in range(26):
            counts[lt] = 0
        total = 0
        for i in range(length):
            lt = matrix[w, i] - 1
            counts[lt] += 1
            total += values[lt]
        for i in range(length):
            lt = matrix[w, i] - 1
            counts[lt] -= 1
            lp = log_fact[t]
            for x in range(26):
                if counts[x] > 0:
                    lp += counts[x] * logp[x] - log_fact[counts[x]]
            counts[lt] += 1
            table[lt, i] += np.exp(lp) * total
    return table


@njit(cache=True)
def place_value(cells, wm, table, t):
    """Phi of a board: (2, n, n) line cells and word multipliers."""
    n = cells.shape[1]
    total = 0.0
    for d in range(2):
        for r in range(n):
            for c in range(n):
                code = cells[d, r, c]
                if code == 0:
                    continue
                if (c > 0 and cells[d, r, c - 1] != 0) or (c < n - 1 and cells[d, r, c + 1] != 0):
                    continue
                lt = (code & 31) - 1
                for i in range(t + 1):
                    a = c - i
                    b = a + t
                    if a < 0 or b >= n:
                        continue
                    if (a > 0 and cells[d, r, a - 1] != 0) or (
                        b < n - 1 and cells[d, r, b + 1] != 0
                    ):
                        continue
                    ok = True
                    prod = 1.0
                    for x in range(a, b + 1):
                        if x == c:
                            continue
                        if cells[d, r, x] != 0:
                            ok = False
                            break
                        if (r > 0 and cells[d, r - 1, x] != 0) or (
                            r < n - 1 and cells[d, r + 1, x] != 0
                        ):
                            ok = False
                            break
                        prod *= wm[d, r, x]
                    if ok:
                        total += table[lt, i] * prod
    return total


def place_table(lexicon: Any, hand_size: int, probs: np.ndarray, values: np.ndarray) -> np.ndarray:
    bank = bank_for(lexicon)
    table: np.ndarray = letter_position_table(
        bank.matrix, bank.lengths, hand_size + 1, probs, values[:26].astype(np.int64), LOG_FACT
    )
    return table
