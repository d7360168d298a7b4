"""Draw probabilities from the unseen pool, exact, without replacement.

The unseen pool is the tile set minus the board minus the rack (what the bag
and the opponent hold together); a draw of ``d`` tiles is a uniformly random
``d``-subset of it. Everything here is integer combinatorics (``math.comb``)
turned into a float only at the end, so results equal enumeration exactly.

* ``p_at_least_one(N, K, d)`` -- hypergeometric P(X >= 1) = 1 - C(N-K, d)/C(N, d).
* ``p_draw_all(pool, need, d)`` -- the multivariate case: the draw holds at least
  ``need[l]`` of every letter l, where any shortfall may be covered by blanks
  drawn (blanks substitute for any letter). ``need[26]`` asks for blanks
  themselves (they must be drawn as blanks and are not free substitutes).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from scrabble.tiles import BLANK


def p_at_least_one(total: int, good: int, draws: int) -> float:
    """P(at least one of ``good`` tiles among ``draws`` drawn from ``total``)."""
    draws = min(draws, total)
    if good <= 0 or draws <= 0:
        return 0.0
    return 1.0 - comb(total - good, draws) / comb(total, draws)


def _ways_all(pool: tuple[int, ...], need: tuple[int, ...], draws: int) -> int:
    """Number of ``draws``-subsets of the pool meeting the need (blanks substitute).

    Dynamic programme over the needed letters: state (tiles taken, shortfall);
    a letter's count x contributes C(K, x) ways and max(0, need - x) shortfall.
    The blanks then take b tiles with C(B, b) ways (success when b covers the
    blanks needed plus the shortfall) and every other tile fills the rest.
    """
    letters = [i for i in range(26) if need[i] > 0]
    blanks = pool[BLANK]
    need_blanks = need[BLANK]
    others = sum(pool[i] for i in range(26) if need[i] == 0)
    max_short = sum(need[i] for i in letters)
    # dp[t][s] = ways to pick t tiles among the needed letters with shortfall s
    dp = [[0] * (max_short + 1) for _ in range(draws + 1)]
    dp[0][0] = 1
    for i in letters:
        k, n = pool[i], need[i]
        nxt = [[0] * (max_short + 1) for _ in range(draws + 1)]
        for t in range(draws + 1):
            for s in range(max_short + 1):
                w = dp[t][s]
                if not w:
                    continue
                for x in range(0, min(k, draws - t) + 1):
                    s2 = s + max(0, n - x)
                    nxt[t + x][s2] += w * comb(k, x)
        dp = nxt
    total = 0
    for t in range(draws + 1):
        for s in range(max_short + 1):
            w = dp[t][s]
            if not w:
                continue
            for b in range(need_blanks + s, min(blanks, draws - t) + 1):
                total += w * comb(blanks, b) * comb(others, draws - t - b)
    return total


@lru_cache(maxsize=65536)
def _p_all_cached(pool: tuple[int, ...], need: tuple[int, ...], draws: int) -> Fraction:
    n = sum(pool)
    draws = min(draws, n)
    if sum(need) == 0:
        return Fraction(1)
    if draws <= 0:
        return Fraction(0)
    return Fraction(_ways_all(pool, need, draws), comb(n, draws))


def p_draw_all_exact(pool: np.ndarray, need: np.ndarray, draws: int) -> Fraction:
    """Exact P(the draw covers ``need``), as a fraction."""
    return _p_all_cached(tuple(int(x) for x in pool), tuple(int(x) for x in need), int(draws))


def p_draw_all(pool: np.ndarray, need: np.ndarray, draws: int) -> float:
    """P(``draws`` tiles from ``pool`` hold ``need``, blanks standing in for letters)."""
    return float(p_draw_all_exact(pool, need, draws))
