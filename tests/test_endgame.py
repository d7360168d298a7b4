"""The exact endgame search against a brute-force minimax, and on real endgames."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrabble import cgp
from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.endgame import PASS, solve
from scrabble.equity.endgame_board import LOG_ROWS, initial_state, lift, place
from scrabble.equity.endgame_moves import (
    generate_node,
    generate_node_cached,
    line_cache,
    line_premiums,
    scratch,
)
from scrabble.game import Game
from scrabble.moves import MoveList
from scrabble.notation import move_at
from scrabble.position import Position, PositionError, make_position, parse_board, parse_rack
from scrabble.scoring import NEW_FLAG
from tests.endgame_boards import random_endgame
from tests.endgame_oracle import endgame_game, root_values
from tooling.golden import golden_positions as all_golden

MAGPIE_CGP = (
    "4RUMMAGED2C/7A6A/2H1G2T6V/2O1O2I6E/2WAB2PREBENDS/2ER3O3n3/2SI6COW2/3L2HUE2KANE/"
    "3LI3FILII2/J1TANGENT2T1Z1/A2TA5FA1OP/R2EN5Ok1OU/VILDE5YEX1D/I3R6SUQS/E13Y "
    "INR/OT 440/448 0 lex sowpods;"
)
# Nodes each golden endgame takes to solve completely (docs/endgame.md has the
# benchmark's milliseconds): a bound, so a change that makes the search do
# much more work fails here rather than only in the benchmark.
GOLDEN_NODE_BOUND = 60_000


def golden_positions(category: str | None = None) -> list[dict]:
    rows = all_golden()
    return [r for r in rows if category is None or r["category"] == category]


def _values_by_index(result) -> dict[int, int]:
    return {m.index: m.value for m in result.moves}


# -- the node move generator ---------------------------------------------------


def _node_moves(position: Position, lexicon, cached: bool) -> MoveList:
    n = position.size
    rules = position.rules
    rows = position.board.reshape(n, n).copy()
    columns = np.ascontiguousarray(rows.T)
    lm, wm = line_premiums(position)
    words = np.empty((20000, 15), dtype=np.uint8)
    meta = np.empty((20000, 6), dtype=np.int32)
    counter = np.zeros(3, dtype=np.int64)
    rack = position.rack.astype(np.int32)
    sr, sc = rules.start
    if cached:
        state = initial_state(
            rows, columns, lexicon.trie.mask, lexicon.trie.first, rules.values, sr, sc, False
        )
        cache = line_cache()
        stats = cache[-1]
        for call in range(2):  # the second time every line is a hit
            if call == 1:
                searched = int(stats[1])
                assert stats[0] == 0
            k = generate_node_cached(
                (rows, columns, *state),
                lm,
                wm,
                rules.values,
                rack,
                lexicon.trie.mask,
                lexicon.trie.first,
                rules.rack_size,
                rules.bingo_bonus,
                words,
                meta,
                0,
                False,
                counter,
                *scratch(),
                *cache,
            )
        assert stats[1] == searched and stats[0] == searched
    else:
        k = generate_node(
            rows,
            columns,
            lm,
            wm,
            rules.values,
            rack,
            lexicon.trie.mask,
            lexicon.trie.first,
            sr,
            sc,
            False,
            rules.rack_size,
            rules.bingo_bonus,
            words,
            meta,
            counter,
            *scratch(),
        )
    return MoveList(words=words[:k].copy(), meta=meta[:k].copy())


@pytest.mark.parametrize("cached", [False, True])
def test_node_moves_are_movegens_moves_in_its_order(lexicon, cached):
    for case in golden_positions():
        parsed = cgp.parse(case["cgp"])
        for rack in (parsed.rack, parsed.opponent_rack):
            if not rack:
                continue
            position = make_position(parsed.rows, rack)
            expected = TrieEngine(lexicon).generate(position)
            got = _node_moves(position, lexicon, cached)
            assert len(got) == len(expected), (case["id"], rack)
            assert np.array_equal(got.meta, expected.meta), (case["id"], rack)
            assert np.array_equal(got.words, expected.words), (case["id"], rack)


def test_kept_cross_checks_and_anchors_match_a_full_recompute(lexicon):
    """Place and lift random moves three deep on the golden boards: the
    incrementally kept state always equals ``scrabble.board``'s from scratch."""
    rng = random.Random(7)
    tmask, tfirst = lexicon.trie.mask, lexicon.trie.first
    for case in golden_positions():
        parsed = cgp.parse(case["cgp"])
        position = make_position(parsed.rows, parsed.rack)
        rules = position.rules
        n = rules.size
        rows = position.board.reshape(n, n).copy()
        columns = np.ascontiguousarray(rows.T)
        state = initial_state(rows, columns, tmask, tfirst, rules.values, 7, 7, False)
        stack = []
        for _ in range(3):
            board_now = rows.reshape(-1).copy()
            moves = TrieEngine(lexicon).generate(Position(board_now, position.rack, rules))
            if len(moves) == 0:
                break
            i = rng.randrange(len(moves))
            squares, cells = [], []
            row, col, direction, length = (int(x) for x in moves.meta[i, :4])
            for k in range(length):
                code = int(moves.words[i, k])
                if code & NEW_FLAG:
                    r, c = (row, col + k) if direction == 0 else (row + k, col)
                    squares.append(r * n + c)
                    cells.append(code & ~NEW_FLAG)
            sq = np.array(squares + [0] * (7 - len(squares)), dtype=np.int64)
            ce = np.array(cells + [0] * (7 - len(cells)), dtype=np.int64)
            log = np.zeros((LOG_ROWS, 6), dtype=np.int64)
            before = tuple(a.copy() for a in state)
            logged = place(
                rows, columns, *state, sq, ce, len(squares), tmask, tfirst, rules.values, False, log
            )
            fresh = initial_state(rows, columns, tmask, tfirst, rules.values, 7, 7, False)
            for kept, full in zip(state, fresh, strict=True):
                assert np.array_equal(kept, full), case["id"]
            assert np.array_equal(columns, rows.T)
            stack.append((sq, len(squares), log, logged, before))
        while stack:
            sq, count, log, logged, before = stack.pop()
            lift(rows, columns, *state, sq, count, log, logged)
            for kept, old in zip(state, before, strict=True):
                assert np.array_equal(kept, old), case["id"]
        assert np.array_equal(rows.reshape(-1), position.board)


# -- exact values against the brute-force minimax --------------------------------


def _check_against_oracle(position, opponent, lexicon, scoreless):
    result = solve(
        position, opponent, lexicon, budget_ms=60_000, scoreless=scoreless, require_empty_bag=False
    )
    assert result.completed
    expected = root_values(position, opponent, lexicon, scoreless)
    assert _values_by_index(result) == expected
    assert all(m.exact for m in result.moves)
    values = [m.value for m in result.moves]
    assert values == sorted(values, reverse=True)
    return result


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    tiles=st.sampled_from([(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (1, 3)]),
    scoreless=st.sampled_from([0, 0, 0, 2, 3, 4, 5]),
)
def test_solve_equals_minimax_on_small_generated_endgames(seed, tiles, scoreless):
    endgame = random_endgame(seed, tiles[0], tiles[1], scoreless)
    if not endgame.position.rack.any() or not endgame.opponent.any():
        return
    result = _check_against_oracle(endgame.position, endgame.opponent, endgame.lexicon, scoreless)
    # the principal variation, played out by the game, gives the best value
    _check_principal_variation(
        endgame.position, endgame.opponent, endgame.lexicon, scoreless, result
    )


def _check_principal_variation(position, opponent, lexicon, scoreless, result):
    if not result.pv_complete:
        return
    game = endgame_game(position, opponent, scoreless)
    for notation in result.pv:
        if notation == PASS:
            game.pass_turn()
            continue
        moves = TrieEngine(lexicon).generate(game.position())
        index = next(i for i in range(len(moves)) if move_at(moves, i).notation == notation)
        game.play_move(moves, index)
    if not game.over:
        # the line ended in two passes: the game model ends it by passing on,
        # with the same adjustment (each player loses their own rack)
        assert result.pv[-2:] == (PASS, PASS)
        while not game.over:
            game.pass_turn()
    assert game.scores[0] - game.scores[1] == result.best.value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(
        [c["id"] for c in golden_positions() if c["category"] in ("endgame", "near_full")]
    ),
    seed=st.integers(0, 10**9),
    tiles=st.sampled_from([(1, 1), (2, 1), (1, 2)]),
)
def test_solve_equals_minimax_with_sowpods_on_full_boards(lexicon, case, seed, tiles):
    """Real boards and the real lexicon, with tiny racks (drawn from the tiles
    the board leaves unseen) so the oracle can finish."""
    row = next(c for c in golden_positions() if c["id"] == case)
    parsed = cgp.parse(row["cgp"])
    board = parse_board(parsed.rows)
    empty = Position(board=board, rack=np.zeros(27, dtype=np.uint8))
    unseen = [i for i in range(27) for _ in range(int(empty.unseen()[i]))]
    random.Random(seed).shuffle(unseen)
    mover = np.bincount(unseen[: tiles[0]], minlength=27).astype(np.uint8)
    opponent = np.bincount(unseen[tiles[0] : sum(tiles)], minlength=27).astype(np.uint8)
    position = Position(board=board, rack=mover)
    _check_against_oracle(position, opponent, lexicon, scoreless=0)


# -- real endgames -----------------------------------------------------------------


@pytest.mark.parametrize("case", [c["id"] for c in golden_positions("endgame")])
def test_golden_endgames_are_solved_completely(lexicon, case):
    row = next(c for c in golden_positions() if c["id"] == case)
    parsed = cgp.parse(row["cgp"])
    position = make_position(parsed.rows, parsed.rack)
    result = solve(
        position, parsed.opponent_rack, lexicon, budget_ms=60_000, scoreless=parsed.zero_turns
    )
    assert result.completed
    assert all(m.exact for m in result.moves)
    assert (
        len(result.moves) == len(TrieEngine(lexicon).generate(position)) + 1
    )  # every play and the pass
    assert result.nodes <= GOLDEN_NODE_BOUND
    assert result.pv and result.pv[0] == result.best.notation


def test_magpie_endgame_puts_the_going_out_play_first(lexicon):
    """MAGPIE's static evaluation ranks 2K RIN (8 + 2 x OT) first; so must we."""
    parsed = cgp.parse(MAGPIE_CGP)
    position = make_position(parsed.rows, parsed.rack)
    result = solve(
        position, parsed.opponent_rack, lexicon, scoreless=parsed.zero_turns, budget_ms=60_000
    )
    assert result.completed
    best = result.best
    assert best.notation == "2K RIN"
    assert best.value == 8 + 2 * (1 + 1)  # goes out: + twice the opponent's O and T
    assert all(m.value < best.value for m in result.moves[1:])
    # The brute-force oracle agrees on every play of two or three tiles (those
    # keeping one tile take it about 30 s each, the pass longer: docs/endgame.md
    # gives the command that checked all 81 once).
    moves = TrieEngine(lexicon).generate(position)
    several = {i for i in range(len(moves)) if moves.meta[i, 4] >= 2}
    assert len(several) == 34
    expected = root_values(position, parse_rack("OT"), lexicon, only=several)
    assert {m.index: m.value for m in result.moves if m.index in several} == expected


def test_time_budget_cuts_to_the_last_finished_iteration(lexicon):
    row = next(c for c in golden_positions("endgame"))
    parsed = cgp.parse(row["cgp"])
    position = make_position(parsed.rows, parsed.rack)
    result = solve(position, parsed.opponent_rack, lexicon, budget_ms=0.0)
    assert not result.completed and result.budget_cut
    assert result.depth == 1  # the first iteration always finishes: there is an answer
    assert len(result.moves) == len(TrieEngine(lexicon).generate(position)) + 1


def test_bag_must_be_empty_and_racks_real(lexicon):
    parsed = cgp.parse(MAGPIE_CGP)
    position = make_position(parsed.rows, parsed.rack)
    with pytest.raises(PositionError, match="opponent_rack"):
        solve(position, "O", lexicon)  # the T would still be in the bag
    with pytest.raises(PositionError, match="opponent_rack"):
        solve(position, "OTZ", lexicon)  # no Z is unseen
    with pytest.raises(PositionError, match="opponent_rack"):
        solve(position, "", lexicon)


def test_game_model_agrees_on_the_rules_used(lexicon):
    """The oracle's game object ends as the search assumes: going out swings
    twice the opponent's rack; six scoreless turns cost each their own."""
    parsed = cgp.parse(MAGPIE_CGP)
    position = make_position(parsed.rows, parsed.rack)
    game = endgame_game(position, parse_rack("OT"))
    for _ in range(6):
        game.pass_turn()
    assert game.over and game.adjustments == [-(1 + 1 + 1), -(1 + 1)]
    assert isinstance(game, Game)
