"""Premium waste: a word multiplier spent on a cheap word is charged; tiles cost a little."""

from __future__ import annotations

from scrabble.heuristics import waste
from scrabble.movegen import generate
from scrabble.moves import move_at
from scrabble.position import make_position
from tests.heuristic_boards import EMPTY_ROW, board_with


def by_notation(position, lexicon, unseen):
    moves = generate(position, lexicon)
    charged = waste.premium_waste(moves, position.rules, unseen)
    return {move_at(moves, i).notation: int(charged[i]) for i in range(len(moves))}


def test_two_letter_word_on_a_triple_word_square_is_charged(lexicon):
    # 'A' at 1A; the rack's B makes BA across 1A-1B on the TW corner for 12 points
    pos = make_position(board_with([(0, 1, "across", "A")]), "B")
    got = by_notation(pos, lexicon, unseen=80)
    # base 3 + 1 = 4, x3: gained (3 - 1) x 4 = 8 points; could have made
    # (3 - 1) x 10.8 = 21.6; half the 13.6 shortfall + one tile
    assert got["1A B(A)"] == (21_600 - 8_000) * waste.WASTE_WEIGHT_PCT // 100 + waste.PER_TILE
    assert got["1A B(A)"] > 5_000


def test_long_word_on_a_multiplier_is_not_charged_beyond_tiles(lexicon):
    pos = make_position([EMPTY_ROW] * 15, "JUKEBOX")
    got = by_notation(pos, lexicon, unseen=93)
    assert got["8H JUKEBOX"] == 7 * waste.PER_TILE  # base 27 on the DW centre
    # a cheap two-letter opener on the same DW is charged the shortfall
    assert got["8G BO"] == (10_800 - 4_000) * waste.WASTE_WEIGHT_PCT // 100 + 2 * waste.PER_TILE


def test_charge_fades_at_the_end_of_the_game(lexicon):
    pos = make_position(board_with([(0, 1, "across", "A")]), "B")
    early = by_notation(pos, lexicon, unseen=80)["1A B(A)"]
    late = by_notation(pos, lexicon, unseen=waste.FADE_TILES // 2)["1A B(A)"]
    done = by_notation(pos, lexicon, unseen=0)["1A B(A)"]
    assert early > late > done == waste.PER_TILE
