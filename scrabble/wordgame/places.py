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
from scrabble.wordgame.search import LETTER
from scrabble.wordgame.wordbank import bank_for


@njit(cache=True)
def letter_position_table(matrix, lengths, length, probs, values, log_fact):
    """S[l, i] for the words of ``length`` letters (matrix rows of codes 1..26)."""
    hand_size = length - 1
    table = np.zeros((26, length), dtype=np.float64)
    logp = np.log(probs)
    counts = np.zeros(26, dtype=np.int64)
    for word in range(matrix.shape[0]):
        if lengths[word] != length:
            continue
        for lt in range(26):
            counts[lt] = 0
        total = 0
        for i in range(length):
            lt = matrix[word, i] - 1
            counts[lt] += 1
            total += values[lt]
        for i in range(length):
            lt = matrix[word, i] - 1
            counts[lt] -= 1
            # log P(a fresh hand is exactly the word less this letter): multinomial
            log_p = log_fact[hand_size]
            for other in range(26):
                if counts[other] > 0:
                    log_p += counts[other] * logp[other] - log_fact[counts[other]]
            counts[lt] += 1
            table[lt, i] += np.exp(log_p) * total
    return table


@njit(cache=True)
def place_value(cells, wm, table, t):
    """Phi of a board: (2, n, n) line cells and word multipliers."""
    n = cells.shape[1]
    total = 0.0
    for d in range(2):
        for line in range(n):
            lane = cells[d, line]
            for square in range(n):
                code = lane[square]
                if code == 0:
                    continue
                if (square > 0 and lane[square - 1] != 0) or (
                    square < n - 1 and lane[square + 1] != 0
                ):
                    continue
                lt = (code & LETTER) - 1
                for i in range(t + 1):  # the letter at position i of the place
                    first = square - i
                    last = first + t
                    if first < 0 or last >= n:
                        continue
                    if (first > 0 and lane[first - 1] != 0) or (
                        last < n - 1 and lane[last + 1] != 0
                    ):
                        continue
                    ok = True
                    prod = 1.0
                    for other in range(first, last + 1):
                        if other == square:
                            continue
                        if lane[other] != 0:
                            ok = False
                            break
                        if (line > 0 and cells[d, line - 1, other] != 0) or (
                            line < n - 1 and cells[d, line + 1, other] != 0
                        ):
                            ok = False
                            break
                        prod *= wm[d, line, other]
                    if ok:
                        total += table[lt, i] * prod
    return total


def place_table(lexicon: Any, hand_size: int, probs: np.ndarray, values: np.ndarray) -> np.ndarray:
    bank = bank_for(lexicon)
    table: np.ndarray = letter_position_table(
        bank.matrix, bank.lengths, hand_size + 1, probs, values[:26].astype(np.int64), LOG_FACT
    )
    return table
