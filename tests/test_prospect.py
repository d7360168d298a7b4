"""Prospects: best score x exact probability that the missing tiles arrive."""

from __future__ import annotations

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.draw import p_draw_all
from scrabble.equity.options import EquityOptions
from scrabble.equity.prospect import best_prospect
from scrabble.position import Position, make_position
from scrabble.tiles import BLANK, rack_counts
from tests.heuristic_boards import board_with

WEIGHT_PCT = 50
OPTIONS = EquityOptions(prospect_weight_pct=WEIGHT_PCT)


def brute_one_tile(position: Position, engine: TrieEngine, pool: np.ndarray) -> int:
    """Best single drawn tile's best move x P(that tile, or a blank, in 1 draw)."""
    best = 0
    for t in range(26):
        if pool[t] == 0:
            continue
        rack = np.zeros(27, dtype=np.uint8)
        rack[t] = 1
        moves = engine.generate(Position(position.board, rack, position.rules))
        if not len(moves):
            continue
        need = np.zeros(27, dtype=np.int64)
        need[t] = 1
        p = p_draw_all(pool, need, 1)
        value = int(round(int(moves.scores.max()) * p * 1000)) * WEIGHT_PCT // 100
        best = max(best, value)
    return best


def cat_board(rack: str = "") -> Position:
    position = make_position(board_with([(7, 6, "across", "CAT")]), "Q")
    return position.with_rack(rack_counts(rack))


def test_one_missing_tile_equals_brute_force(trie):
    pos = cat_board()
    pool = make_position(board_with([(7, 6, "across", "CAT")]), "Q").unseen().astype(np.int64)
    got = best_prospect(pos, pool, 1, trie, OPTIONS)
    assert got is not None and len(got.need) == 1
    assert got.value == brute_one_tile(pos, trie, pool)
    assert 0 < got.probability < 1


def test_tiles_in_hand_are_certain_and_upcoming_tiles_count_as_certain(trie):
    pool = make_position(board_with([(7, 6, "across", "CAT")]), "Q").unseen().astype(np.int64)
    held = best_prospect(cat_board("S"), pool, 0, trie, OPTIONS)
    assert held is not None and held.probability == 1.0 and held.need == ""
    upcoming = (ord("S") - 65, ord("Z") - 65)  # S comes first; only 1 tile is drawn
    options = EquityOptions(prospect_weight_pct=WEIGHT_PCT, upcoming=upcoming)
    seen = best_prospect(cat_board(), pool, 1, trie, options)
    assert seen is not None and seen.probability == 1.0
    assert seen.value == held.value


def test_a_letter_that_cannot_arrive_is_worth_nothing(trie):
    # the pool holds no Z and no blank: a prospect needing Z has probability 0
    pool = make_position(board_with([(7, 6, "across", "CAT")]), "Q").unseen().astype(np.int64)
    pool[ord("Z") - 65] = 0
    pool[BLANK] = 0
    got = best_prospect(cat_board(), pool, 1, trie, OPTIONS)
    assert got is not None and "Z" not in got.need


def test_a_wild_blank_is_rescored_as_the_real_letter(trie):
    # one missing tile on the CAT board: the best is the Z... as a real tile it
    # scores its face value, which a blank (0) would not
    pool = make_position(board_with([(7, 6, "across", "CAT")]), "Q").unseen().astype(np.int64)
    got = best_prospect(cat_board(), pool, 1, trie, OPTIONS)
    assert got is not None
    letter = got.need
    rack = np.zeros(27, dtype=np.uint8)
    rack[ord(letter) - 65] = 1
    real = trie.generate(cat_board().with_rack(rack))
    assert got.score == int(real.scores.max()) > 0
