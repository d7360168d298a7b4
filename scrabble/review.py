"""How good was a move: its rank and equity among every legal action of the
position, and a whole game reviewed turn by turn.

Equity here is the cheap terms of ``equity.evaluate`` for every action alike
(score, leave, endgame, opening, premium waste): the expensive terms (prospect,
risk) are computed for a few actions only, so a move outside those few could
not be compared fairly with the best. With every action valued the same way
the best is the first by equity and the equity given away is never negative.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scrabble import gcg
from scrabble.engines.registry import EngineSet
from scrabble.equity.evaluate import Evaluation, evaluate
from scrabble.equity.options import EquityOptions
from scrabble.judge import EXCHANGE, PASS, Verdict, judge
from scrabble.notation import ExchangeText, MoveText, PassText, PlacementText, parse_coordinate
from scrabble.position import Position, PositionError, check_tile_supply
from scrabble.rules import STANDARD, Rules
from scrabble.tiles import ACROSS, EMPTY, rack_counts

REVIEW_OPTIONS = EquityOptions(rank_by="equity", prospects=False, adversarial=False)


@dataclass(frozen=True)
class Appraisal:
    position: Position
    verdict: Verdict
    evaluation: Evaluation
    index: int | None  # the move's action index (legal moves)
    rank: int | None  # 1 = the best by equity
    equity: int | None  # millipoints

    @property
    def best(self) -> int:
        return int(self.evaluation.order[0])

    @property
    def best_equity(self) -> int:
        return self.evaluation.breakdowns[self.best].equity

    @property
    def equity_lost(self) -> int | None:
        return None if self.equity is None else self.best_equity - self.equity

    @property
    def legal_actions(self) -> int:
        return len(self.evaluation.actions)


def appraise(
    position: Position, engines: EngineSet, move: MoveText, options: EquityOptions = REVIEW_OPTIONS
) -> Appraisal:
    moves = engines.trie.generate(position)
    verdict = judge(position, engines.lexicon, moves, move)
    evaluation = evaluate(position, moves, engines.trie, engines.static, options, limit=None)
    actions = evaluation.actions
    index: int | None = None
    if verdict.legal:
        if verdict.kind == PASS:
            index = len(actions) - 1
        elif verdict.kind == EXCHANGE:
            assert verdict.thrown is not None
            kept = position.rack.astype(np.int64) - verdict.thrown
            same = np.nonzero((actions.keeps == kept[None, :]).all(axis=1))[0]
            index = actions.placements + int(same[0])
        else:
            index = verdict.index
    rank = equity = None
    if index is not None:
        rank = int(np.nonzero(evaluation.order == index)[0][0]) + 1
        equity = evaluation.breakdowns[index].equity
    return Appraisal(position, verdict, evaluation, index, rank, equity)


# -- a game -------------------------------------------------------------------


@dataclass(frozen=True)
class TurnReview:
    event: gcg.Event
    number: int  # the turn's number in the game, from 1
    appraisal: Appraisal | None  # None: not reviewed (``skipped`` says why)
    skipped: str = ""
    rack_complete: bool = True  # the recorded rack is a full rack (or the bag's rest)
    withdrawn: bool = False  # a '--' line took the play back


@dataclass
class PlayerSummary:
    player: gcg.Player
    turns: int = 0
    reviewed: int = 0
    best: int = 0  # turns whose move was the best by equity
    equity_lost: int = 0  # millipoints, over the legal reviewed moves
    illegal: int = 0
    final_score: int = 0


@dataclass
class GameReview:
    record: gcg.GameRecord
    lexicon: str
    turns: list[TurnReview] = field(default_factory=list)
    players: list[PlayerSummary] = field(default_factory=list)


def recorded_move(event: gcg.Event, board: np.ndarray, rules: Rules) -> MoveText | None:
    """The move a GCG turn records, as the judge reads it: a letter on an
    occupied square is the tile already there, as '.' is."""
    if event.kind == gcg.PASS:
        return PassText()
    if event.kind == gcg.EXCHANGE:
        return ExchangeText(event.exchanged) if event.exchanged else None
    row, col, direction = parse_coordinate(event.position)
    n = rules.size
    through = []
    for k in range(len(event.word)):
        r, c = (row, col + k) if direction == ACROSS else (row + k, col)
        through.append(0 <= r < n and 0 <= c < n and board[r * n + c] != EMPTY)
    return PlacementText(row, col, direction, tuple(event.word), tuple(through))


def review(
    record: gcg.GameRecord,
    engines: EngineSet,
    rules: Rules = STANDARD,
    options: EquityOptions = REVIEW_OPTIONS,
) -> GameReview:
    """Every turn of ``record`` appraised on the board it was played on."""
    result = GameReview(record, engines.lexicon.info.name)
    summaries = [PlayerSummary(p) for p in record.players]
    withdrawn = {i - 1 for i, e in enumerate(record.events) if e.kind == gcg.WITHDRAWN and i > 0}
    number = 0
    for snapshot in gcg.replay(record, rules):
        event = snapshot.event
        if event.kind not in gcg.TURNS:
            continue
        number += 1
        summary = summaries[event.player]
        summary.turns += 1
        taken_back = snapshot.index in withdrawn
        if not event.rack:
            result.turns.append(TurnReview(event, number, None, "the rack is not recorded"))
            continue
        move = recorded_move(event, snapshot.board, rules)
        if move is None:
            result.turns.append(
                TurnReview(event, number, None, "the exchanged tiles are not recorded")
            )
            continue
        try:
            check_tile_supply(snapshot.board, rack_counts(event.rack), rules)
        except PositionError as exc:
            raise gcg.GCGError(event.line, exc.message) from None
        position = Position(board=snapshot.board, rack=rack_counts(event.rack), rules=rules)
        appraisal = appraise(position, engines, move, options)
        complete = len(event.rack) == rules.rack_size or position.bag_count == 0
        result.turns.append(TurnReview(event, number, appraisal, "", complete, taken_back))
        summary.reviewed += 1
        if appraisal.equity_lost is None:
            summary.illegal += 1
        else:
            summary.equity_lost += appraisal.equity_lost
            summary.best += appraisal.rank == 1
    final = record.final_scores()
    for p, summary in enumerate(summaries):
        summary.final_score = final[p]
    result.players = summaries
    return result
