"""The target-line table (section 4): big plays on the line with the largest
word multipliers, found without looking at the hand.

The line is the one whose T largest empty word multipliers have the largest
product. Every window of it that could hold a main word (empty or edge just
outside) is matched against the lexicon's words of its length: board tiles
must agree and each empty square's cross-check must allow the letter. Up to
T of the empty squares take new tiles; the rest (at most five; at least one
when the window holds no board tile, for the through rule) are pre-placed,
chosen among the squares whose multipliers matter least, and every run of
pre-placed and board letters must itself be a word. An entry's value at a
turn is score x PRE_FACTOR^(pre-placed letters) x P(its new letters arrive); the
best are used as setup rows. The table is rebuilt only when its line changes.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from scrabble.wordgame.chance import LOG_FACT, p_cover
from scrabble.wordgame.kit import Kit
from scrabble.wordgame.lines import BoardLines
from scrabble.wordgame.rows import PRE, PRE_FACTOR, TABLE, Rows, empty_rows, make_rows
from scrabble.wordgame.search import LETTER, NEW
from scrabble.wordgame.slots import word_fits
from scrabble.wordgame.trie_walk import child, is_terminal
from scrabble.wordgame.wordbank import bank_for

MAX_PRE = 5
CAPACITY = 4096


@njit(cache=True)
def _is_word(tmask, tfirst, letters, begin, end):
    node = 0
    for square in range(begin, end):
        node = child(tmask, tfirst, node, np.int64(letters[square]) - 1)
        if node < 0:
            return False
    return is_terminal(tmask, node)


@njit(cache=True)
def build_table(
    cells,
    cmask,
    cross,
    lm,
    wm,
    values,
    matrix,
    offsets,
    t,
    max_pre,
    min_mult,
    tmask,
    tfirst,
    out_start,
    out_len,
    out_codes,
    out_score,
    out_pre,
):
    """Entries of one line (cells etc. are that line's rows). Returns the count
    (capped at the buffers' size)."""
    n = cells.shape[0]
    cap = out_score.shape[0]
    kept = 0
    word = np.zeros(n, dtype=np.int64)
    kind = np.zeros(n, dtype=np.int64)  # 0 board, 1 new, 2 pre-placed
    order = np.zeros(n, dtype=np.int64)
    for length in range(2, n + 1):
        if length >= offsets.shape[0] - 1:
            break
        words_from = offsets[length]
        words_to = offsets[length + 1]
        if words_from == words_to:
            continue
        for start in range(n - length + 1):
            stop = start + length
            if (start > 0 and cells[start - 1] != 0) or (stop < n and cells[stop] != 0):
                continue
            # the empties, in order (sorted below by how little they matter)
            empties = 0
            for square in range(start, stop):
                kind[square] = 0
                if cells[square] == 0:
                    order[empties] = square
                    empties += 1
                    kind[square] = 1
            board_in = length - empties
            if empties == 0 or empties > t + max_pre:
                continue
            pre = max(0, empties - t)
            if board_in == 0 and pre == 0:
                pre = 1
            if pre > max_pre or pre >= empties:
                continue
            # pre-placed squares: the empties whose multipliers matter least
            for i in range(empties):
                for j in range(i + 1, empties):
                    here = order[i]
                    there = order[j]
                    if wm[there] * 4 + lm[there] < wm[here] * 4 + lm[here]:
                        order[i] = there
                        order[j] = here
            for i in range(pre):
                kind[order[i]] = 2
            mult = 1
            for square in range(start, stop):
                if kind[square] == 1:
                    mult *= wm[square]
            if mult < min_mult:
                continue
            for word_id in range(words_from, words_to):
                if not word_fits(matrix, word_id, cells, cmask, start, length):
                    continue
                for i in range(length):
                    word[start + i] = matrix[word_id, i]
                # every run of board and pre-placed letters must be a word
                ok = True
                run_start = start
                while run_start < stop and ok:
                    if kind[run_start] == 1:
                        run_start += 1
                        continue
                    run_end = run_start
                    has_pre = False
                    while run_end < stop and kind[run_end] != 1:
                        if kind[run_end] == 2:
                            has_pre = True
                        run_end += 1
                    if (
                        has_pre
                        and run_end - run_start >= 2
                        and not _is_word(tmask, tfirst, word, run_start, run_end)
                    ):
                        ok = False
                    run_start = run_end
                if not ok:
                    continue
                main = 0
                cross_sum = 0
                for square in range(start, stop):
                    value = values[word[square] - 1]
                    if kind[square] == 1:
                        main += value * lm[square]
                        if cross[square] >= 0:
                            cross_sum += (cross[square] + value * lm[square]) * wm[square]
                    else:
                        main += value
                if kept < cap:
                    out_start[kept] = start
                    out_len[kept] = length
                    out_score[kept] = main * mult + cross_sum
                    out_pre[kept] = pre
                    for i in range(length):
                        square = start + i
                        code = word[square]
                        if kind[square] == 1:
                            code |= NEW
                        elif kind[square] == 2:
                            code |= PRE
                        out_codes[kept, i] = code
                    for i in range(length, out_codes.shape[1]):
                        out_codes[kept, i] = 0
                    kept += 1
    return kept


@njit(cache=True)
def table_values(codes, lengths, scores, pre, have, probs, h, log_fact, marg, limit):
    """Each entry's value against ``have``: exact for the entries whose upper
    bound (the product of the per-letter chances; the counts of a multinomial
    are negatively associated, so it bounds the joint chance) could still
    reach the best ``limit``; the rest get their bound x 0 (left out)."""
    entries = scores.shape[0]
    upper = np.zeros(entries, dtype=np.float64)
    need = np.zeros(26, dtype=np.int64)
    for entry in range(entries):
        for lt in range(26):
            need[lt] = 0
        for i in range(lengths[entry]):
            if codes[entry, i] & NEW:
                need[(codes[entry, i] & LETTER) - 1] += 1
        bound = scores[entry] * PRE_FACTOR ** pre[entry]
        for lt in range(26):
            short = need[lt] - have[lt]
            if short > 0:
                bound *= marg[lt, min(short, marg.shape[1] - 1)]
        upper[entry] = bound
    order = np.argsort(-upper)
    exact = np.zeros(entries, dtype=np.float64)
    letters = np.empty(26, dtype=np.int64)
    counts = np.empty(26, dtype=np.int64)
    best = np.zeros(limit, dtype=np.float64)  # the limit best exact values, ascending
    for rank in range(entries):
        entry = order[rank]
        if upper[entry] <= best[0]:
            break
        for lt in range(26):
            need[lt] = 0
        for i in range(lengths[entry]):
            if codes[entry, i] & NEW:
                need[(codes[entry, i] & LETTER) - 1] += 1
        missing = 0
        for lt in range(26):
            short = need[lt] - have[lt]
            if short > 0:
                letters[missing] = lt
                counts[missing] = short
                missing += 1
        value = (
            scores[entry]
            * PRE_FACTOR ** pre[entry]
            * p_cover(letters, counts, missing, probs, h, log_fact)
        )
        exact[entry] = value
        if value > best[0]:
            best[0] = value
            j = 0
            while j + 1 < limit and best[j] > best[j + 1]:
                best[j], best[j + 1] = best[j + 1], best[j]
                j += 1
    return exact


@njit(cache=True)
def marginals(probs, h, log_fact, most):
    """marg[l, c] = P(at least c of h draws are l)."""
    marg = np.ones((26, most + 1), dtype=np.float64)
    for lt in range(26):
        p = probs[lt]
        below = 0.0
        for c in range(most + 1):
            marg[lt, c] = max(0.0, 1.0 - below)
            if c <= h:
                below += np.exp(
                    log_fact[h]
                    - log_fact[c]
                    - log_fact[h - c]
                    + c * np.log(p)
                    + (h - c) * np.log(1.0 - p)
                )
    return marg


class TargetLine:
    def __init__(self, kit: Kit) -> None:
        self.kit = kit
        self.build_ms = 0.0
        self.line: tuple[int, int] | None = None
        self.signature: bytes = b""
        n = kit.n
        self.start = np.zeros(CAPACITY, dtype=np.int64)
        self.length = np.zeros(CAPACITY, dtype=np.int64)
        self.codes = np.zeros((CAPACITY, n), dtype=np.uint8)
        self.score = np.zeros(CAPACITY, dtype=np.int64)
        self.pre = np.zeros(CAPACITY, dtype=np.int64)
        self.count = 0
        bank = bank_for(kit.lexicon)
        self.matrix = bank.matrix
        self.offsets = bank.offsets
        self._marg: dict[int, np.ndarray] = {}
        self.builds = 0

    def best_line(self, bl: BoardLines) -> tuple[tuple[int, int], float]:
        t = self.kit.setup.t
        wm = np.where(bl.cells == 0, self.kit.wm, 1).astype(np.float64)
        pot = (-np.sort(-wm, axis=2)[:, :, :t]).prod(axis=2)
        flat = int(np.argmax(pot))
        n = self.kit.n
        return (flat // n, flat % n), float(pot.reshape(-1)[flat])

    def _rebuild(self, bl: BoardLines, line: tuple[int, int], pot: float) -> None:
        kit = self.kit
        d, r = line
        started = time.perf_counter()
        min_mult = max(2, int(pot // 4))
        self.count = build_table(
            bl.cells[d, r],
            bl.cmask[d, r],
            bl.cross[d, r],
            kit.lm[d, r].astype(np.int64),
            kit.wm[d, r].astype(np.int64),
            kit.values.astype(np.int64),
            self.matrix,
            self.offsets,
            kit.setup.t,
            MAX_PRE,
            min_mult,
            kit.lexicon.trie.mask,
            kit.lexicon.trie.first,
            self.start,
            self.length,
            self.codes,
            self.score,
            self.pre,
        )
        self.build_ms = (time.perf_counter() - started) * 1000
        self.builds += 1

    def rows(
        self,
        bl: BoardLines,
        have: np.ndarray,
        table3: np.ndarray,
        unknown: int,
        count: int,
        weight: float,
        rebuild_ok: bool,
    ) -> Rows:
        kit = self.kit
        n = kit.n
        line, pot = self.best_line(bl)
        d, r = line
        signature = bl.cells[d, r].tobytes() + bl.cmask[d, r].tobytes()
        if line != self.line or signature != self.signature:
            if not rebuild_ok:
                return empty_rows(n)
            self.line, self.signature = line, signature
            self._rebuild(bl, line, pot)
        k = self.count
        if k == 0:
            return empty_rows(n)
        marg = self._marg.get(unknown)
        if marg is None:
            marg = marginals(kit.probs, unknown, LOG_FACT, 9)
            self._marg[unknown] = marg
        values = table_values(
            self.codes[:k],
            self.length[:k],
            self.score[:k],
            self.pre[:k],
            have.astype(np.int64),
            kit.probs,
            unknown,
            LOG_FACT,
            marg,
            count,
        )
        best = np.argsort(-values, kind="stable")[:count]
        best = best[values[best] > 0]
        if not len(best):
            return empty_rows(n)
        m = len(best)
        codes = self.codes[best] & np.uint8(LETTER | NEW | PRE)
        return make_rows(
            np.full(m, d),
            np.full(m, r),
            self.start[best],
            self.length[best],
            codes,
            self.score[best],
            self.pre[best],
            np.full(m, weight),
            n,
            kind=TABLE,
        )
