"""Draw probabilities equal brute-force enumeration of every draw."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble.equity.draw import p_at_least_one, p_draw_all, p_draw_all_exact
from scrabble.tiles import BLANK, rack_counts


def brute(pool: np.ndarray, need: np.ndarray, d: int) -> Fraction:
    tiles = [i for i in range(27) for _ in range(int(pool[i]))]
    good = total = 0
    for draw in combinations(range(len(tiles)), min(d, len(tiles))):
        got = np.zeros(27, dtype=int)
        for j in draw:
            got[tiles[j]] += 1
        short = sum(max(0, int(need[i]) - got[i]) for i in range(26))
        ok = got[BLANK] >= int(need[BLANK]) + short
        good += ok
        total += 1
    return Fraction(good, total)


def test_at_least_one_matches_the_formula_and_enumeration():
    pool = rack_counts("AAEIOQX").astype(int)  # blank-free: "at least one A" exactly
    need = rack_counts("A").astype(int)
    for d in range(0, 8):
        expected = 0.0 if d == 0 else 1 - comb(5, d) / comb(7, d)
        assert abs(p_at_least_one(7, 2, d) - expected) < 1e-12
        assert abs(p_at_least_one(7, 2, d) - float(brute(pool, need, d))) < 1e-12
    assert p_at_least_one(86, 0, 7) == 0.0
    assert p_at_least_one(10, 10, 1) == 1.0


def test_ing_with_blanks_equals_enumeration():
    pool = rack_counts("IINNGGAE?XYZ").astype(int)
    need = rack_counts("ING").astype(int)
    for d in range(0, 8):
        assert p_draw_all_exact(pool, need, d) == brute(pool, need, d)
    # a blank can stand in for the missing G
    no_g = rack_counts("IINNAE?XY").astype(int)
    assert p_draw_all(no_g, need, 3) > 0
    assert p_draw_all(rack_counts("IINNAEXY").astype(int), need, 5) == 0.0


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    st.lists(st.integers(0, 3), min_size=5, max_size=5),
    st.integers(0, 2),
    st.lists(st.integers(0, 2), min_size=3, max_size=3),
    st.integers(0, 1),
    st.integers(0, 6),
)
def test_multivariate_equals_enumeration(letters, blanks, needs, need_blank, d):
    pool = np.zeros(27, dtype=int)
    pool[:5] = letters
    pool[BLANK] = blanks
    need = np.zeros(27, dtype=int)
    need[:3] = needs
    need[BLANK] = need_blank
    if pool.sum() == 0:
        return
    assert p_draw_all_exact(pool, need, d) == brute(pool, need, d)


def test_unseen_block_shape():
    from scrabble.moves import empty_moves
    from scrabble.notation import unseen_json
    from scrabble.position import Position
    from scrabble.rules import STANDARD_VALUES, Rules

    # a 3x3 game with a 5-tile set; the mover holds one A: A A E ? are unseen
    rules = Rules(
        name="tiny",
        size=3,
        premiums=("...",) * 3,
        letter_values=STANDARD_VALUES,
        tile_counts={"A": 3, "E": 1, "?": 1},
        rack_size=2,
    )
    position = Position(board=np.zeros(9, dtype=np.uint8), rack=rack_counts("A"), rules=rules)
    block = unseen_json(position, empty_moves(3), np.empty(0, dtype=np.intp))
    assert block["count"] == 4 and block["tiles"] == {"A": 2, "E": 1, "?": 1}
    assert set(block["p_at_least_one"]) == {"2"}  # no move: only a full rack's draw
    # two of the four: P(no A) = C(2, 2) / C(4, 2) = 1/6
    assert abs(block["p_at_least_one"]["2"]["A"] - (1 - 1 / 6)) < 1e-6
    assert block["p_at_least_one"]["2"]["E"] == 0.5
