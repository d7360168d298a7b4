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
from scrabble.engines.span import S_DIR, S_EMPTY, S_END, S_LINE, S_START
from scrabble.moves import META_COLUMNS, MoveList, capacity_for, record_move
from scrabble.position import Position
from scrabble.scoring import score_line
from scrabble.tiles import ALL_LETTERS, BLANK, BLANK_FLAG, DOWN, EMPTY, LETTER_MASK, NEW_FLAG

SPACE = 32  # between the words of a joined word list
ASCII_BEFORE_A = 64  # 'A' - 64 = letter code 1


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
def span_word_ids(cells, cross_mask, start, length, ids, first, width, out):
    """Candidate word ids for a span: the buckets of its most selective square
    (a fixed letter, or the letters its cross-check mask allows). Each word has
    one letter per square, so the buckets never overlap. Returns the count."""
    best = -1
    best_cost = np.int64(1) << 62
    for at in range(length):
        base = (length * width + at) * 26
        cell = cells[start + at]
        if cell != EMPTY:
            letter = (cell & LETTER_MASK) - 1
            cost = first[base + letter + 1] - first[base + letter]
        else:
            allowed = np.int64(cross_mask[start + at])
            if allowed == ALL_LETTERS:  # most empty squares: every word of the length
                cost = first[base + 26] - first[base]
            else:
                cost = 0
                for letter in range(26):
                    if (allowed >> letter) & 1:
                        cost += first[base + letter + 1] - first[base + letter]
        if cost < best_cost:
            best_cost = cost
            best = at
    found = 0
    base = (length * width + best) * 26
    cell = cells[start + best]
    for letter in range(26):
        if cell != EMPTY:
            if letter != (cell & LETTER_MASK) - 1:
                continue
        elif not (np.int64(cross_mask[start + best]) >> letter) & 1:
            continue
        for j in range(first[base + letter], first[base + letter + 1]):
            out[found] = ids[j]
            found += 1
    return found


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
    empty_at = np.zeros(size, dtype=np.int64)  # offsets of the span's empty squares
    word = np.zeros(size, dtype=np.uint8)
    blanks = rack[BLANK]
    ids, first = build_index(words, len_first)
    candidates = np.empty(max(words.shape[0], 1), dtype=np.int64)
    for i in range(spans.shape[0]):
        direction = spans[i, S_DIR]
        line = spans[i, S_LINE]
        start = spans[i, S_START]
        end = spans[i, S_END]
        length = end - start + 1
        if length > width:
            continue  # no candidate word is this long
        cells = view.lines[direction, line]
        cross_mask = view.cross_mask[direction, line]
        cross_score = view.cross_score[direction, line]
        letter_mult = view.letter_mult[direction, line]
        word_mult = view.word_mult[direction, line]
        if direction == DOWN and spans[i, S_EMPTY] == 1:
            # a single tile that also forms an across word is listed across only
            single = start
            while cells[single] != EMPTY:
                single += 1
            if cross_score[single] >= 0:
                continue
        count = span_word_ids(cells, cross_mask, start, length, ids, first, width, candidates)
        for c in range(count):
            candidate = candidates[c]
            checks += 1
            fits = True
            placed = 0
            for letter in range(26):
                need[letter] = 0
            for at in range(length):
                letter = np.int64(words[candidate, at])
                cell = cells[start + at]
                if cell != EMPTY:
                    if (cell & LETTER_MASK) != letter:
                        fits = False
                        break
                else:
                    if not (np.int64(cross_mask[start + at]) >> (letter - 1)) & 1:
                        fits = False
                        break
                    need[letter - 1] += 1
                    empty_at[placed] = at
                    placed += 1
            if not fits:
                continue
            deficit = 0
            for letter in range(26):
                if need[letter] > rack[letter]:
                    deficit += need[letter] - rack[letter]
            if deficit > blanks:
                continue
            for at in range(length):
                cell = cells[start + at]
                word[start + at] = (
                    cell if cell != EMPTY else np.uint8(words[candidate, at] | NEW_FLAG)
                )
            # every set of new squares that may hold the blanks is one move
            for blank_set in range(1 << placed):
                blanks_used = 0
                rest = blank_set
                while rest:
                    rest &= rest - 1
                    blanks_used += 1
                if blanks_used < deficit or blanks_used > blanks:
                    continue
                for t in range(placed):
                    letter = words[candidate, empty_at[t]] - 1
                    if (blank_set >> t) & 1:
                        need[letter] -= 1
                covered = True
                for t in range(placed):
                    letter = words[candidate, empty_at[t]] - 1
                    if need[letter] > rack[letter]:
                        covered = False
                for t in range(placed):
                    letter = words[candidate, empty_at[t]] - 1
                    if (blank_set >> t) & 1:
                        need[letter] += 1
                if not covered:
                    continue
                for t in range(placed):
                    at = start + empty_at[t]
                    if (blank_set >> t) & 1:
                        word[at] |= BLANK_FLAG
                    else:
                        word[at] &= ~np.uint8(BLANK_FLAG)
                if found < capacity:
                    score = score_line(word, start, end, letter_mult, word_mult, cross_score,
                                       scoring)  # fmt: skip
                    record_move(word, start, end, line, direction, placed, score, out_words,
                                out_meta, found)  # fmt: skip
                found += 1
    kept = min(found, capacity)
    return out_words[:kept], out_meta[:kept], found, checks


@njit(cache=True)
def _words_by_length(text, m, width):
    """``text``: m words of ASCII capitals, one space between words."""
    starts = np.empty(m, dtype=np.int64)
    lengths = np.empty(m, dtype=np.int64)
    word = 0
    start = 0
    for at in range(text.shape[0] + 1):
        if at == text.shape[0] or text[at] == SPACE:
            starts[word] = start
            lengths[word] = at - start
            word += 1
            start = at + 1
    len_first, dest = bucket_order(lengths, width + 1)
    matrix = np.zeros((m, width), dtype=np.uint8)
    for word in range(m):
        for at in range(lengths[word]):
            matrix[dest[word], at] = text[starts[word] + at] - ASCII_BEFORE_A
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
