"""Adversarial risk: the replies a move opens to the opponent.

The opponent's rack is unknown: it is rack_size tiles drawn from the unseen
pool (as the mover sees it). We draw ``samples`` racks with ``random.Random(seed)``
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
import numpy.typing as npt

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.draw import p_draw_all
from scrabble.equity.millipoints import PER_POINT
from scrabble.moves import COL, DIRECTION, LENGTH, ROW, MoveList
from scrabble.notation import move_at
from scrabble.position import Position
from scrabble.tiles import ACROSS, NEW_FLAG, RACK_TYPES, placed_tile_index


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


def sample_racks(
    pool: npt.NDArray[np.integer], rack_size: int, samples: int, seed: int
) -> list[npt.NDArray[np.uint8]]:
    rng = random.Random(seed)
    tiles = [t for t in range(RACK_TYPES) for _ in range(int(pool[t]))]
    take = min(rack_size, len(tiles))
    out = []
    for _ in range(samples):
        rack = np.zeros(RACK_TYPES, dtype=np.uint8)
        for t in rng.sample(tiles, take):
            rack[t] += 1
        out.append(rack)
    return out


def best_replies(
    board: Position, racks: list[npt.NDArray[np.uint8]], engine: TrieEngine
) -> tuple[npt.NDArray[np.int64], list[MoveList]]:
    """The opponent's best reply score on ``board`` for each sampled rack (the
    positions share the board's view)."""
    best = np.zeros(len(racks), dtype=np.int64)
    lists = []
    for j, rack in enumerate(racks):
        moves = engine.generate(board.with_rack(rack))
        lists.append(moves)
        if len(moves):
            best[j] = int(moves.scores.max())
    return best, lists


def tail_mean(values: npt.NDArray[np.int64], share_pct: int) -> float:
    """Mean of the top ``share_pct`` % of values (at least one)."""
    k = max(1, -(-len(values) * share_pct // 100))
    return float(np.sort(values)[::-1][:k].mean())


def assess(
    after: Position,
    new_squares: set[int],
    racks: list[npt.NDArray[np.uint8]],
    baseline: int,
    pool: npt.NDArray[np.integer],
    engine: TrieEngine,
    cvar_share_pct: int,
) -> Risk:
    """Risk of the board after a move; ``baseline`` = expected best reply (mp)
    on the board before it with the same racks."""
    best, lists = best_replies(after, racks, engine)
    expected = int(round(best.mean() * PER_POINT))
    threats = _threats(lists, new_squares, pool, after)
    return Risk(
        risk=expected - baseline,
        expected=expected,
        variance=round(float(best.var()), 3),
        cvar10=int(round(tail_mean(best, cvar_share_pct) * PER_POINT)),
        threats=threats,
    )


def touches_squares(moves: MoveList, i: int, squares: set[int], size: int) -> bool:
    """Whether reply i plays through one of ``squares`` or puts a tile beside one."""
    row, col, direction, length = (int(x) for x in moves.meta[i, [ROW, COL, DIRECTION, LENGTH]])
    for k in range(length):
        r, c = (row, col + k) if direction == ACROSS else (row + k, col)
        square = r * size + c
        if not moves.words[i, k] & NEW_FLAG:
            if square in squares:
                return True
            continue
        near = {square, square - size, square + size}
        if c > 0:
            near.add(square - 1)
        if c < size - 1:
            near.add(square + 1)
        if near & squares:
            return True
    return False


def tiles_needed(moves: MoveList, i: int) -> npt.NDArray[np.int64]:
    """The rack tiles reply i uses (27 counts)."""
    need = np.zeros(RACK_TYPES, dtype=np.int64)
    for code in moves.words[i, : moves.meta[i, LENGTH]].tolist():
        if code & NEW_FLAG:
            need[placed_tile_index(code)] += 1
    return need


def _threats(
    lists: list[MoveList], new_squares: set[int], pool: npt.NDArray[np.integer], after: Position
) -> tuple[Threat, ...]:
    """The top three replies touching our new tiles, by score x the exact
    probability that the opponent's rack holds their tiles."""
    size = after.rules.size
    seen: dict[str, tuple[int, npt.NDArray[np.int64]]] = {}
    for moves in lists:
        for i in moves.order(10).tolist():  # each sample's best few replies
            if not touches_squares(moves, i, new_squares, size):
                continue
            move = move_at(moves, i)
            if move.notation not in seen:
                seen[move.notation] = (move.score, tiles_needed(moves, i))
    scored = []
    for notation, (score, need) in seen.items():
        p = p_draw_all(pool, need, after.rules.rack_size)
        scored.append((-score * p, notation, score, p))
    scored.sort()
    return tuple(Threat(notation, score, round(p, 6)) for _, notation, score, p in scored[:3])
