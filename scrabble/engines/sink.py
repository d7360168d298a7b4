"""Where a move generator puts the placements it finds.

A ``Sink`` either records every placement (the ``MoveList`` arrays, ``top`` 0)
or keeps only the best ``top`` by static equity in a bounded heap, so choosing
a move never materialises the whole list. Static equity, in millipoints, is
evaluated as each placement is found:

    score x 1000 + values[leave] + (opening only) hotspot penalties

``values`` holds, for every sub-multiset of the rack in mixed-radix order
(``radix``: index = sum of kept counts x radix), the equity adjustment of
keeping it: the leave value while the bag has tiles, the endgame adjustment
once it is empty (``equity/static.py`` builds it). ``hotspots`` marks, per
direction, the squares of an empty board where a vowel opens a double letter
to the opponent's parallel play; each vowel placed there adds ``penalty``.

Heap order is the ``MoveList.order`` key (equity descending, then across
before down, row, column, length, letters), compared in full so the kept set
is the same whatever order the placements arrive in.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.moves import COL, DIRECTION, LENGTH, ROW, record_move
from scrabble.tiles import LETTER_MASK, NEW_FLAG, RACK_TYPES

VOWEL_LETTERS = (1 << 0) | (1 << 4) | (1 << 8) | (1 << 14) | (1 << 20)  # A E I O U
# counter slots (shared with the trie kernel)
MOVES = 0
NODES = 1
ANCHORS = 2
PRUNED = 3  # anchors skipped: their bound could not reach the kept moves
BLANKS_HIDDEN = 4  # anchors searched with fewer blanks than the rack holds
COUNTERS = 5


class Sink(NamedTuple):
    words: npt.NDArray[np.uint8]  # (capacity, n): every placement (top == 0)
    meta: npt.NDArray[np.int32]  # (capacity, 6)
    counter: npt.NDArray[np.int64]  # COUNTERS slots
    top: int  # > 0: keep only the best this many
    values: npt.NDArray[np.int64]  # equity adjustment per kept sub-multiset
    radix: npt.NDArray[np.int64]  # (27,) mixed radix of the rack's sub-multisets
    hotspots: npt.NDArray[np.bool_]  # (2, n, n)
    penalty: int  # millipoints per vowel on a hotspot (0: not an opening)
    best_equity: npt.NDArray[np.int64]  # (top + 1,): a heap, worst first; row top is scratch
    best_words: npt.NDArray[np.uint8]  # (top + 1, n)
    best_meta: npt.NDArray[np.int32]  # (top + 1, 6)
    best_size: npt.NDArray[np.int64]  # (1,)


@njit(cache=True, inline="always")
def leave_index(rack, radix):
    index = 0
    for tile in range(RACK_TYPES):
        index += rack[tile] * radix[tile]
    return index


@njit(cache=True)
def worse(sink, a, b):
    """Whether heap row a comes after row b in the fixed order."""
    if sink.best_equity[a] != sink.best_equity[b]:
        return sink.best_equity[a] < sink.best_equity[b]
    meta = sink.best_meta
    for column in (DIRECTION, ROW, COL, LENGTH):
        if meta[a, column] != meta[b, column]:
            return meta[a, column] > meta[b, column]
    words = sink.best_words
    for k in range(words.shape[1]):
        if words[a, k] != words[b, k]:
            return words[a, k] > words[b, k]
    return False


@njit(cache=True)
def swap_rows(sink, a, b):
    sink.best_equity[a], sink.best_equity[b] = sink.best_equity[b], sink.best_equity[a]
    for k in range(sink.best_words.shape[1]):
        sink.best_words[a, k], sink.best_words[b, k] = sink.best_words[b, k], sink.best_words[a, k]
    for k in range(sink.best_meta.shape[1]):
        sink.best_meta[a, k], sink.best_meta[b, k] = sink.best_meta[b, k], sink.best_meta[a, k]


@njit(cache=True)
def copy_row(sink, source, target):
    sink.best_equity[target] = sink.best_equity[source]
    sink.best_words[target, :] = sink.best_words[source, :]
    sink.best_meta[target, :] = sink.best_meta[source, :]


@njit(cache=True)
def threshold(sink):
    """The equity a placement must reach to enter the heap (it may need to beat
    it on the tie-break too); the lowest int64 while the heap is not full."""
    if sink.best_size[0] < sink.top:
        return np.iinfo(np.int64).min
    return sink.best_equity[0]


@njit(cache=True)
def offer(sink, word, start, end, line, direction, placed, score, kept):
    """Static equity of placement ``word[start..end]`` (``kept``: the mixed-radix
    index of what it leaves), kept if it is among the best ``top``."""
    equity = score * 1000 + sink.values[kept]
    if sink.penalty != 0:
        for square in range(start, end + 1):
            code = word[square]
            if (
                code & NEW_FLAG
                and (VOWEL_LETTERS >> ((code & LETTER_MASK) - 1)) & 1
                and sink.hotspots[direction, line, square]
            ):
                equity += sink.penalty
    top = sink.top
    size = sink.best_size[0]
    if size == top and equity < sink.best_equity[0]:
        return  # cannot enter, whatever the tie-break
    record_move(word, start, end, line, direction, placed, score, sink.best_words,
                sink.best_meta, top)  # fmt: skip
    sink.best_equity[top] = equity
    if size < top:
        copy_row(sink, top, size)
        sink.best_size[0] = size + 1
        child = size
        while child > 0:  # sift up: the worst stays at the root
            parent = (child - 1) // 2
            if not worse(sink, child, parent):
                break
            swap_rows(sink, child, parent)
            child = parent
        return
    if not worse(sink, 0, top):
        return  # not better than the worst kept
    copy_row(sink, top, 0)
    parent = 0
    while True:  # sift down
        left = 2 * parent + 1
        if left >= size:
            break
        pick = left
        if left + 1 < size and worse(sink, left + 1, left):
            pick = left + 1
        if not worse(sink, pick, parent):
            break
        swap_rows(sink, pick, parent)
        parent = pick


@njit(cache=True, inline="always")
def emit(sink, word, start, end, line, direction, placed, score, kept):
    """A placement found: recorded (every-move sink) or offered (best-N;
    ``kept``: the leave's mixed-radix index, kept up to date by the search)."""
    sink.counter[MOVES] += 1
    if sink.top == 0:
        record_move(word, start, end, line, direction, placed, score, sink.words, sink.meta,
                    sink.counter[MOVES] - 1)  # fmt: skip
        return
    # (the trie search has already ruled out most placements that cannot
    # enter a full heap, before this)
    offer(sink, word, start, end, line, direction, placed, score, kept)
