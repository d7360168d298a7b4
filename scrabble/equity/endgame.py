"""Exact endgame search: with the bag empty and both racks known, the value of
every move is the spread change to the end of the game under best play.

``solve`` deepens a negamax search (``endgame_search``) one ply at a time
until no root move's value depends on the horizon, or the time budget runs
out; then it reports the values of the deepest iteration that finished, marked
not exact. A move's value is the sum of the scores still to come, the mover's
minus the opponent's, plus the end-of-game rack adjustments (docs/endgame.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity import endgame_search as kernel
from scrabble.equity.endgame_moves import line_cache, line_premiums, scratch
from scrabble.game import SCORELESS_LIMIT
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import MoveList
from scrabble.notation import move_at
from scrabble.position import Position, PositionError, parse_rack

WORD_WIDTH = 15  # the search's move rows: a standard board's line (n <= 15)

DEFAULT_BUDGET_MS = 300.0
TT_BITS = 20  # 1M entries, about 16 MB
ARENA_MOVES = 1 << 18  # rows of the move stack shared by the nodes of one line
SCRATCH_MOVES = 4096  # one node's generation buffer (grown when a node has more)
PASS = "pass"
# Iterative deepening's depths (plies). Doubling: an iteration that cannot
# finish the game costs most of the one that can, and 1, 2, 4, ... solves the
# golden endgames with 37 % fewer nodes than 1, 2, 3, 4, ... (docs/endgame.md).
DEPTHS = (1, 2, 4, 8, 16, 32, 64, kernel.MAX_PLY - 2)
ZOBRIST_SEED = 20240610


@dataclass(frozen=True)
class EndgameMove:
    index: int  # row of the root MoveList; -1 for the pass
    notation: str
    score: int  # points this move scores
    value: int  # spread change from now to the end, points, mover's view
    exact: bool  # the search proved the value (the horizon never touched it)

    @property
    def value_mp(self) -> int:
        return self.value * 1000


@dataclass(frozen=True)
class EndgameResult:
    moves: tuple[EndgameMove, ...]  # every play and the pass, best first
    pv: tuple[str, ...]  # principal variation of the best move, "pass" for a pass
    pv_complete: bool  # the line runs to the end of the game
    nodes: int
    depth: int  # plies of the deepest finished iteration (when complete: the longest line)
    completed: bool  # every value exact
    elapsed_ms: float
    tt_hits: int
    generated: int  # nodes whose moves were generated
    moves_generated: int  # moves those nodes had, in all
    killer_hits: int  # nodes first tried with a sibling's refutation
    line_hits: int  # lines whose moves came from the line cache
    line_misses: int  # lines searched

    @property
    def best(self) -> EndgameMove:
        return self.moves[0]

    @property
    def budget_cut(self) -> bool:
        return not self.completed


@cache
def _zobrist(cells: int, rack_size: int) -> tuple[npt.NDArray[np.uint64], ...]:
    rng = np.random.default_rng(ZOBRIST_SEED)

    def draw(*shape: int) -> npt.NDArray[np.uint64]:
        keys: npt.NDArray[np.uint64] = rng.integers(1, 2**63, size=shape, dtype=np.int64).astype(
            np.uint64
        )
        return keys

    board = draw(cells, 64)
    rack = draw(2, 27, rack_size + 1)
    rack[:, :, 0] = 0  # an absent letter adds nothing
    side = draw(2)
    scoreless = draw(SCORELESS_LIMIT, 2)  # count, and whether the last turn was a pass
    return board, rack, side, scoreless


def opponent_counts(
    position: Position, opponent_rack: str | np.ndarray, require_empty_bag: bool = True
) -> np.ndarray:
    """The opponent's rack as 27 counts, checked against the unseen tiles."""
    if isinstance(opponent_rack, str):
        counts = parse_rack(opponent_rack, position.rules, field="opponent_rack")
    else:
        counts = np.asarray(opponent_rack, dtype=np.uint8)
    if not counts.any():
        raise PositionError("opponent_rack", "is empty: the game is over")
    if not position.rack.any():
        raise PositionError("rack", "is empty: the game is over")
    if require_empty_bag:
        # what the board and the mover's rack leave (a known opponent rack included)
        unseen = position.rules.counts - position.board_counts() - position.rack.astype(np.int32)
        if (counts.astype(np.int32) > unseen).any():
            raise PositionError(
                "opponent_rack", "holds tiles the board and rack leave unseen no copies of"
            )
        left = int(unseen.sum() - counts.sum())
        if left:
            raise PositionError(
                "opponent_rack", f"the bag is not empty: {left} unseen tiles are on neither rack"
            )
    return counts


def solve(
    position: Position,
    opponent_rack: str | np.ndarray,
    lexicon: Lexicon,
    budget_ms: float = DEFAULT_BUDGET_MS,
    *,
    scoreless: int = 0,
    moves: MoveList | None = None,
    require_empty_bag: bool = True,
    tt_bits: int = TT_BITS,
    max_depth: int | None = None,
    schedule: tuple[int, ...] = DEPTHS,
) -> EndgameResult:
    """Value every move of ``position`` (the mover's plays, then the pass) by an
    exact search of the rest of the game against ``opponent_rack``.

    ``scoreless``: consecutive scoreless turns before this one (a CGP's
    zero-turn count). ``moves``: the position's MoveList, if already made.
    ``max_depth`` stops deepening there (tests and benchmarks)."""
    started = time.perf_counter()
    deadline = started + budget_ms / 1000.0
    rules = position.rules
    n = rules.size
    opp = opponent_counts(position, opponent_rack, require_empty_bag)
    root = TrieEngine(lexicon).generate(position) if moves is None else moves
    if root.words.shape[1] < WORD_WIDTH:  # the search's move arrays are 15 wide
        padded = np.zeros((len(root), WORD_WIDTH), dtype=np.uint8)
        padded[:, : root.words.shape[1]] = root.words
        root = MoveList(words=padded, meta=root.meta, stats=root.stats)
    count = len(root)
    racks = np.zeros((2, 27), dtype=np.int32)
    racks[0] = position.rack
    racks[1] = opp
    rows = position.board.reshape(n, n).copy()
    lm, wm = line_premiums(position)
    zob_board, zob_rack, zob_side, zob_scoreless = _zobrist(n * n, rules.rack_size)
    size = 1 << tt_bits
    tt = (
        np.zeros(size, dtype=np.uint64),
        np.zeros(size, dtype=np.int32),
        np.zeros(size, dtype=np.uint8),
        np.zeros(size, dtype=np.uint8),
        np.zeros(size, dtype=np.int16),
    )
    arena = (
        np.empty((ARENA_MOVES, WORD_WIDTH), dtype=np.uint8),
        np.empty((ARENA_MOVES, 6), dtype=np.int32),
        np.empty(ARENA_MOVES, dtype=np.int64),
    )
    buffers = (
        np.empty((SCRATCH_MOVES, WORD_WIDTH), dtype=np.uint8),
        np.empty((SCRATCH_MOVES, 6), dtype=np.int32),
        *scratch(),
    )
    stats = np.zeros(9, dtype=np.int64)
    sr, sc = rules.opening_square
    gen = (
        lm,
        wm,
        rules.values,
        lexicon.trie.mask,
        lexicon.trie.first,
        sr,
        sc,
        rules.connection == "through",
        rules.rack_size,
        rules.bingo_bonus,
    )
    cache = line_cache()
    common = (gen, cache, zob_board, zob_rack, zob_side, zob_scoreless)

    # root order: the MoveList's fixed order (score first), the pass last
    tie = np.empty(count + 1, dtype=np.int64)
    tie[root.order()] = np.arange(count)
    tie[count] = count
    order = np.arange(count + 1, dtype=np.int64)[np.argsort(tie, kind="stable")]
    values = np.zeros(count + 1, dtype=np.int64)
    resolved = np.zeros(count + 1, dtype=np.int8)
    depth_done = 0
    limit = max_depth if max_depth is not None else kernel.MAX_PLY - 2
    depths = sorted({min(d, limit) for d in schedule})
    for depth in depths:
        trial_values = values.copy()
        trial_resolved = resolved.copy()
        # depth 1 always finishes (its leaves are static): there is always an answer
        until = float("inf") if depth == depths[0] else deadline
        finished = kernel.search(
            rows.copy(),
            np.ascontiguousarray(rows.T),
            racks.copy(),
            0,
            scoreless,
            SCORELESS_LIMIT,
            *common,
            *tt,
            root.words,
            root.meta,
            order,
            trial_values,
            trial_resolved,
            depth,
            until,
            *arena,
            *buffers[2:],
            stats,
        )
        if not finished:
            break
        values, resolved = trial_values, trial_resolved
        depth_done = depth
        if resolved.all():
            break
        order = order[np.argsort(-values[order], kind="stable")]

    ranked = sorted(range(count + 1), key=lambda i: (-int(values[i]), int(tie[i])))
    out = []
    for i in ranked:
        if i == count:
            out.append(EndgameMove(-1, PASS, 0, int(values[i]), bool(resolved[i])))
        else:
            out.append(
                EndgameMove(
                    i,
                    move_at(root, i).notation,
                    int(root.meta[i, 5]),
                    int(values[i]),
                    bool(resolved[i]),
                )
            )
    pv, pv_complete = _principal_variation(
        root, ranked[0], rows, racks, scoreless, common, tt, buffers
    )
    return EndgameResult(
        moves=tuple(out),
        pv=pv,
        pv_complete=pv_complete,
        nodes=int(stats[kernel.NODES]),
        depth=min(depth_done, max(int(stats[kernel.DEEPEST]), 1)) if resolved.all() else depth_done,
        completed=bool(resolved.all()),
        elapsed_ms=(time.perf_counter() - started) * 1000,
        tt_hits=int(stats[kernel.TT_HITS]),
        generated=int(stats[kernel.GENERATED]),
        moves_generated=int(stats[kernel.MOVES_MADE]),
        killer_hits=int(stats[kernel.KILLER_HITS]),
        line_hits=int(cache[-1][0]),
        line_misses=int(cache[-1][1]),
    )


def _principal_variation(
    root: MoveList,
    first: int,
    rows: np.ndarray,
    racks: np.ndarray,
    scoreless: int,
    common: tuple[Any, ...],
    tt: tuple[Any, ...],
    buffers: tuple[Any, ...],
) -> tuple[tuple[str, ...], bool]:
    count = len(root)
    words = np.zeros((kernel.MAX_PLY, WORD_WIDTH), dtype=np.uint8)
    meta = np.zeros((kernel.MAX_PLY, 6), dtype=np.int32)
    is_pass = np.zeros(kernel.MAX_PLY, dtype=np.bool_)
    first_words = root.words[first] if first < count else words[0]
    first_meta = root.meta[first] if first < count else meta[0]
    tt_key, tt_value, _, tt_flag, tt_move = tt
    length, ended = kernel.principal_variation(  # type: ignore[call-arg]
        rows.copy(),
        np.ascontiguousarray(rows.T),
        racks.copy(),
        0,
        scoreless,
        SCORELESS_LIMIT,
        *common,
        tt_key,
        tt_value,
        tt_flag,
        tt_move,
        first_words,
        first_meta,
        first >= count,
        words,
        meta,
        is_pass,
        *buffers,
    )
    line = MoveList(words=words[:length], meta=meta[:length])
    return tuple(PASS if is_pass[k] else move_at(line, k).notation for k in range(length)), bool(
        ended
    )
