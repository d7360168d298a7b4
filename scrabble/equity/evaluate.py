"""Equity = the sum of the terms (``terms.TERMS``), in integer millipoints, for
every legal action of a position: its placements, its exchanges and pass.

Two stages, so the cost is bounded:

1. Cheap terms for every action at once (NumPy): score, leave, endgame,
   opening, premium waste.
2. Expensive terms (prospect, and risk when ``adversarial``) for the best
   actions by the cheap equity, one at a time, up to ``max_moves`` and while
   the time budget lasts. The result says how many were evaluated and whether
   the budget cut it.

Ranking (``rank_by``): "equity" orders everything by cheap equity, then
reorders the evaluated block (the best by cheap equity, which all carry the
expensive terms) by full equity, minus ``cvar_penalty_pct`` of the CVaR excess
when ``risk`` is "averse": no action is ever ranked against another by a term
only one of them has. "score" orders the placements by score. Ties fall to
``Actions.order``'s fixed tie-break. ``max_moves`` is the deterministic cap;
the wall-clock budget is a safety net, so output is identical for the same
input unless the machine is too slow to reach the cap in time (then
``budget_cut`` is true and says so).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.actions import EXCHANGE, Actions
from scrabble.equity.endgame import EndgameResult
from scrabble.equity.options import EquityOptions
from scrabble.equity.prospect import Prospect
from scrabble.equity.risk import Risk
from scrabble.equity.static import StaticEquity
from scrabble.equity.terms import EquityContext, terms_for
from scrabble.moves import MoveList
from scrabble.position import Position


@dataclass
class Breakdown:
    index: int  # into the Actions
    terms: dict[str, int]  # term name -> signed millipoints, in TERMS order
    evaluated: bool  # the expensive terms were computed for it
    prospect: Prospect | None = None
    risk: Risk | None = None

    @property
    def equity(self) -> int:
        return sum(self.terms.values())


@dataclass
class Evaluation:
    actions: Actions
    order: npt.NDArray[np.intp]  # action indices in rank order
    breakdowns: dict[int, Breakdown]
    evaluated: int
    candidates: int
    budget_cut: bool
    elapsed_ms: float
    exchange: Breakdown | None  # the best-ranked exchange, when one is legal
    search: EndgameResult | None = None  # the exact endgame search, when it ran
    options: EquityOptions = field(default_factory=EquityOptions)


def evaluate(
    position: Position,
    moves: MoveList,
    engine: TrieEngine,
    static: StaticEquity,
    options: EquityOptions | None = None,
    limit: int | None = None,
) -> Evaluation:
    opts = options or EquityOptions()
    started = time.perf_counter()
    actions = Actions(position, moves)
    count = len(actions)
    ctx = EquityContext(position, actions, engine, static, opts)
    terms = terms_for(opts)
    everyone = np.arange(count)
    values = {t.name: np.zeros(count, dtype=np.int64) for t in terms}
    cheap = np.zeros(count, dtype=np.int64)
    for term in terms:
        if term.cheap:
            ctx.cheap_total = cheap
            values[term.name] = term.value(ctx, everyone)
            cheap = cheap + values[term.name]
    # an exact endgame value needs no prospect or risk estimate
    solved = ctx.search is not None and ctx.search.completed
    if ctx.search is None:
        values.pop("endgame_search", None)  # it did not run: not a term here
    for term in terms:
        if solved and not term.cheap:
            values.pop(term.name, None)
    # the expensive terms go to the actions most likely to be shown first
    by_cheap = actions.order(cheap)
    expensive = [t for t in terms if not t.cheap and not solved]
    evaluated = np.zeros(count, dtype=bool)
    budget_cut = False
    block = by_cheap[: opts.max_moves] if expensive else by_cheap[:0]
    for n_done, i in enumerate(block.tolist()):
        if n_done and (time.perf_counter() - started) * 1000 > opts.budget_ms:
            budget_cut = True
            block = block[:n_done]
            break
        one = np.array([i], dtype=np.intp)
        for term in expensive:
            values[term.name][i] = term.value(ctx, one)[0]
        evaluated[i] = True
    equity = sum(values.values(), np.zeros(count, dtype=np.int64))
    key = equity.copy()
    if opts.risk == "averse":
        for i, found in ctx.risks.items():
            key[i] -= max(0, found.cvar10 - found.expected) * opts.cvar_penalty_pct // 100
    # the evaluated block first, ordered by its full equity; the rest as the
    # cheap equity ranked them
    head = actions.order(key)
    head = head[np.isin(head, block)]
    by_equity = np.concatenate((head, by_cheap[len(block) :])).astype(np.intp)
    exchanges = by_equity[actions.kinds[by_equity] == EXCHANGE][:1].tolist()
    order = moves.order(limit) if opts.rank_by == "score" else by_equity[:limit]
    shown = set(order.tolist()) | set(np.nonzero(evaluated)[0].tolist()) | set(exchanges)
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
        actions=actions,
        order=order,
        breakdowns=breakdowns,
        evaluated=int(evaluated.sum()),
        candidates=count,
        budget_cut=budget_cut,
        elapsed_ms=(time.perf_counter() - started) * 1000,
        exchange=breakdowns[exchanges[0]] if exchanges else None,
        search=ctx.search,
        options=opts,
    )
