"""Equity: the sum of its terms, ranking modes, budget reporting, exchanges, the endgame."""

from __future__ import annotations

import numpy as np

from scrabble.equity.actions import EXCHANGE, PASS
from scrabble.equity.evaluate import evaluate
from scrabble.equity.options import EquityOptions
from scrabble.equity.static import StaticEquity
from scrabble.moves import SCORE, leaves_of
from scrabble.notation import breakdown_json, move_at
from scrabble.position import make_position
from tests.heuristic_boards import EMPTY_ROW, board_with

BOARD = board_with([(7, 4, "across", "STONE"), (3, 8, "down", "QUOTE")])
_STATIC: dict[int, StaticEquity] = {}


def static_of(trie) -> StaticEquity:
    if id(trie) not in _STATIC:
        _STATIC[id(trie)] = StaticEquity.for_lexicon(trie.lexicon)
    return _STATIC[id(trie)]


def run(trie, rack="AEIRSTV", **kw):
    pos = make_position(BOARD, rack)
    moves = trie.generate(pos)
    opts = EquityOptions(budget_ms=1e9, **kw)
    return pos, moves, evaluate(pos, moves, trie, static_of(trie), opts, limit=10)


def test_equity_is_the_sum_of_its_terms(trie):
    _, moves, ev = run(trie, adversarial=True, samples=6)
    for i, b in ev.breakdowns.items():
        score = int(moves.meta[i, SCORE]) * 1000 if i < len(moves) else 0
        assert b.terms["score"] == score
        assert b.terms["premium_waste"] <= 0 and list(b.terms) == [
            "score",
            "leave",
            "endgame",
            "opening",
            "premium_waste",
            "prospect",
            "risk",
        ]
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
    ev = evaluate(
        pos, moves, trie, static_of(trie), EquityOptions(budget_ms=0.0, max_moves=8), limit=5
    )
    assert ev.evaluated == 1 and ev.budget_cut  # at least one move is always evaluated


def test_averse_ranking_penalises_the_tail(trie):
    # on this rack the tail penalty reorders the evaluated moves
    _, _, neutral = run(trie, rack="AAJLRTU", adversarial=True, samples=6)
    _, _, averse = run(
        trie, rack="AAJLRTU", adversarial=True, samples=6, risk="averse", cvar_penalty_pct=50
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
    static = static_of(trie)
    ev = evaluate(pos, moves, trie, static, EquityOptions(budget_ms=1e9), limit=len(moves) + 200)
    ex = ev.exchange
    assert ex is not None and ev.actions.kind(ex.index) == EXCHANGE
    assert int(ev.order[0]) == ex.index  # fishing beats playing this rack
    best_play = max((ev.breakdowns[i].equity for i in range(len(moves))), default=-(10**9))
    assert ex.equity > best_play
    kept = ev.actions.kept[ex.index]
    # its leave term is the table's value of what it keeps
    assert ex.terms["leave"] == static.table.value(kept) and ex.terms["score"] == 0
    thrown = pos.rack.astype(np.int64) - kept
    assert thrown.sum() >= 1 and thrown[ord("V") - 65] >= 1
    # every distinct throw is ranked once; pass is there too
    kinds = [ev.actions.kind(i) for i in ev.order.tolist()]
    assert kinds.count(EXCHANGE) == 3 * 3 * 3 * 2 - 1 and kinds.count(PASS) == 1


def test_no_exchange_with_a_short_bag(trie):
    # 6 tiles left in the bag: exchanges are not legal, pass is
    rows = ["." * 15] * 15
    from tooling.corpus import self_play_positions

    late = next(
        s.position
        for s in self_play_positions(trie.lexicon, count=400, seed=3)
        if 0 < s.position.bag_count < 7
    )
    moves = trie.generate(late)
    ev = evaluate(late, moves, trie, static_of(trie), EquityOptions(prospects=False),
                  limit=len(moves) + 5)  # fmt: skip
    kinds = [ev.actions.kind(i) for i in ev.order.tolist()]
    assert EXCHANGE not in kinds and kinds.count(PASS) == 1 and ev.exchange is None
    assert rows  # an open board offers many more: checked in the hopeless-rack test


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
    ev = evaluate(
        pos, moves, trie, static_of(trie), EquityOptions(prospects=False), limit=len(moves) + 1
    )
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
        # not going out: 10 points and twice the points kept
        assert ev.breakdowns[i].terms["endgame"] == -(10_000 + 2_000 * face)
    assert move_at(moves, int(ev.order[0])).notation == "2K RIN"  # 8 + 4 over 2F RI(A) 13 - 12
    passing = len(ev.actions) - 1
    assert ev.breakdowns[passing].terms["endgame"] == -(10_000 + 2_000 * 3)  # I N R kept
