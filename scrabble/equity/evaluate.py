"""Equity = the sum of the terms (``terms.TERMS``), in integer millipoints.

Two stages, so the cost is bounded:

1. Cheap terms for every move at once (NumPy): score, leave, endgame, premium waste.
2. Expensive terms (prospect, and risk when ``adversarial``) for the best
   moves by the cheap equity, a move at a time, up to ``max_moves`` and while
   the time budget lasts. The result says how many were evaluated and whether
   the budget cut it.

Ranking (``rank_by``): "equity" puts evaluated moves first by full equity
(minus ``cvar_penalty_pct`` of the CVaR excess when ``risk`` is "averse"),
then the rest by cheap equity; "score" orders by score. Ties fall to
``MoveList.order``'s fixed tie-break. ``max_moves`` is the deterministic cap;
the wall-clock budget is a safety net, so output is identical for the same
input unless the machine is too slow to reach the cap in time (then
``budget_cut`` is true and says so).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.exchange import Exchange, best_exchange
from scrabble.equity.options import EquityOptions
from scrabble.equity.prospect import Prospect, best_prospect
from scrabble.equity.risk import Risk
from scrabble.equity.terms import EquityContext, terms_for
from scrabble.moves import MoveList
from scrabble.position import Position

NOT_EVALUATED = -(10**12)  # rank offset for moves whose expensive terms were skipped


@dataclass
class Breakdown:
    index: int  # into the MoveList
    terms: dict[str, int]  # term name -> signed millipoints, in TERMS order
    evaluated: bool  # the expensive terms were computed for it
    prospect: Prospect | None = None
    risk: Risk | None = None

    @property
    def equity(self) -> int:
        return sum(self.terms.values())


@dataclass
class Evaluation:
    order: npt.NDArray[np.intp]  # MoveList indices in rank order
    breakdowns: dict[int, Breakdown]
    evaluated: int
    candidates: int
    budget_cut: bool
    elapsed_ms: float
    exchange: Exchange | None
    options: EquityOptions = field(default_factory=EquityOptions)


def evaluate(
    position: Position,
    moves: MoveList,
    engine: TrieEngine,
    options: EquityOptions | None = None,
    limit: int | None = None,
) -> Evaluation:
    opts = options or EquityOptions()
    started = time.perf_counter()
    count = len(moves)
    ctx = EquityContext(position, moves, engine, opts)
    terms = terms_for(opts)
    everyone = np.arange(count)
    values = {t.name: np.zeros(count, dtype=np.int64) for t in terms}
    for term in terms:
        if term.cheap:
            values[term.name] = term.value(ctx, everyone)
    cheap = sum((values[t.name] for t in terms if t.cheap), np.zeros(count, dtype=np.int64))
    # the expensive terms go to the moves most likely to be shown first
    by_cheap = moves.order(None, primary=cheap if opts.rank_by == "equity" else None)
    expensive = [t for t in terms if not t.cheap]
    evaluated = np.zeros(count, dtype=bool)
    budget_cut = False
    for n_done, i in enumerate(by_cheap[: opts.max_moves].tolist() if expensive else []):
        if n_done and (time.perf_counter() - started) * 1000 > opts.budget_ms:
            budget_cut = True
            break
        one = np.array([i], dtype=np.intp)
        for term in expensive:
            values[term.name][i] = term.value(ctx, one)[0]
        evaluated[i] = True
    equity = sum(values.values(), np.zeros(count, dtype=np.int64))
    if opts.rank_by == "score":
        order = moves.order(limit)
    else:
        penalty = np.zeros(count, dtype=np.int64)
        if opts.risk == "averse":
            for i, found in ctx.risks.items():
                penalty[i] = max(0, found.cvar10 - found.expected) * opts.cvar_penalty_pct // 100
        key = np.where(evaluated, equity - penalty, cheap + NOT_EVALUATED)
        order = moves.order(limit, primary=key)
    shown = set(order.tolist()) | set(np.nonzero(evaluated)[0].tolist())
    breakdowns = {
        i: Breakdown(
            index=i,
            terms={name: int(v[i]) for name, v in values.items()},
            evaluated=bool(evaluated[i]),
            prospect=ctx.prospects.get(i),
            risk=ctx.risks.get(i),
        )
        for i in shown
    }
    return Evaluation(
        order=order,
        breakdowns=breakdowns,
        evaluated=int(evaluated.sum()),
        candidates=count,
        budget_cut=budget_cut,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        exchange=valued_exchange(ctx),
        options=opts,
    )


def valued_exchange(ctx: EquityContext) -> Exchange | None:
    """The best exchange, valued like a move (DESIGN: prospects after it): the
    board is unchanged, the kept tiles plus as many drawn as were thrown back."""
    position, opts = ctx.position, ctx.options
    exchange = best_exchange(position.rack, ctx.bag, position.rules.rack_size, opts.exchange_cost)
    if exchange is None or not opts.prospects:
        return exchange
    found = best_prospect(
        position.with_rack(exchange.keep), ctx.pool, int(exchange.throw.sum()), ctx.engine, opts
    )
    if found is None:
        return exchange
    return dataclasses.replace(exchange, prospect=found.value, equity=exchange.equity + found.value)
