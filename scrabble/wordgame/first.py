"""The first move on an empty board: every square may hold it, so instead of
searching every line, the words the hand (with visible and wild tiles) spells
are found once on one bare line, then each is scored at every placement and
only its best few placements are kept."""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.wordgame.search import LETTER, MISSING, NEW, VISIBLE


@njit(cache=True)
def best_placements(codes, lengths, values, lm, wm, top, out_meta_width):
    """For each word (codes with flags, on squares 0..len-1): its ``top`` best
    placements on the empty board as search rows (meta, codes)."""
    words = codes.shape[0]
    n = lm.shape[1]
    total = words * top
    meta = np.zeros((total, out_meta_width), dtype=np.int32)
    out = np.zeros((total, n), dtype=np.uint8)
    kept = 0
    best_s = np.empty(top, dtype=np.int64)
    best_d = np.empty(top, dtype=np.int64)
    best_r = np.empty(top, dtype=np.int64)
    best_v = np.empty(top, dtype=np.int64)
    for w in range(words):
        ln = lengths[w]
        for i in range(top):
            best_v[i] = -1
        for d in range(2):
            for r in range(n):
                for s in range(n - ln + 1):
                    main = 0
                    mult = 1
                    for j in range(ln):
                        lt = (codes[w, j] & LETTER) - 1
                        main += values[lt] * lm[d, r, s + j]
                        mult *= wm[d, r, s + j]
                    v = main * mult
                    # insert into the small sorted list of the best
                    if v <= best_v[top - 1]:
                        continue
                    i = top - 1
                    while i > 0 and best_v[i - 1] < v:
                        best_v[i] = best_v[i - 1]
                        best_d[i] = best_d[i - 1]
                        best_r[i] = best_r[i - 1]
                        best_s[i] = best_s[i - 1]
                        i -= 1
                    best_v[i] = v
                    best_d[i] = d
                    best_r[i] = r
                    best_s[i] = s
        missing = 0
        seen = 0
        for j in range(ln):
            if codes[w, j] & MISSING:
                if codes[w, j] & VISIBLE:
                    seen += 1
                else:
                    missing += 1
        for i in range(top):
            if best_v[i] < 0:
                continue
            meta[kept, 0] = best_d[i]
            meta[kept, 1] = best_r[i]
            meta[kept, 2] = best_s[i]
            meta[kept, 3] = ln
            meta[kept, 4] = ln
            meta[kept, 5] = missing
            meta[kept, 6] = best_v[i]
            meta[kept, 7] = seen
            for j in range(ln):
                out[kept, j] = codes[w, j] | NEW
            kept += 1
    return meta[:kept], out[:kept]
