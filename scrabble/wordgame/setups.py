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
from scrabble.wordgame.rows import LETTER, NEW, PRE, SETUP, Rows, empty_rows, make_rows
from scrabble.wordgame.search import META_LEN, META_LINE, META_SCORE, META_START


@njit(cache=True)
def around_products(cells, wm, span):
    """pot[d, r, c]: for an empty square, the largest product of empty word
    multipliers over windows of ``span`` squares of line (d, r) through c,
    the square itself left out."""
    n = cells.shape[1]
    pot = np.zeros((2, n, n), dtype=np.float64)
    span = min(span, n)
    for d in range(2):
        for r in range(n):
            for a in range(n - span + 1):
                prod = 1.0
                for c in range(a, a + span):
                    if cells[d, r, c] == 0:
                        prod *= wm[d, r, c]
                for c in range(a, a + span):
                    if cells[d, r, c] != 0:
                        continue
                    v = prod / wm[d, r, c]
                    if v > pot[d, r, c]:
                        pot[d, r, c] = v
    return pot


@njit(cache=True)
def hot_squares(meta, codes, pot, pairs):
    """The (d_h, line, along, letter) a legal play fills whose perpendicular
    line has the largest ``pot`` there, best first, at most ``pairs``."""
    n = pot.shape[1]
    best = np.full((2, n, n, 26), -1.0)
    for i in range(meta.shape[0]):
        d = meta[i, 0]
        line = meta[i, 1]
        s = meta[i, 2]
        dh = 1 - d
        for j in range(meta[i, 3]):
            code = codes[i, j]
            if code & 64 == 0:
                continue
            c = s + j
            row, col = (line, c) if d == 0 else (c, line)
            hl, ha = (row, col) if dh == 0 else (col, row)
            best[dh, hl, ha, (code & 31) - 1] = pot[dh, hl, ha]
    flat = best.reshape(-1)
    order = np.argsort(-flat)[:pairs]
    out = np.zeros((pairs, 4), dtype=np.int64)
    k = 0
    for f in order:
        if flat[f] <= 1.0:
            break
        letter = f % 26
        rest = f // 26
        ha = rest % n
        rest //= n
        hl = rest % n
        dh = rest // n
        out[k, 0] = dh
        out[k, 1] = hl
        out[k, 2] = ha
        out[k, 3] = letter
        k += 1
    return out[:k]


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
