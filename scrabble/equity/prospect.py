"""Prospects: the best move a few more tiles would allow after this move.

After move m the board is B' and the player keeps leave L, then draws d tiles
(d = tiles m placed, capped by the bag). A prospect is a move on B' that L
plus up to ``e`` more tiles can make; its value is its score times the exact
probability that the missing tiles arrive among the d drawn (multivariate
hypergeometric over the unseen pool, blanks substituting; ``draw.p_draw_all``).
Visible upcoming tiles, when given, are certain: they join the rack first and
leave the pool. The term is the best prospect value (the write-up's
``max v(w)``), weighted by ``prospect_weight_pct`` because the opponent moves in
between and may take or block the spot (docs/prospect.md).

How: one move generation on B' with the rack L + e blanks finds every move
using up to e missing tiles (a blank stands for "some tile I do not hold");
each such move is rescored with those blanks as the real letters they stand
for (``rescore_all``, with the shared ``scoring.score_line``), and its need is those
letters. Cost is bounded by ``e`` (``max_extra``, ``wild_tile_budget``):
blanks multiply the search (a 5-tile rack with 2 blanks is ~25 ms, 7 tiles
~80 ms on a midgame board), so e = 2 only for short leaves and 1 otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.draw import _p_all_cached
from scrabble.equity.millipoints import PER_POINT
from scrabble.equity.options import EquityOptions
from scrabble.moves import MoveList
from scrabble.notation import move_at
from scrabble.position import Position
from scrabble.scoring import score_line
from scrabble.tiles import ACROSS, BLANK, BLANK_FLAG, LETTER_MASK, NEW_FLAG


@dataclass(frozen=True)
class Prospect:
    value: int  # millipoints (weighted)
    notation: str
    score: int
    need: str  # the missing tiles
    probability: float


def wild_count(leave_tiles: int, draws: int, options: EquityOptions) -> int:
    return max(
        0,
        min(
            options.max_extra,
            draws,
            options.wild_tile_budget - leave_tiles,
            2 if leave_tiles <= 3 else 1,
        ),
    )


def best_prospect(
    after: Position,
    pool: npt.NDArray[np.integer],
    draws: int,
    engine: TrieEngine,
    options: EquityOptions,
) -> Prospect | None:
    """The best prospect on the board of ``after`` with its rack (the leave),
    given the unseen pool as the mover sees it, the number of tiles the mover
    will draw, and the visible upcoming tiles of the options (tile indices)."""
    rack = after.rack.astype(np.int64)
    pool = np.asarray(pool, dtype=np.int64).copy()
    if options.upcoming:
        # the first ``draws`` tiles of the visible queue are certain draws
        known = list(options.upcoming)[: max(0, draws)]
        for t in known:
            rack[t] += 1
            pool[t] = max(0, pool[t] - 1)
        draws -= len(known)
    real_blanks = int(rack[BLANK])
    wild = wild_count(int(rack.sum()), draws, options)
    if wild == 0 and rack.sum() == 0:
        return None
    search = rack.copy()
    search[BLANK] += wild
    searched = after.with_rack(search)
    moves = engine.generate(searched)
    if len(moves) == 0:
        return None
    return _pick(moves, searched, engine, pool, draws, real_blanks, options)


@njit(cache=True)
def rescore_all(view, scoring, words, meta, real_blanks, max_extra):
    """Every move rescored with its wild blanks (those beyond the real blanks
    held, first in word order) as real letters; returns scores and the needed
    letters (k, max_extra; -1 = none)."""
    count = meta.shape[0]
    scores = np.empty(count, dtype=np.int64)
    needs = np.full((count, max_extra), -1, dtype=np.int64)
    size = view.lines.shape[1]
    line_word = np.zeros(size, dtype=np.uint8)
    for i in range(count):
        length = meta[i, 3]
        blanks_used = 0
        for j in range(length):
            if words[i, j] & NEW_FLAG and words[i, j] & BLANK_FLAG:
                blanks_used += 1
        wild = blanks_used - real_blanks
        if wild <= 0:
            scores[i] = meta[i, 5]
            continue
        needed = 0
        direction = meta[i, 2]
        line = meta[i, 0] if direction == ACROSS else meta[i, 1]
        start = meta[i, 1] if direction == ACROSS else meta[i, 0]
        for j in range(length):
            code = words[i, j]
            if wild > 0 and code & NEW_FLAG and code & BLANK_FLAG:
                code = code & ~BLANK_FLAG
                if needed < max_extra:
                    needs[i, needed] = (code & LETTER_MASK) - 1
                needed += 1
                wild -= 1
            line_word[start + j] = code
        scores[i] = score_line(
            line_word, start, start + length - 1, view.letter_mult[direction, line],
            view.word_mult[direction, line], view.cross_score[direction, line], scoring,
        )  # fmt: skip
    return scores, needs


def _pick(
    moves: MoveList,
    searched: Position,
    engine: TrieEngine,
    pool: npt.NDArray[np.int64],
    draws: int,
    real_blanks: int,
    options: EquityOptions,
) -> Prospect | None:
    rules = searched.rules
    view = searched.view(engine.lexicon.trie)
    scores, needs = rescore_all(
        view, rules.scoring, moves.words, moves.meta, real_blanks, options.max_extra
    )
    # One exact probability per distinct need, computed best-first: a need's
    # value is bounded by its best score x the single-letter chance of its
    # scarcest letter (P(>= 1 of that letter or a blank), closed form), and the
    # search stops once no remaining bound beats the best exact value so far.
    code = np.zeros(len(scores), dtype=np.int64)
    for j in range(options.max_extra):
        code = code * 27 + (needs[:, j] + 1)
    keys, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    top = np.zeros(len(keys), dtype=np.int64)
    np.maximum.at(top, inverse, scores)
    total = int(pool.sum())
    d = min(int(draws), total)
    single = np.array(
        [
            1.0 - comb(total - int(pool[t]) - int(pool[BLANK]), d) / comb(total, d)
            if total
            else 0.0
            for t in range(26)
        ]
    )
    key_needs = needs[first]
    bound = top.astype(float)
    for j in range(options.max_extra):
        col = key_needs[:, j]
        bound = np.where(col >= 0, np.minimum(bound, top * single[np.maximum(col, 0)]), bound)
    probs = np.zeros(len(keys))
    pool_key = tuple(int(x) for x in pool)
    best = 0.0
    for j in np.argsort(-bound, kind="stable").tolist():
        if bound[j] <= best:
            break
        if keys[j] == 0:
            probs[j] = 1.0
        else:
            need = [0] * 27
            for t in key_needs[j]:
                if t >= 0:
                    need[int(t)] += 1
            probs[j] = float(_p_all_cached(pool_key, tuple(need), d))
        best = max(best, top[j] * probs[j])
    p = probs[inverse]
    value = np.round(scores * p * PER_POINT).astype(np.int64) * options.prospect_weight_pct // 100
    i = int(moves.order(1, primary=value)[0])
    if value[i] <= 0:
        return None
    letters = "".join(sorted(chr(65 + t) for t in needs[i] if t >= 0))
    return Prospect(
        value=int(value[i]),
        notation=move_at(moves, i).notation,
        score=int(scores[i]),
        need=letters,
        probability=round(float(p[i]), 6),
    )
