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

from scrabble.board import BoardView
from scrabble.engines.bucket import bucket_order
from scrabble.lexicon.table import INC
from scrabble.tiles import ALL_LETTERS, BLANK, EMPTY, LETTER_MASK

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
    the empty one included: keys (p, 2), sizes, letter bit masks, ordered by
    size, and size_first (those of size z are size_first[z]..size_first[z+1]).

    Enumerated as bit masks over rack positions 0 .. 2^R - 1, then duplicates
    (the same letters taken from different positions) collapsed by key."""
    letters = np.empty(32, dtype=np.int64)
    nr = 0
    for lt in range(26):
        for _ in range(rack[lt]):
            letters[nr] = lt
            nr += 1
    total = 1 << nr
    keys = np.empty((total, 2), dtype=np.uint64)
    sizes = np.empty(total, dtype=np.int64)
    lmask = np.empty(total, dtype=np.int64)
    p = 0
    for bits in range(total):
        a = np.uint64(0)
        b = np.uint64(0)
        size = 0
        lm = 0
        for i in range(nr):
            if (bits >> i) & 1:
                lt = letters[i]
                a += inc[lt, 0]
                b += inc[lt, 1]
                size += 1
                lm |= 1 << lt
        dup = False
        for q in range(p):
            if keys[q, 0] == a and keys[q, 1] == b:
                dup = True
                break
        if not dup:
            keys[p, 0] = a
            keys[p, 1] = b
            sizes[p] = size
            lmask[p] = lm
            p += 1
    # by size: a span of k empty squares then reads only the subsets of
    # sizes k - blanks .. k
    # sizes 0..nr; a span reads sizes up to its empty squares (<= all tiles)
    size_first, dest = bucket_order(sizes[:p], rack.sum() + 2)
    out_keys = np.empty((p, 2), dtype=np.uint64)
    out_sizes = np.empty(p, dtype=np.int64)
    out_masks = np.empty(p, dtype=np.int64)
    for j in range(p):
        out_keys[dest[j], 0] = keys[j, 0]
        out_keys[dest[j], 1] = keys[j, 1]
        out_sizes[dest[j]] = sizes[j]
        out_masks[dest[j]] = lmask[j]
    return out_keys, out_sizes, out_masks, size_first


@njit(cache=True, inline="always")
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, inline="always")
def _insert(set_a, set_b, set_used, out, count, a, b):
    """Add (a, b) to the open-addressed set; returns the new distinct count."""
    cap = set_a.shape[0]
    h = (a * np.uint64(0x9E3779B97F4A7C15)) ^ (b * np.uint64(0xC2B2AE3D27D4EB4F))
    h ^= h >> np.uint64(29)
    s = np.int64(h & np.uint64(cap - 1))
    while set_used[s]:
        if set_a[s] == a and set_b[s] == b:
            return count
        s = (s + 1) & (cap - 1)
    set_used[s] = True
    set_a[s] = a
    set_b[s] = b
    out[count, 0] = a
    out[count, 1] = b
    return count + 1


@njit(cache=True)
def _expansions(nb, u):
    """Signatures one rack subset makes when nb blanks take any of u letters."""
    if nb == 0:
        return 1
    if nb == 1:
        return u
    return u * (u + 1) // 2


@njit(cache=True)
def span_signatures(spans, fixed, sub_keys, sub_sizes, sub_masks, size_first, blanks, inc):
    """Distinct query signatures of all spans: (q, 2) keys, and how many were
    built before de-duplication.

    A span reads only the rack subsets of the sizes it can take, and spans
    needing exactly what an earlier one needed (same fixed letters, empty
    squares and allowed letters: common on open boards) are counted but not
    expanded again."""
    m = spans.shape[0]
    # pass 1: how many signatures each span builds (sizes the set), and
    # which spans repeat an earlier one
    built = 0
    repeat = np.zeros(m, dtype=np.bool_)
    cap = 16
    while cap < 2 * m:
        cap <<= 1
    seen = np.full(cap, -1, dtype=np.int64)
    for i in range(m):
        k = spans[i, 4]
        union = spans[i, 5]
        u = _popcount(union)
        for nb in range(min(blanks, k) + 1):
            size = k - nb
            for j in range(size_first[size], size_first[size + 1]):
                if not sub_masks[j] & ~union:
                    built += _expansions(nb, u)
        h = (
            (fixed[i, 0] * np.uint64(0x9E3779B97F4A7C15))
            ^ fixed[i, 1]
            ^ (np.uint64(union) * np.uint64(0xC2B2AE3D27D4EB4F))
            ^ np.uint64(k)
        )
        h ^= h >> np.uint64(29)
        s = np.int64(h & np.uint64(cap - 1))
        while seen[s] >= 0:
            e = seen[s]
            if (
                fixed[e, 0] == fixed[i, 0]
                and fixed[e, 1] == fixed[i, 1]
                and spans[e, 4] == k
                and spans[e, 5] == union
            ):
                repeat[i] = True
                break
            s = (s + 1) & (cap - 1)
        if not repeat[i]:
            seen[s] = i
    cap = 16
    while cap < 2 * built:
        cap <<= 1
    set_a = np.empty(cap, dtype=np.uint64)
    set_b = np.empty(cap, dtype=np.uint64)
    set_used = np.zeros(cap, dtype=np.bool_)
    out = np.empty((max(built, 1), 2), dtype=np.uint64)
    q = 0
    for i in range(m):
        if repeat[i]:
            continue
        k = spans[i, 4]
        union = spans[i, 5]
        for nb in range(min(blanks, k) + 1):
            size = k - nb
            for j in range(size_first[size], size_first[size + 1]):
                if sub_masks[j] & ~union:
                    continue
                a = fixed[i, 0] + sub_keys[j, 0]
                b = fixed[i, 1] + sub_keys[j, 1]
                if nb == 0:
                    q = _insert(set_a, set_b, set_used, out, q, a, b)
                    continue
                for l1 in range(26):
                    if not (union >> l1) & 1:
                        continue
                    a1 = a + inc[l1, 0]
                    b1 = b + inc[l1, 1]
                    if nb == 1:
                        q = _insert(set_a, set_b, set_used, out, q, a1, b1)
                        continue
                    for l2 in range(l1, 26):
                        if (union >> l2) & 1:
                            q = _insert(
                                set_a, set_b, set_used, out, q, a1 + inc[l2, 0], b1 + inc[l2, 1]
                            )
    return out[:q].copy(), built


@dataclass(frozen=True)
class Plan:
    """Where moves can go and which signatures to look up for them."""

    spans: npt.NDArray[np.int64]  # (m, 6), columns S_*
    fixed: npt.NDArray[np.uint64]  # (m, 2) fixed-letter keys per span
    queries: npt.NDArray[np.uint64]  # (q, 2) distinct signatures
    built: int  # signatures built before de-duplication


@njit(cache=True)
def rack_letters(counts):
    """Bit set of the letters the rack can put down: all 26 with a blank."""
    if counts[BLANK] > 0:
        return ALL_LETTERS
    letters = 0
    for letter in range(26):
        if counts[letter] > 0:
            letters |= 1 << letter
    return letters


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
