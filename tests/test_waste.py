"""Premium waste: a word multiplier spent on a cheap word is charged; tiles cost a little."""

from __future__ import annotations

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.options import EquityOptions
from scrabble.equity.waste import premium_waste
from scrabble.notation import move_at
from scrabble.position import make_position
from tests.heuristic_boards import EMPTY_ROW, board_with

# the weights these tests state (the defaults of EquityOptions are the same)
OPTIONS = EquityOptions(waste_ref_base=10_800, waste_weight_pct=50, per_tile=250, fade_tiles=30)


def by_notation(position, lexicon, unseen):
    moves = TrieEngine(lexicon).generate(position)
    charged = premium_waste(moves, position.rules, unseen, OPTIONS)
    return {move_at(moves, i).notation: int(charged[i]) for i in range(len(moves))}


def test_two_letter_word_on_a_triple_word_square_is_charged(lexicon):
    # 'A' at 1A; the rack's B makes BA across 1A-1B on the TW corner for 12 points
    pos = make_position(board_with([(0, 1, "across", "A")]), "B")
    got = by_notation(pos, lexicon, unseen=80)
    # base 3 + 1 = 4, x3: gained (3 - 1) x 4 = 8 points; could have made
    # (3 - 1) x 10.8 = 21.6; half the 13.6 shortfall (6.8) + one tile (0.25)
    assert got["1A B(A)"] == 7_050


def test_long_word_on_a_multiplier_is_not_charged_beyond_tiles(lexicon):
    pos = make_position([EMPTY_ROW] * 15, "JUKEBOX")
    got = by_notation(pos, lexicon, unseen=93)
    assert got["8H JUKEBOX"] == 7 * 250  # base 27 on the DW centre: no shortfall
    # a cheap two-letter opener on the same DW: half of (10.8 - 4) and two tiles
    assert got["8G BO"] == 3_400 + 500


def test_charge_fades_at_the_end_of_the_game(lexicon):
    pos = make_position(board_with([(0, 1, "across", "A")]), "B")
    early = by_notation(pos, lexicon, unseen=80)["1A B(A)"]
    late = by_notation(pos, lexicon, unseen=15)["1A B(A)"]
    done = by_notation(pos, lexicon, unseen=0)["1A B(A)"]
    assert late == 6_800 * 15 // 30 + 250  # half way through the fade
    assert early > late > done == 250
