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
from numba import njit

from scrabble.board import anchors
from scrabble.engines.bucket import bucket_order
from scrabble.lexicon.signature import MAX_WORD
from scrabble.lexicon.table import INC

# span columns
S_DIR, S_LINE, S_START, S_END, S_EMPTY, S_UNION = range(6)


@njit(cache=True)
def find_spans(lines, cmask, anc, tiles, direction, inc):
    """Spans of one direction: (m, 6) int64 rows (direction, line, start, end,
    empty squares, union of their cross-check masks) and (m, 2) fixed-letter keys."""
    n = lines.shape[0]
    cap = n * n * n
    spans = np.empty((cap, 6), dtype=np.int64)
    fixed = np.empty((cap, 2), dtype=np.uint64)
    m = 0
    for r in range(n):
        cells = lines[r]
        for s in range(n):
            if s > 0 and cells[s - 1] != 0:
                continue
            k = 0
            union = 0
            anchored = False
            fa = np.uint64(0)
            fb = np.uint64(0)
            for e in range(s, min(n, s + MAX_WORD)):
                if cells[e] == 0:
                    if cmask[r, e] == 0:
                        break  # no letter fits here, so no longer span either
                    k += 1
                    if k > tiles:
                        break
                    union |= np.int64(cmask[r, e])
                    if anc[r, e]:
                        anchored = True
                else:
                    lt = (cells[e] & 31) - 1
                    fa += inc[lt, 0]
                    fb += inc[lt, 1]
                if e > s and k > 0 and anchored and (e == n - 1 or cells[e + 1] == 0):
                    spans[m, 0] = direction
                    spans[m, 1] = r
                    spans[m, 2] = s
                    spans[m, 3] = e
                    spans[m, 4] = k
                    spans[m, 5] = union
                    fixed[m, 0] = fa
                    fixed[m, 1] = fb
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
    size_first, dest = bucket_order(sizes[:p], MAX_WORD + 1)
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
        h = (fixed[i, 0] * np.uint64(0x9E3779B97F4A7C15)) ^ fixed[i, 1] ^ (
            np.uint64(union) * np.uint64(0xC2B2AE3D27D4EB4F)) ^ np.uint64(k)
        h ^= h >> np.uint64(29)
        s = np.int64(h & np.uint64(cap - 1))
        while seen[s] >= 0:
            e = seen[s]
            if (fixed[e, 0] == fixed[i, 0] and fixed[e, 1] == fixed[i, 1]
                    and spans[e, 4] == k and spans[e, 5] == union):
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
                            q = _insert(set_a, set_b, set_used, out, q, a1 + inc[l2, 0],
                                        b1 + inc[l2, 1])
    return out[:q].copy(), built


def board_lines(board: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Across lines (the rows) and down lines (rows of the transposed board)."""
    b = board.reshape(size, size)
    return np.ascontiguousarray(b), np.ascontiguousarray(b.T)


@dataclass(frozen=True)
class Plan:
    """Where moves can go and which signatures to look up for them."""

    spans: np.ndarray  # (m, 6) int64, columns S_*
    fixed: np.ndarray  # (m, 2) uint64 fixed-letter keys per span
    queries: np.ndarray  # (q, 2) uint64 distinct signatures
    built: int  # signatures built before de-duplication


@njit(cache=True)
def rack_letters(counts):
    """Bit mask of the letters the rack can put down: all 26 with a blank."""
    if counts[26] > 0:
        return (1 << 26) - 1
    bits = 0
    for lt in range(26):
        if counts[lt] > 0:
            bits |= 1 << lt
    return bits


@njit(cache=True)
def plan_arrays(lines_a, lines_d, mask_a, mask_d, rack, start_r, start_c, through,
                signatures, inc):
    """``plan`` in one compiled call (a request pays one dispatch, not eight):
    spans and fixed keys of both directions, then the distinct signatures.

    Without a blank, a square is only as open as the rack: the masks are cut
    to the rack's letters, so a span over a square no rack tile fits is never
    built (on the corpus 24% fewer spans and 13% fewer look-ups, same moves)."""
    counts = rack.astype(np.int64)
    tiles = counts.sum()
    allowed = np.uint32(rack_letters(counts))
    sp_a, fx_a = find_spans(lines_a, mask_a & allowed,
                            anchors(lines_a, start_r, start_c, through), tiles, 0, inc)
    sp_d, fx_d = find_spans(lines_d, mask_d & allowed,
                            anchors(lines_d, start_c, start_r, through), tiles, 1, inc)
    spans = np.concatenate((sp_a, sp_d))
    fixed = np.concatenate((fx_a, fx_d))
    if not signatures:
        return spans, fixed, np.zeros((0, 2), dtype=np.uint64), 0
    sub_keys, sub_sizes, sub_masks, size_first = rack_subsets(counts, inc)
    queries, built = span_signatures(spans, fixed, sub_keys, sub_sizes, sub_masks, size_first,
                                     counts[26], inc)
    return spans, fixed, queries, built


def plan(board: np.ndarray, size: int, rack: np.ndarray, start: tuple[int, int],
         masks: tuple[np.ndarray, np.ndarray], signatures: bool = True,
         through: bool = False) -> Plan:
    """Spans of both directions and their distinct signatures. ``masks`` are the
    cross-check masks of the across and down lines (from the trie or the table).
    ``signatures=False``: spans only (the gateway fitting the worker's words)."""
    lines_a, lines_d = board_lines(board, size)
    spans, fixed, queries, built = plan_arrays(
        lines_a, lines_d, masks[0], masks[1], rack, start[0], start[1], through, signatures, INC)
    return Plan(spans=spans, fixed=fixed, queries=queries, built=int(built))
