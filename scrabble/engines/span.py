"""Spans and the signatures they need: the first half of every signature engine.

A *span* is a stretch ``start..end`` of one line that a move's main word could
occupy exactly: at least 2 squares, the squares just before and after it empty
(or the edge) so the word is maximal, 1..rack-tiles empty squares inside, at
least one of them an anchor, and each of them open to some tile the rack can
play (its cross-check mask, cut to the rack's letters unless it holds a blank).
The word there has the span's fixed letters plus k tiles from the rack, so its
anagram signature is ``fixed + S`` for a k-tile sub-multiset S of the rack.

Rack sub-multisets are enumerated with bit masks over rack positions and
collapsed to distinct packed signatures; a blank in S is expanded to the
letters some empty square of the span allows (the union of their cross-check
masks), one blank or two. All signatures of all spans go through one hash set
so each distinct signature is looked up once per request.

Signatures here are the two-word packed form of ``lexicon.table`` (adding a
letter = adding ``INC[letter]``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.board import BoardView, rack_letters
from scrabble.engines.bucket import bucket_order
from scrabble.lexicon.table import INC
from scrabble.tiles import BLANK, EMPTY, LETTER_MASK

# span columns
S_DIR, S_LINE, S_START, S_END, S_EMPTY, S_UNION = range(6)


@njit(cache=True)
def find_spans(line_cells, cross_mask, anchors, tiles, direction, max_word, inc):
    """Spans of one direction: (m, 6) int64 rows (columns ``S_*``: direction,
    line, start, end, empty squares, union of their cross-check masks) and
    (m, 2) fixed-letter keys."""
    size = line_cells.shape[0]
    cap = size * size * size
    spans = np.empty((cap, 6), dtype=np.int64)
    fixed = np.empty((cap, 2), dtype=np.uint64)
    m = 0
    for line in range(size):
        cells = line_cells[line]
        for start in range(size):
            if start > 0 and cells[start - 1] != EMPTY:
                continue
            empties = 0
            union = 0
            anchored = False
            fixed_low = np.uint64(0)
            fixed_high = np.uint64(0)
            for end in range(start, min(size, start + max_word)):
                if cells[end] == EMPTY:
                    if cross_mask[line, end] == 0:
                        break  # no letter fits here, so no longer span either
                    empties += 1
                    if empties > tiles:
                        break
                    union |= np.int64(cross_mask[line, end])
                    if anchors[line, end]:
                        anchored = True
                else:
                    letter = (cells[end] & LETTER_MASK) - 1
                    fixed_low += inc[letter, 0]
                    fixed_high += inc[letter, 1]
                if (
                    end > start
                    and empties > 0
                    and anchored
                    and (end == size - 1 or cells[end + 1] == EMPTY)
                ):
                    spans[m, S_DIR] = direction
                    spans[m, S_LINE] = line
                    spans[m, S_START] = start
                    spans[m, S_END] = end
                    spans[m, S_EMPTY] = empties
                    spans[m, S_UNION] = union
                    fixed[m, 0] = fixed_low
                    fixed[m, 1] = fixed_high
                    m += 1
    return spans[:m].copy(), fixed[:m].copy()


@njit(cache=True)
def rack_subsets(rack, inc):
    """Distinct sub-multisets of the rack's lettered tiles (blanks excluded),
    the empty one included: keys (p, 2), sizes, letter sets, ordered by size,
    and size_first (those of size z are size_first[z]..size_first[z+1]).

    Enumerated as bit masks over rack positions 0 .. 2^R - 1, then duplicates
    (the same letters taken from different positions) collapsed by key."""
    tiles = np.empty(32, dtype=np.int64)  # the rack's letters, one per tile
    held = 0
    for letter in range(26):
        for _ in range(rack[letter]):
            tiles[held] = letter
            held += 1
    choices = 1 << held
    keys = np.empty((choices, 2), dtype=np.uint64)
    sizes = np.empty(choices, dtype=np.int64)
    letter_sets = np.empty(choices, dtype=np.int64)
    distinct = 0
    for chosen in range(choices):
        low = np.uint64(0)
        high = np.uint64(0)
        size = 0
        letters = 0
        for i in range(held):
            if (chosen >> i) & 1:
                letter = tiles[i]
                low += inc[letter, 0]
                high += inc[letter, 1]
                size += 1
                letters |= 1 << letter
        repeated = False
        for earlier in range(distinct):
            if keys[earlier, 0] == low and keys[earlier, 1] == high:
                repeated = True
                break
        if not repeated:
            keys[distinct, 0] = low
            keys[distinct, 1] = high
            sizes[distinct] = size
            letter_sets[distinct] = letters
            distinct += 1
    # by size: a span of k empty squares then reads only the subsets of sizes
    # k - blanks .. k (sizes run 0..held; a span has at most all tiles' squares)
    size_first, dest = bucket_order(sizes[:distinct], rack.sum() + 2)
    out_keys = np.empty((distinct, 2), dtype=np.uint64)
    out_sizes = np.empty(distinct, dtype=np.int64)
    out_sets = np.empty(distinct, dtype=np.int64)
    for j in range(distinct):
        out_keys[dest[j], 0] = keys[j, 0]
        out_keys[dest[j], 1] = keys[j, 1]
        out_sizes[dest[j]] = sizes[j]
        out_sets[dest[j]] = letter_sets[j]
    return out_keys, out_sizes, out_sets, size_first


@njit(cache=True, inline="always")
def letter_count(letters):
    count = 0
    while letters:
        letters &= letters - 1
        count += 1
    return count


@njit(cache=True, inline="always")
def add_signature(table_low, table_high, occupied, out, count, low, high):
    """Add signature (low, high) to the open-addressed set and, when new, to
    ``out``; returns the new distinct count."""
    capacity = table_low.shape[0]
    mixed = (low * np.uint64(0x9E3779B97F4A7C15)) ^ (high * np.uint64(0xC2B2AE3D27D4EB4F))
    mixed ^= mixed >> np.uint64(29)
    slot = np.int64(mixed & np.uint64(capacity - 1))
    while occupied[slot]:
        if table_low[slot] == low and table_high[slot] == high:
            return count
        slot = (slot + 1) & (capacity - 1)
    occupied[slot] = True
    table_low[slot] = low
    table_high[slot] = high
    out[count, 0] = low
    out[count, 1] = high
    return count + 1


@njit(cache=True)
def blank_expansions(blanks, letters):
    """Signatures one rack subset makes when ``blanks`` blanks take any of
    ``letters`` letters (unordered, repeats allowed)."""
    if blanks == 0:
        return 1
    if blanks == 1:
        return letters
    return letters * (letters + 1) // 2


@njit(cache=True)
def span_signatures(spans, fixed, sub_keys, sub_sizes, sub_sets, size_first, blanks, inc):
    """Distinct query signatures of all spans: (q, 2) keys, and how many were
    built before de-duplication.

    A span reads only the rack subsets of the sizes it can take, and spans
    needing exactly what an earlier one needed (same fixed letters, empty
    squares and allowed letters: common on open boards) are counted but not
    expanded again."""
    count = spans.shape[0]
    # pass 1: how many signatures each span builds (sizes the set), and
    # which spans repeat an earlier one
    built = 0
    repeat = np.zeros(count, dtype=np.bool_)
    capacity = 16
    while capacity < 2 * count:
        capacity <<= 1
    seen = np.full(capacity, -1, dtype=np.int64)
    for i in range(count):
        empties = spans[i, S_EMPTY]
        allowed = spans[i, S_UNION]
        allowed_count = letter_count(allowed)
        for blanks_used in range(min(blanks, empties) + 1):
            size = empties - blanks_used
            for j in range(size_first[size], size_first[size + 1]):
                if not sub_sets[j] & ~allowed:
                    built += blank_expansions(blanks_used, allowed_count)
        mixed = (
            (fixed[i, 0] * np.uint64(0x9E3779B97F4A7C15))
            ^ fixed[i, 1]
            ^ (np.uint64(allowed) * np.uint64(0xC2B2AE3D27D4EB4F))
            ^ np.uint64(empties)
        )
        mixed ^= mixed >> np.uint64(29)
        slot = np.int64(mixed & np.uint64(capacity - 1))
        while seen[slot] >= 0:
            earlier = seen[slot]
            if (
                fixed[earlier, 0] == fixed[i, 0]
                and fixed[earlier, 1] == fixed[i, 1]
                and spans[earlier, S_EMPTY] == empties
                and spans[earlier, S_UNION] == allowed
            ):
                repeat[i] = True
                break
            slot = (slot + 1) & (capacity - 1)
        if not repeat[i]:
            seen[slot] = i
    capacity = 16
    while capacity < 2 * built:
        capacity <<= 1
    table_low = np.empty(capacity, dtype=np.uint64)
    table_high = np.empty(capacity, dtype=np.uint64)
    occupied = np.zeros(capacity, dtype=np.bool_)
    out = np.empty((max(built, 1), 2), dtype=np.uint64)
    distinct = 0
    for i in range(count):
        if repeat[i]:
            continue
        empties = spans[i, S_EMPTY]
        allowed = spans[i, S_UNION]
        for blanks_used in range(min(blanks, empties) + 1):
            size = empties - blanks_used
            for j in range(size_first[size], size_first[size + 1]):
                if sub_sets[j] & ~allowed:
                    continue
                low = fixed[i, 0] + sub_keys[j, 0]
                high = fixed[i, 1] + sub_keys[j, 1]
                if blanks_used == 0:
                    distinct = add_signature(table_low, table_high, occupied, out, distinct,
                                             low, high)  # fmt: skip
                    continue
                for first in range(26):
                    if not (allowed >> first) & 1:
                        continue
                    low1 = low + inc[first, 0]
                    high1 = high + inc[first, 1]
                    if blanks_used == 1:
                        distinct = add_signature(table_low, table_high, occupied, out, distinct,
                                                 low1, high1)  # fmt: skip
                        continue
                    for second in range(first, 26):
                        if (allowed >> second) & 1:
                            distinct = add_signature(
                                table_low, table_high, occupied, out, distinct,
                                low1 + inc[second, 0], high1 + inc[second, 1],
                            )  # fmt: skip
    return out[:distinct].copy(), built


@dataclass(frozen=True)
class Plan:
    """Where moves can go and which signatures to look up for them."""

    spans: npt.NDArray[np.int64]  # (m, 6), columns S_*
    fixed: npt.NDArray[np.uint64]  # (m, 2) fixed-letter keys per span
    queries: npt.NDArray[np.uint64]  # (q, 2) distinct signatures
    built: int  # signatures built before de-duplication


@njit(cache=True)
def plan_arrays(view, rack, signatures, inc):
    """``plan`` in one compiled call (a request pays one dispatch, not eight):
    spans and fixed keys of both directions, then the distinct signatures.

    Without a blank, a square is only as open as the rack: the masks are cut
    to the rack's letters, so a span over a square no rack tile fits is never
    built (on the corpus 24% fewer spans and 13% fewer look-ups, same moves)."""
    counts = rack.astype(np.int64)
    tiles = counts.sum()
    allowed = np.uint32(rack_letters(counts))
    size = view.lines.shape[1]
    spans_across, fixed_across = find_spans(
        view.lines[0], view.cross_mask[0] & allowed, view.anchors[0], tiles, 0, size, inc
    )
    spans_down, fixed_down = find_spans(
        view.lines[1], view.cross_mask[1] & allowed, view.anchors[1], tiles, 1, size, inc
    )
    spans = np.concatenate((spans_across, spans_down))
    fixed = np.concatenate((fixed_across, fixed_down))
    if not signatures:
        return spans, fixed, np.zeros((0, 2), dtype=np.uint64), 0
    sub_keys, sub_sizes, sub_masks, size_first = rack_subsets(counts, inc)
    queries, built = span_signatures(
        spans, fixed, sub_keys, sub_sizes, sub_masks, size_first, counts[BLANK], inc
    )
    return spans, fixed, queries, built


def plan(view: BoardView, rack: npt.NDArray[np.uint8], signatures: bool = True) -> Plan:
    """Spans of both directions and their distinct signatures. The view's masks
    may come from the trie or the signature table. ``signatures=False``: spans
    only (the gateway fitting the worker's words)."""
    spans, fixed, queries, built = plan_arrays(view, rack, signatures, INC)
    return Plan(spans=spans, fixed=fixed, queries=queries, built=int(built))
