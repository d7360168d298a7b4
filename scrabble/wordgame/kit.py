"""What a thinking WordGame player sets up once per case and uses every turn:
the lexicon's arrays, the multipliers as lines, the letter probabilities, the
chance tables, and the search with its buffers."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scrabble.rules import Rules
from scrabble.wordgame.chance import LOG_FACT, three_letter_table
from scrabble.wordgame.lexicons import PlayerLexicon
from scrabble.wordgame.lines import BoardLines, board_lines, multiplier_lines
from scrabble.wordgame.referee import GameSetup
from scrabble.wordgame.rules import wordgame_rules
from scrabble.wordgame.search import META_WIDTH, REACH_DEPTH, reach_masks, search

_REACH: dict[int, tuple[PlayerLexicon, np.ndarray]] = {}


NO_TABLE = np.ones((27, 27, 27), dtype=np.float64)  # a search that keeps every row reads none


def reach_for(lexicon: PlayerLexicon) -> np.ndarray:
    entry = _REACH.get(id(lexicon))
    if entry is None or entry[0] is not lexicon:
        entry = (lexicon, reach_masks(lexicon.trie.mask, lexicon.trie.first, REACH_DEPTH))
        _REACH[id(lexicon)] = entry
    return entry[1]


def counts26(letters: str) -> np.ndarray:
    out = np.zeros(26, dtype=np.int64)
    for ch in letters:
        out[ord(ch) - 65] += 1
    return out


def letters_of(counts: np.ndarray) -> str:
    return "".join(chr(65 + i) * int(c) for i, c in enumerate(counts) if c > 0)


def unique_submultisets(rows: np.ndarray, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(rows, axis=0, return_inverse=True)`` for rows that are
    sub-multisets of ``hand`` (26 counts each), in the same order: each row is
    one mixed-radix number, letter A the most significant digit, so sorting the
    numbers sorts the rows. The axis=0 unique sorts rows as structured
    records: 167 ms against 1.8 ms on 20,000 leaves of a 7-tile hand."""
    stride = np.zeros(26, dtype=np.int64)
    step = 1
    for letter in range(25, -1, -1):
        stride[letter] = step
        step *= int(hand[letter]) + 1
    keys = rows.astype(np.int64) @ stride
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return rows[first], inverse.reshape(-1)


@dataclass
class Kit:
    setup: GameSetup
    lexicon: PlayerLexicon
    rules: Rules = field(init=False)
    lm: np.ndarray = field(init=False)
    wm: np.ndarray = field(init=False)
    values: np.ndarray = field(init=False)
    probs: np.ndarray = field(init=False)
    reach: np.ndarray = field(init=False)
    _tables: dict[int, np.ndarray] = field(init=False, default_factory=dict)
    _meta: np.ndarray = field(init=False)
    _codes: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        s = self.setup
        self.rules = wordgame_rules(s.n, s.premiums, s.t)
        self.lm, self.wm = multiplier_lines(self.rules)
        self.values = np.asarray(s.letter_values + (0,), dtype=np.int32)
        p = np.asarray(s.probabilities, dtype=np.float64)
        p = np.maximum(p, 1e-12)
        self.probs = p / p.sum()
        self.reach = reach_for(self.lexicon)
        self._meta = np.empty((1 << 14, META_WIDTH), dtype=np.int32)
        self._codes = np.empty((1 << 14, s.n), dtype=np.uint8)

    @property
    def n(self) -> int:
        return self.setup.n

    def lines(self, board: np.ndarray) -> BoardLines:
        return board_lines(board, self.n, self.lexicon, self.values)

    def table3(self, horizon: int) -> np.ndarray:
        table = self._tables.get(horizon)
        if table is None:
            table = three_letter_table(self.probs, horizon, LOG_FACT)
            self._tables[horizon] = table
        return table

    def search(
        self,
        bl: BoardLines,
        hand: np.ndarray,
        vis: np.ndarray,
        wild_cap: np.ndarray,
        min_score: int = 0,
        min_score3: int = 0,
        floor: int = 0,
        keep_best: int = 0,
        table3: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """(meta, codes, trie nodes entered) of every play and prospect (with
        ``floor``, only those scoring it or more; with ``keep_best`` K and the
        turn's ``table3``, every play and at least the prospects among the K
        best rows by value)."""
        chances = NO_TABLE if table3 is None else table3
        while True:
            counter = np.zeros(2, dtype=np.int64)
            search(
                bl.cells,
                bl.cmask,
                bl.cross,
                self.lm,
                self.wm,
                self.values,
                self.lexicon.trie.mask,
                self.lexicon.trie.first,
                self.reach,
                hand.astype(np.int64),
                vis.astype(np.int64),
                wild_cap,
                self.setup.t,
                bl.empty,
                min_score,
                min_score3,
                floor,
                keep_best,
                chances,
                self._meta,
                self._codes,
                counter,
            )
            found = int(counter[0])
            if found <= len(self._meta):
                return self._meta[:found].copy(), self._codes[:found].copy(), int(counter[1])
            size = 1 << max(found - 1, 1).bit_length()
            self._meta = np.empty((size, META_WIDTH), dtype=np.int32)
            self._codes = np.empty((size, self.n), dtype=np.uint8)
