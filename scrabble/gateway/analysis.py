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
from scrabble.gateway.schemas import MoveRequest
from scrabble.moves import MoveList
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
            risk=body.risk,
            budget_ms=body.budget_ms,
            upcoming=tuple(tile_index(ch) for ch in body.upcoming) if body.upcoming else None,
            lexicon=parsed.opcodes.get("lex") if parsed else None,
            opponent_rack=parsed.opponent_rack if parsed else "",
            scores=parsed.scores if parsed else (0, 0),
            zero_turns=parsed.zero_turns if parsed else 0,
        )

    @property
    def wants_evaluation(self) -> bool:
        return self.heuristics or self.adversarial or self.rank_by == "equity"

    def equity_options(self) -> EquityOptions:
        return EquityOptions(
            rank_by=self.rank_by,
            risk=self.risk,
            adversarial=self.adversarial,
            budget_ms=self.budget_ms,
            upcoming=self.upcoming,
            zero_turns=self.zero_turns,
        )


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)


def answer(
    query: MoveQuery,
    position: Position,
    moves: MoveList,
    engines: EngineSet,
    timing: dict[str, float],
) -> dict[str, Any]:
    """The response body for ``moves`` of ``position`` (``MoveResponse``'s shape;
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
        "total_moves": len(moves),
        "unseen": unseen,
        "moves": out,
    }
    if evaluation is not None:
        response["heuristics"] = evaluation_json(evaluation)
    return response
