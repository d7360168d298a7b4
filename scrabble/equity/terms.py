"""The equity terms: each a function of the same shape, summed by ``evaluate``.

A term takes the evaluation context and the indices of the actions to value
(placements, exchanges, pass: ``actions``) and returns their contributions in
millipoints (int64, signed: premium waste and risk come out negative), so an
action's equity is literally the sum of its terms. Cheap terms are computed
for every action at once; expensive ones only for the best few by the cheap
terms (``Term.cheap`` False), an action at a time.

The static terms are those MAGPIE, Macondo and wolges share (``static``):
score; leave (the exhaustive leave table) while the bag has tiles; once it is
empty the endgame adjustment (going out: twice the opponent's tiles; not:
minus 10 and twice one's own); the opening's vowels beside a double letter.

The context holds what several terms read, computed once: the unseen pool,
the bag, each action's kept tiles, and for each action valued by an expensive
term the position after it (its board view then shared by the prospect search
and the opponent's replies).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity import leave as leave_model
from scrabble.equity.actions import PASS, PLAY, Actions
from scrabble.equity.endgame import WORD_WIDTH, EndgameResult, solve
from scrabble.equity.millipoints import PER_POINT
from scrabble.equity.options import EquityOptions
from scrabble.equity.prospect import Prospect, best_prospect
from scrabble.equity.risk import Risk, assess, best_replies, sample_racks
from scrabble.equity.static import HOTSPOT_PENALTY, RackValues, StaticEquity
from scrabble.equity.waste import premium_waste
from scrabble.moves import place
from scrabble.position import Position

Indices = npt.NDArray[np.intp]
Values = npt.NDArray[np.int64]


@dataclass
class EquityContext:
    position: Position
    actions: Actions
    engine: TrieEngine  # move generation for the prospect and risk searches
    static: StaticEquity  # the leave table and the static adjustments
    options: EquityOptions
    pool: npt.NDArray[np.int64] = field(init=False)
    bag: int = field(init=False)
    worth: RackValues = field(init=False)  # per kept sub-multiset: leave or endgame
    # details the expensive terms found, by action index
    prospects: dict[int, Prospect | None] = field(default_factory=dict)
    risks: dict[int, Risk] = field(default_factory=dict)
    # the cheap terms summed so far, per action (the search term corrects them)
    cheap_total: npt.NDArray[np.int64] | None = None
    search: EndgameResult | None = None  # the exact endgame search, when it ran
    _after: dict[int, Position] = field(default_factory=dict)
    _racks: list[npt.NDArray[np.uint8]] | None = None
    _baseline: int = 0

    def __post_init__(self) -> None:
        self.pool = self.position.unseen().astype(np.int64)
        self.bag = self.position.bag_count
        self.worth = self.static.rack_values(self.position)

    def after(self, i: int) -> Position:
        """The position after action i: its board, the kept tiles as the rack."""
        if i not in self._after:
            kept = self.actions.kept[i]
            if self.actions.kind(i) == PLAY:
                rules = self.position.rules
                board = place(self.position.board, self.actions.moves, i, rules.size)
                self._after[i] = Position(board=board, rack=kept.astype(np.uint8), rules=rules)
            else:  # the same board (and its views)
                self._after[i] = self.position.with_rack(kept)
        return self._after[i]

    def opponent_racks(self) -> tuple[list[npt.NDArray[np.uint8]], int]:
        """The opponent's racks the risk term plays against (the known rack, or
        racks sampled from the pool) and the expected best reply on the board
        before the move with them (millipoints); drawn once per position so
        every move faces the same racks."""
        if self._racks is None:
            opts = self.options
            if self.position.opponent is not None:
                self._racks = [self.position.opponent.astype(np.uint8)]
            else:
                self._racks = sample_racks(self.pool, self.position.rules.rack_size,
                                           opts.samples, opts.seed)  # fmt: skip
            before, _ = best_replies(self.position, self._racks, self.engine)
            self._baseline = int(round(before.mean() * PER_POINT))
        return self._racks, self._baseline


Function = Callable[[EquityContext, Indices], Values]


@dataclass(frozen=True)
class Term:
    name: str
    value: Function
    cheap: bool  # for every action; else for the best few, an action at a time


def score_term(ctx: EquityContext, actions: Indices) -> Values:
    out = np.zeros(len(actions), dtype=np.int64)
    plays = actions < ctx.actions.placements
    out[plays] = ctx.actions.moves.scores[actions[plays]].astype(np.int64) * PER_POINT
    return out


def _kept_worth(ctx: EquityContext, actions: Indices) -> Values:
    worth: Values = ctx.worth.values[ctx.actions.kept[actions] @ ctx.worth.radix]
    return worth


def leave_term(ctx: EquityContext, actions: Indices) -> Values:
    """What the kept tiles are worth next turn (the leave table), while the bag
    has tiles. A pass keeps the whole rack, which no table of leaves holds: the
    linear model values it, so a pass of a bad rack is not worth 0."""
    if ctx.bag == 0:
        return np.zeros(len(actions), dtype=np.int64)
    worth = _kept_worth(ctx, actions)
    passes = ctx.actions.kinds[actions] == PASS
    if passes.any():
        worth[passes] = leave_model.leave_value(ctx.position.rack)
    weighted: Values = worth * ctx.options.leave_weight_pct // 100
    return weighted


def endgame_term(ctx: EquityContext, actions: Indices) -> Values:
    """The bag empty before the move: going out ends the game and the
    opponent's tiles come off their score and onto ours (twice their points);
    not going out costs 10 points and twice the points kept."""
    if ctx.bag > 0:
        return np.zeros(len(actions), dtype=np.int64)
    return _kept_worth(ctx, actions)


def opening_term(ctx: EquityContext, actions: Indices) -> Values:
    """On an empty board, each vowel placed beside a double letter (which a
    reply's parallel play would double a high tile on)."""
    out = np.zeros(len(actions), dtype=np.int64)
    if not ctx.position.is_empty:
        return out
    vowels = ctx.static.hotspot_vowels(ctx.position, ctx.actions.moves)
    plays = actions < ctx.actions.placements
    out[plays] = vowels[actions[plays]] * HOTSPOT_PENALTY
    return out


def endgame_search_term(ctx: EquityContext, actions: Indices) -> Values:
    """Bag empty and the opponent's rack known (with an empty bag it is: the
    unseen tiles): the exact search of the rest of the game (``endgame``)
    values every play and the pass by the spread it ends the game with. This
    term is that value minus the other cheap terms, so the equity becomes the
    exact value; 0 when the search did not complete within the budget."""
    out = np.zeros(len(actions), dtype=np.int64)
    if ctx.bag > 0 or ctx.position.rules.size > WORD_WIDTH or ctx.cheap_total is None:
        return out
    opponent = ctx.position.opponent_tiles()
    if opponent.sum() == 0 or ctx.position.rack.sum() == 0:
        return out
    result = solve(ctx.position, opponent.astype(np.int64), ctx.engine.lexicon,
                   ctx.options.budget_ms, scoreless=ctx.options.zero_turns,
                   moves=ctx.actions.moves)  # fmt: skip
    ctx.search = result
    if not result.completed:
        return out
    exact = np.full(len(ctx.actions), np.iinfo(np.int64).min, dtype=np.int64)
    passing = len(ctx.actions) - 1
    for move in result.moves:
        exact[passing if move.index < 0 else move.index] = move.value_mp
    wanted = exact[actions]
    known = wanted != np.iinfo(np.int64).min
    out[known] = wanted[known] - ctx.cheap_total[actions[known]]
    return out


def waste_term(ctx: EquityContext, actions: Indices) -> Values:
    """Minus the premium squares spent on too little (and a small per-tile cost)."""
    out = np.zeros(len(actions), dtype=np.int64)
    plays = actions < ctx.actions.placements
    if plays.any():
        unseen = int(ctx.pool.sum())
        charged = premium_waste(ctx.actions.moves, ctx.position.rules, unseen, ctx.options)
        out[plays] = -charged[actions[plays]]
    return out


def prospect_term(ctx: EquityContext, actions: Indices) -> Values:
    """The best play a few more tiles would allow after the action, times the
    exact chance that they arrive (weighted)."""
    out = np.zeros(len(actions), dtype=np.int64)
    for k, i in enumerate(actions.tolist()):
        found = best_prospect(ctx.after(i), ctx.pool, int(ctx.actions.drawn[i]), ctx.engine,
                              ctx.options)  # fmt: skip
        ctx.prospects[i] = found
        out[k] = found.value if found else 0
    return out


def risk_term(ctx: EquityContext, actions: Indices) -> Values:
    """Minus what the action opens to the opponent: their expected best reply
    after it minus before it, over the same racks (weighted). An exchange or a
    pass leaves the board as it is: nothing opened."""
    racks, baseline = ctx.opponent_racks()
    out = np.zeros(len(actions), dtype=np.int64)
    for k, i in enumerate(actions.tolist()):
        after = ctx.after(i)
        if ctx.actions.kind(i) != PLAY:
            ctx.risks[i] = Risk(risk=0, expected=baseline, variance=0.0, cvar10=baseline)
            continue
        new = set(np.nonzero(after.board != ctx.position.board)[0].tolist())
        found = assess(after, new, racks, baseline, ctx.pool, ctx.engine,
                       ctx.options.cvar_share_pct)  # fmt: skip
        ctx.risks[i] = found
        out[k] = -(found.risk * ctx.options.risk_weight_pct // 100)
    return out


SCORE = Term("score", score_term, cheap=True)
ENDGAME_SEARCH = Term("endgame_search", endgame_search_term, cheap=True)
LEAVE = Term("leave", leave_term, cheap=True)
ENDGAME = Term("endgame", endgame_term, cheap=True)
OPENING = Term("opening", opening_term, cheap=True)
PREMIUM_WASTE = Term("premium_waste", waste_term, cheap=True)
PROSPECT = Term("prospect", prospect_term, cheap=False)
RISK = Term("risk", risk_term, cheap=False)
TERMS = (SCORE, LEAVE, ENDGAME, OPENING, PREMIUM_WASTE, ENDGAME_SEARCH, PROSPECT, RISK)


def terms_for(options: EquityOptions) -> tuple[Term, ...]:
    """The terms the options ask for (premium waste, prospect and risk are optional)."""
    wanted = {
        PREMIUM_WASTE.name: options.premium_waste,
        ENDGAME_SEARCH.name: options.endgame_search,
        PROSPECT.name: options.prospects,
        RISK.name: options.adversarial,
    }
    return tuple(t for t in TERMS if wanted.get(t.name, True))
