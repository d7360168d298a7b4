"""Equity = score + leave + prospect - premium_waste - risk, in integer millipoints.

Two stages, so the cost is bounded:

1. Cheap terms for every move at once (NumPy): score, leave, premium waste.
2. Prospect (and, when ``adversarial``, risk) for the best moves by the cheap
   equity, in that order, up to ``max_moves`` and while the time budget lasts.
   The result says how many were evaluated and whether the budget cut it.

Ranking (``rank_by``): "equity" puts evaluated moves first by full equity
(minus CVAR_PENALTY_PCT of the CVaR excess when ``risk`` is "averse"), then
the rest by cheap equity; "score" orders by score. Ties fall to
``MoveList.order``'s fixed tie-break. ``max_moves`` is the deterministic cap;
the wall-clock budget is a safety net, so output is identical for the same
input unless the machine is too slow to reach the cap in time (then
``budget_cut`` is true and says so).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from scrabble.heuristics.exchange import Exchange, best_exchange
from scrabble.heuristics.leave import leave_values, leaves_of
from scrabble.heuristics.prospect import Prospect, best_prospect
from scrabble.heuristics.risk import Risk, assess, best_replies, sample_racks
from scrabble.heuristics.waste import premium_waste
from scrabble.moves import MoveList, place
from scrabble.position import Position

LEAVE_WEIGHT_PCT = 100  # scale of the leave term (self-play tuning, docs/equity.md)
RISK_WEIGHT_PCT = 100  # share of (best reply after - before) charged as risk
CVAR_PENALTY_PCT = 50  # averse: minus half of (CVaR - expected best reply)
NOT_EVALUATED = -(10**12)  # rank offset for moves whose expensive terms were skipped


@dataclass
class Options:
    rank_by: str = "equity"  # "equity" | "score"
    risk: str = "neutral"  # "neutral" | "averse"
    adversarial: bool = False
    prospects: bool = True
    budget_ms: float = 300.0
    max_moves: int = 4  # deterministic cap on moves given prospect (and risk) terms
    seed: int = 0
    samples: int = 8  # sampled opponent racks for risk (docs/equity.md: cost figures)
    upcoming: tuple[int, ...] | None = None  # visible upcoming tiles, in order (0..26)


@dataclass
class Breakdown:
    index: int  # index into the MoveList
    score: int
    leave: int
    prospect: int
    premium_waste: int
    risk: int
    equity: int
    evaluated: bool
    prospect_detail: Prospect | None = None
    risk_detail: Risk | None = None

    def as_dict(self) -> dict:
        """Points (floats, 3 decimals) for the API; millipoints stay exact internally."""
        out = {k: getattr(self, k) / 1000 for k in
               ("score", "leave", "prospect", "premium_waste", "risk", "equity")}
        out["evaluated"] = self.evaluated
        if self.prospect_detail is not None:
            p = self.prospect_detail
            out["prospect_move"] = {"notation": p.notation, "score": p.score, "need": p.need,
                                    "probability": p.probability}
        if self.risk_detail is not None:
            r = self.risk_detail
            out["adversarial"] = {
                "expected_best_reply": r.expected / 1000, "variance": r.variance,
                "cvar10": r.cvar10 / 1000,
                "threats": [{"notation": t.notation, "score": t.score,
                             "probability": t.probability} for t in r.threats]}
        return out


@dataclass
class Evaluation:
    order: np.ndarray  # MoveList indices in rank order
    breakdowns: dict[int, Breakdown]
    evaluated: int
    candidates: int
    budget_cut: bool
    elapsed_ms: float
    exchange: Exchange | None
    options: Options = field(default_factory=Options)


def bag_count(position: Position) -> int:
    """Tiles in the bag as the mover sees it: unseen minus the opponent's rack."""
    unseen = int(position.unseen().sum())
    return max(0, unseen - position.rules.rack_size)


def cheap_terms(position: Position, moves: MoveList) -> tuple[np.ndarray, ...]:
    """score, leave, waste (millipoints, int64 arrays) for every move."""
    rules = position.rules
    score = moves.scores.astype(np.int64) * 1000
    leaves = leaves_of(position.rack, moves)
    bag_after = bag_count(position) - moves.meta[:, 4].astype(np.int64)
    leave = leave_values(leaves, rules.values, bag_after) * LEAVE_WEIGHT_PCT // 100
    if bag_count(position) == 0:
        # Going out with the bag empty ends the game: the opponent's rack (all
        # the unseen tiles now) comes off their score and onto ours.
        out = leaves.sum(axis=1) == 0
        opp = int((position.unseen()[:26].astype(np.int64) * rules.values[:26]).sum())
        leave = np.where(out, 2 * opp * 1000, leave)
    waste = premium_waste(moves, rules, int(position.unseen().sum()))
    return score, leave, waste, leaves


def evaluate(position: Position, moves: MoveList, lexicon, options: Options | None = None,
             limit: int | None = None) -> Evaluation:
    opts = options or Options()
    started = time.perf_counter()
    k = len(moves)
    rules = position.rules
    score, leave, waste, leaves = cheap_terms(position, moves) if k else (
        np.zeros(0, np.int64),) * 3 + (np.zeros((0, 27), np.int64),)
    cheap = score + leave - waste
    # the expensive terms go to the moves most likely to be shown first
    candidates = moves.order(None, primary=cheap if opts.rank_by == "equity" else None)
    pool = position.unseen().astype(np.int64)
    bag = bag_count(position)
    prospect = np.zeros(k, dtype=np.int64)
    risk = np.zeros(k, dtype=np.int64)
    penalty = np.zeros(k, dtype=np.int64)
    evaluated = np.zeros(k, dtype=bool)
    details: dict[int, tuple[Prospect | None, Risk | None]] = {}
    budget_cut = False
    racks: list[np.ndarray] = []
    baseline = 0
    if opts.adversarial and k:
        racks = sample_racks(pool, rules.rack_size, opts.samples, opts.seed)
        before, _ = best_replies(position.board, racks, position, lexicon)
        baseline = int(round(before.mean() * 1000))
    want = opts.prospects or opts.adversarial
    for n_done, i in enumerate(candidates[: opts.max_moves] if want else []):
        if n_done and (time.perf_counter() - started) * 1000 > opts.budget_ms:
            budget_cut = True
            break
        i = int(i)
        board = place(position.board, moves, i, rules.size)
        draws = min(int(moves.meta[i, 4]), bag)
        pr = None
        if opts.prospects:
            pr = best_prospect(board, leaves[i], pool, draws, position, lexicon, opts.upcoming)
            prospect[i] = pr.value if pr else 0
        rk = None
        if opts.adversarial:
            new = set(np.nonzero(board != position.board)[0].tolist())
            rk = assess(board, new, racks, baseline, pool, position, lexicon)
            risk[i] = rk.risk * RISK_WEIGHT_PCT // 100
            if opts.risk == "averse":
                penalty[i] = max(0, rk.cvar10 - rk.expected) * CVAR_PENALTY_PCT // 100
        evaluated[i] = True
        details[i] = (pr, rk)
    equity = cheap + prospect - risk
    if opts.rank_by == "score":
        order = moves.order(limit)
    else:
        key = np.where(evaluated, equity - penalty, cheap + NOT_EVALUATED)
        order = moves.order(limit, primary=key)
    wanted = set(int(i) for i in order) | set(details)
    breakdowns = {}
    for i in wanted:
        pr, rk = details.get(i, (None, None))
        breakdowns[i] = Breakdown(index=i, score=int(score[i]), leave=int(leave[i]),
                                  prospect=int(prospect[i]), premium_waste=int(waste[i]),
                                  risk=int(risk[i]), equity=int(equity[i]),
                                  evaluated=bool(evaluated[i]), prospect_detail=pr,
                                  risk_detail=rk)
    exch = best_exchange(position.rack, bag, rules.rack_size)
    if exch is not None and opts.prospects:
        # valued like a move (DESIGN: prospects after it): the board is unchanged,
        # the kept tiles plus as many drawn as were thrown back
        pr = best_prospect(position.board, exch.keep, pool, int(exch.throw.sum()), position,
                           lexicon, opts.upcoming)
        if pr is not None:
            exch = replace(exch, prospect=pr.value, equity=exch.equity + pr.value)
    return Evaluation(order=order, breakdowns=breakdowns, evaluated=int(evaluated.sum()),
                      candidates=k, budget_cut=budget_cut,
                      elapsed_ms=(time.perf_counter() - started) * 1000, exchange=exch,
                      options=opts)
