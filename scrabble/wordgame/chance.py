"""The chance that missing letters arrive: i.i.d. draws with the published
probabilities, so the counts of a horizon of h draws are multinomial.

P(for every missing letter l: at least c_l of h draws are l) by
inclusion-exclusion over the letters that fall short: for a set S of them,
P(X_l < c_l for l in S) sums the multinomial over the (few) short counts.
Visible tiles are certain and are taken off the need by the caller.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

MAX_HORIZON = 512
LOG_FACT = np.array([math.lgamma(k + 1) for k in range(MAX_HORIZON + 1)], dtype=np.float64)
NONE = 26  # the "no letter" slot of the three-letter table


@njit(cache=True)
def p_cover(letters, counts, k, probs, h, log_fact):
    """P(every letter letters[i] (i < k) arrives counts[i] times or more in h draws)."""
    total = 0
    for i in range(k):
        total += counts[i]
    if total == 0:
        return 1.0
    if total > h:
        return 0.0
    result = 0.0
    xs = np.zeros(k, dtype=np.int64)
    for subset in range(1 << k):
        size = 0
        p_rest = 1.0
        for i in range(k):
            if (subset >> i) & 1:
                size += 1
                p_rest -= probs[letters[i]]
        if p_rest < 0.0:
            p_rest = 0.0
        # sum over x_i in [0, c_i) for i in S of the multinomial probability
        term = 0.0
        for i in range(k):
            xs[i] = 0
        while True:
            used = 0
            logp = 0.0
            for i in range(k):
                if (subset >> i) & 1:
                    used += xs[i]
                    if xs[i] > 0:
                        logp += xs[i] * math.log(probs[letters[i]]) - log_fact[xs[i]]
            if used <= h:
                rest = h - used
                if rest == 0:
                    term += math.exp(logp + log_fact[h])
                elif p_rest > 0.0:
                    term += math.exp(logp + log_fact[h] - log_fact[rest] + rest * math.log(p_rest))
            # next combination (odometer over the letters in S)
            i = 0
            while i < k:
                if (subset >> i) & 1:
                    xs[i] += 1
                    if xs[i] < counts[i]:
                        break
                    xs[i] = 0
                i += 1
            if i == k:
                break
        result += -term if size % 2 else term
    if result < 0.0:
        return 0.0
    if result > 1.0:
        return 1.0
    return result


@njit(cache=True)
def p_missing(missing, probs, h, log_fact):
    """P(the 26-count multiset ``missing`` arrives within h draws)."""
    letters = np.empty(26, dtype=np.int64)
    counts = np.empty(26, dtype=np.int64)
    k = 0
    for i in range(26):
        if missing[i] > 0:
            letters[k] = i
            counts[k] = missing[i]
            k += 1
    return p_cover(letters, counts, k, probs, h, log_fact)


@njit(cache=True)
def three_letter_table(probs, h, log_fact):
    """table[a, b, c] (a <= b <= c, 26 = none): P(the missing letters a, b, c
    arrive within h draws), for every need of up to three letters."""
    table = np.zeros((27, 27, 27), dtype=np.float64)
    letters = np.empty(3, dtype=np.int64)
    counts = np.empty(3, dtype=np.int64)
    for a in range(27):
        for b in range(a, 27):
            for c in range(b, 27):
                k = 0
                for x in (a, b, c):
                    if x == NONE:
                        continue
                    if k > 0 and letters[k - 1] == x:
                        counts[k - 1] += 1
                    else:
                        letters[k] = x
                        counts[k] = 1
                        k += 1
                table[a, b, c] = p_cover(letters, counts, k, probs, h, log_fact)
    return table
