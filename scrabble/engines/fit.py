"""Fitting candidate words into spans: the second half of every signature engine.

Whichever lookup found the candidate words, they pass the same check here: a
word fits a span of its length when it agrees with every fixed letter, every
letter it puts on an empty square is allowed there by the cross-check mask,
and the rack covers those letters with blanks standing in for what is
missing. Each distinct choice of which new tiles are blanks is a separate move
(as the trie lists them), the move is scored by ``scoring.score_line``, and the
result is the same ``MoveList`` the trie engine returns, with the same rule
for a single tile (across when it forms an across word, else down).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.engines.bucket import bucket_order
from scrabble.engines.span import board_lines
from scrabble.lexicon.signature import MAX_WORD
from scrabble.moves import MoveList, capacity_for, record_move
from scrabble.scoring import NEW_FLAG, score_line


@njit(cache=True)
def build_index(words, len_first):
    """Word ids bucketed by (length, position, letter): bucket b holds
    ids[first[b]:first[b + 1]], b = (length * 15 + position) * 26 + letter - 1.
    Lets a span try only the words that can agree with one of its squares."""
    nb = (MAX_WORD + 1) * MAX_WORD * 26
    first = np.zeros(nb + 1, dtype=np.int64)
    for length in range(1, MAX_WORD + 1):
        for w in range(len_first[length], len_first[length + 1]):
            for p in range(length):
                first[(length * MAX_WORD + p) * 26 + words[w, p]] += 1
    for b in range(nb):
        first[b + 1] += first[b]
    ids = np.empty(first[nb], dtype=np.int64)
    fill = first[:nb].copy()
    for length in range(1, MAX_WORD + 1):
        for w in range(len_first[length], len_first[length + 1]):
            for p in range(length):
                b = (length * MAX_WORD + p) * 26 + words[w, p] - 1
                ids[fill[b]] = w
                fill[b] += 1
    return ids, first


@njit(cache=True)
def _span_candidates(cells, cm, s, length, ids, first, out):
    """Candidate word ids for a span: the buckets of its most selective square
    (a fixed letter, or the letters its cross-check mask allows). Each word has
    one letter per square, so the buckets never overlap. Returns the count."""
    best = -1
    best_cost = np.int64(1) << 62
    for q in range(length):
        base = (length * MAX_WORD + q) * 26
        cell = cells[s + q]
        if cell != 0:
            lt = (cell & 31) - 1
            cost = first[base + lt + 1] - first[base + lt]
        else:
            m = np.int64(cm[s + q])
            if m == (1 << 26) - 1:  # most empty squares: every word of the length
                cost = first[base + 26] - first[base]
            else:
                cost = 0
                for lt in range(26):
                    if (m >> lt) & 1:
                        cost += first[base + lt + 1] - first[base + lt]
        if cost < best_cost:
            best_cost = cost
            best = q
    n = 0
    base = (length * MAX_WORD + best) * 26
    cell = cells[s + best]
    for lt in range(26):
        if cell != 0:
            if lt != (cell & 31) - 1:
                continue
        elif not (np.int64(cm[s + best]) >> lt) & 1:
            continue
        for j in range(first[base + lt], first[base + lt + 1]):
            out[n] = ids[j]
            n += 1
    return n


@njit(cache=True)
def fit_words(spans, lines_a, lines_d, cmask_a, cmask_d, cross_a, cross_d, lm_a, lm_d, wm_a,
              wm_d, words, len_first, rack, values, rack_size, bingo, capacity):
    """Every placement of ``words`` (letters 1..26, sorted by length, those of
    length L at len_first[L]..len_first[L + 1]) into ``spans``.

    Returns (out_words, out_meta, found, checks); found may exceed capacity
    (call again with more)."""
    out_words = np.empty((capacity, 15), dtype=np.uint8)  # record_move fills whole rows
    out_meta = np.empty((capacity, 6), dtype=np.int32)
    found = 0
    checks = 0
    need = np.zeros(26, dtype=np.int64)
    pos = np.zeros(MAX_WORD, dtype=np.int64)
    cur = np.zeros(32, dtype=np.uint8)
    blanks = rack[26]
    ids, first = build_index(words, len_first)
    cand = np.empty(max(words.shape[0], 1), dtype=np.int64)
    for i in range(spans.shape[0]):
        direction = spans[i, 0]
        line = spans[i, 1]
        s = spans[i, 2]
        e = spans[i, 3]
        length = e - s + 1
        if direction == 0:
            cells = lines_a[line]
            cm = cmask_a[line]
            cross = cross_a[line]
            lm = lm_a[line]
            wm = wm_a[line]
        else:
            cells = lines_d[line]
            cm = cmask_d[line]
            cross = cross_d[line]
            lm = lm_d[line]
            wm = wm_d[line]
        if direction == 1 and spans[i, 4] == 1:
            # a single tile that also forms an across word is listed across only
            single = s
            while cells[single] != 0:
                single += 1
            if cross[single] >= 0:
                continue
        ncand = _span_candidates(cells, cm, s, length, ids, first, cand)
        for ci in range(ncand):
            w = cand[ci]
            checks += 1
            ok = True
            k = 0
            for lt in range(26):
                need[lt] = 0
            for q in range(length):
                letter = np.int64(words[w, q])
                cell = cells[s + q]
                if cell != 0:
                    if (cell & 31) != letter:
                        ok = False
                        break
                else:
                    if not (np.int64(cm[s + q]) >> (letter - 1)) & 1:
                        ok = False
                        break
                    need[letter - 1] += 1
                    pos[k] = q
                    k += 1
            if not ok:
                continue
            deficit = 0
            for lt in range(26):
                if need[lt] > rack[lt]:
                    deficit += need[lt] - rack[lt]
            if deficit > blanks:
                continue
            for q in range(length):
                cell = cells[s + q]
                cur[s + q] = cell if cell != 0 else np.uint8(words[w, q] | NEW_FLAG)
            # every set of new squares that may hold the blanks is one move
            for bm in range(1 << k):
                nb = 0
                x = bm
                while x:
                    x &= x - 1
                    nb += 1
                if nb < deficit or nb > blanks:
                    continue
                for t in range(k):
                    lt = words[w, pos[t]] - 1
                    if (bm >> t) & 1:
                        need[lt] -= 1
                covered = True
                for t in range(k):
                    lt = words[w, pos[t]] - 1
                    if need[lt] > rack[lt]:
                        covered = False
                for t in range(k):
                    lt = words[w, pos[t]] - 1
                    if (bm >> t) & 1:
                        need[lt] += 1
                if not covered:
                    continue
                for t in range(k):
                    q = s + pos[t]
                    if (bm >> t) & 1:
                        cur[q] |= 32
                    else:
                        cur[q] &= ~np.uint8(32)
                if found < capacity:
                    score = score_line(cur, s, e, lm, wm, cross, values, rack_size, bingo)
                    record_move(cur, s, e, line, direction, k, score, out_words, out_meta, found)
                found += 1
    n = min(found, capacity)
    return out_words[:n], out_meta[:n], found, checks


@njit(cache=True)
def _words_by_length(text, m):
    """``text``: m words of ASCII capitals, one space between words."""
    starts = np.empty(m, dtype=np.int64)
    lengths = np.empty(m, dtype=np.int64)
    w = 0
    start = 0
    for i in range(text.shape[0] + 1):
        if i == text.shape[0] or text[i] == 32:
            starts[w] = start
            lengths[w] = i - start
            w += 1
            start = i + 1
    len_first, dest = bucket_order(lengths, MAX_WORD + 1)
    matrix = np.zeros((m, MAX_WORD), dtype=np.uint8)
    for w in range(m):
        for p in range(lengths[w]):
            matrix[dest[w], p] = text[starts[w] + p] - 64
    return matrix, len_first


def words_by_length(words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Candidate words -> letter matrix (m, 15) ordered by length (stable), and
    len_first[0..16]: the words of length L are rows len_first[L]..len_first[L+1].
    One compiled pass over the joined text: a request can bring thousands."""
    if not words:
        return np.zeros((0, MAX_WORD), dtype=np.uint8), np.zeros(MAX_WORD + 2, dtype=np.int64)
    text = np.frombuffer(" ".join(words).encode("ascii"), dtype=np.uint8)
    return _words_by_length(text, len(words))


def fit(position, spans: np.ndarray, analysis, words: list[str]) -> tuple[MoveList, int]:
    """Moves of ``position`` made by candidate ``words`` in ``spans``; ``analysis``
    is the trie's board analysis (cross-check masks and cross scores per
    direction). Returns the moves and the number of (span, word) checks."""
    rules = position.rules
    n = rules.size
    lines_a, lines_d = board_lines(position.board, n)
    lm_a, lm_d = rules.letter_mult_lines
    wm_a, wm_d = rules.word_mult_lines
    matrix, len_first = words_by_length(words)
    rack = position.rack.astype(np.int64)
    capacity = capacity_for(position.rack)
    while True:
        out_words, out_meta, found, checks = fit_words(
            spans, lines_a, lines_d, analysis.mask_a, analysis.mask_d, analysis.cross_a,
            analysis.cross_d, lm_a, lm_d, wm_a, wm_d, matrix, len_first, rack,
            rules.values, rules.rack_size, rules.bingo_bonus, capacity)
        if found <= capacity:
            break
        capacity = int(found)
    return MoveList(words=out_words, meta=out_meta), int(checks)
