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
import numpy.typing as npt
from numba import njit

from scrabble.board import BoardView
from scrabble.engines.bucket import bucket_order
from scrabble.moves import META_COLUMNS, MoveList, capacity_for, record_move
from scrabble.position import Position
from scrabble.scoring import score_line
from scrabble.tiles import BLANK, BLANK_FLAG, DOWN, EMPTY, LETTER_MASK, NEW_FLAG

SPACE = 32  # between the words of a joined word list


@njit(cache=True)
def build_index(words, len_first):
    """Word ids bucketed by (length, position, letter): bucket b holds
    ids[first[b]:first[b + 1]], b = (length * width + position) * 26 + letter - 1,
    width the longest word. Lets a span try only the words that can agree with
    one of its squares."""
    width = words.shape[1]
    buckets = (width + 1) * width * 26
    first = np.zeros(buckets + 1, dtype=np.int64)
    for length in range(1, width + 1):
        for word in range(len_first[length], len_first[length + 1]):
            for at in range(length):
                first[(length * width + at) * 26 + words[word, at]] += 1
    for bucket in range(buckets):
        first[bucket + 1] += first[bucket]
    ids = np.empty(first[buckets], dtype=np.int64)
    fill = first[:buckets].copy()
    for length in range(1, width + 1):
        for word in range(len_first[length], len_first[length + 1]):
            for at in range(length):
                bucket = (length * width + at) * 26 + words[word, at] - 1
                ids[fill[bucket]] = word
                fill[bucket] += 1
    return ids, first


@njit(cache=True)
def span_word_ids(cells, cm, s, length, ids, first, width, out):
    """Candidate word ids for a span: the buckets of its most selective square
    (a fixed letter, or the letters its cross-check mask allows). Each word has
    one letter per square, so the buckets never overlap. Returns the count."""
    best = -1
    best_cost = np.int64(1) << 62
    for q in range(length):
        base = (length * width + q) * 26
        cell = cells[s + q]
        if cell != EMPTY:
            lt = (cell & LETTER_MASK) - 1
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
    base = (length * width + best) * 26
    cell = cells[s + best]
    for lt in range(26):
        if cell != EMPTY:
            if lt != (cell & LETTER_MASK) - 1:
                continue
        elif not (np.int64(cm[s + best]) >> lt) & 1:
            continue
        for j in range(first[base + lt], first[base + lt + 1]):
            out[n] = ids[j]
            n += 1
    return n


@njit(cache=True)
def fit_words(spans, view, words, len_first, rack, scoring, capacity):
    """Every placement of ``words`` (letters 1..26, sorted by length, those of
    length L at len_first[L]..len_first[L + 1]) into ``spans`` of the view.

    Returns (out_words, out_meta, found, checks); found may exceed capacity
    (call again with more)."""
    size = view.lines.shape[1]
    width = words.shape[1]
    out_words = np.empty((capacity, size), dtype=np.uint8)  # record_move fills whole rows
    out_meta = np.empty((capacity, META_COLUMNS), dtype=np.int32)
    found = 0
    checks = 0
    need = np.zeros(26, dtype=np.int64)
    pos = np.zeros(size, dtype=np.int64)
    cur = np.zeros(size, dtype=np.uint8)
    blanks = rack[BLANK]
    ids, first = build_index(words, len_first)
    cand = np.empty(max(words.shape[0], 1), dtype=np.int64)
    for i in range(spans.shape[0]):
        direction = spans[i, 0]
        line = spans[i, 1]
        s = spans[i, 2]
        e = spans[i, 3]
        length = e - s + 1
        if length > width:
            continue  # no candidate word is this long
        cells = view.lines[direction, line]
        cm = view.cross_mask[direction, line]
        cross = view.cross_score[direction, line]
        lm = view.letter_mult[direction, line]
        wm = view.word_mult[direction, line]
        if direction == DOWN and spans[i, 4] == 1:
            # a single tile that also forms an across word is listed across only
            single = s
            while cells[single] != EMPTY:
                single += 1
            if cross[single] >= 0:
                continue
        ncand = span_word_ids(cells, cm, s, length, ids, first, width, cand)
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
                if cell != EMPTY:
                    if (cell & LETTER_MASK) != letter:
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
                cur[s + q] = cell if cell != EMPTY else np.uint8(words[w, q] | NEW_FLAG)
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
                        cur[q] |= BLANK_FLAG
                    else:
                        cur[q] &= ~np.uint8(BLANK_FLAG)
                if found < capacity:
                    score = score_line(cur, s, e, lm, wm, cross, scoring)
                    record_move(cur, s, e, line, direction, k, score, out_words, out_meta, found)
                found += 1
    n = min(found, capacity)
    return out_words[:n], out_meta[:n], found, checks


@njit(cache=True)
def _words_by_length(text, m, width):
    """``text``: m words of ASCII capitals, one space between words."""
    starts = np.empty(m, dtype=np.int64)
    lengths = np.empty(m, dtype=np.int64)
    w = 0
    start = 0
    for i in range(text.shape[0] + 1):
        if i == text.shape[0] or text[i] == SPACE:
            starts[w] = start
            lengths[w] = i - start
            w += 1
            start = i + 1
    len_first, dest = bucket_order(lengths, width + 1)
    matrix = np.zeros((m, width), dtype=np.uint8)
    for w in range(m):
        for p in range(lengths[w]):
            matrix[dest[w], p] = text[starts[w] + p] - 64
    return matrix, len_first


def words_by_length(
    words: list[str], width: int
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Candidate words (at most ``width`` letters) -> letter matrix (m, width)
    ordered by length (stable), and len_first[0..width + 1]: the words of
    length L are rows len_first[L]..len_first[L+1]. One compiled pass over the
    joined text: a request can bring thousands."""
    if not words:
        return np.zeros((0, width), dtype=np.uint8), np.zeros(width + 2, dtype=np.int64)
    text = np.frombuffer(" ".join(words).encode("ascii"), dtype=np.uint8)
    return _words_by_length(text, len(words), width)  # type: ignore[no-any-return]


def fit(
    position: Position, view: BoardView, spans: npt.NDArray[np.int64], words: list[str]
) -> tuple[MoveList, int]:
    """Moves of ``position`` made by candidate ``words`` in ``spans`` of its
    board ``view``. Returns the moves and the number of (span, word) checks."""
    rules = position.rules
    longest = max(map(len, words), default=1)
    if longest > rules.size:
        words = [w for w in words if len(w) <= rules.size]
        longest = rules.size
    matrix, len_first = words_by_length(words, longest)
    rack = position.rack.astype(np.int64)
    capacity = capacity_for(position.rack)
    while True:
        out_words, out_meta, found, checks = fit_words(
            spans, view, matrix, len_first, rack, rules.scoring, capacity
        )
        if found <= capacity:
            break
        capacity = int(found)
    return MoveList(words=out_words, meta=out_meta), int(checks)
