"""The ``trie`` engine's kernel: Appel-Jacobson move generation over the trie.

For each anchor of a line, the left part is either the tiles already to its
left (followed through the trie) or every rack word-prefix that fits on the
empty non-anchor squares there; from it the word is extended right, branching
at empty squares only to children that are on the rack and allowed by the
square's cross-check mask, following tiles already on the board, and a word is
emitted when a terminal node stands on an empty square (or the edge) after the
anchor is covered. Because a left part never crosses another anchor, each
placement is found from its leftmost anchor only, so once per direction.

The search is one iterative depth-first loop over an explicit frame stack:
Numba passes arrays to a call with reference counting, which made a recursive
version about 10x slower (and recursive functions do not load from Numba's
cache reliably).
"""

from __future__ import annotations

from typing import Final

import numpy as np
from numba import njit

from scrabble.board import rack_letters, rack_tiles
from scrabble.engines.shadow import (
    ANAGRAM_CACHE,
    Anagrams,
    anchor_bounds,
    best_keep_by_tiles_played,
    tile_values_descending,
)
from scrabble.engines.shadow import square_caps as square_caps_of
from scrabble.engines.sink import (
    ANCHORS,
    BLANKS_HIDDEN,
    COUNTERS,
    MOVES,
    NODES,
    PRUNED,
    Sink,
    emit,
    leave_index,
)
from scrabble.lexicon.table import INC
from scrabble.lexicon.trie import child, child_in, lowest_letter, terminal_in
from scrabble.moves import META_COLUMNS
from scrabble.scoring import score_line
from scrabble.tiles import (
    ALL_LETTERS,
    BLANK,
    BLANK_FLAG,
    DOWN,
    EMPTY,
    LETTER_MASK,
    NEW_FLAG,
    RACK_TYPES,
)

MAX_LINE: Final = 32  # longest board line the kernel's buffers hold
# frame kinds: building a left part, or extending right from the anchor
LEFT: Final = 0
RIGHT: Final = 1
# rows of the frame stack
KIND: Final = 0
NODE: Final = 1
SQUARE: Final = 2  # a RIGHT frame's square; a LEFT frame's left-part length
PLACED: Final = 3
START: Final = 4
TODO: Final = 5  # letters still to try at this frame (bit set)
PHASE: Final = 6  # 0: try the real tile next, 1: the blank, 2: the next letter
USED: Final = 7  # the rack index the current child took, -1 none
FRESH: Final = 8  # 1 until the frame has been entered
FRAME_ROWS: Final = 9


@njit(cache=True, inline="always")
def return_tile(rack, tile):
    """Put a taken tile back on the rack; the letter it adds to the rack's
    lettered tiles (0 for a blank)."""
    rack[tile] += 1
    return np.int64(0) if tile == BLANK else np.int64(1) << tile


@njit(cache=True)
def search_anchors(
    plan, order, count, bounds, overall, cases, blanks_held, prune, view, rack, trie, scoring,
    sink, word, left, frames,
):  # fmt: skip
    """All placements whose leftmost anchor is one of the ``count`` planned
    anchors (``plan`` rows: direction, line, anchor, root, root start, left
    limit; searched in ``order``).

    Root and root start: the trie node and start square after the tiles
    already left of the anchor; a left limit > 0 instead asks for left parts of
    up to that many rack tiles (then root is 0 and root start is the anchor).

    With ``prune`` (``best``), the search stops at the first anchor whose bound
    (``overall``) cannot reach the kept moves, and an anchor is searched with
    only as many blanks as its bounds per blanks used still allow.

    One call walks every anchor: passing the arrays to a call per anchor cost
    a reference count increment and decrement (atomic) per array, which with
    the sink's thirteen was a good part of the search's time.
    """
    lowest = np.iinfo(np.int64).min
    lines, cross_masks, cross_scores = view.lines, view.cross_mask, view.cross_score
    letter_mults, word_mults = view.letter_mult, view.word_mult
    size = lines.shape[2]
    kind, node, square, placed, start = (
        frames[KIND], frames[NODE], frames[SQUARE], frames[PLACED], frames[START]
    )  # fmt: skip
    todo, phase, used, fresh = frames[TODO], frames[PHASE], frames[USED], frames[FRESH]
    # The arrays the loop reads, taken out of their named tuples once: each
    # attribute read inside the loop cost a reference count increment and
    # decrement (atomic), which was most of the time per node.
    trie_mask, trie_first, radix, counter = trie.mask, trie.first, sink.radix, sink.counter
    keep_best, best_size, best_equity = sink.top, sink.best_size, sink.best_equity
    keep_values, penalty = sink.values, sink.penalty
    nodes = 0
    rejected = 0  # placements found that could not enter the heap
    for k in range(count):
        i = order[k]
        kept_offset = 0
        if prune:
            threshold = sink.best_equity[0] if sink.best_size[0] == sink.top else lowest
            if overall[i] < threshold:
                counter[PRUNED] += count - k
                break
            usable = 0  # the most blanks a placement here may use and still compete
            for blanks_used in range(cases):
                if bounds[i, blanks_used] >= threshold:
                    usable = blanks_used
            if usable < blanks_held:
                counter[BLANKS_HIDDEN] += 1
            rack[BLANK] = usable
            kept_offset = (blanks_held - usable) * radix[BLANK]
        direction, line, anchor = plan[i, 0], plan[i, 1], plan[i, 2]
        root, root_start, left_limit = plan[i, 3], plan[i, 4], plan[i, 5]
        cells = lines[direction, line]
        cross_mask = cross_masks[direction, line]
        cross_score = cross_scores[direction, line]
        letter_mult = letter_mults[direction, line]
        word_mult = word_mults[direction, line]
        for at in range(root_start, anchor):
            word[at] = cells[at]  # the tiles already left of the anchor
        # The letters the rack's lettered tiles can put down, kept as tiles are
        # taken and returned: recomputing ``rack_letters`` at every node was a
        # 26-step loop per node on racks without a blank.
        held = real_letters(rack)
        # The leave's mixed-radix index, likewise (with the blanks hidden from
        # the search): ``leave_index`` summed 27 terms per placement found.
        kept = leave_index(rack, radix) + kept_offset
        top = 0
        node[0] = root
        placed[0] = 0
        fresh[0] = 1
        if left_limit > 0:
            kind[0] = LEFT
            square[0] = 0  # a left frame's square is the left part's length
        else:
            kind[0] = RIGHT
            square[0] = anchor
            start[0] = root_start
        while top >= 0:
            nodes += fresh[top]
            if kind[top] == LEFT:
                length = square[top]
                if fresh[top]:
                    fresh[top] = 0
                    playable = ALL_LETTERS if rack[BLANK] > 0 else held
                    todo[top] = np.int64(trie_mask[node[top]]) & ALL_LETTERS & playable
                    phase[top] = 0
                    used[top] = -1
                    fits = True
                    for q in range(length):
                        at = anchor - length + q
                        word[at] = left[q]
                        # Under "touch" left-part squares are never constrained; under
                        # "through" one may sit under a board tile (its cross word counts).
                        if (np.int64(cross_mask[at]) >> ((left[q] & LETTER_MASK) - 1)) & 1 == 0:
                            fits = False
                    if not fits:
                        continue  # longer left parts shift onto other squares: still tried
                    # first the words that start with exactly this left part
                    top += 1
                    kind[top] = RIGHT
                    node[top] = node[top - 1]
                    square[top] = anchor
                    start[top] = anchor - length
                    placed[top] = length
                    fresh[top] = 1
                    continue
                if used[top] >= 0:
                    held |= return_tile(rack, used[top])
                    kept += radix[used[top]]
                    used[top] = -1
                if length >= left_limit:
                    top -= 1
                    continue
            else:
                if fresh[top]:
                    fresh[top] = 0
                    at_node = node[top]
                    at = square[top]
                    while at < size and cells[at] != EMPTY:
                        letter = np.int64(cells[at] & LETTER_MASK) - 1
                        at_node = child_in(trie_mask, trie_first, at_node, letter)
                        if at_node < 0:
                            break
                        word[at] = cells[at]
                        at += 1
                    if at_node < 0:
                        top -= 1
                        continue
                    node[top] = at_node
                    square[top] = at
                    first = start[top]
                    if at > anchor and at - first >= 2 and terminal_in(trie_mask, at_node):
                        listed = True
                        if direction == DOWN and placed[top] == 1:
                            # a single tile that also forms an across word is listed across only
                            for q in range(first, at):
                                if word[q] & NEW_FLAG and cross_score[q] >= 0:
                                    listed = False
                        if listed:
                            score = score_line(
                                word, first, at - 1, letter_mult, word_mult, cross_score, scoring
                            )
                            # Most placements cannot enter a full heap: ruled out here,
                            # before ``emit`` reads the sink (each read of one of its
                            # arrays costs reference counting). The hotspot penalty
                            # only lowers equity, so without it this is an upper bound.
                            if (
                                keep_best
                                and best_size[0] == keep_best
                                and penalty <= 0
                                and score * 1000 + keep_values[kept] < best_equity[0]
                            ):
                                rejected += 1
                            else:
                                emit(sink, word, first, at - 1, line, direction, placed[top],
                                     score, kept)  # fmt: skip
                    if at >= size:
                        top -= 1
                        continue
                    playable = ALL_LETTERS if rack[BLANK] > 0 else held
                    letters = np.int64(cross_mask[at]) & np.int64(trie_mask[at_node]) & playable
                    if letters == 0:
                        top -= 1
                        continue
                    todo[top] = letters
                    phase[top] = 0
                    used[top] = -1
                elif used[top] >= 0:
                    held |= return_tile(rack, used[top])
                    kept += radix[used[top]]
                    used[top] = -1
            # Next (letter, real tile or blank) choice of the top frame. The rack
            # is restored after each child, so the letters playable here stay
            # those computed when the frame was entered.
            letters = todo[top]
            step = phase[top]
            take = -1
            letter = 0
            while letters != 0:
                letter = lowest_letter(letters)
                if step == 0:
                    step = 1
                    if rack[letter] > 0:
                        take = letter
                        break
                if step == 1:
                    step = 2
                    if rack[BLANK] > 0:
                        take = BLANK
                        break
                letters &= letters - 1
                step = 0
            if take < 0:
                top -= 1
                continue
            todo[top] = letters
            phase[top] = step
            rack[take] -= 1
            kept -= radix[take]
            if take != BLANK and rack[take] == 0:
                held &= ~(np.int64(1) << take)
            used[top] = take
            code = (letter + 1) | NEW_FLAG
            if take == BLANK:
                code |= BLANK_FLAG
            next_node = child_in(trie_mask, trie_first, node[top], np.int64(letter))
            if kind[top] == LEFT:
                left[square[top]] = code
                top += 1
                kind[top] = LEFT
                node[top] = next_node
                square[top] = square[top - 1] + 1
                fresh[top] = 1
            else:
                at = square[top]
                word[at] = code
                top += 1
                kind[top] = RIGHT
                node[top] = next_node
                square[top] = at + 1
                start[top] = start[top - 1]
                placed[top] = placed[top - 1] + 1
                fresh[top] = 1
    counter[NODES] += nodes
    counter[MOVES] += rejected
    if prune:
        rack[BLANK] = blanks_held


@njit(cache=True)
def anchor_root(cells, anchors, line, anchor, trie, tiles):
    """How the search at ``anchor`` starts: (root node, root start, left limit).
    Tiles already left of the anchor are followed through the trie (root -1:
    no word starts with them); else the left part may take up to ``left_limit``
    rack tiles on the empty non-anchor squares there."""
    root = 0
    root_start = anchor
    left_limit = 0
    if anchor > 0 and cells[anchor - 1] != EMPTY:
        root_start = anchor - 1
        while root_start > 0 and cells[root_start - 1] != EMPTY:
            root_start -= 1
        for at in range(root_start, anchor):
            root = child(trie, root, np.int64(cells[at] & LETTER_MASK) - 1)
            if root < 0:
                break
    else:
        at = anchor - 1
        while at >= 0 and cells[at] == EMPTY and not anchors[line, at]:
            left_limit += 1
            at -= 1
        if left_limit > tiles - 1:
            left_limit = tiles - 1
    return root, root_start, left_limit


@njit(cache=True)
def plan_anchors(view, rack, trie, counter):
    """Every anchor of both directions where a word can start (anchor_root),
    one ``search_anchors`` plan row each, in direction, line, square order."""
    size = view.lines.shape[1]
    tiles = rack_tiles(rack)
    plan = np.empty((2 * size * size, 6), dtype=np.int64)
    found = 0
    for direction in range(2):
        anchors = view.anchors[direction]
        for line in range(size):
            cells = view.lines[direction, line]
            for anchor in range(size):
                if not anchors[line, anchor]:
                    continue
                counter[ANCHORS] += 1
                root, root_start, left_limit = anchor_root(cells, anchors, line, anchor, trie,
                                                           tiles)  # fmt: skip
                if root < 0:
                    continue
                plan[found, 0] = direction
                plan[found, 1] = line
                plan[found, 2] = anchor
                plan[found, 3] = root
                plan[found, 4] = root_start
                plan[found, 5] = left_limit
                found += 1
    return plan, found


@njit(cache=True)
def search_all(view, rack, trie, scoring, sink):
    """Every anchor searched, none pruned."""
    plan, found = plan_anchors(view, rack, trie, sink.counter)
    order = np.arange(found)
    word = np.zeros(MAX_LINE, dtype=np.uint8)
    left = np.zeros(MAX_LINE, dtype=np.uint8)
    frames = np.zeros((FRAME_ROWS, MAX_LINE + 2), dtype=np.int64)
    search_anchors(plan, order, found, np.zeros((0, 1), dtype=np.int64),
                   np.zeros(0, dtype=np.int64), 1, 0, False, view, rack, trie, scoring, sink,
                   word, left, frames)  # fmt: skip


@njit(cache=True)
def no_best(size):
    """The best-N half of a sink that records every placement."""
    return (
        np.zeros(1, dtype=np.int64), np.zeros(RACK_TYPES, dtype=np.int64),
        np.zeros((2, size, size), dtype=np.bool_), 0, np.zeros(1, dtype=np.int64),
        np.zeros((1, size), dtype=np.uint8), np.zeros((1, META_COLUMNS), dtype=np.int32),
        np.zeros(1, dtype=np.int64),
    )  # fmt: skip


@njit(cache=True)
def run(view, rack, trie, scoring, sink):
    working_rack = rack.astype(np.int32)  # the search takes and returns tiles
    search_all(view, working_rack, trie, scoring, sink)


@njit(cache=True)
def generate(view, rack, trie, scoring, capacity):
    """All placements on a board view, both directions.

    Returns (words, meta, counter): the MoveList arrays (``scrabble.moves``),
    counter = moves found (may exceed capacity: call again with more), trie
    nodes visited, anchors."""
    size = view.lines.shape[1]
    out_words = np.empty((capacity, size), dtype=np.uint8)  # a word is at most a line long
    out_meta = np.empty((capacity, META_COLUMNS), dtype=np.int32)
    counter = np.zeros(COUNTERS, dtype=np.int64)
    values, radix, hotspots, penalty, best_equity, best_words, best_meta, best_size = no_best(size)
    sink = Sink(out_words, out_meta, counter, 0, values, radix, hotspots, penalty, best_equity,
                best_words, best_meta, best_size)  # fmt: skip
    run(view, rack, trie, scoring, sink)
    found = min(counter[MOVES], capacity)
    return out_words[:found], out_meta[:found], counter


MAX_BLANK_CASES = 8


@njit(cache=True)
def best(view, rack, trie, scoring, values, radix, hotspots, penalty, top, prune, table):
    """The best ``top`` placements by static equity (``engines.sink``), both
    directions. Returns (equity, words, meta, counter); rows in heap order.

    With ``prune``, each anchor gets shadow bounds (``engines.shadow``), one per
    number of blanks a placement there could use; anchors are searched from
    the highest bound down, the search stops when no bound left can reach the
    kept moves, and an anchor is searched with only as many blanks as a bound
    still allows (a blank kept is worth a lot: most placements that would
    spend it cannot compete, and ruling them out removes the blank's 26-way
    branching)."""
    size = view.lines.shape[1]
    counter = np.zeros(COUNTERS, dtype=np.int64)
    sink = Sink(
        np.zeros((0, size), dtype=np.uint8), np.zeros((0, META_COLUMNS), dtype=np.int32),
        counter, top, values, radix, hotspots, penalty, np.zeros(top + 1, dtype=np.int64),
        np.zeros((top + 1, size), dtype=np.uint8),
        np.zeros((top + 1, META_COLUMNS), dtype=np.int32), np.zeros(1, dtype=np.int64),
    )  # fmt: skip
    working = rack.astype(np.int32)
    if not prune:
        search_all(view, working, trie, scoring, sink)
        kept = sink.best_size[0]
        return sink.best_equity[:kept], sink.best_words[:kept], sink.best_meta[:kept], counter
    lowest = np.iinfo(np.int64).min
    tiles = rack_tiles(working)
    held = min(working[BLANK], MAX_BLANK_CASES - 1)
    cases = held + 1  # placements using 0..held blanks
    playable = np.zeros(cases, dtype=np.int64)
    tile_values = np.zeros((cases, tiles), dtype=np.int64)
    best_keep = np.zeros((cases, tiles + 1), dtype=np.int64)
    for used in range(cases):
        playable[used] = rack_letters(working) if used > 0 else real_letters(working)
        case_values = tile_values_descending(working, scoring.values, used)
        tile_values[used, : case_values.shape[0]] = case_values
        best_keep[used] = best_keep_by_tiles_played(values, radix, working, used)
    lettered = tiles - working[BLANK]
    rack_low = np.uint64(0)
    rack_high = np.uint64(0)
    for letter in range(26):
        for _ in range(working[letter]):
            rack_low += INC[letter, 0]
            rack_high += INC[letter, 1]
    anagrams = Anagrams(
        table, rack_low, rack_high,
        np.zeros(ANAGRAM_CACHE, dtype=np.uint64), np.zeros(ANAGRAM_CACHE, dtype=np.uint64),
        np.zeros(ANAGRAM_CACHE, dtype=np.int64), np.zeros(ANAGRAM_CACHE, dtype=np.int8),
        np.zeros(1, dtype=np.int64),
    )  # fmt: skip
    caps = np.empty((2, size, size), dtype=np.int64)
    for direction in range(2):
        caps[direction] = square_caps_of(view.lines[direction], view.cross_mask[direction],
                                         working, scoring.values)  # fmt: skip
    plan, planned = plan_anchors(view, working, trie, counter)
    bounds = np.empty((planned, cases), dtype=np.int64)
    overall = np.empty(planned, dtype=np.int64)
    anchor_bounds(plan, planned, view.lines, view.cross_mask, view.cross_score, view.letter_mult,
                  view.word_mult, caps, playable, tile_values, lettered, scoring.values,
                  best_keep, scoring.rack_size, scoring.bingo_bonus, anagrams, bounds,
                  overall)  # fmt: skip
    found = 0  # the anchors some shape fits, kept in plan order
    for i in range(planned):
        if overall[i] == lowest:
            continue
        plan[found] = plan[i]
        bounds[found] = bounds[i]
        overall[found] = overall[i]
        found += 1
    order = np.argsort(-overall[:found], kind="mergesort")
    word = np.zeros(MAX_LINE, dtype=np.uint8)
    left = np.zeros(MAX_LINE, dtype=np.uint8)
    frames = np.zeros((FRAME_ROWS, MAX_LINE + 2), dtype=np.int64)
    search_anchors(plan, order, found, bounds, overall, cases, held, True, view, working, trie,
                   scoring, sink, word, left, frames)  # fmt: skip
    kept = sink.best_size[0]
    return sink.best_equity[:kept], sink.best_words[:kept], sink.best_meta[:kept], counter


@njit(cache=True, inline="always")
def real_letters(rack):
    """The letter set of the rack's lettered tiles (blanks not counted)."""
    letters = np.int64(0)
    for letter in range(26):
        if rack[letter] > 0:
            letters |= np.int64(1) << letter
    return letters
