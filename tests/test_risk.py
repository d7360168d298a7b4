"""Adversarial risk: opening a triple-word lane costs; output is seeded and exact where claimed."""

from __future__ import annotations

import numpy as np

from scrabble.heuristics import risk
from scrabble.heuristics.draw import p_draw_all
from scrabble.position import make_position
from scrabble.tiles import rack_counts
from tests.heuristic_boards import board_with

CENTRE = [(7, 4, "across", "STONE")]
# ANIMATES down column E from row 1 to the S of STONE: a tile on the top row,
# which opens across plays on row 1 reaching the triple-word squares 1A and 1H
LANE = CENTRE + [(0, 4, "down", "ANIMATE")]
CLOSED = CENTRE + [(8, 4, "down", "EAT")]  # SEAT down, in the middle of the board


def assess(rows, lexicon, seed=3, samples=24):
    before = make_position(board_with(CENTRE), "V")
    pos = make_position(rows, "V")
    pool = before.unseen().astype(np.int64)
    racks = risk.sample_racks(pool, 7, samples, seed)
    base, _ = risk.best_replies(before.board, racks, before, lexicon)
    baseline = int(round(base.mean() * 1000))
    new = set(np.nonzero(pos.board != before.board)[0].tolist())
    return risk.assess(pos.board, new, racks, baseline, pool, before, lexicon)


def test_opening_a_triple_word_lane_is_riskier(lexicon):
    lane, closed = assess(board_with(LANE), lexicon), assess(board_with(CLOSED), lexicon)
    assert lane.risk > closed.risk
    assert lane.risk > 5_000  # several points of expected extra reply
    assert lane.cvar10 >= lane.expected
    assert len(lane.threats) == 3
    # threats are replies touching the new tiles, with exact probabilities
    assert all(0 < t.probability <= 1 for t in lane.threats)
    ev = [t.score * t.probability for t in lane.threats]
    assert ev == sorted(ev, reverse=True)


def test_sampling_is_seeded():
    pool = rack_counts("AAEEIIOONNRRSSTT?").astype(np.int64)
    a = risk.sample_racks(pool, 7, 5, seed=9)
    b = risk.sample_racks(pool, 7, 5, seed=9)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert all(int(r.sum()) == 7 for r in a)
    assert not all((x == y).all() for x, y in zip(a, risk.sample_racks(pool, 7, 5, 10),
                                                   strict=True))


def test_tail_mean_is_the_top_ten_percent():
    values = np.arange(20)
    assert risk.tail_mean(values) == 18.5  # the top 2 of 20
    assert risk.tail_mean(np.array([5, 1])) == 5.0  # at least one sample


def test_threat_probability_is_the_exact_draw_probability():
    pool = rack_counts("ZAEIOU?").astype(np.int64)
    need = rack_counts("ZA").astype(np.int64)
    # 7 tiles from a 7-tile pool: certain
    assert p_draw_all(pool, need, 7) == 1.0
