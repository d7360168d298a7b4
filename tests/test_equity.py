"""Equity: the sum of its terms, ranking modes, budget reporting, determinism, exchanges."""

from __future__ import annotations

import numpy as np

from scrabble.heuristics.equity import Options, evaluate
from scrabble.heuristics.exchange import best_exchange
from scrabble.heuristics.leave import leave_value, leaves_of
from scrabble.movegen import generate
from scrabble.moves import move_at
from scrabble.position import make_position
from scrabble.tiles import rack_counts
from tests.heuristic_boards import EMPTY_ROW, board_with

BOARD = board_with([(7, 4, "across", "STONE"), (3, 8, "down", "QUOTE")])


def run(lexicon, rack="AEIRSTV", **kw):
    pos = make_position(BOARD, rack)
    moves = generate(pos, lexicon)
    opts = Options(budget_ms=1e9, **kw)
    return pos, moves, evaluate(pos, moves, lexicon, opts, limit=10)


def test_equity_is_the_sum_of_its_terms(lexicon):
    _, _, ev = run(lexicon, adversarial=True, samples=6)
    for b in ev.breakdowns.values():
        assert b.equity == b.score + b.leave + b.prospect - b.premium_waste - b.risk
        assert all(isinstance(x, int) for x in (b.score, b.leave, b.prospect, b.risk))
    assert ev.evaluated == 4 and not ev.budget_cut
    assert sum(b.evaluated for b in ev.breakdowns.values()) == 4


def test_rank_by_equity_keeps_the_blank_where_score_spends_it(lexicon):
    rack = "GS?VWKI"
    pos, moves, ev = run(lexicon, rack=rack, prospects=False)
    _, _, by_score = run(lexicon, rack=rack, prospects=False, rank_by="score")
    top, first = int(ev.order[0]), int(by_score.order[0])
    assert int(moves.meta[first, 5]) == int(moves.scores.max())
    assert leaves_of(pos.rack, moves)[first][26] == 0  # the top scorer spends the blank
    assert leaves_of(pos.rack, moves)[top][26] == 1  # equity keeps it
    assert ev.breakdowns[top].equity > by_score.breakdowns[first].equity
    eq = [ev.breakdowns[int(i)].equity for i in ev.order]
    assert eq == sorted(eq, reverse=True)


def test_output_is_deterministic(lexicon):
    a = run(lexicon, adversarial=True, samples=6, risk="averse")[2]
    b = run(lexicon, adversarial=True, samples=6, risk="averse")[2]
    assert list(a.order) == list(b.order)
    assert {i: x.as_dict() for i, x in a.breakdowns.items()} == {
        i: x.as_dict() for i, x in b.breakdowns.items()}


def test_budget_cut_is_reported(lexicon):
    pos = make_position(BOARD, "AEIRSTV")
    moves = generate(pos, lexicon)
    ev = evaluate(pos, moves, lexicon, Options(budget_ms=0.0, max_moves=8), limit=5)
    assert ev.evaluated == 1 and ev.budget_cut  # at least one move is always evaluated


def test_averse_ranking_penalises_the_tail(lexicon):
    _, _, neutral = run(lexicon, adversarial=True, samples=6)
    _, _, averse = run(lexicon, adversarial=True, samples=6, risk="averse")
    for i, b in averse.breakdowns.items():
        if b.risk_detail is not None:
            assert b.risk_detail.cvar10 >= b.risk_detail.expected
            assert neutral.breakdowns[i].equity == b.equity  # equity itself is unchanged


def test_exchange_on_a_hopeless_rack(lexicon):
    pos = make_position([EMPTY_ROW] * 15, "QVVWWUU")
    moves = generate(pos, lexicon)
    ev = evaluate(pos, moves, lexicon, Options(budget_ms=1e9))
    ex = ev.exchange
    assert ex is not None
    best_play = max((b.equity for b in ev.breakdowns.values()), default=-(10**9))
    assert ex.equity > best_play  # fishing beats playing this rack
    assert ex.throw[ord("Q") - 65] == 1 and ex.throw[ord("V") - 65] == 2
    assert ex.equity == leave_value(ex.keep) + ex.prospect and ex.prospect >= 0
    assert int(ex.throw.sum() + ex.keep.sum()) == 7


def test_no_exchange_with_a_short_bag():
    assert best_exchange(rack_counts("QVVWWUU"), bag_count=6) is None
    ex = best_exchange(rack_counts("AEINST?"), bag_count=50)
    assert ex is not None and ex.keep[26] == 1  # never throw the blank back
    assert np.array_equal(ex.throw + ex.keep, rack_counts("AEINST?").astype(np.int64))


def test_move_notation_of_the_best_move_is_stable(lexicon):
    _, moves, ev = run(lexicon, prospects=False)
    assert move_at(moves, int(ev.order[0])).notation == move_at(
        moves, int(run(lexicon, prospects=False)[2].order[0])).notation
