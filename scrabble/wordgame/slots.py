"""Slots: the planner's targets.

A slot is a placement window on one line whose empty squares number exactly
T (a whole hand fills it), holding at least one board tile (any window of T
squares on the empty board), with empty squares or the edge just outside.
Its family is every word that fits it: board letters agree, each empty
square's cross-check allows its letter. Each family member needs a multiset
N of T letters and scores when played (cross words included); members with
the same N keep the best score.

For the hand held now, ``keep_table`` gives, for every sub-multiset K of the
hand kept, the chance that the refill (the visible tiles first, then i.i.d.
draws) completes some N exactly, and the expected score of that: the events
"the hand becomes N" are disjoint, so the sum is exact. It walks the family
once and, for each N, only the sub-multisets of N held in the hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.wordgame.search import LETTER, NEW

W_START, W_LEN, W_LINE, W_DIR, W_PROD = range(5)


@njit(cache=True)
def _window(cells, cmask, wm, direction, line, first, empties):
    """The window of the line from square ``first`` holding ``empties`` empty
    squares and running on through the board tiles just after them: (end,
    product of the empty squares' word multipliers, board tiles inside);
    end -1 when the line ends first or an empty square's cross-check is
    closed (no letter can stand there)."""
    n = cells.shape[1]
    found = 0
    tiles = 0
    product = 1
    along = first
    while along < n and found < empties:
        if cells[direction, line, along] == 0:
            if cmask[direction, line, along] == 0:
                return -1, 0, 0
            found += 1
            product *= wm[direction, line, along]
        else:
            tiles += 1
        along += 1
    if found < empties:
        return -1, 0, 0
    while along < n and cells[direction, line, along] != 0:
        tiles += 1
        along += 1
    return along, product, tiles


@njit(cache=True, inline="always")
def word_fits(matrix, word, cells, cmask, start, length):
    """Whether word ``w`` of the bank's ``matrix`` fits the window of this line
    from ``start``: its letters agree with the board tiles and each empty
    square's cross-check allows its letter."""
    for offset in range(length):
        square = start + offset
        letter = matrix[word, offset]
        if cells[square] != 0:
            if (cells[square] & LETTER) != letter:
                return False
        elif (np.int64(cmask[square]) >> (letter - 1)) & 1 == 0:
            return False
    return True


@njit(cache=True)
def slot_windows(cells, cmask, wm, t, empty_board, lm):
    """Rows (start, length, line, direction, potential) of every slot window;
    the potential ranks windows before their families are built: the product
    of the word multipliers on the empty squares x their mean letter
    multiplier (x100, an integer)."""
    n = cells.shape[1]
    out = np.zeros((2 * n * n, 5), dtype=np.int64)
    count = 0
    for direction in range(2):
        for line in range(n):
            for first in range(n):
                if first > 0 and cells[direction, line, first - 1] != 0:
                    continue
                end, product, tiles = _window(cells, cmask, wm, direction, line, first, t)
                if end < 0 or (tiles != 0 if empty_board else tiles == 0):
                    continue
                letters = 0
                for along in range(first, end):
                    if cells[direction, line, along] == 0:
                        letters += lm[direction, line, along]
                out[count, 0] = first
                out[count, 1] = end - first
                out[count, 2] = line
                out[count, 3] = direction
                out[count, 4] = product * letters * 100 // t
                count += 1
    return out[:count]


@njit(cache=True)
def slot_family(cells, cmask, cross, lm, wm, values, matrix, offsets, start, length, keys):
    """The family of one window (this line's arrays): (needs (F, 26) uint8,
    scores (F,)), members with the same need merged (best score kept)."""
    first_word = offsets[length]
    end_word = offsets[length + 1]
    cap = end_word - first_word
    needs = np.zeros((cap, 26), dtype=np.uint8)
    scores = np.zeros(cap, dtype=np.int64)
    hashes = np.zeros(cap, dtype=np.uint64)
    product = 1
    for offset in range(length):
        square = start + offset
        if cells[square] == 0:
            product *= wm[square]
    members = 0
    for word in range(first_word, end_word):
        if not word_fits(matrix, word, cells, cmask, start, length):
            continue
        main = 0
        cross_total = 0
        need_hash = np.uint64(0)
        for offset in range(length):
            square = start + offset
            letter = matrix[word, offset]
            value = values[letter - 1]
            if cells[square] == 0:
                needs[members, letter - 1] += 1
                need_hash += keys[letter - 1]
                main += value * lm[square]
                if cross[square] >= 0:
                    cross_total += (cross[square] + value * lm[square]) * wm[square]
            else:
                main += value
        scores[members] = main * product + cross_total
        hashes[members] = need_hash
        members += 1
    # merge equal needs
    order = np.argsort(hashes[:members])
    out_needs = np.zeros((members, 26), dtype=np.uint8)
    out_scores = np.zeros(members, dtype=np.int64)
    merged = 0
    prev = np.uint64(0)
    for rank in range(members):
        member = order[rank]
        if merged > 0 and hashes[member] == prev:
            if scores[member] > out_scores[merged - 1]:
                out_scores[merged - 1] = scores[member]
            continue
        out_needs[merged] = needs[member]
        out_scores[merged] = scores[member]
        prev = hashes[member]
        merged += 1
    return out_needs[:merged], out_scores[:merged]


@njit(cache=True)
def keep_table(needs, scores, hand, radix, known, logp, log_fact, t):
    """For every sub-multiset K of ``hand`` (mixed-radix index over the hand's
    letters, ``radix[l]`` the stride of letter l, 0 if not held): (chance the
    refill completes a family need exactly, expected score of that, index of
    the member contributing most). ``known[u]``: the visible tiles among the
    first u drawn (26 counts), u = 0..t."""
    size = 1
    for letter in range(26):
        if hand[letter] > 0:
            size *= hand[letter] + 1
    p1 = np.zeros(size, dtype=np.float64)
    s1 = np.zeros(size, dtype=np.float64)
    top = np.full(size, -1, dtype=np.int64)
    top_v = np.zeros(size, dtype=np.float64)
    inter = np.zeros(26, dtype=np.int64)
    sub = np.zeros(26, dtype=np.int64)
    letters = np.zeros(26, dtype=np.int64)
    for member in range(needs.shape[0]):
        held_kinds = 0
        for letter in range(26):
            inter[letter] = min(needs[member, letter], hand[letter])
            sub[letter] = 0
            if inter[letter] > 0:
                letters[held_kinds] = letter
                held_kinds += 1
        # odometer over the sub-multisets of inter
        while True:
            size_k = 0
            idx = 0
            for kind in range(held_kinds):
                letter = letters[kind]
                size_k += sub[letter]
                idx += sub[letter] * radix[letter]
            drawn = t - size_k
            ok = True
            log_chance = 0.0
            unknown_draws = 0
            for letter in range(26):
                delta = needs[member, letter] - sub[letter] - known[drawn, letter]
                if delta < 0:
                    ok = False
                    break
                if delta > 0:
                    log_chance += delta * logp[letter] - log_fact[delta]
                    unknown_draws += delta
            if ok:
                # the unknown draws number u - |known[u]| = m: multinomial
                chance = np.exp(log_chance + log_fact[unknown_draws])
                p1[idx] += chance
                value = chance * scores[member]
                s1[idx] += value
                if value > top_v[idx]:
                    top_v[idx] = value
                    top[idx] = member
            kind = 0
            while kind < held_kinds:
                letter = letters[kind]
                sub[letter] += 1
                if sub[letter] <= inter[letter]:
                    break
                sub[letter] = 0
                kind += 1
            if kind == held_kinds:
                break
    return p1, s1, top


@njit(cache=True)
def fresh_chance(needs, scores, logp, log_fact, t):
    """(chance a fresh hand of t i.i.d. tiles is a family need, expected score)."""
    p_total = 0.0
    s_total = 0.0
    for member in range(needs.shape[0]):
        log_chance = log_fact[t]
        for letter in range(26):
            count = needs[member, letter]
            if count > 0:
                log_chance += count * logp[letter] - log_fact[count]
        chance = np.exp(log_chance)
        p_total += chance
        s_total += chance * scores[member]
    return p_total, s_total


@njit(cache=True)
def anchor_windows(cells, cmask, wm, t, min_product):
    """Rows (direction, line, start, anchor, product, length) of windows that
    one more letter makes a slot: t + 1 empty squares (every cross-check
    open), board tiles anywhere in between, empty or edge just outside. The
    anchor is an empty square without a word multiplier (the big play should
    get those); the product is over the other t empty squares' word
    multipliers, and only products >= ``min_product`` are kept."""
    n = cells.shape[1]
    out = np.zeros((2 * n * n * (t + 1), 6), dtype=np.int64)
    count = 0
    for direction in range(2):
        for line in range(n):
            for first in range(n):
                if first > 0 and cells[direction, line, first - 1] != 0:
                    continue
                end, product, _ = _window(cells, cmask, wm, direction, line, first, t + 1)
                if end < 0 or product < min_product:
                    continue
                for anchor in range(first, end):
                    if cells[direction, line, anchor] != 0 or wm[direction, line, anchor] != 1:
                        continue
                    out[count, 0] = direction
                    out[count, 1] = line
                    out[count, 2] = first
                    out[count, 3] = anchor
                    out[count, 4] = product
                    out[count, 5] = end - first
                    count += 1
    return out[:count]


@njit(cache=True)
def crossing_placements(codes, lengths, legal, windows, values, lm, wm, meta_width):
    """First moves that cross an empty window's line at its anchor square: for
    each legal word and each of its letters, the word placed perpendicular to
    the window with that letter on the anchor. ``windows`` rows: direction,
    line, start, anchor. Rows as the search gives them (all tiles new)."""
    n = lm.shape[1]
    total = 0
    for word in range(codes.shape[0]):
        if legal[word]:
            total += lengths[word] * windows.shape[0]
    meta = np.zeros((total, meta_width), dtype=np.int32)
    out = np.zeros((total, n), dtype=np.uint8)
    count = 0
    for word in range(codes.shape[0]):
        if not legal[word]:
            continue
        length = lengths[word]
        for window in range(windows.shape[0]):
            direction = windows[window, 0]
            line = windows[window, 1]
            anchor = windows[window, 3]
            # the play runs across the window: its line is the anchor's column
            play_direction = 1 - direction
            for offset in range(length):
                start = line - offset
                if start < 0 or start + length > n:
                    continue
                main = 0
                product = 1
                for letter_at in range(length):
                    letter = (codes[word, letter_at] & LETTER) - 1
                    main += values[letter] * lm[play_direction, anchor, start + letter_at]
                    product *= wm[play_direction, anchor, start + letter_at]
                meta[count, 0] = play_direction
                meta[count, 1] = anchor
                meta[count, 2] = start
                meta[count, 3] = length
                meta[count, 4] = length
                meta[count, 5] = 0
                meta[count, 6] = main * product
                meta[count, 7] = 0
                for letter_at in range(length):
                    out[count, letter_at] = (codes[word, letter_at] & LETTER) | NEW
                count += 1
    return meta[:count], out[:count]
