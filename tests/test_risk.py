"""Adversarial risk: opening a triple-word lane costs; output is seeded and exact where claimed."""

from __future__ import annotations

import numpy as np

from scrabble.equity import risk
from scrabble.equity.draw import p_draw_all
from scrabble.position import make_position
from scrabble.tiles import rack_counts
from tests.heuristic_boards import board_with

CENTRE = [(7, 4, "across", "STONE")]
# ANIMATES down column E from row 1 to the S of STONE: a tile on the top row,
# which opens across plays on row 1 reaching the triple-word squares 1A and 1H
LANE = CENTRE + [(0, 4, "down", "ANIMATE")]
CLOSED = CENTRE + [(8, 4, "down", "EAT")]  # SEAT down, in the middle of the board


def assess(rows, trie, seed=3, samples=24):
    before = make_position(board_with(CENTRE), "V")
    after = make_position(rows, "V")
    pool = before.unseen().astype(np.int64)
    racks = risk.sample_racks(pool, 7, samples, seed)
    base, _ = risk.best_replies(before, racks, trie)
    baseline = int(round(base.mean() * 1000))
    new = set(np.nonzero(after.board != before.board)[0].tolist())
    return risk.assess(after, new, racks, baseline, pool, trie, cvar_share_pct=10), new, pool


def squares_of(notation: str) -> tuple[list[tuple[int, int]], list[str]]:
    """Squares of a reply's main word and the letters it places, read back from
    its notation (an independent reading of what the move is)."""
    coordinate, word = notation.split()
    across = coordinate[0].isdigit()
    number = int("".join(ch for ch in coordinate if ch.isdigit())) - 1
    column = "ABCDEFGHIJKLMNO".index(next(ch for ch in coordinate if ch.isalpha()))
    row, col = (number, column) if across else (number, column)
    squares, placed, inside = [], [], False
    k = 0
    for ch in word:
        if ch in "()":
            inside = ch == "("
            continue
        squares.append((row, col + k) if across else (row + k, col))
        if not inside:
            placed.append(ch)
        k += 1
    return squares, placed


def test_opening_a_triple_word_lane_is_riskier(trie):
    (lane, new, pool), (closed, _, _) = (
        assess(board_with(LANE), trie),
        assess(board_with(CLOSED), trie),
    )
    assert lane.risk > closed.risk
    assert lane.risk > 5_000  # several points of expected extra reply
    assert lane.cvar10 >= lane.expected
    assert len(lane.threats) == 3
    ev = [t.score * t.probability for t in lane.threats]
    assert ev == sorted(ev, reverse=True)
    new_squares = {(sq // 15, sq % 15) for sq in new}
    for threat in lane.threats:
        squares, placed = squares_of(threat.notation)
        # a threat plays through our new tiles or puts a tile beside one
        near = {
            (r + dr, c + dc)
            for r, c in squares
            for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))
        }
        assert near & new_squares, threat.notation
        # its probability is that of 7 tiles from the pool holding its tiles
        need = np.zeros(27, dtype=np.int64)
        for ch in placed:
            need[26 if ch.islower() else ord(ch) - 65] += 1
        assert threat.probability == round(p_draw_all(pool, need, 7), 6), threat.notation


def test_sampling_is_seeded():
    pool = rack_counts("AAEEIIOONNRRSSTT?").astype(np.int64)
    a = risk.sample_racks(pool, 7, 5, seed=9)
    b = risk.sample_racks(pool, 7, 5, seed=9)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert all(int(r.sum()) == 7 for r in a)
    assert not all(
        (x == y).all() for x, y in zip(a, risk.sample_racks(pool, 7, 5, 10), strict=True)
    )


def test_tail_mean_is_the_top_ten_percent():
    values = np.arange(20)
    assert risk.tail_mean(values, 10) == 18.5  # the top 2 of 20
    assert risk.tail_mean(np.array([5, 1]), 10) == 5.0  # at least one sample


def test_threat_probability_is_the_exact_draw_probability():
    pool = rack_counts("ZAEIOU?").astype(np.int64)
    need = rack_counts("ZA").astype(np.int64)
    # 7 tiles from a 7-tile pool: certain
    assert p_draw_all(pool, need, 7) == 1.0
