"""What the gateway does with a position's moves: rank them (by score or by
equity), explain them and write the answer, as plain data.

Kept apart from the HTTP handler so the same function serves the request path
(on whichever process runs it) and scripts; a ``MoveQuery`` is what a request
asks, picklable, without the framework's model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from scrabble import cgp as cgp_format
from scrabble.engines.registry import EngineSet
from scrabble.equity.evaluate import evaluate
from scrabble.equity.options import EquityOptions
from scrabble.equity.shortlist import applies, shortlist
from scrabble.gateway.schemas import MoveRequest
from scrabble.moves import MoveList, Stats
from scrabble.notation import action_json, evaluation_json, move_json, unseen_json
from scrabble.position import Position
from scrabble.tiles import tile_index


@dataclass(frozen=True)
class MoveQuery:
    engine: str
    limit: int
    heuristics: bool
    adversarial: bool
    rank_by: str
    count_moves: bool
    risk: str
    budget_ms: float
    upcoming: tuple[int, ...] | None
    lexicon: str | None  # the CGP's lex opcode, when given
    opponent_rack: str
    scores: tuple[int, int]
    zero_turns: int

    @classmethod
    def of(cls, body: MoveRequest) -> MoveQuery:
        parsed = body.parsed_cgp
        return cls(
            engine=body.engine,
            limit=body.limit,
            heuristics=body.heuristics,
            adversarial=body.adversarial,
            rank_by=body.rank_by,
            count_moves=body.count_moves,
            risk=body.risk,
            budget_ms=body.budget_ms,
            upcoming=tuple(tile_index(ch) for ch in body.upcoming) if body.upcoming else None,
            lexicon=parsed.opcodes.get("lex") if parsed else None,
            opponent_rack=parsed.opponent_rack if parsed else "",
            scores=parsed.scores if parsed else (0, 0),
            zero_turns=parsed.zero_turns if parsed else 0,
        )

    @property
    def shortlisted(self) -> bool:
        """Answered from the best-N search (``equity.shortlist``) rather than the
        whole list, where that ranks the same."""
        return self.engine == "trie" and self.rank_by == "equity" and not self.count_moves

    @property
    def wants_evaluation(self) -> bool:
        return self.heuristics or self.adversarial or self.rank_by == "equity"

    def equity_options(self) -> EquityOptions:
        # Prospects only on request (heuristics): at 10,000 pairs they cost
        # 2.0 pp against the same equity without them (docs/selfplay.md).
        return EquityOptions(
            rank_by=self.rank_by,
            prospects=self.heuristics,
            risk=self.risk,
            adversarial=self.adversarial,
            budget_ms=self.budget_ms,
            upcoming=self.upcoming,
            zero_turns=self.zero_turns,
        )


def placements(query: MoveQuery, position: Position, engines: EngineSet) -> tuple[MoveList, bool]:
    """The in-process engines' placements for ``query``: the best-N shortlist
    when it ranks as the whole list would (then False: not every placement),
    else every placement (True)."""
    options = query.equity_options()
    if query.shortlisted and applies(position, options):
        found = shortlist(position, engines.static, engines.lexicon.trie, options, query.limit)
        stats: Stats = {
            "best_n": True,
            "placements_evaluated": found.found,
            "anchors_pruned": found.pruned,
            "kernel_runs": found.kernel_runs,
        }
        return MoveList(words=found.moves.words, meta=found.moves.meta, stats=stats), False
    return engines[query.engine].generate(position), True


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


def answer(
    query: MoveQuery,
    position: Position,
    moves: MoveList,
    engines: EngineSet,
    timing: dict[str, float],
    whole: bool = True,
) -> dict[str, Any]:
    """The response body for ``moves`` of ``position`` (``MoveResponse``'s shape;
    ``whole`` False: ``moves`` is a best-N shortlist, so nothing is counted;
    built as plain data and dumped once: re-validating our own output would
    only cost time, and the tests check the shape)."""
    t = time.perf_counter()
    evaluation = None
    heuristics_ms = 0.0
    if query.wants_evaluation:
        evaluation = evaluate(
            position, moves, engines.trie, engines.static, query.equity_options(), limit=query.limit
        )
        order = evaluation.order
        heuristics_ms = _ms(t)
        t = time.perf_counter()
    else:
        order = moves.order(query.limit)
    rack_size = position.rules.rack_size
    if evaluation is not None:  # placements, exchanges and pass, ranked together
        out = [
            action_json(evaluation, i, rank, position)
            for rank, i in enumerate(order.tolist(), start=1)
        ]
    else:
        out = [
            move_json(moves, i, rank, position.rack, rack_size)
            for rank, i in enumerate(order.tolist(), start=1)
        ]
    unseen = unseen_json(position, moves, order)
    rank_ms = _ms(t)
    name = engines.lexicon.info.name
    cgp = cgp_format.format_cgp(
        position.rows(),
        position.rack_string(),
        name,
        opponent_rack=query.opponent_rack,
        scores=query.scores,
        zero_turns=query.zero_turns,
    )
    response: dict[str, Any] = {
        "lexicon": engines.lexicon.info.as_dict(),
        "engine": query.engine,
        "cgp": cgp,
        "timing": {**timing, "rank_ms": rank_ms, "heuristics_ms": heuristics_ms},
        "stats": moves.stats,
        "total_moves": len(moves) if whole else None,
        "unseen": unseen,
        "moves": out,
    }
    if evaluation is not None:
        response["heuristics"] = evaluation_json(evaluation)
    return response
