"""The equity terms: each a function of the same shape, summed by ``evaluate``.

A term takes the evaluation context and the indices of the moves to value and
returns their contributions in millipoints (int64, signed: premium waste and
risk come out negative), so a move's equity is literally the sum of its
terms. Cheap terms are computed for every move at once; expensive ones only
for the best few by the cheap terms (``Term.cheap`` False), a move at a time.

The context holds what several terms read, computed once: the unseen pool,
the bag, the leaves, and for each move valued by an expensive term the
position after it (its board view is then shared by the prospect search and
the opponent's replies).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity import leave as leave_model
from scrabble.equity.millipoints import PER_POINT
from scrabble.equity.options import EquityOptions
from scrabble.equity.prospect import Prospect, best_prospect
from scrabble.equity.risk import Risk, assess, best_replies, sample_racks
from scrabble.equity.waste import premium_waste
from scrabble.moves import PLACED, MoveList, leaves_of, place
from scrabble.position import Position

Indices = npt.NDArray[np.intp]
Values = npt.NDArray[np.int64]


@dataclass
class EquityContext:
    position: Position
    moves: MoveList
    engine: TrieEngine  # move generation for the prospect and risk searches
    options: EquityOptions
    pool: npt.NDArray[np.int64] = field(init=False)
    bag: int = field(init=False)
    leaves: npt.NDArray[np.int64] = field(init=False)  # (k, 27)
    # details the expensive terms found, by move index
    prospects: dict[int, Prospect | None] = field(default_factory=dict)
    risks: dict[int, Risk] = field(default_factory=dict)
    _after: dict[int, Position] = field(default_factory=dict)
    _racks: list[npt.NDArray[np.uint8]] | None = None
    _baseline: int = 0

    def __post_init__(self) -> None:
        self.pool = self.position.unseen().astype(np.int64)
        self.bag = self.position.bag_count
        self.leaves = leaves_of(self.position.rack, self.moves)

    def after(self, i: int) -> Position:
        """The position after move i: its board, the leave as the rack."""
        if i not in self._after:
            rules = self.position.rules
            board = place(self.position.board, self.moves, i, rules.size)
            self._after[i] = Position(
                board=board, rack=self.leaves[i].astype(np.uint8), rules=rules
            )
        return self._after[i]

    def draws(self, i: int) -> int:
        """Tiles the mover draws after move i."""
        return min(int(self.moves.meta[i, PLACED]), self.bag)

    def opponent_racks(self) -> tuple[list[npt.NDArray[np.uint8]], int]:
        """Sampled opponent racks and the expected best reply on the board
        before the move with them (millipoints), drawn once per position so
        every move faces the same racks."""
        if self._racks is None:
            opts = self.options
            self._racks = sample_racks(self.pool, self.position.rules.rack_size, opts.samples,
                                       opts.seed)  # fmt: skip
            before, _ = best_replies(self.position, self._racks, self.engine)
            self._baseline = int(round(before.mean() * PER_POINT))
        return self._racks, self._baseline


Function = Callable[[EquityContext, Indices], Values]


@dataclass(frozen=True)
class Term:
    name: str
    value: Function
    cheap: bool  # for every move; else for the best few, a move at a time


def score_term(ctx: EquityContext, moves: Indices) -> Values:
    return ctx.moves.scores[moves].astype(np.int64) * PER_POINT


def bag_after(ctx: EquityContext, moves: Indices) -> Values:
    placed: Values = ctx.moves.meta[moves, PLACED].astype(np.int64)
    return ctx.bag - placed


def leave_term(ctx: EquityContext, moves: Indices) -> Values:
    """What the kept tiles are worth next turn, while the bag can refill the rack."""
    value = leave_model.leave_values(ctx.leaves[moves]) * ctx.options.leave_weight_pct // 100
    return np.where(bag_after(ctx, moves) > 0, value, 0)


def endgame_term(ctx: EquityContext, moves: Indices) -> Values:
    """Once the bag is empty after the move: tiles kept are stuck, their face
    value likely lost; going out (bag already empty) ends the game and the
    opponent's rack (all the unseen tiles now) comes off their score and onto ours."""
    opts = ctx.options
    values = ctx.position.rules.values.astype(np.int64)
    kept = ctx.leaves[moves]
    stuck = opts.stuck_per_point * (kept[:, :26] @ values[:26])
    value = np.where(bag_after(ctx, moves) <= 0, stuck, 0)
    if ctx.bag == 0:
        opponent = int((ctx.pool[:26] * values[:26]).sum())
        value = np.where(kept.sum(axis=1) == 0, 2 * opponent * PER_POINT, value)
    return value


def waste_term(ctx: EquityContext, moves: Indices) -> Values:
    """Minus the premium squares spent on too little (and a small per-tile cost)."""
    rules = ctx.position.rules
    unseen = int(ctx.pool.sum())
    # computed for the whole list at once (NumPy), then picked
    return -premium_waste(ctx.moves, rules, unseen, ctx.options)[moves]


def prospect_term(ctx: EquityContext, moves: Indices) -> Values:
    """The best play a few more tiles would allow after the move, times the
    exact chance that they arrive (weighted)."""
    out = np.zeros(len(moves), dtype=np.int64)
    for k, i in enumerate(moves.tolist()):
        found = best_prospect(ctx.after(i), ctx.pool, ctx.draws(i), ctx.engine, ctx.options)
        ctx.prospects[i] = found
        out[k] = found.value if found else 0
    return out


def risk_term(ctx: EquityContext, moves: Indices) -> Values:
    """Minus what the move opens to the opponent: their expected best reply
    after it minus before it, over the same sampled racks (weighted)."""
    racks, baseline = ctx.opponent_racks()
    out = np.zeros(len(moves), dtype=np.int64)
    for k, i in enumerate(moves.tolist()):
        after = ctx.after(i)
        new = set(np.nonzero(after.board != ctx.position.board)[0].tolist())
        found = assess(after, new, racks, baseline, ctx.pool, ctx.engine,
                       ctx.options.cvar_share_pct)  # fmt: skip
        ctx.risks[i] = found
        out[k] = -(found.risk * ctx.options.risk_weight_pct // 100)
    return out


SCORE = Term("score", score_term, cheap=True)
LEAVE = Term("leave", leave_term, cheap=True)
ENDGAME = Term("endgame", endgame_term, cheap=True)
PREMIUM_WASTE = Term("premium_waste", waste_term, cheap=True)
PROSPECT = Term("prospect", prospect_term, cheap=False)
RISK = Term("risk", risk_term, cheap=False)
TERMS = (SCORE, LEAVE, ENDGAME, PREMIUM_WASTE, PROSPECT, RISK)


def terms_for(options: EquityOptions) -> tuple[Term, ...]:
    """The terms the options ask for (prospect and risk are optional)."""
    return tuple(
        t
        for t in TERMS
        if t.cheap or (t is PROSPECT and options.prospects) or (t is RISK and options.adversarial)
    )
