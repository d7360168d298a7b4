"""Equity: the sum of its terms, ranking modes, budget reporting, exchanges, the endgame."""

from __future__ import annotations

import numpy as np

from scrabble.equity.evaluate import evaluate
from scrabble.equity.exchange import best_exchange
from scrabble.equity.leave import leave_value
from scrabble.equity.options import EquityOptions
from scrabble.moves import SCORE, leaves_of
from scrabble.notation import breakdown_json, move_at
from scrabble.position import make_position
from scrabble.tiles import rack_counts
from tests.heuristic_boards import EMPTY_ROW, board_with

BOARD = board_with([(7, 4, "across", "STONE"), (3, 8, "down", "QUOTE")])


def run(trie, rack="AEIRSTV", **kw):
    pos = make_position(BOARD, rack)
    moves = trie.generate(pos)
    opts = EquityOptions(budget_ms=1e9, **kw)
    return pos, moves, evaluate(pos, moves, trie, opts, limit=10)


def test_equity_is_the_sum_of_its_terms(trie):
    _, moves, ev = run(trie, adversarial=True, samples=6)
    for i, b in ev.breakdowns.items():
        assert b.terms["score"] == int(moves.meta[i, SCORE]) * 1000
        assert b.terms["premium_waste"] <= 0 and set(b.terms) == {
            "score",
            "leave",
            "endgame",
            "premium_waste",
            "prospect",
            "risk",
        }
        as_json = breakdown_json(b)
        assert [t["name"] for t in as_json["terms"]] == list(b.terms)
        assert abs(sum(t["points"] for t in as_json["terms"]) - as_json["equity"]) < 1e-9
    assert ev.evaluated == 4 and not ev.budget_cut
    evaluated = [b for b in ev.breakdowns.values() if b.evaluated]
    assert len(evaluated) == 4 and all(
        b.prospect is not None or b.terms["prospect"] == 0 for b in evaluated
    )
    assert all(
        b.terms["prospect"] == 0 and b.terms["risk"] == 0
        for b in ev.breakdowns.values()
        if not b.evaluated
    )


def test_rank_by_equity_keeps_the_blank_where_score_spends_it(trie):
    rack = "GS?VWKI"
    pos, moves, ev = run(trie, rack=rack, prospects=False)
    _, _, by_score = run(trie, rack=rack, prospects=False, rank_by="score")
    top, first = int(ev.order[0]), int(by_score.order[0])
    assert int(moves.meta[first, SCORE]) == int(moves.scores.max())
    assert leaves_of(pos.rack, moves)[first][26] == 0  # the top scorer spends the blank
    assert leaves_of(pos.rack, moves)[top][26] == 1  # equity keeps it
    assert ev.breakdowns[top].equity > by_score.breakdowns[first].equity
    eq = [ev.breakdowns[int(i)].equity for i in ev.order]
    assert eq == sorted(eq, reverse=True)


def test_budget_cut_is_reported(trie):
    pos = make_position(BOARD, "AEIRSTV")
    moves = trie.generate(pos)
    ev = evaluate(pos, moves, trie, EquityOptions(budget_ms=0.0, max_moves=8), limit=5)
    assert ev.evaluated == 1 and ev.budget_cut  # at least one move is always evaluated


def test_averse_ranking_penalises_the_tail(trie):
    # on this rack the tail penalty reorders the evaluated moves
    _, _, neutral = run(trie, rack="DEILNOR", adversarial=True, samples=6)
    _, _, averse = run(
        trie, rack="DEILNOR", adversarial=True, samples=6, risk="averse", cvar_penalty_pct=50
    )
    evaluated = [i for i in averse.order.tolist() if averse.breakdowns[i].evaluated]
    keys = {}
    for i in evaluated:
        found = averse.breakdowns[i].risk
        assert found is not None and found.cvar10 >= found.expected
        assert neutral.breakdowns[i].equity == averse.breakdowns[i].equity  # equity unchanged
        keys[i] = averse.breakdowns[i].equity - (found.cvar10 - found.expected) * 50 // 100
    # the averse order is the equity minus half the tail excess, not the equity
    assert [keys[i] for i in evaluated] == sorted(keys.values(), reverse=True)
    by_equity = sorted(evaluated, key=lambda i: -averse.breakdowns[i].equity)
    assert evaluated != by_equity
    assert neutral.order.tolist()[: len(evaluated)] != evaluated


def test_exchange_on_a_hopeless_rack(trie):
    pos = make_position([EMPTY_ROW] * 15, "QVVWWUU")
    moves = trie.generate(pos)
    ev = evaluate(pos, moves, trie, EquityOptions(budget_ms=1e9))
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


ENDGAME = (
    "4RUMMAGED2C/7A6A/2H1G2T6V/2O1O2I6E/2WAB2PREBENDS/2ER3O3n3/2SI6COW2/3L2HUE2KANE/"
    "3LI3FILII2/J1TANGENT2T1Z1/A2TA5FA1OP/R2EN5Ok1OU/VILDE5YEX1D/I3R6SUQS/E13Y INR/OT "
    "440/448 0 lex sowpods;"
)


def test_going_out_with_the_bag_empty_earns_the_opponents_tiles(trie):
    from scrabble import cgp

    parsed = cgp.parse(ENDGAME)
    pos = make_position(parsed.rows, parsed.rack)
    assert pos.bag_count == 0 and int(pos.unseen().sum()) == 2  # the opponent's O and T
    moves = trie.generate(pos)
    ev = evaluate(pos, moves, trie, EquityOptions(prospects=False), limit=len(moves))
    out = [i for i in range(len(moves)) if moves.meta[i, 4] == 3]  # all of INR placed
    assert out, "a going-out play exists"
    for i in out:
        # O (1) + T (1): 2 points off their score and onto ours, 2 x 2 = 4 points
        assert ev.breakdowns[i].terms["endgame"] == 4_000
        assert ev.breakdowns[i].terms["leave"] == 0
    stuck = [i for i in range(len(moves)) if moves.meta[i, 4] < 3]
    for i in stuck[:20]:
        kept = leaves_of(pos.rack, moves)[i]
        face = int((kept[:26] * pos.rules.values[:26]).sum())
        assert ev.breakdowns[i].terms["endgame"] == -1000 * face
    assert "2K RIN" in {move_at(moves, i).notation for i in out}
