"""Static equity, evaluated inside the move generator: the fast best-move path.

Static equity = score + leave (the exhaustive leave table) + the standard
adjustments MAGPIE, Macondo and wolges share:

* the bag empty before the move: going out earns twice the opponent's tile
  values; not going out costs 10 points plus twice the tiles kept;
* on an empty board, each vowel placed beside a double-letter square (where
  the reply's parallel play doubles a high tile) costs 0.7 points.

The per-rack table of equity adjustments (one value per kept sub-multiset, in
the mixed radix of ``leave_table``) is built here once per turn; the trie
kernel evaluates each placement as it finds it and keeps only the best ``top``
(``engines.sink``). Exchanges are valued from the same table (the tiles kept,
score 0) and pass as 0; ``choose`` picks among the three.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.engines import trie as trie_kernel
from scrabble.engines.sink import MOVES, PRUNED, VOWEL_LETTERS
from scrabble.equity.leave_table import LeaveTable, table_path
from scrabble.equity.millipoints import PER_POINT
from scrabble.lexicon.loaded import Lexicon, signature_table
from scrabble.lexicon.table import SignatureTable
from scrabble.lexicon.trie import Trie
from scrabble.moves import COL, DIRECTION, LENGTH, ROW, MoveList
from scrabble.position import Position
from scrabble.rules import STANDARD, Rules
from scrabble.tiles import ACROSS, LETTER_MASK, NEW_FLAG, RACK_TYPES

HOTSPOT_PENALTY = -700  # millipoints per vowel beside a double letter, opening only
NOT_OUT_CONSTANT = -10_000  # millipoints, bag empty and the move keeps tiles
NOT_OUT_PER_POINT = -2 * PER_POINT  # per point of face value kept
OUT_PER_POINT = 2 * PER_POINT  # per point of the opponent's tiles, going out


@njit(cache=True)
def endgame_values(rack, radix, values, opponent_points, constant, per_kept, per_opponent):
    """Per kept sub-multiset (mixed radix), the bag-empty adjustment."""
    combos = 1
    for tile in range(rack.shape[0]):
        combos *= rack[tile] + 1
    out = np.empty(combos, dtype=np.int64)
    for index in range(combos):
        kept_points = 0
        kept = 0
        for tile in range(rack.shape[0]):
            if radix[tile] > 0:
                count = (index // radix[tile]) % (rack[tile] + 1)
                kept += count
                kept_points += count * values[tile]
        if kept == 0:
            out[index] = per_opponent * opponent_points
        else:
            out[index] = constant + per_kept * kept_points
    return out


def mixed_radix(rack: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    radix = np.zeros(RACK_TYPES, dtype=np.int64)
    combos = 1
    for tile in range(RACK_TYPES):
        if rack[tile] > 0:
            radix[tile] = combos
            combos *= int(rack[tile]) + 1
    return radix


def hotspots_of(rules: Rules) -> npt.NDArray[np.bool_]:
    """(2, n, n): squares with a double letter above or below in the line's
    perpendicular (the squares beside the opening line that a reply can use)."""
    double = rules.letter_mult_lines == 2
    out = np.zeros_like(double)
    out[:, 1:, :] |= double[:, :-1, :]
    out[:, :-1, :] |= double[:, 1:, :]
    hotspots: npt.NDArray[np.bool_] = out
    return hotspots


@dataclass(frozen=True)
class RackValues:
    """The equity adjustment of keeping each sub-multiset of one rack."""

    values: npt.NDArray[np.int64]
    radix: npt.NDArray[np.int64]

    def of(self, kept: npt.NDArray[np.integer]) -> int:
        return int(self.values[int(np.asarray(kept, dtype=np.int64) @ self.radix)])


@dataclass(frozen=True)
class Best:
    """The best placements by static equity, best first."""

    moves: MoveList
    equity: npt.NDArray[np.int64]  # per row of moves, millipoints
    found: int  # placements evaluated
    pruned: int  # anchors skipped by their bound


@dataclass
class StaticEquity:
    table: LeaveTable
    signatures: SignatureTable  # the lexicon's anagram table (whole-rack shapes)
    _hotspots: dict[int, tuple[Rules, npt.NDArray[np.bool_]]] = field(default_factory=dict)

    @classmethod
    def for_lexicon(cls, lexicon: Lexicon, table: LeaveTable | None = None) -> StaticEquity:
        """The lexicon's own leave table (``scripts/leavegen.py`` makes one for any
        lexicon), or the linear model written out as one while it has none."""
        if table is None:
            path = table_path(lexicon.info.name)
            if path.is_file():
                table = LeaveTable.load(lexicon.info.name)
            else:
                rules = STANDARD
                table = LeaveTable.linear(rules.counts.astype(np.int64), rules.rack_size)
        return cls(table, signature_table(lexicon))

    def hotspots(self, rules: Rules) -> npt.NDArray[np.bool_]:
        entry = self._hotspots.get(id(rules))
        if entry is None or entry[0] is not rules:
            entry = (rules, hotspots_of(rules))
            self._hotspots[id(rules)] = entry
        return entry[1]

    def hotspot_vowels(self, position: Position, moves: MoveList) -> npt.NDArray[np.int64]:
        """Per move, the vowels it places on hotspots (the kernel's penalty, in
        NumPy for a whole list)."""
        if len(moves) == 0:
            return np.zeros(0, dtype=np.int64)
        hot = self.hotspots(position.rules)
        meta = moves.meta.astype(np.int64)
        k = np.arange(moves.words.shape[1], dtype=np.int64)[None, :]
        across = (meta[:, DIRECTION] == ACROSS)[:, None]
        line = np.where(across, meta[:, ROW : ROW + 1], meta[:, COL : COL + 1])
        square = np.where(across, meta[:, COL : COL + 1], meta[:, ROW : ROW + 1]) + k
        valid = k < meta[:, LENGTH : LENGTH + 1]
        words = moves.words.astype(np.int64)
        letters = np.clip((words & LETTER_MASK) - 1, 0, 25)
        vowel = (VOWEL_LETTERS >> letters) & 1 == 1
        new = valid & (words & NEW_FLAG != 0)
        direction = np.broadcast_to(meta[:, DIRECTION : DIRECTION + 1], square.shape)
        spots = hot[direction, np.broadcast_to(line, square.shape), np.where(valid, square, 0)]
        counts: npt.NDArray[np.int64] = (new & vowel & spots).sum(axis=1).astype(np.int64)
        return counts

    def rack_values(self, position: Position, opponent: npt.NDArray[np.integer] | None = None
                    ) -> RackValues:  # fmt: skip
        """Leave values while the bag has tiles; endgame adjustments once it is
        empty (``opponent``: the opponent's rack when known, else all unseen)."""
        rack = position.rack.astype(np.int64)
        if position.bag_count > 0:
            values, radix = self.table.rack_values(rack)
            return RackValues(values, radix)
        radix = mixed_radix(rack)
        theirs = position.opponent_tiles() if opponent is None else opponent
        points = int((np.asarray(theirs, dtype=np.int64)[:26] * position.rules.values[:26]).sum())
        values = endgame_values(rack, radix, position.rules.values.astype(np.int64), points,
                                NOT_OUT_CONSTANT, NOT_OUT_PER_POINT, OUT_PER_POINT)  # fmt: skip
        return RackValues(values, radix)

    def best(self, position: Position, trie: Trie, top: int = 1,
             rack_values: RackValues | None = None, prune: bool = True,
             opening_penalty: bool = True) -> Best:  # fmt: skip
        """The ``top`` best placements of the position by static equity."""
        worth = rack_values or self.rack_values(position)
        penalty = HOTSPOT_PENALTY if position.is_empty and opening_penalty else 0
        equity, words, meta, counter = trie_kernel.best(
            position.view(trie), position.rack, trie, position.rules.scoring, worth.values,
            worth.radix, self.hotspots(position.rules), penalty, top, prune, self.signatures,
        )  # fmt: skip
        if len(meta) <= 1:  # the usual top 1: nothing to order
            return Best(MoveList(words=words.copy(), meta=meta.copy()), equity.copy(),
                        int(counter[MOVES]), int(counter[PRUNED]))  # fmt: skip
        moves = MoveList(words=words, meta=meta)
        order = moves.order(None, primary=equity)
        ranked = MoveList(words=moves.words[order], meta=moves.meta[order])
        return Best(ranked, equity[order], int(counter[MOVES]), int(counter[PRUNED]))


def best_keep(values: RackValues, rack: npt.NDArray[np.integer]) -> tuple[int, int]:
    """(equity, mixed-radix index) of the best exchange: the keep worth most
    among those that throw at least one tile back (the first of equals, in
    mixed-radix order: a fixed choice)."""
    whole = int(np.asarray(rack, dtype=np.int64) @ values.radix)
    candidates = values.values.copy()
    candidates[whole] = np.iinfo(np.int64).min
    index = int(np.argmax(candidates))
    return int(candidates[index]), index


def kept_counts(index: int, rack: npt.NDArray[np.integer],
                radix: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:  # fmt: skip
    """The 27 counts of the sub-multiset at mixed-radix ``index``."""
    counts = np.asarray(rack, dtype=np.int64)
    out = np.zeros(RACK_TYPES, dtype=np.int64)
    held = radix > 0
    out[held] = (index // radix[held]) % (counts[held] + 1)
    return out


@dataclass(frozen=True)
class Choice:
    kind: str  # "play" | "exchange" | "pass"
    equity: int  # millipoints
    best: Best | None = None  # play: the placement is best.moves row 0
    keep: npt.NDArray[np.int64] | None = None  # exchange: the 27 counts kept


def choose(static: StaticEquity, position: Position, trie: Trie,
           can_exchange: bool | None = None) -> Choice:  # fmt: skip
    """The static player's move: the best placement, unless an exchange (when
    the bag holds a full rack) is worth strictly more; with neither, pass."""
    worth = static.rack_values(position)
    found = static.best(position, trie, 1, worth)
    play = int(found.equity[0]) if len(found.moves) else None
    allowed = (
        position.bag_count >= position.rules.rack_size if can_exchange is None else can_exchange
    )
    if allowed and position.rack.sum() > 0:
        exchange, index = best_keep(worth, position.rack)
        if play is None or exchange > play:
            return Choice("exchange", exchange, keep=kept_counts(index, position.rack, worth.radix))
    if play is not None:
        return Choice("play", play, best=found)
    return Choice("pass", 0)
