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
def tiles_bound(count, product, weights_lm, weights_cw, square_caps, tile_values, weights,
                caps_sorted, taken):  # fmt: skip
    """The most ``count`` new tiles can add to a shape whose word multiplier is
    ``product``: square weight letter multiplier x (product + own word
    multiplier when it forms a cross word), values assigned greedily, heaviest
    square first, each the highest value left that its cross-check allows
    (``square_caps``). With caps nested this way the greedy assignment is the
    best one (an exchange argument), so no placement of these tiles scores
    more; should it ever fail to place a value, the plain rearrangement bound
    (weights and values both sorted, paired) is returned instead."""
    for i in range(count):
        weight = weights_lm[i] * (product + weights_cw[i])
        cap = square_caps[i]
        j = i - 1
        while j >= 0 and weights[j] < weight:  # insertion, heaviest first
            weights[j + 1] = weights[j]
            caps_sorted[j + 1] = caps_sorted[j]
            j -= 1
        weights[j + 1] = weight
        caps_sorted[j + 1] = cap
    available = tile_values.shape[0]
    for k in range(available):
        taken[k] = False
    total = 0
    for i in range(count):
        pick = -1
        for k in range(available):  # values descending: the first that fits
            if not taken[k] and tile_values[k] <= caps_sorted[i]:
                pick = k
                break
        if pick < 0:
            plain = 0
            for k in range(count):
                plain += weights[k] * tile_values[k]
            return plain
        taken[pick] = True
        total += weights[i] * tile_values[pick]
    return total


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
EXACT_KEPT = 0  # shapes keeping at most this many lettered tiles get exact leaves


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


@njit(cache=True, inline="always")
def without(tile_values, removed_a, removed_b, out):
    """``tile_values`` (descending) less one tile of each removed value (-1:
    none), into ``out``; returns how many are left."""
    k = 0
    skip_a = removed_a >= 0
    skip_b = removed_b >= 0
    for value in tile_values:
        if skip_a and value == removed_a:
            skip_a = False
            continue
        if skip_b and value == removed_b:
            skip_b = False
            continue
        out[k] = value
        k += 1
    return k


@njit(cache=True, inline="always")
def near_whole_bound(fixed_low, fixed_high, kept_real, blanks_used, placed, product, base_score,
                     scratch, tile_values, values, rack, keep_values, radix, anagrams,
                     rack_size, bingo):  # fmt: skip
    """Exact-leave bound of a shape placing all but ``kept_real`` (0-2) of the
    rack's lettered tiles: for each choice of the tiles kept, the word's letters
    are known (the blanks aside), so the shape counts only if some word is
    their anagram, its tiles are those placed and its leave is that keep's."""
    lowest = np.iinfo(np.int64).min
    best = lowest
    weights_lm, weights_cw, square_caps = scratch[0], scratch[1], scratch[2]
    weights, caps_sorted, reduced = scratch[3], scratch[4], scratch[5]
    taken = anagrams.taken
    blank_index = (rack[BLANK] - blanks_used) * radix[BLANK]
    low = anagrams.rack_low + fixed_low
    high = anagrams.rack_high + fixed_high
    bonus = bingo if placed == rack_size else 0
    for first in range(26 if kept_real >= 1 else 1):
        if kept_real >= 1 and rack[first] == 0:
            continue
        for second in range(first if kept_real == 2 else 0, 26 if kept_real == 2 else 1):
            if kept_real == 2 and rack[second] < (2 if second == first else 1):
                continue
            query_low, query_high, index = low, high, blank_index
            removed_a, removed_b = -1, -1
            if kept_real >= 1:
                query_low -= INC[first, 0]
                query_high -= INC[first, 1]
                index += radix[first]
                removed_a = values[first]
            if kept_real == 2:
                query_low -= INC[second, 0]
                query_high -= INC[second, 1]
                index += radix[second]
                removed_b = values[second]
            if not has_anagram(anagrams, query_low, query_high, blanks_used):
                continue
            left = without(tile_values, removed_a, removed_b, reduced)
            score = base_score + bonus + tiles_bound(
                placed, product, weights_lm, weights_cw, square_caps, reduced[:left], weights,
                caps_sorted, taken,
            )  # fmt: skip
            equity = score * 1000 + keep_values[index]
            if equity > best:
                best = equity
    return best


class Anagrams(NamedTuple):
    """The signature table and the per-call cache of which letter multisets
    have an anagram (``has_anagram``)."""

    table: SignatureTable
    taken: npt.NDArray[np.bool_]  # scratch of tiles_bound
    rack_low: np.uint64  # the rack's lettered tiles, packed
    rack_high: np.uint64
    low: npt.NDArray[np.uint64]
    high: npt.NDArray[np.uint64]
    wild: npt.NDArray[np.int64]
    known: npt.NDArray[np.int8]
    cached: npt.NDArray[np.int64]


@njit(cache=True, inline="always")
def anchor_bound(cells, cross_mask, cross_score, letter_mult, word_mult, caps, anchor,
                 root_start, left_limit, fixed_left, playable, tile_values, values, best_keep,
                 rack_size, bingo, scratch, anagrams, blanks_used, rack, keep_values,
                 radix):  # fmt: skip
    """Highest static equity (millipoints) of any placement whose leftmost anchor
    is ``anchor``; the lowest int64 when there is none. For each left part the
    shape grows square by square to the right, its sums kept as it goes."""
    size = cells.shape[0]
    lowest = np.iinfo(np.int64).min
    best = lowest
    available = tile_values.shape[0]
    weights_lm, weights_cw, square_caps = scratch[0], scratch[1], scratch[2]
    weights, caps_sorted = scratch[3], scratch[4]
    taken = anagrams.taken
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
            cell = cells[square]
            if cell == EMPTY:
                if np.int64(cross_mask[square]) & playable == 0 or placed == available:
                    fits = False  # no tile fits, or the rack ran out: no longer shape either
                    break
                weights_lm[placed] = letter_mult[square]
                weights_cw[placed] = word_mult[square] if cross_score[square] >= 0 else 0
                square_caps[placed] = caps[square]
                placed += 1
                product *= word_mult[square]
                if cross_score[square] >= 0:
                    crossed += cross_score[square] * word_mult[square]
            else:
                letter = (cell & LETTER_MASK) - 1
                fixed_low += INC[letter, 0]
                fixed_high += INC[letter, 1]
                if cell & BLANK_FLAG == 0:
                    fixed += values[letter]
            if square < anchor:
                continue  # the left part: the word reaches the anchor
            if square + 1 < size and cells[square + 1] != EMPTY:
                continue  # the main word would run on
            if square - start + 1 < 2 or best_keep[placed] == lowest:
                continue
            kept_real = available - placed
            if kept_real <= EXACT_KEPT and (kept_real == 0 or blanks_used <= 1):
                equity = near_whole_bound(
                    fixed_low, fixed_high, kept_real, blanks_used, placed, product,
                    fixed * product + crossed, scratch, tile_values, values, rack, keep_values,
                    radix, anagrams, rack_size, bingo,
                )  # fmt: skip
                if equity > best:
                    best = equity
                continue
            score = fixed * product + crossed
            score += tiles_bound(placed, product, weights_lm, weights_cw, square_caps,
                                 tile_values, weights, caps_sorted, taken)  # fmt: skip
            if placed == rack_size:
                score += bingo
            equity = score * 1000 + best_keep[placed]
            if equity > best:
                best = equity
        if not fits and left > 0 and start < anchor:
            # a blocked square in the left part also blocks every longer left part
            blocked_left = False
            for square in range(start, anchor):
                if np.int64(cross_mask[square]) & playable == 0:
                    blocked_left = True
            if blocked_left:
                break
    return best
