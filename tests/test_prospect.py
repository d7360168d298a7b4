"""Prospects: best score x exact probability that the missing tiles arrive."""

from __future__ import annotations

import numpy as np

from scrabble.heuristics import prospect as pr
from scrabble.heuristics.draw import p_draw_all
from scrabble.movegen import generate
from scrabble.position import Position, make_position
from scrabble.tiles import BLANK, rack_counts
from tests.heuristic_boards import board_with


def brute_one_tile(position: Position, lexicon, pool: np.ndarray) -> int:
    """Best single drawn tile's best move x P(that tile, or a blank, in 1 draw)."""
    best = 0
    for t in range(26):
        if pool[t] == 0:
            continue
        rack = np.zeros(27, dtype=np.uint8)
        rack[t] = 1
        moves = generate(Position(position.board, rack, position.rules), lexicon)
        if not len(moves):
            continue
        need = np.zeros(27, dtype=np.int64)
        need[t] = 1
        p = p_draw_all(pool, need, 1)
        value = int(round(int(moves.scores.max()) * p * 1000)) * pr.PROSPECT_WEIGHT_PCT // 100
        best = max(best, value)
    return best


def test_one_missing_tile_equals_brute_force(lexicon):
    pos = make_position(board_with([(7, 6, "across", "CAT")]), "Q")
    pool = pos.unseen().astype(np.int64)
    got = pr.best_prospect(pos.board, np.zeros(27, dtype=np.int64), pool, 1, pos, lexicon)
    assert got is not None and len(got.need) == 1
    assert got.value == brute_one_tile(pos, lexicon, pool)
    assert 0 < got.probability < 1


def test_tiles_in_hand_are_certain_and_upcoming_tiles_count_as_certain(lexicon):
    pos = make_position(board_with([(7, 6, "across", "CAT")]), "Q")
    pool = pos.unseen().astype(np.int64)
    leave = rack_counts("S").astype(np.int64)
    held = pr.best_prospect(pos.board, leave, pool, 0, pos, lexicon)
    assert held is not None and held.probability == 1.0 and held.need == ""
    upcoming = (ord("S") - 65, ord("Z") - 65)  # S comes first; only 1 tile is drawn
    seen = pr.best_prospect(pos.board, np.zeros(27, dtype=np.int64), pool, 1, pos, lexicon,
                            upcoming=upcoming)
    assert seen is not None and seen.probability == 1.0
    assert seen.value == held.value


def test_a_letter_that_cannot_arrive_is_worth_nothing(lexicon):
    # the pool holds no Z and no blank: a prospect needing Z has probability 0
    pos = make_position(board_with([(7, 6, "across", "CAT")]), "Q")
    pool = pos.unseen().astype(np.int64)
    pool[ord("Z") - 65] = 0
    pool[BLANK] = 0
    got = pr.best_prospect(pos.board, np.zeros(27, dtype=np.int64), pool, 1, pos, lexicon)
    assert got is not None and "Z" not in got.need


def test_rescoring_a_wild_blank_as_the_real_letter(lexicon):
    pos = make_position(board_with([(7, 6, "across", "CAT")]), "Q")
    rules = pos.rules
    # CATS with a real S at 8J: 3 + 1 + 1 + 1 = 6
    codes = np.array([3, 1, 20, 19 | 64], dtype=np.uint8)
    assert pr.rescore(pos.board, rules, lexicon, codes, 7, 6, 0) == 6
    # and down from the C with a new S below it on the 9G double letter:
    # C 3 + S 1 x 2 = 5 (scoring does not judge words)
    down = np.array([3, 19 | 64], dtype=np.uint8)
    assert pr.rescore(pos.board, rules, lexicon, down, 7, 6, 1) == 5
