"""A position: the board as a flat uint8 array and the rack as counts.

This is the one boundary where text becomes arrays. Every problem found is a
``PositionError`` naming the field and what is wrong, so the API can answer
4xx with it. A ``Position`` is built once per request and passed on; its
board view (lines, cross-checks, anchors, premiums per direction) is computed
on first use for a lexicon and kept, and positions that share the board (the
same board with another rack) share it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from scrabble.board import BoardView, trie_view
from scrabble.rules import STANDARD, Rules
from scrabble.tiles import (
    ALPHABET,
    BLANK,
    BLANK_FLAG,
    EMPTY,
    RACK_SYMBOLS,
    RACK_TYPES,
    cell_char,
)

if TYPE_CHECKING:
    from scrabble.lexicon.trie import Trie

# ASCII -> cell code; 255 marks a character that is not allowed on a board.
_CELL_CODES = np.full(256, 255, dtype=np.uint8)
_CELL_CODES[ord(".")] = EMPTY
for _i, _ch in enumerate(ALPHABET):
    _CELL_CODES[ord(_ch)] = _i + 1
    _CELL_CODES[ord(_ch.lower())] = _i + 1 + BLANK_FLAG


# cell code -> its character, and -> its index in a 27-count vector (letters
# 0-25, blanks 26; 27 for an empty square, dropped after counting)
_CELL_TEXT = np.frombuffer(
    bytes(ord(cell_char(c)) if c == EMPTY or 1 <= c & 31 <= 26 else 63 for c in range(256)),
    dtype=np.uint8,
)
_COUNT_INDEX = np.full(256, 27, dtype=np.intp)
for _i in range(26):
    _COUNT_INDEX[_i + 1] = _i
    _COUNT_INDEX[_i + 1 + BLANK_FLAG] = BLANK


class PositionError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Position:
    board: npt.NDArray[np.uint8]  # size*size cell codes, row-major
    rack: npt.NDArray[np.uint8]  # 27 counts
    rules: Rules = STANDARD
    # the opponent's rack when it is known (a CGP's second rack), else None
    opponent: npt.NDArray[np.uint8] | None = None
    # board views by trie (id -> (trie, view)); shared by positions on this board
    _views: dict[int, tuple[Trie, BoardView]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def view(self, trie: Trie) -> BoardView:
        """The board view with cross-checks from ``trie``, computed once."""
        entry = self._views.get(id(trie))
        if entry is None or entry[0] is not trie:
            entry = (trie, trie_view(self.board, self.rules, trie))
            self._views[id(trie)] = entry
        return entry[1]

    def with_rack(self, rack: npt.NDArray[np.integer]) -> Position:
        """The same board (and its views) with another rack."""
        return Position(
            board=self.board,
            rack=rack.astype(np.uint8),
            rules=self.rules,
            opponent=self.opponent,
            _views=self._views,
        )

    @property
    def size(self) -> int:
        return self.rules.size

    @property
    def is_empty(self) -> bool:
        return not self.board.any()

    @property
    def rack_tiles(self) -> int:
        return int(self.rack.sum())

    def rows(self) -> list[str]:
        n = self.size
        text = _CELL_TEXT[self.board].tobytes().decode("ascii")
        return [text[r * n : (r + 1) * n] for r in range(n)]

    def rack_string(self) -> str:
        return "".join(RACK_SYMBOLS[i] * int(self.rack[i]) for i in range(RACK_TYPES))

    def board_counts(self) -> npt.NDArray[np.int32]:
        """Tiles on the board as a 27-count vector (blanks under index 26)."""
        return np.bincount(_COUNT_INDEX[self.board], minlength=28)[:27].astype(np.int32)

    @cached_property
    def _unseen(self) -> npt.NDArray[np.int32]:
        unseen: npt.NDArray[np.int32] = (
            self.rules.counts - self.board_counts() - self.rack.astype(np.int32)
        )
        if self.opponent is not None:
            unseen = unseen - self.opponent.astype(np.int32)
        return unseen

    def unseen(self) -> npt.NDArray[np.int32]:
        """The tiles the mover has not seen: the tile set minus the board, the
        rack and the opponent's rack when it is known (then exactly the bag;
        else the bag and the opponent's rack together). A fresh copy."""
        return self._unseen.copy()

    @cached_property
    def bag_count(self) -> int:
        """Tiles in the bag: the unseen tiles, less a full opponent's rack when
        that rack is not known."""
        unseen = int(self._unseen.sum())
        return unseen if self.opponent is not None else max(0, unseen - self.rules.rack_size)

    def opponent_tiles(self) -> npt.NDArray[np.int32]:
        """The opponent's rack as far as the mover knows: the known rack, or all
        the unseen tiles once the bag is empty (else the pool it came from)."""
        if self.opponent is not None:
            return self.opponent.astype(np.int32)
        return self._unseen.copy()


def parse_board(rows: list[str], rules: Rules = STANDARD, field: str = "board") -> np.ndarray:
    n = rules.size
    if not isinstance(rows, list) or len(rows) != n:
        got = len(rows) if isinstance(rows, list) else type(rows).__name__
        raise PositionError(field, f"must have {n} rows, got {got}")
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise PositionError(f"{field}[{r}]", "must be a string")
        if len(row) != n:
            raise PositionError(f"{field}[{r}]", f"row {r} has {len(row)} cells, expected {n}")
    text = "".join(rows)
    if not text.isascii():
        bad = next(i for i, ch in enumerate(text) if not ch.isascii())
        raise PositionError(
            f"{field}[{bad // n}]",
            f"row {bad // n} column {bad % n}: {text[bad]!r} is not '.', A-Z or a-z",
        )
    codes = _CELL_CODES[np.frombuffer(text.encode("ascii"), dtype=np.uint8)]
    if (codes == 255).any():
        bad = int(np.argmax(codes == 255))
        raise PositionError(
            f"{field}[{bad // n}]",
            f"row {bad // n} column {bad % n}: {text[bad]!r} is not '.', A-Z or a-z",
        )
    return codes


def parse_rack(rack: str, rules: Rules = STANDARD, field: str = "rack") -> np.ndarray:
    if not isinstance(rack, str):
        raise PositionError(field, "must be a string")
    if not rack:
        raise PositionError(
            field, f"is empty; give 1 to {rules.rack_size} tiles of A-Z or ? (blank)"
        )
    if len(rack) > rules.rack_size:
        raise PositionError(field, f"has {len(rack)} tiles, at most {rules.rack_size}")
    counts = np.zeros(RACK_TYPES, dtype=np.uint8)
    for ch in rack:
        if ch == "?":
            counts[BLANK] += 1
        elif "A" <= ch <= "Z":
            counts[ord(ch) - 65] += 1
        elif "a" <= ch <= "z":
            raise PositionError(field, f"{ch!r}: rack letters are upper case (A-Z), blanks are '?'")
        else:
            raise PositionError(field, f"{ch!r} is not a tile (A-Z or ? for a blank)")
    return counts


def check_tile_supply(
    board: np.ndarray, rack: np.ndarray, rules: Rules, opponent: np.ndarray | None = None
) -> None:
    pos = Position(board=board, rack=rack, rules=rules)
    used = pos.board_counts() + rack.astype(np.int32)
    if opponent is not None:
        used = used + opponent.astype(np.int32)
    over = np.nonzero(used > rules.counts)[0]
    if len(over):
        i = int(over[0])
        name = "?" if i == BLANK else ALPHABET[i]
        what = "blank" if i == BLANK else f"{name} tile"
        holders = "board and racks" if opponent is not None else "board and rack"
        raise PositionError(
            "rack" if rack[i] else "board",
            f"{holders} hold {used[i]} {what}s, the tile set has {rules.counts[i]}",
        )


def make_position(
    rows: list[str], rack: str, rules: Rules = STANDARD, opponent: str = ""
) -> Position:
    """``opponent``: the opponent's rack when known ("" unknown, as in CGP)."""
    board = parse_board(rows, rules)
    counts = parse_rack(rack, rules)
    theirs = parse_rack(opponent, rules, field="opponent rack") if opponent else None
    check_tile_supply(board, counts, rules, theirs)
    return Position(board=board, rack=counts, rules=rules, opponent=theirs)
