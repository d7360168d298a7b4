"""Prospects: the best move a few more tiles would allow after this move.

After move m the board is B' and the player keeps leave L, then draws d tiles
(d = tiles m placed, capped by the bag). A prospect is a move on B' that L
plus up to ``e`` more tiles can make; its value is its score times the exact
probability that the missing tiles arrive among the d drawn (multivariate
hypergeometric over the unseen pool, blanks substituting; ``draw.p_draw_all``).
Visible upcoming tiles, when given, are certain: they join the rack first and
leave the pool. The term is the best prospect value (the write-up's
``max v(w)``), weighted by PROSPECT_WEIGHT_PCT because the opponent moves in
between and may take or block the spot (docs/prospect.md).

How: one move generation on B' with the rack L + e blanks finds every move
using up to e missing tiles (a blank stands for "some tile I do not hold");
each such move is rescored with those blanks as the real letters they stand
for (``rescore_all``, with the shared ``scoring.score_line``), and its need is those
letters. Cost is bounded by ``e``:
blanks multiply the search (a 5-tile rack with 2 blanks is ~25 ms, 7 tiles
~80 ms on a midgame board), so e = 2 only for short leaves and 1 otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
from numba import njit

from scrabble.board import cross_checks
from scrabble.heuristics.draw import _p_all_cached
from scrabble.movegen import generate
from scrabble.moves import MoveList, move_at
from scrabble.position import Position
from scrabble.scoring import NEW_FLAG, score_line
from scrabble.tiles import BLANK

PROSPECT_WEIGHT_PCT = 50
MAX_EXTRA = 3  # the 1..3 more tiles
WILD_TILE_BUDGET = 6  # leave + wild blanks searched at once (bounds the cost)


def line_arrays(board: np.ndarray, rules, lexicon) -> tuple[np.ndarray, ...]:
    """Per direction (0 across, 1 down) the lines' cross-word scores, letter and
    word multipliers, as ``scoring.score_line`` takes them."""
    n = rules.size
    b = board.reshape(n, n)
    lines = (np.ascontiguousarray(b), np.ascontiguousarray(b.T))
    cross = np.stack([cross_checks(ls, lexicon.trie.mask, lexicon.trie.first, rules.values)[1]
                      for ls in lines])
    lm = rules.letter_mult.reshape(n, n)
    wm = rules.word_mult.reshape(n, n)
    return (cross, np.ascontiguousarray(np.stack([lm, lm.T])),
            np.ascontiguousarray(np.stack([wm, wm.T])))


@njit(cache=True)
def _score_placed(cross, lm, wm, values, codes, length, row, col, direction, rack_size,
                  bingo, line_buf):
    """Score a main word (cell codes with NEW_FLAG) with the shared scorer."""
    line = row if direction == 0 else col
    start = col if direction == 0 else row
    for k in range(length):
        line_buf[start + k] = codes[k]
    return score_line(line_buf, start, start + length - 1, lm[direction, line],
                      wm[direction, line], cross[direction, line], values, rack_size, bingo)


def rescore(board: np.ndarray, rules, lexicon, codes: np.ndarray, row: int, col: int,
            direction: int) -> int:
    """The score of one placement on ``board`` (tests, one-off callers)."""
    cross, lm, wm = line_arrays(board, rules, lexicon)
    return int(_score_placed(cross, lm, wm, rules.values, codes, len(codes), row, col,
                             direction, rules.rack_size, rules.bingo_bonus,
                             np.zeros(32, dtype=np.uint8)))


@dataclass(frozen=True)
class Prospect:
    value: int  # millipoints (weighted)
    notation: str
    score: int
    need: str  # the missing tiles
    probability: float


def wild_count(leave_tiles: int, draws: int) -> int:
    return max(0, min(MAX_EXTRA, draws, WILD_TILE_BUDGET - leave_tiles,
                      2 if leave_tiles <= 3 else 1))


def best_prospect(board: np.ndarray, leave: np.ndarray, pool: np.ndarray, draws: int,
                  position: Position, lexicon, upcoming: tuple[int, ...] | None = None
                  ) -> Prospect | None:
    """The best prospect after a move (board after it, the leave, the unseen pool
    as the mover sees it, the number of tiles the mover will draw, and the
    visible upcoming tiles in order as tile indices 0..26)."""
    rules = position.rules
    rack = np.asarray(leave, dtype=np.int64).copy()
    pool = np.asarray(pool, dtype=np.int64).copy()
    if upcoming:
        # the first ``draws`` tiles of the visible queue are certain draws
        known = list(upcoming)[:max(0, draws)]
        for t in known:
            rack[t] += 1
            pool[t] = max(0, pool[t] - 1)
        draws -= len(known)
    real_blanks = int(rack[BLANK])
    e = wild_count(int(rack.sum()), draws)
    if e == 0 and rack.sum() == 0:
        return None
    search = rack.copy()
    search[BLANK] += e
    moves = generate(Position(board=board, rack=search.astype(np.uint8), rules=rules), lexicon)
    if len(moves) == 0:
        return None
    return _pick(moves, board, rules, lexicon, pool, draws, real_blanks)


@njit(cache=True)
def rescore_all(cross, lm, wm, values, words, meta, real_blanks, rack_size, bingo):
    """Every move rescored with its wild blanks (those beyond the real blanks
    held, first in word order) as real letters; returns scores and the needed
    letters (k, MAX_EXTRA; -1 = none)."""
    k = meta.shape[0]
    scores = np.empty(k, dtype=np.int64)
    needs = np.full((k, MAX_EXTRA), -1, dtype=np.int64)
    codes = np.empty(words.shape[1], dtype=np.uint8)
    line_buf = np.zeros(32, dtype=np.uint8)
    for i in range(k):
        length = meta[i, 3]
        used = 0
        for j in range(length):
            if words[i, j] & NEW_FLAG and words[i, j] & 32:
                used += 1
        wild = used - real_blanks
        if wild <= 0:
            scores[i] = meta[i, 5]
            continue
        m = 0
        for j in range(length):
            code = words[i, j]
            if wild > 0 and code & NEW_FLAG and code & 32:
                code = code & ~32
                if m < MAX_EXTRA:
                    needs[i, m] = (code & 31) - 1
                m += 1
                wild -= 1
            codes[j] = code
        scores[i] = _score_placed(cross, lm, wm, values, codes, length, meta[i, 0], meta[i, 1],
                                  meta[i, 2], rack_size, bingo, line_buf)
    return scores, needs


def _pick(moves: MoveList, board: np.ndarray, rules, lexicon, pool: np.ndarray, draws: int,
          real_blanks: int) -> Prospect | None:
    cross, lm, wm = line_arrays(board, rules, lexicon)
    scores, needs = rescore_all(cross, lm, wm, rules.values, moves.words, moves.meta,
                                real_blanks, rules.rack_size, rules.bingo_bonus)
    # One exact probability per distinct need, computed best-first: a need's
    # value is bounded by its best score x the single-letter chance of its
    # scarcest letter (P(>= 1 of that letter or a blank), closed form), and the
    # search stops once no remaining bound beats the best exact value so far.
    code = np.zeros(len(scores), dtype=np.int64)
    for j in range(MAX_EXTRA):
        code = code * 27 + (needs[:, j] + 1)
    keys, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    top = np.zeros(len(keys), dtype=np.int64)
    np.maximum.at(top, inverse, scores)
    total = int(pool.sum())
    d = min(int(draws), total)
    single = np.array([1.0 - comb(total - int(pool[t]) - int(pool[BLANK]), d) / comb(total, d)
                       if total else 0.0 for t in range(26)])
    key_needs = needs[first]
    bound = top.astype(float)
    for j in range(MAX_EXTRA):
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
    value = np.round(scores * p * 1000).astype(np.int64) * PROSPECT_WEIGHT_PCT // 100
    i = int(moves.order(1, primary=value)[0])
    if value[i] <= 0:
        return None
    letters = "".join(sorted(chr(65 + t) for t in needs[i] if t >= 0))
    return Prospect(value=int(value[i]), notation=move_at(moves, i).notation,
                    score=int(scores[i]), need=letters, probability=round(float(p[i]), 6))
