"""The exact chances: multinomial coverage against a direct sum, and the slot
keep table against enumerating every refill."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from scrabble.wordgame.chance import LOG_FACT, p_missing, three_letter_table
from scrabble.wordgame.slots import fresh_chance, keep_table

PROBS = np.full(26, 0.5 / 23)
PROBS[0], PROBS[4], PROBS[18] = 0.2, 0.2, 0.1  # A, E, S


def direct(need: dict[int, int], h: int) -> float:
    """Sum of the multinomial over the counts of the needed letters (the rest
    pooled), each at least its need."""
    letters = sorted(need)
    rest = 1 - sum(PROBS[i] for i in letters)
    total = 0.0
    for xs in itertools.product(*(range(need[i], h + 1) for i in letters)):
        if sum(xs) > h:
            continue
        left = h - sum(xs)
        coef = math.factorial(h) / math.factorial(left)
        p = rest**left
        for i, x in zip(letters, xs, strict=True):
            coef /= math.factorial(x)
            p *= PROBS[i] ** x
        total += coef * p
    return total


@pytest.mark.parametrize(
    "need,h",
    [
        ({0: 1}, 5),
        ({0: 2, 4: 1}, 6),
        ({0: 1, 4: 1, 18: 1}, 4),
        ({25: 3}, 10),
        ({0: 1, 25: 2}, 3),
        ({4: 2}, 1),
    ],
)
def test_multinomial_coverage_equals_direct_sum(need, h):
    missing = np.zeros(26, dtype=np.int64)
    for i, c in need.items():
        missing[i] = c
    assert p_missing(missing, PROBS, h, LOG_FACT) == pytest.approx(direct(need, h), abs=1e-12)


def test_three_letter_table_matches():
    table = three_letter_table(PROBS, 7, LOG_FACT)
    assert table[0, 4, 18] == pytest.approx(direct({0: 1, 4: 1, 18: 1}, 7), abs=1e-12)
    assert table[0, 0, 26] == pytest.approx(direct({0: 2}, 7), abs=1e-12)
    assert table[26, 26, 26] == 1.0


def counts(word: str) -> np.ndarray:
    out = np.zeros(26, dtype=np.int64)
    for ch in word:
        out[ord(ch) - 65] += 1
    return out


def test_keep_table_equals_enumerating_every_refill():
    t = 4
    family = ["SEAS", "EASE", "ABET", "ZEES"]
    needs = np.stack([counts(w) for w in family]).astype(np.uint8)
    scores = np.array([10, 20, 30, 40], dtype=np.int64)
    hand = counts("AESZ")
    visible = "E"
    radix = np.zeros(26, dtype=np.int64)
    stride = 1
    for lt in range(26):
        if hand[lt]:
            radix[lt] = stride
            stride *= int(hand[lt]) + 1
    known = np.zeros((t + 1, 26), dtype=np.int64)
    for u in range(1, t + 1):
        known[u] = known[u - 1]
        if u <= len(visible):
            known[u, ord(visible[u - 1]) - 65] += 1
    p1, s1, _ = keep_table(needs, scores, hand, radix, known, np.log(PROBS), LOG_FACT, t)
    keys = {tuple(n): int(s) for n, s in zip(needs.tolist(), scores, strict=True)}
    for keep in itertools.product(*(range(int(hand[lt]) + 1) for lt in range(26))):
        keep_c = np.array(keep)
        u = t - int(keep_c.sum())
        base = keep_c + known[u]
        unknown = u - int(known[u].sum())
        p = s = 0.0
        for draw in itertools.product(range(26), repeat=unknown):
            got = base.copy()
            prob = 1.0
            for lt in draw:
                got[lt] += 1
                prob *= PROBS[lt]
            score = keys.get(tuple(got.tolist()))
            if score is not None:
                p += prob
                s += prob * score
        idx = int((keep_c * radix).sum())
        assert p1[idx] == pytest.approx(p, abs=1e-12)
        assert s1[idx] == pytest.approx(s, abs=1e-12)


def test_fresh_chance_is_the_sum_over_needs():
    needs = np.stack([counts("SEAS"), counts("EASE")]).astype(np.uint8)
    p, s = fresh_chance(needs, np.array([10, 20]), np.log(PROBS), LOG_FACT, 4)
    seas = 12 * 0.2 * 0.2 * 0.1**2  # 4!/2! orders of A, E, S, S
    ease = 12 * 0.2**2 * 0.1 * 0.2  # E, E, A, S
    assert p == pytest.approx(seas + ease) and s == pytest.approx(10 * seas + 20 * ease)
