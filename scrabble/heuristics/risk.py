"""Adversarial risk: the replies a move opens to the opponent.

The opponent's rack is unknown: it is rack_size tiles drawn from the unseen
pool (as the mover sees it). We draw SAMPLES racks with ``random.Random(seed)``
once per position and use the same racks for every candidate move (common
random numbers: differences between moves are not sampling noise, and the
output is a fixed function of the input and the seed).

For each sampled rack the opponent's best reply on the board after our move
is found by full move generation. Reported per move:

* ``expected`` -- the expected best reply (mean over samples of the best
  reply score), in millipoints. We use the expected *best* reply, not a sum
  over replies: the opponent plays one move, so summing score x probability
  over all replies would count many alternatives to the same turn.
* ``variance`` of the best reply (points^2) and ``cvar10``: the mean of the
  worst 10 % of samples (the highest best replies, at least one sample).
* ``risk`` -- expected best reply after the move minus expected best reply on
  the board before it (same racks): what this move *opens*. Negative when the
  move blocks more than it opens.
* ``threats`` -- the top three replies touching our new tiles, by score x
  probability, each with the exact probability that 7 tiles from the pool
  hold its tiles (``draw.p_draw_all``, blanks substituting), so
  "40 points at 0.20" reads as 8 points of expected loss.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from scrabble.heuristics.draw import p_draw_all
from scrabble.movegen import generate
from scrabble.moves import MoveList, move_at
from scrabble.position import Position
from scrabble.scoring import NEW_FLAG
from scrabble.tiles import BLANK

SAMPLES = 12
CVAR_SHARE_PCT = 10


@dataclass(frozen=True)
class Threat:
    notation: str
    score: int
    probability: float


@dataclass(frozen=True)
class Risk:
    risk: int  # millipoints: expected best reply after minus before
    expected: int  # millipoints: expected best reply after the move
    variance: float  # points^2
    cvar10: int  # millipoints
    threats: tuple[Threat, ...] = field(default_factory=tuple)


def sample_racks(pool: np.ndarray, rack_size: int, samples: int, seed: int) -> list[np.ndarray]:
    rng = random.Random(seed)
    tiles = [t for t in range(27) for _ in range(int(pool[t]))]
    take = min(rack_size, len(tiles))
    out = []
    for _ in range(samples):
        rack = np.zeros(27, dtype=np.uint8)
        for t in rng.sample(tiles, take):
            rack[t] += 1
        out.append(rack)
    return out


def best_replies(board: np.ndarray, racks: list[np.ndarray], position: Position, lexicon
                 ) -> tuple[np.ndarray, list[MoveList]]:
    rules = position.rules
    best = np.zeros(len(racks), dtype=np.int64)
    lists = []
    for j, rack in enumerate(racks):
        moves = generate(Position(board=board, rack=rack, rules=rules), lexicon)
        lists.append(moves)
        if len(moves):
            best[j] = int(moves.scores.max())
    return best, lists


def tail_mean(values: np.ndarray, share_pct: int = CVAR_SHARE_PCT) -> float:
    """Mean of the top ``share_pct`` % of values (at least one)."""
    k = max(1, -(-len(values) * share_pct // 100))
    return float(np.sort(values)[::-1][:k].mean())


def assess(board_after: np.ndarray, new_squares: set[int], racks: list[np.ndarray],
           baseline: int, pool: np.ndarray, position: Position, lexicon) -> Risk:
    """Risk of the board after a move; ``baseline`` = expected best reply (mp)
    on the board before it with the same racks."""
    best, lists = best_replies(board_after, racks, position, lexicon)
    expected = int(round(best.mean() * 1000))
    threats = _threats(lists, new_squares, pool, position)
    return Risk(risk=expected - baseline, expected=expected,
                variance=round(float(best.var()), 3),
                cvar10=int(round(tail_mean(best) * 1000)), threats=threats)


def _threats(lists: list[MoveList], new_squares: set[int], pool: np.ndarray,
             position: Position) -> tuple[Threat, ...]:
    n = position.rules.size
    seen: dict[str, tuple[int, np.ndarray]] = {}
    for moves in lists:
        if not len(moves):
            continue
        for i in moves.order(10):  # each sample's best few replies
            r, c, d, length = (int(x) for x in moves.meta[i, :4])
            touches = False
            need = np.zeros(27, dtype=np.int64)
            for k in range(length):
                rr, cc = (r, c + k) if d == 0 else (r + k, c)
                sq = rr * n + cc
                code = int(moves.words[i, k])
                near = {sq, sq - n, sq + n} | ({sq - 1} if cc > 0 else set()) | (
                    {sq + 1} if cc < n - 1 else set())
                if code & NEW_FLAG:
                    need[BLANK if code & 32 else (code & 31) - 1] += 1
                    if near & new_squares:
                        touches = True
                elif sq in new_squares:
                    touches = True
            if not touches:
                continue
            move = move_at(moves, int(i))
            if move.notation not in seen:
                seen[move.notation] = (move.score, need)
    scored = []
    for notation, (score, need) in seen.items():
        p = p_draw_all(pool, need, position.rules.rack_size)
        scored.append((-score * p, notation, score, p))
    scored.sort()
    return tuple(Threat(notation, score, round(p, 6)) for _, notation, score, p in scored[:3])
