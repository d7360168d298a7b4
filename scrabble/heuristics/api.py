"""The heuristics as JSON for the gateway: the ``unseen`` block and the breakdown.

Kept here (not in the gateway) so the gateway's edit is a few lines and the
same functions serve scripts and tests.
"""

from __future__ import annotations

import numpy as np

from scrabble.heuristics.draw import unseen_block
from scrabble.heuristics.equity import Evaluation, Options, bag_count, evaluate
from scrabble.moves import MoveList
from scrabble.position import Position
from scrabble.tiles import BLANK


def unseen_json(position: Position, moves: MoveList, order: np.ndarray) -> dict:
    """Unseen tiles and P(at least one) for 7 draws and for the top move's draw."""
    pool = position.unseen()
    draws = [position.rules.rack_size]
    if len(order):
        draws.append(min(int(moves.meta[int(order[0]), 4]), bag_count(position)))
    return unseen_block(pool, draws)


def wants_evaluation(body) -> bool:
    return bool(body.heuristics or body.adversarial or body.rank_by == "equity")


def evaluate_request(position: Position, moves: MoveList, lexicon, body) -> Evaluation:
    text = getattr(body, "upcoming", None)
    upcoming = tuple(BLANK if ch == "?" else ord(ch) - 65 for ch in text) if text else None
    opts = Options(rank_by=body.rank_by, risk=body.risk, adversarial=body.adversarial,
                   budget_ms=body.budget_ms, upcoming=upcoming)
    return evaluate(position, moves, lexicon, opts, limit=body.limit)


def summary_json(ev: Evaluation) -> dict:
    """Top-level ``heuristics`` object: settings, how far the budget went, the exchange."""
    o = ev.options
    ex = ev.exchange
    return {
        "rank_by": o.rank_by, "risk": o.risk, "adversarial": o.adversarial,
        "budget_ms": o.budget_ms, "max_moves": o.max_moves, "evaluated": ev.evaluated,
        "candidates": ev.candidates, "budget_cut": ev.budget_cut,
        "elapsed_ms": round(ev.elapsed_ms, 3),
        "exchange": None if ex is None else {
            "throw": ex.throw_string, "keep": ex.keep_string, "score": 0,
            "leave": ex.leave / 1000, "prospect": ex.prospect / 1000,
            "equity": ex.equity / 1000},
    }


def attach_breakdowns(out: list[dict], order: np.ndarray, ev: Evaluation) -> None:
    for move, i in zip(out, order, strict=True):
        move["heuristics"] = ev.breakdowns[int(i)].as_dict()
