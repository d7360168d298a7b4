"""The endgame search kernel: negamax with alpha-beta over the rest of the game.

One call searches every root move still unresolved to one depth (iterative
deepening is the caller's loop, ``scrabble.equity.endgame``). A node's value is
the spread change from then to the end of the game from its mover's view: the
scores still to come, mover's minus opponent's, plus the end-of-game rack
adjustments. The rules are ``scrabble.game``'s with the bag empty:

- a play that empties the mover's rack ends the game: + 2 x the opponent's rack
  value (the mover gains it, the opponent loses it);
- a pass (the only scoreless turn left, exchanges need a bag) that makes the
  consecutive scoreless turns reach ``SCORELESS_LIMIT`` ends it: each player
  loses their own rack value. A zero-score play counts as a scoreless turn but
  never ends the game itself (as in ``Game.play_move``); a scoring play resets
  the count. Inside the tree a pass answering a pass ends the game when
  neither mover had a zero-score play that does not go out: that gives the
  game model's values exactly (``docs/endgame.md`` has the argument), and the
  root's own pass is followed by the game's count so its value is its own.

The board is held as rows and as columns and changed in place; a node's moves
come from ``endgame_moves.generate_node_cached`` and live in a move stack
(arena) of rows in the ``MoveList`` format until the node is done; the last
move that refuted a node at a ply (the killer) is tried first, without
generating, when its line is cached as it stands. A transposition table keyed
by Zobrist hashing of board, both racks, side to move, scoreless count and
whether a pass led here keeps values with their kind (exact, lower, upper bound) and the depth
searched; a value whose subtree never met the horizon is stored as RESOLVED and
holds at any depth. The horizon's estimate is the scoreless end's adjustment
(opponent's rack value minus the mover's): it only orders and fills in when the
budget cuts a search; the caller reports a value as exact only when resolved.
"""

from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit

from scrabble.board import rack_tiles
from scrabble.equity.endgame_board import (
    LOG_FIELDS,
    LOG_ROWS,
    initial_state,
    lift,
    put_tiles,
    refresh,
)
from scrabble.equity.endgame_moves import cached_move, generate_node_cached
from scrabble.tiles import NEW_FLAG

INF = 1 << 24
MAX_PLY = 96
RESOLVED = 255  # TT depth of a value the horizon never touched
EXACT, LOWER, UPPER = 1, 2, 3
CLOCK_EVERY = 64  # nodes between looks at the clock
# modes of the explicit-stack loop
ENTER, NEXT, RETURN = 0, 1, 2
# stats slots
NODES, TIMED_OUT, ARENA_FULL, TT_HITS, GENERATED, MOVES_MADE, DEEPEST = 0, 1, 2, 3, 4, 5, 6
KILLER_TRIES, KILLER_HITS = 7, 8


@njit(cache=True, inline="always")
def node_moves(board, rack, gen, cache, out_words, out_meta, offset, counter, cur, left, frames):
    """The mover's moves at a node (``gen``: the rules and lexicon arrays,
    ``cache``: the line cache of ``endgame_moves.generate_node_cached``). With
    one tile every move goes out, so only the best-scoring one is made."""
    best_only = rack_tiles(rack) == 1
    lm, wm, values, tmask, tfirst, _, _, _, rack_size, bingo = gen
    cache_table, store_words, store_meta, store_top, line_words, line_meta, cache_stats = cache
    return generate_node_cached(
        board,
        lm,
        wm,
        values,
        rack,
        tmask,
        tfirst,
        rack_size,
        bingo,
        out_words,
        out_meta,
        offset,
        best_only,
        counter,
        cur,
        left,
        frames,
        cache_table,
        store_words,
        store_meta,
        store_top,
        line_words,
        line_meta,
        cache_stats,
    )


@njit(cache=True, inline="always")
def rack_value(rack, values):
    total = 0
    for i in range(27):
        total += rack[i] * values[i]
    return total


@njit(cache=True)
def clock():
    with numba.objmode(now="float64"):
        now = time.perf_counter()
    return now


@njit(cache=True)
def position_key(rows, racks, zob_board, zob_rack):
    """Zobrist key of the board and both racks (side and count are added per node)."""
    n = rows.shape[0]
    key = np.uint64(0)
    for r in range(n):
        for c in range(n):
            if rows[r, c] != 0:
                key ^= zob_board[r * n + c, rows[r, c]]
    for player in range(2):
        for letter in range(27):
            key ^= zob_rack[player, letter, racks[player, letter]]
    return key


@njit(cache=True, inline="always")
def node_key(key, side, scoreless, after_pass, limit, zob_side, zob_scoreless):
    return key ^ zob_side[side] ^ zob_scoreless[min(scoreless, limit - 1), after_pass]


@njit(cache=True, inline="always")
def place_move(board, gen, rack, player, words, meta, i, key, zob_board, zob_rack, undo, log):
    """Put move ``i``'s new tiles on the board (``endgame_board.place``) and take
    them off the rack. ``undo`` gets the tile count, the log's length, the
    squares and the cells. Returns the new position key."""
    rows, columns = board[0], board[1]
    n = rows.shape[0]
    row, col, direction, length = meta[i, 0], meta[i, 1], meta[i, 2], meta[i, 3]
    placed = 0
    for k in range(length):
        code = words[i, k]
        if code & NEW_FLAG == 0:
            continue
        cell = code & ~NEW_FLAG
        r = row if direction == 0 else row + k
        c = col + k if direction == 0 else col
        key ^= zob_board[r * n + c, cell]
        tile = 26 if cell & 32 else (cell & 31) - 1
        key ^= zob_rack[player, tile, rack[tile]]
        rack[tile] -= 1
        key ^= zob_rack[player, tile, rack[tile]]
        undo[2 + placed] = r * n + c
        undo[9 + placed] = cell
        placed += 1
    undo[0] = placed
    undo[1] = -1  # cross-checks and anchors not refreshed yet (see refresh_move)
    put_tiles(rows, columns, undo[2:9], undo[9:16], placed)
    return key


@njit(cache=True, inline="always")
def refresh_move(board, gen, undo, log):
    """Bring cross-checks and anchors up to date for a move ``place_move`` put
    down, once, when the node after it is about to generate its moves."""
    if undo[1] >= 0:
        return
    rows, columns, cmask, cross, anc = board
    undo[1] = refresh(
        rows, columns, cmask, cross, anc, undo[2:9], undo[0], gen[3], gen[4], gen[2], gen[7], log
    )


@njit(cache=True, inline="always")
def lift_move(board, rack, player, undo, log, key, zob_board, zob_rack):
    """Take back the tiles ``place_move`` put down; returns the old key."""
    rows, columns, cmask, cross, anc = board
    for k in range(undo[0]):
        square = undo[2 + k]
        cell = undo[9 + k]
        key ^= zob_board[square, cell]
        tile = 26 if cell & 32 else (cell & 31) - 1
        key ^= zob_rack[player, tile, rack[tile]]
        rack[tile] += 1
        key ^= zob_rack[player, tile, rack[tile]]
    lift(rows, columns, cmask, cross, anc, undo[2:9], undo[0], log, max(undo[1], 0))
    return key


@njit(cache=True, inline="always")
def tt_store(tt_key, tt_value, tt_depth, tt_flag, tt_move, key, value, depth, flag, move):
    slot = np.int64(key & np.uint64(tt_key.shape[0] - 1))
    # Keep a resolved value over an unresolved one of the same node.
    if tt_key[slot] == key and tt_depth[slot] == RESOLVED and depth != RESOLVED:
        return
    tt_key[slot] = key
    tt_value[slot] = value
    tt_depth[slot] = depth
    tt_flag[slot] = flag
    tt_move[slot] = move


@njit(cache=True, inline="always")
def scores_always(rack, values):
    """Every play from this rack scores: it holds no tile worth 0 (a blank)."""
    for i in range(27):
        if rack[i] > 0 and values[i] == 0:
            return False
    return True


@njit(cache=True, inline="always")
def fold(f_best, f_best_move, f_alpha, ply, value, move):
    """A child's value (from frame ``ply``'s view) into the frame's best and alpha."""
    if value > f_best[ply]:
        f_best[ply] = value
        f_best_move[ply] = move
    if value > f_alpha[ply]:
        f_alpha[ply] = value


@njit(cache=True, inline="always")
def remember(k_words, k_meta, k_valid, ply, words, meta, row):
    """Keep move ``row`` as the killer of ``ply``: it just refuted a node."""
    for q in range(15):
        k_words[ply, q] = words[row, q]
    for q in range(6):
        k_meta[ply, q] = meta[row, q]
    k_valid[ply] = True


@njit(cache=True, inline="always")
def open_frame(
    board,
    rack,
    gen,
    cache,
    arena_words,
    arena_meta,
    arena_order,
    sort_keys,
    base,
    tt_best,
    theirs,
    counter,
    cur,
    left,
    frames,
    k_words,
    k_meta,
    ply,
    skip,
):
    """Generate the mover's moves at ``base`` of the move stack and order them
    (the table's best move first, then by score plus the rack swing when a
    move goes out, the pass last: a stable insertion sort, as most nodes hold
    few moves). ``skip``: leave out the killer move of ``ply`` (already
    searched). Returns (count, whether no move scores 0 without going out,
    the killer's index or -1); count is -1 when the move stack is full."""
    count = node_moves(
        board, rack, gen, cache, arena_words, arena_meta, base, counter, cur, left, frames
    )
    if base + count + 1 > arena_meta.shape[0]:
        return -1, False, -1
    tiles = rack_tiles(rack)
    clean = True
    killer = -1
    if skip:
        length = k_meta[ply, 3]
        for i in range(count):
            same = True
            for f in range(6):
                if arena_meta[base + i, f] != k_meta[ply, f]:
                    same = False
                    break
            if same:
                for q in range(length):
                    if arena_words[base + i, q] != k_words[ply, q]:
                        same = False
                        break
            if same:
                killer = i
                break
    pos = 0
    if 0 <= tt_best <= count and tt_best != killer:
        arena_order[base] = tt_best
        pos = 1
    first = pos
    for i in range(count):
        score_i = arena_meta[base + i, 5]
        placed_i = arena_meta[base + i, 4]
        if score_i == 0 and placed_i < tiles:
            clean = False
        if i == tt_best or i == killer:
            continue
        key_i = np.int64(score_i) + (2 * theirs if placed_i == tiles else 0)
        j = base + pos
        while j > base + first and sort_keys[j - 1] < key_i:
            sort_keys[j] = sort_keys[j - 1]
            arena_order[j] = arena_order[j - 1]
            j -= 1
        sort_keys[j] = key_i
        arena_order[j] = i
        pos += 1
    if tt_best != count:
        arena_order[base + pos] = count  # the pass, last
    return count, clean, killer


@njit(cache=True)
def search(
    rows,
    columns,
    racks,
    root_side,
    root_scoreless,
    limit,
    gen,
    cache,
    zob_board,
    zob_rack,
    zob_side,
    zob_scoreless,
    tt_key,
    tt_value,
    tt_depth,
    tt_flag,
    tt_move,
    root_words,
    root_meta,
    root_order,
    root_values,
    root_resolved,
    depth,
    deadline,
    arena_words,
    arena_meta,
    arena_order,
    cur,
    left,
    frames,
    stats,
):
    """Search each root move of ``root_order`` whose ``root_resolved`` is 0 to
    ``depth`` plies (the root move is the first) with a full window, writing its
    value to ``root_values`` and 1 to ``root_resolved`` when the horizon never
    touched it. Index ``len(root_meta)`` in ``root_order`` is the pass.
    Returns False when the deadline (a ``time.perf_counter`` value) or the move
    stack ran out; the boards and racks are then left mid-search."""
    values = gen[2]
    cmask, cross, anc = initial_state(rows, columns, gen[3], gen[4], values, gen[5], gen[6], gen[7])
    board = (rows, columns, cmask, cross, anc)
    root_count = root_meta.shape[0]
    counter = np.zeros(3, dtype=np.int64)
    undo_root = np.zeros(16, dtype=np.int64)
    log_root = np.zeros((LOG_ROWS, LOG_FIELDS), dtype=np.int64)
    # the frames of the explicit stack, one per ply below the root move
    f_side = np.zeros(MAX_PLY, dtype=np.int64)
    f_scoreless = np.zeros(MAX_PLY, dtype=np.int64)
    f_depth = np.zeros(MAX_PLY, dtype=np.int64)
    f_alpha = np.zeros(MAX_PLY, dtype=np.int64)
    f_beta = np.zeros(MAX_PLY, dtype=np.int64)
    f_alpha0 = np.zeros(MAX_PLY, dtype=np.int64)
    f_best = np.zeros(MAX_PLY, dtype=np.int64)
    f_best_move = np.zeros(MAX_PLY, dtype=np.int64)
    f_horizon = np.zeros(MAX_PLY, dtype=np.bool_)
    f_base = np.zeros(MAX_PLY, dtype=np.int64)
    f_count = np.zeros(MAX_PLY, dtype=np.int64)
    f_next = np.zeros(MAX_PLY, dtype=np.int64)
    f_move = np.zeros(MAX_PLY, dtype=np.int64)  # the child being searched; count = pass
    f_score = np.zeros(MAX_PLY, dtype=np.int64)
    f_key = np.zeros(MAX_PLY, dtype=np.uint64)  # position key (board + racks)
    f_undo = np.zeros((MAX_PLY, 16), dtype=np.int64)
    f_log = np.zeros((MAX_PLY, LOG_ROWS, LOG_FIELDS), dtype=np.int64)
    # 1: the parent passed with no zero-score play to make (see module docstring)
    f_after_pass = np.zeros(MAX_PLY, dtype=np.int64)
    f_clean = np.zeros(MAX_PLY, dtype=np.bool_)  # the mover has no zero-score play
    f_killer = np.zeros(MAX_PLY, dtype=np.bool_)  # the frame holds only the killer move
    f_last = np.zeros(MAX_PLY, dtype=np.int64)  # last place of the frame's order
    # per ply, the last move that refuted a node (a killer move)
    k_words = np.zeros((MAX_PLY, 15), dtype=np.uint8)
    k_meta = np.zeros((MAX_PLY, 6), dtype=np.int32)
    k_valid = np.zeros(MAX_PLY, dtype=np.bool_)
    arena_cap = arena_meta.shape[0]
    sort_keys = np.empty(arena_cap, dtype=np.int64)
    tt_mask = np.uint64(tt_key.shape[0] - 1)
    base_key = position_key(rows, racks, zob_board, zob_rack)
    mover = root_side
    opp = 1 - mover

    for root_pos in range(root_order.shape[0]):
        m = root_order[root_pos]
        if root_resolved[m]:
            continue
        if m < root_count:
            score = np.int64(root_meta[m, 5])
            key = place_move(
                board,
                gen,
                racks[mover],
                mover,
                root_words,
                root_meta,
                m,
                base_key,
                zob_board,
                zob_rack,
                undo_root,
                log_root,
            )
            if rack_tiles(racks[mover]) == 0:
                root_values[m] = score + 2 * rack_value(racks[opp], values)
                root_resolved[m] = 1
                lift_move(board, racks[mover], mover, undo_root, log_root, key, zob_board, zob_rack)
                continue
            child_scoreless = 0 if score > 0 else root_scoreless + 1
        else:
            score = np.int64(0)
            key = base_key
            child_scoreless = root_scoreless + 1
            if child_scoreless >= limit:
                root_values[m] = rack_value(racks[opp], values) - rack_value(racks[mover], values)
                root_resolved[m] = 1
                continue
        f_side[0] = opp
        f_scoreless[0] = child_scoreless
        f_depth[0] = depth - 1
        f_alpha[0] = -INF
        f_beta[0] = INF
        f_key[0] = key
        f_base[0] = 0
        f_after_pass[0] = 0  # the root's pass is valued by the game's own count
        ply = 0
        mode = ENTER
        ret_value = np.int64(0)
        ret_horizon = False
        while True:
            if mode == ENTER:
                stats[NODES] += 1
                if stats[NODES] % CLOCK_EVERY == 0 and clock() > deadline:
                    stats[TIMED_OUT] = 1
                    return False
                side = f_side[ply]
                own = rack_value(racks[side], values)
                theirs = rack_value(racks[1 - side], values)
                mode = RETURN
                if f_depth[ply] <= 0:
                    ret_value = theirs - own
                    ret_horizon = True
                    continue
                nkey = node_key(
                    f_key[ply],
                    side,
                    f_scoreless[ply],
                    f_after_pass[ply],
                    limit,
                    zob_side,
                    zob_scoreless,
                )
                slot = np.int64(nkey & tt_mask)
                tt_best = np.int64(-1)
                if tt_key[slot] == nkey:
                    tt_best = np.int64(tt_move[slot])
                    if tt_depth[slot] >= f_depth[ply]:
                        v = np.int64(tt_value[slot])
                        flag = tt_flag[slot]
                        if (
                            flag == EXACT
                            or (flag == LOWER and v >= f_beta[ply])
                            or (flag == UPPER and v <= f_alpha[ply])
                        ):
                            stats[TT_HITS] += 1
                            ret_value = v
                            ret_horizon = tt_depth[slot] != RESOLVED
                            continue
                if ply == 0:
                    if m < root_count:
                        refresh_move(board, gen, undo_root, log_root)
                elif f_move[ply - 1] < f_count[ply - 1]:
                    refresh_move(board, gen, f_undo[ply - 1], f_log[ply - 1])
                base = f_base[ply]
                if base + 2 > arena_cap or ply + 2 >= MAX_PLY:
                    stats[ARENA_FULL] = 1
                    return False
                # plies of the longest line so far: the root move, ply + 1 more, this one
                stats[DEEPEST] = max(stats[DEEPEST], ply + 2)
                f_next[ply] = 0
                f_best[ply] = -INF
                f_alpha0[ply] = f_alpha[ply]
                f_horizon[ply] = False
                f_killer[ply] = False
                mode = NEXT
                if tt_best < 0 and k_valid[ply] and rack_tiles(racks[side]) > 1:
                    # The move that refuted a sibling: if its line is cached as it
                    # stands it is legal here, and often refutes this node too,
                    # without generating the rest.
                    stats[KILLER_TRIES] += 1
                    row = cached_move(
                        board, racks[side], cache[0], cache[1], cache[2], k_words, k_meta, ply
                    )
                    if row >= 0:
                        stats[KILLER_HITS] += 1
                        for q in range(15):
                            arena_words[base, q] = cache[1][row, q]
                        for q in range(6):
                            arena_meta[base, q] = cache[2][row, q]
                        arena_order[base] = 0
                        f_count[ply] = 1
                        f_last[ply] = 0  # the one move, no pass
                        f_best_move[ply] = 0
                        f_killer[ply] = True
                        f_clean[ply] = False
                        continue
                count, clean, _ = open_frame(
                    board,
                    racks[side],
                    gen,
                    cache,
                    arena_words,
                    arena_meta,
                    arena_order,
                    sort_keys,
                    base,
                    tt_best,
                    theirs,
                    counter,
                    cur,
                    left,
                    frames,
                    k_words,
                    k_meta,
                    ply,
                    False,
                )
                if count < 0:
                    stats[ARENA_FULL] = 1
                    return False
                stats[GENERATED] += 1
                stats[MOVES_MADE] += count
                f_count[ply] = count
                f_last[ply] = count  # last place in the order: the plays, then the pass
                f_best_move[ply] = count
                f_clean[ply] = clean
            elif mode == RETURN:
                if ply == 0:
                    break
                ply -= 1
                side = f_side[ply]
                if f_move[ply] < f_count[ply]:
                    lift_move(
                        board,
                        racks[side],
                        side,
                        f_undo[ply],
                        f_log[ply],
                        f_key[ply + 1],
                        zob_board,
                        zob_rack,
                    )
                if ret_horizon:
                    f_horizon[ply] = True
                fold(f_best, f_best_move, f_alpha, ply, f_score[ply] - ret_value, f_move[ply])
                if f_alpha[ply] >= f_beta[ply] and f_move[ply] < f_count[ply]:
                    remember(
                        k_words,
                        k_meta,
                        k_valid,
                        ply,
                        arena_words,
                        arena_meta,
                        f_base[ply] + f_move[ply],
                    )
                mode = NEXT
            else:
                side = f_side[ply]
                other = 1 - side
                base = f_base[ply]
                if f_killer[ply] and f_next[ply] >= 1 and f_alpha[ply] < f_beta[ply]:
                    # the killer did not refute this node: all its moves now
                    count, clean, killer = open_frame(
                        board,
                        racks[side],
                        gen,
                        cache,
                        arena_words,
                        arena_meta,
                        arena_order,
                        sort_keys,
                        base,
                        -1,
                        rack_value(racks[other], values),
                        counter,
                        cur,
                        left,
                        frames,
                        k_words,
                        k_meta,
                        ply,
                        True,
                    )
                    if count < 0:
                        stats[ARENA_FULL] = 1
                        return False
                    stats[GENERATED] += 1
                    stats[MOVES_MADE] += count
                    f_killer[ply] = False
                    f_count[ply] = count
                    # the order holds every play but the killer, and the pass
                    f_last[ply] = count - 1 if killer >= 0 else count
                    f_clean[ply] = clean
                    f_next[ply] = 0
                    f_best_move[ply] = killer if killer >= 0 else count
                count = f_count[ply]
                pushed = False
                while f_next[ply] <= f_last[ply] and f_alpha[ply] < f_beta[ply]:
                    m2 = arena_order[base + f_next[ply]]
                    f_next[ply] += 1
                    if m2 == count:
                        sc = f_scoreless[ply] + 1
                        if sc >= limit or (f_after_pass[ply] == 1 and f_clean[ply]):
                            fold(
                                f_best,
                                f_best_move,
                                f_alpha,
                                ply,
                                rack_value(racks[other], values) - rack_value(racks[side], values),
                                count,
                            )
                            continue
                        if (
                            f_clean[ply]
                            and scores_always(racks[other], values)
                            and f_best[ply]
                            >= rack_value(racks[other], values) - rack_value(racks[side], values)
                        ):
                            # The reply to this pass could pass back and end the game, so
                            # the pass is worth at most that end: no better than the best.
                            continue
                        f_score[ply] = 0
                        child_key = f_key[ply]
                    else:
                        s = np.int64(arena_meta[base + m2, 5])
                        if arena_meta[base + m2, 4] == rack_tiles(racks[side]):
                            # goes out: the game ends, nothing to place
                            fold(
                                f_best,
                                f_best_move,
                                f_alpha,
                                ply,
                                s + 2 * rack_value(racks[other], values),
                                m2,
                            )
                            if f_alpha[ply] >= f_beta[ply]:
                                remember(
                                    k_words,
                                    k_meta,
                                    k_valid,
                                    ply,
                                    arena_words,
                                    arena_meta,
                                    base + m2,
                                )
                            continue
                        child_key = place_move(
                            board,
                            gen,
                            racks[side],
                            side,
                            arena_words,
                            arena_meta,
                            base + m2,
                            f_key[ply],
                            zob_board,
                            zob_rack,
                            f_undo[ply],
                            f_log[ply],
                        )
                        f_score[ply] = s
                        sc = 0 if s > 0 else f_scoreless[ply] + 1
                    f_move[ply] = m2
                    child = ply + 1
                    f_side[child] = other
                    f_scoreless[child] = sc
                    f_depth[child] = f_depth[ply] - 1
                    f_alpha[child] = f_score[ply] - f_beta[ply]
                    f_beta[child] = f_score[ply] - f_alpha[ply]
                    f_key[child] = child_key
                    f_base[child] = base + count + 1
                    f_after_pass[child] = 1 if m2 == count and f_clean[ply] else 0
                    ply = child
                    pushed = True
                    break
                if pushed:
                    mode = ENTER
                    continue
                if f_killer[ply] and f_alpha[ply] < f_beta[ply]:
                    continue  # still NEXT: the node's other moves next time round
                best = f_best[ply]
                if best <= f_alpha0[ply]:
                    bound = UPPER
                elif best >= f_beta[ply]:
                    bound = LOWER
                else:
                    bound = EXACT
                nkey = node_key(
                    f_key[ply],
                    side,
                    f_scoreless[ply],
                    f_after_pass[ply],
                    limit,
                    zob_side,
                    zob_scoreless,
                )
                tt_store(
                    tt_key,
                    tt_value,
                    tt_depth,
                    tt_flag,
                    tt_move,
                    nkey,
                    best,
                    f_depth[ply] if f_horizon[ply] else RESOLVED,
                    bound,
                    -1 if f_killer[ply] else f_best_move[ply],
                )
                ret_value = best
                ret_horizon = f_horizon[ply]
                mode = RETURN
        if m < root_count:
            lift_move(board, racks[mover], mover, undo_root, log_root, key, zob_board, zob_rack)
        root_values[m] = score - ret_value
        root_resolved[m] = 0 if ret_horizon else 1
    return True


@njit(cache=True)
def principal_variation(
    rows,
    columns,
    racks,
    root_side,
    root_scoreless,
    limit,
    gen,
    cache,
    zob_board,
    zob_rack,
    zob_side,
    zob_scoreless,
    tt_key,
    tt_value,
    tt_flag,
    tt_move,
    first_words,
    first_meta,
    first_is_pass,
    out_words,
    out_meta,
    out_pass,
    scratch_words,
    scratch_meta,
    cur,
    left,
    frames,
):
    """The line the table holds after a root move: the first move, then each
    node's stored best move while its entry is an exact value. Writes the moves
    (rows of a MoveList, or a pass) and returns (length, whether the line
    reaches the end of the game). Changes the boards and racks."""
    counter = np.zeros(3, dtype=np.int64)
    undo = np.zeros(16, dtype=np.int64)
    log = np.zeros((LOG_ROWS, LOG_FIELDS), dtype=np.int64)
    cmask, cross, anc = initial_state(rows, columns, gen[3], gen[4], gen[2], gen[5], gen[6], gen[7])
    board = (rows, columns, cmask, cross, anc)
    tt_mask = np.uint64(tt_key.shape[0] - 1)
    key = position_key(rows, racks, zob_board, zob_rack)
    side = root_side
    scoreless = root_scoreless
    after_pass = 0
    length = 0
    while length < out_meta.shape[0]:
        clean = False  # the root's pass is never the second of a pair (see search)
        if length == 0:
            is_pass = first_is_pass
            if not is_pass:
                out_words[0] = first_words
                out_meta[0] = first_meta
        else:
            nkey = node_key(key, side, scoreless, after_pass, limit, zob_side, zob_scoreless)
            slot = np.int64(nkey & tt_mask)
            if tt_key[slot] != nkey or tt_flag[slot] != EXACT:
                return length, False
            move = np.int64(tt_move[slot])
            count = node_moves(
                board,
                racks[side],
                gen,
                cache,
                scratch_words,
                scratch_meta,
                0,
                counter,
                cur,
                left,
                frames,
            )
            if count > scratch_meta.shape[0]:
                scratch_words = np.empty((count, 15), dtype=np.uint8)
                scratch_meta = np.empty((count, 6), dtype=np.int32)
                count = node_moves(
                    board,
                    racks[side],
                    gen,
                    cache,
                    scratch_words,
                    scratch_meta,
                    0,
                    counter,
                    cur,
                    left,
                    frames,
                )
            if move < 0 or move > count:
                return length, False
            tiles = rack_tiles(racks[side])
            clean = True
            for i in range(count):
                if scratch_meta[i, 5] == 0 and scratch_meta[i, 4] < tiles:
                    clean = False
            is_pass = move == count
            if not is_pass:
                out_words[length] = scratch_words[move]
                out_meta[length] = scratch_meta[move]
        out_pass[length] = is_pass
        length += 1
        if is_pass:
            scoreless += 1
            if scoreless >= limit or (after_pass == 1 and clean):
                return length, True
            after_pass = 1 if clean else 0
        else:
            key = place_move(
                board,
                gen,
                racks[side],
                side,
                out_words,
                out_meta,
                length - 1,
                key,
                zob_board,
                zob_rack,
                undo,
                log,
            )
            refresh_move(board, gen, undo, log)
            if rack_tiles(racks[side]) == 0:
                return length, True
            scoreless = 0 if out_meta[length - 1, 5] > 0 else scoreless + 1
            after_pass = 0
        side = 1 - side
    return length, False
