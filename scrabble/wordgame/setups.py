"""Setups (section 3): a letter placed now for a big play later.

A hypothetical board tile: an empty square q and a letter l that some play
of the current hand puts on q (so l crosses q's line from the perpendicular
direction). The plays q's line would then allow through (q, l), with up to
the usual missing tiles, become rows with q marked pre-placed: a play that
puts exactly l on q gets their value in full, any other action that leaves
them open counts them at the setup weight. Only the pairs whose line has the
largest empty word multipliers around q are tried (the search is one line).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.wordgame.kit import Kit
from scrabble.wordgame.lines import BoardLines
from scrabble.wordgame.rows import PRE, SETUP, Rows, empty_rows, make_rows
from scrabble.wordgame.search import LETTER, META_LEN, META_LINE, META_SCORE, META_START, NEW


@njit(cache=True)
def around_products(cells, wm, span):
    """pot[direction, line, square]: for an empty square, the largest product
    of empty word multipliers over windows of ``span`` squares of its line
    through it, the square itself left out."""
    n = cells.shape[1]
    pot = np.zeros((2, n, n), dtype=np.float64)
    span = min(span, n)
    for direction in range(2):
        for line in range(n):
            for start in range(n - span + 1):
                prod = 1.0
                for square in range(start, start + span):
                    if cells[direction, line, square] == 0:
                        prod *= wm[direction, line, square]
                for square in range(start, start + span):
                    if cells[direction, line, square] != 0:
                        continue
                    without = prod / wm[direction, line, square]
                    if without > pot[direction, line, square]:
                        pot[direction, line, square] = without
    return pot


@njit(cache=True)
def hot_squares(meta, codes, pot, pairs):
    """The (d_h, line, along, letter) a legal play fills whose perpendicular
    line has the largest ``pot`` there, best first, at most ``pairs``."""
    n = pot.shape[1]
    best = np.full((2, n, n, 26), -1.0)
    for play in range(meta.shape[0]):
        direction = meta[play, 0]
        line = meta[play, 1]
        start = meta[play, 2]
        dh = 1 - direction
        for j in range(meta[play, 3]):
            code = codes[play, j]
            if code & NEW == 0:
                continue
            along = start + j
            row, col = (line, along) if direction == 0 else (along, line)
            hl, ha = (row, col) if dh == 0 else (col, row)
            best[dh, hl, ha, (code & LETTER) - 1] = pot[dh, hl, ha]
    flat = best.reshape(-1)
    order = np.argsort(-flat)[:pairs]
    out = np.zeros((pairs, 4), dtype=np.int64)
    kept = 0
    for flat_index in order:
        if flat[flat_index] <= 1.0:
            break
        letter = flat_index % 26
        rest = flat_index // 26
        ha = rest % n
        rest //= n
        hl = rest % n
        dh = rest // n
        out[kept, 0] = dh
        out[kept, 1] = hl
        out[kept, 2] = ha
        out[kept, 3] = letter
        kept += 1
    return out[:kept]


class SetupFinder:
    def __init__(self, kit: Kit) -> None:
        self.kit = kit

    def candidates(
        self, bl: BoardLines, meta: np.ndarray, codes: np.ndarray, pairs: int
    ) -> list[tuple[int, int, int, int]]:
        """(d_h, line, along, letter) for the hottest squares a legal play fills."""
        pot = around_products(bl.cells, self.kit.wm, self.kit.setup.t + 1)
        found = hot_squares(meta.astype(np.int64), codes, pot, pairs)
        return [tuple(int(x) for x in row) for row in found]  # type: ignore[misc]

    def rows(
        self,
        bl: BoardLines,
        hand: np.ndarray,
        vis: np.ndarray,
        meta: np.ndarray,
        codes: np.ndarray,
        caps: np.ndarray,
        pairs: int,
        weight: float,
    ) -> Rows:
        kit = self.kit
        n = kit.n
        found = []
        cand = self.candidates(bl, meta, codes, pairs)
        if not cand:
            return empty_rows(n)
        for dh, hl, ha, letter in cand:
            cells = bl.cells.copy()
            cells[dh, hl, ha] = letter + 1
            virtual = BoardLines(cells=cells, cmask=bl.cmask, cross=bl.cross, empty=False)
            one = np.full((2, n), -1, dtype=np.int64)
            # big hands: one wild tile (two cost ~0.2 s a turn on a 19 x 19 board)
            one[dh, hl] = max(0, min(int(caps[dh, hl]), 1 if kit.setup.t >= 8 else 2))
            m2, c2, _ = kit.search(virtual, hand, vis, one, 0, 0)
            s = m2[:, META_START].astype(np.int64)
            through = (s <= ha) & (ha < s + m2[:, META_LEN])
            if not through.any():
                continue
            m2, c2 = m2[through], c2[through] & np.uint8(LETTER | NEW)
            c2[np.arange(len(m2)), ha - m2[:, META_START]] = np.uint8(letter + 1 + PRE)
            found.append((m2, c2))
        if not found:
            return empty_rows(n)
        meta2 = np.concatenate([f[0] for f in found])
        codes2 = np.concatenate([f[1] for f in found])
        k = len(meta2)
        return make_rows(
            meta2[:, 0],
            meta2[:, META_LINE],
            meta2[:, META_START],
            meta2[:, META_LEN],
            codes2,
            meta2[:, META_SCORE],
            np.ones(k, dtype=np.int64),
            np.full(k, weight),
            n,
            kind=SETUP,
        )
