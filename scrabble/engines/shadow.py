"""Shadow bounds: the most static equity any placement from an anchor could make.

The best-N search visits anchors from the highest bound down and stops once
no remaining anchor can beat the N-th best move kept (``trie.best``), so a
move's choice costs a fraction of the full search. A bound must never fall
short of a real placement, so it ignores the lexicon: every shape the search
could produce from the anchor (the left part: the tiles already there, or
0..limit rack tiles on the empty squares before it; then rightwards to every
square where the main word could end) is scored as if the rack's highest
tiles sat on the squares that multiply them most (the rearrangement bound:
square weights and tile values, both sorted descending, paired), with every
cross word formed, plus the bingo bonus for a full rack and the best leave
value any keep of the remaining tiles can have.

Square weight of a new tile on square i under the whole word's multiplier W:
letter multiplier x (W + its own word multiplier when it forms a cross word).
A square no rack letter fits (cross-check) ends the shape, as it ends the
search. A shape that uses every tile (a bingo, most often) has a known letter
multiset, the blanks aside: it only counts if some word is that multiset's
anagram, one signature look-up (26 or 351 with blanks), cached per call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.lexicon.table import INC, SignatureTable, probe_one
from scrabble.tiles import BLANK, BLANK_FLAG, EMPTY, LETTER_MASK


@njit(cache=True)
def tile_values_descending(rack, values, blanks_used):
    """Face values of the rack's lettered tiles, highest first, then
    ``blanks_used`` zeros: what a placement using that many blanks can score
    with (the tiles it places are among them)."""
    total = blanks_used
    for tile in range(26):
        total += rack[tile]
    out = np.zeros(total, dtype=np.int64)
    k = 0
    for tile in range(26):
        for _ in range(rack[tile]):
            out[k] = values[tile]
            k += 1
    out.sort()
    return out[::-1].copy()


@njit(cache=True)
def best_keep_by_tiles_played(keep_values, radix, rack, blanks_used):
    """For each number of tiles played t (0..tiles), the best value any keep of
    the remaining tiles has, among keeps that played exactly ``blanks_used``
    blanks (the lowest int64 where there is none)."""
    tiles = 0
    for tile in range(rack.shape[0]):
        tiles += rack[tile]
    out = np.full(tiles + 1, np.iinfo(np.int64).min, dtype=np.int64)
    for index in range(keep_values.shape[0]):
        kept = 0
        blanks_kept = 0
        for tile in range(rack.shape[0]):
            if radix[tile] > 0:
                count = (index // radix[tile]) % (rack[tile] + 1)
                kept += count
                if tile == BLANK:
                    blanks_kept = count
        if rack[BLANK] - blanks_kept != blanks_used:
            continue
        played = tiles - kept
        if keep_values[index] > out[played]:
            out[played] = keep_values[index]
    return out


@njit(cache=True)
def square_caps(line_cells, cross_mask, rack, values):
    """Per square of each line (n, n): the highest face value of a lettered rack
    tile its cross-check allows (0: only a blank, or nothing, fits)."""
    size = line_cells.shape[0]
    caps = np.zeros((size, size), dtype=np.int64)
    for line in range(size):
        for square in range(size):
            if line_cells[line, square] != EMPTY:
                continue
            allowed = np.int64(cross_mask[line, square])
            best = 0
            for letter in range(26):
                if rack[letter] > 0 and (allowed >> letter) & 1 and values[letter] > best:
                    best = values[letter]
            caps[line, square] = best
    return caps


@njit(cache=True, inline="always")
def anagram_exists(table, low, high, wild, inc):
    """Whether some word has exactly the letters of signature (low, high) plus
    ``wild`` more of any letters (0-2: the blanks)."""
    if wild == 0:
        return probe_one(table.slots, table.keys, low, high) >= 0
    for first in range(26):
        low1 = low + inc[first, 0]
        high1 = high + inc[first, 1]
        if wild == 1:
            if probe_one(table.slots, table.keys, low1, high1) >= 0:
                return True
            continue
        for second in range(first, 26):
            if probe_one(table.slots, table.keys, low1 + inc[second, 0],
                         high1 + inc[second, 1]) >= 0:  # fmt: skip
                return True
    return False


ANAGRAM_CACHE = 1024  # slots of the per-call cache (a power of two)


@njit(cache=True, inline="always")
def has_anagram(anagrams, low, high, wild):
    """``anagram_exists``, cached per (signature, wild) in ``anagrams``: an
    open-addressed set (``known`` 0 empty, 1 no anagram, 2 an anagram)."""
    mask = anagrams.known.shape[0] - 1
    mixed = (low * np.uint64(0x9E3779B97F4A7C15)) ^ (high * np.uint64(0xC2B2AE3D27D4EB4F))
    mixed ^= (mixed >> np.uint64(29)) + np.uint64(wild)
    slot = np.int64(mixed & np.uint64(mask))
    while anagrams.known[slot] != 0:
        if (
            anagrams.low[slot] == low
            and anagrams.high[slot] == high
            and anagrams.wild[slot] == wild
        ):
            return anagrams.known[slot] == 2
        slot = (slot + 1) & mask
    found = anagram_exists(anagrams.table, low, high, wild, INC)
    if anagrams.cached[0] < mask // 2:  # keep probe chains short; past that, no caching
        anagrams.low[slot] = low
        anagrams.high[slot] = high
        anagrams.wild[slot] = wild
        anagrams.known[slot] = 2 if found else 1
        anagrams.cached[0] += 1
    return found


class Anagrams(NamedTuple):
    """The signature table and the per-call cache of which letter multisets
    have an anagram (``has_anagram``)."""

    table: SignatureTable
    rack_low: np.uint64  # the rack's lettered tiles, packed
    rack_high: np.uint64
    low: npt.NDArray[np.uint64]
    high: npt.NDArray[np.uint64]
    wild: npt.NDArray[np.int64]
    known: npt.NDArray[np.int8]
    cached: npt.NDArray[np.int64]


@njit(cache=True)
def anchor_bounds(plan, found, lines, cross_masks, cross_scores, letter_mults, word_mults, caps,
                  playable, tile_values, lettered, values, best_keep, rack_size, bingo,
                  anagrams, bounds, overall):  # fmt: skip
    """For each of the ``found`` planned anchors (``trie.plan_anchors`` rows) and
    each number of blanks used (row of ``playable``, ``tile_values``,
    ``best_keep``), the highest static equity (millipoints) of any placement
    whose leftmost anchor it is, into ``bounds``; the highest over blanks used
    into ``overall``; the lowest int64 where there is none.

    For each left part the shape grows square by square to the right, its sums
    kept as it goes; at each end, the most its new tiles can add: square
    weight letter multiplier x (word multiplier + own word multiplier when it
    forms a cross word), values assigned greedily, heaviest square first,
    each the highest value left that its cross-check allows (``square_caps``).
    With caps nested this way the greedy assignment is the best one (an
    exchange argument), so no placement of these tiles scores more; should it
    ever fail to place a value, the plain rearrangement bound (weights and
    values both sorted, paired) is taken instead.

    All anchors in one call, the tile assignment written out in the loop:
    each call passing arrays costs an atomic reference count increment and
    decrement per array, which, per anchor and per shape, was most of the
    bounds' time."""
    lowest = np.iinfo(np.int64).min
    size = lines.shape[2]
    weights_lm = np.zeros(size, dtype=np.int64)  # per new tile of the shape, in square order
    weights_cw = np.zeros(size, dtype=np.int64)
    shape_caps = np.zeros(size, dtype=np.int64)
    weights = np.zeros(size, dtype=np.int64)  # the same, heaviest first
    caps_sorted = np.zeros(size, dtype=np.int64)
    taken = np.zeros(tile_values.shape[1] + 1, dtype=np.bool_)
    for i in range(found):
        direction, line, anchor = plan[i, 0], plan[i, 1], plan[i, 2]
        root_start, left_limit = plan[i, 4], plan[i, 5]
        fixed_left = root_start < anchor
        top_bound = lowest
        for blanks_used in range(playable.shape[0]):
            letters = playable[blanks_used]
            available = lettered + blanks_used
            best = lowest
            lefts = 1 if fixed_left else left_limit + 1
            for left in range(lefts):
                start = root_start if fixed_left else anchor - left
                placed = 0
                product = 1
                fixed = 0  # face value of the board tiles in the word
                fixed_low = np.uint64(0)  # and their letters, packed
                fixed_high = np.uint64(0)
                crossed = 0  # the cross words' board tiles, multiplied
                fits = True
                for square in range(start, size):
                    cell = lines[direction, line, square]
                    if cell == EMPTY:
                        if (
                            np.int64(cross_masks[direction, line, square]) & letters == 0
                            or placed == available
                        ):
                            fits = False  # no tile fits, or the rack ran out: no longer shape
                            break
                        multiplier = np.int64(word_mults[direction, line, square])
                        cross = cross_scores[direction, line, square]
                        weights_lm[placed] = letter_mults[direction, line, square]
                        weights_cw[placed] = multiplier if cross >= 0 else 0
                        shape_caps[placed] = caps[direction, line, square]
                        placed += 1
                        product *= multiplier
                        if cross >= 0:
                            crossed += cross * multiplier
                    else:
                        letter = (cell & LETTER_MASK) - 1
                        fixed_low += INC[letter, 0]
                        fixed_high += INC[letter, 1]
                        if cell & BLANK_FLAG == 0:
                            fixed += values[letter]
                    if square < anchor:
                        continue  # the left part: the word reaches the anchor
                    if square + 1 < size and lines[direction, line, square + 1] != EMPTY:
                        continue  # the main word would run on
                    if square - start + 1 < 2 or best_keep[blanks_used, placed] == lowest:
                        continue
                    # A shape that uses every tile has a known letter multiset
                    # (the blanks aside): it counts only if a word is its anagram.
                    if placed == available and not has_anagram(
                        anagrams, anagrams.rack_low + fixed_low, anagrams.rack_high + fixed_high,
                        blanks_used,
                    ):  # fmt: skip
                        continue
                    # the new tiles' weights, heaviest first (insertion: equal
                    # weights keep square order)
                    for k in range(placed):
                        weight = weights_lm[k] * (product + weights_cw[k])
                        cap = shape_caps[k]
                        j = k - 1
                        while j >= 0 and weights[j] < weight:
                            weights[j + 1] = weights[j]
                            caps_sorted[j + 1] = caps_sorted[j]
                            j -= 1
                        weights[j + 1] = weight
                        caps_sorted[j + 1] = cap
                    for k in range(available):
                        taken[k] = False
                    tiles = 0
                    for k in range(placed):
                        pick = -1
                        for t in range(available):  # values descending: the first that fits
                            if not taken[t] and tile_values[blanks_used, t] <= caps_sorted[k]:
                                pick = t
                                break
                        if pick < 0:
                            tiles = 0
                            for t in range(placed):
                                tiles += weights[t] * tile_values[blanks_used, t]
                            break
                        taken[pick] = True
                        tiles += weights[k] * tile_values[blanks_used, pick]
                    score = fixed * product + crossed + tiles
                    if placed == rack_size:
                        score += bingo
                    equity = score * 1000 + best_keep[blanks_used, placed]
                    if equity > best:
                        best = equity
                if not fits and left > 0 and start < anchor:
                    # a blocked square in the left part also blocks every longer left part
                    blocked_left = False
                    for square in range(start, anchor):
                        if np.int64(cross_masks[direction, line, square]) & letters == 0:
                            blocked_left = True
                    if blocked_left:
                        break
            bounds[i, blanks_used] = best
            if best > top_bound:
                top_bound = best
        overall[i] = top_bound
