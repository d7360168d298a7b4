"""Scoring and legality of hand-made WordGame positions, by the referee's judge
and by the shared engine under WordGame rules: both must agree."""

from __future__ import annotations

from collections import Counter

import pytest

from scrabble.lexicon.loaded import Lexicon
from scrabble.rules import STANDARD_VALUES
from scrabble.wordgame.actions import Play
from scrabble.wordgame.judge import IllegalPlay, judge_play
from tests.wordgame_boards import board_with, engine_plays, premiums_with, rules_for

WORDS = ["CAT", "CATS", "PE", "TO", "TOE", "HORSE", "AT", "ATS", "TA", "AA", "ET"]
LEX = Lexicon.from_words(WORDS)


def judge(rows, premiums, play, hand):
    return judge_play(rows, premiums, STANDARD_VALUES, play, Counter(hand), LEX.contains)


def test_letter_and_word_multiplier_under_new_tiles():
    premiums = premiums_with({(0, 0): "d", (0, 2): "D"})
    rows = board_with([])
    play = Play(0, 0, True, "CAT")
    # C 3 x2 on the double letter, A 1, T 1 on the double word: (6 + 1 + 1) x 2
    assert judge(rows, premiums, play, "CATXYZ").score == 16
    assert engine_plays(rows, "CAT", LEX, rules_for(premiums))[(0, 0, "H", "CAT")] == 16


def test_cross_word_and_multipliers_under_board_tiles_not_counted():
    # P sits on a double word and T on a triple letter: neither counts again
    premiums = premiums_with({(4, 5): "D", (5, 3): "t", (5, 5): "T"})
    rows = board_with([(5, 3, "H", "TO"), (4, 5, "V", "P")])
    play = Play(4, 5, False, "PE")
    judged = judge(rows, premiums, play, "E")
    # main PE: (P 3 + E 1) x3 = 12; cross TOE: (T 1 + O 1 + E 1) x3 = 9
    assert judged.words == (("PE", 12), ("TOE", 9))
    assert judged.score == 21
    # the same tile declared across: main TOE, cross PE, the same total; the
    # engine lists a one-tile play that forms words both ways across only
    assert judge(rows, premiums, Play(5, 3, True, "TOE"), "E").words == (("TOE", 9), ("PE", 12))
    plays = engine_plays(rows, "E", LEX, rules_for(premiums))
    assert plays[(5, 3, "H", "TOE")] == 21 and (4, 5, "V", "PE") not in plays


def test_three_word_multipliers_multiply():
    premiums = premiums_with({(2, 0): "T", (2, 2): "T", (2, 4): "D"})
    rows = board_with([])
    play = Play(2, 0, True, "HORSE")
    # H 4 + O + R + S + E = 8, x3 x3 x2 = 144
    assert judge(rows, premiums, play, "HORSE").score == 144
    assert engine_plays(rows, "HORSE", LEX, rules_for(premiums))[(2, 0, "H", "HORSE")] == 144


def test_parallel_play_that_only_touches_is_illegal_under_through():
    premiums = premiums_with({})
    rows = board_with([(5, 2, "H", "CAT")])
    # TO under AT: the cross words AT and TO are words, but the main word holds no
    # board tile (legal under the standard "touch" rule, not here)
    with pytest.raises(IllegalPlay, match="no tile already on the board"):
        judge(rows, premiums, Play(6, 3, True, "TO"), "TO")
    assert (6, 3, "H", "TO") not in engine_plays(rows, "TO", LEX, rules_for(premiums))
    # through the board: CATS is legal
    assert judge(rows, premiums, Play(5, 2, True, "CATS"), "S").score == 6


def test_first_move_anywhere():
    premiums = premiums_with({(9, 9): "T"})
    rows = board_with([])
    assert judge(rows, premiums, Play(9, 7, True, "CAT"), "CAT").score == (3 + 1 + 1) * 3
    plays = engine_plays(rows, "CAT", LEX, rules_for(premiums))
    assert plays[(9, 7, "H", "CAT")] == 15 and plays[(0, 0, "V", "CAT")] == 5
    with pytest.raises(IllegalPlay, match="at least 2 letters"):
        judge(rows, premiums, Play(0, 0, True, "A"), "A")


def test_one_tile_play_is_judged_in_the_declared_direction():
    premiums = premiums_with({})
    rows = board_with([(5, 3, "H", "AT"), (4, 7, "V", "A")])
    # S after AT: across it is ATS; declared down, the run is one letter
    assert judge(rows, premiums, Play(5, 3, True, "ATS"), "S").score == 3
    with pytest.raises(IllegalPlay):
        judge(rows, premiums, Play(5, 5, False, "S"), "S")
    # T under the lone A: down it is AT (legal), across it is a lone T
    assert judge(rows, premiums, Play(4, 7, False, "AT"), "T").score == 2
    with pytest.raises(IllegalPlay):
        judge(rows, premiums, Play(5, 7, True, "T"), "T")
    plays = engine_plays(rows, "ST", LEX, rules_for(premiums))
    assert (5, 3, "H", "ATS") in plays and (4, 7, "V", "AT") in plays


def test_word_must_be_the_whole_run_and_letters_in_hand():
    premiums = premiums_with({})
    rows = board_with([(5, 2, "H", "CATS")])
    with pytest.raises(IllegalPlay, match="whole run"):
        judge(rows, premiums, Play(5, 2, True, "CAT"), "S")
    with pytest.raises(IllegalPlay, match="lacks"):
        judge(rows, premiums, Play(4, 3, False, "TA"), "X")
    with pytest.raises(IllegalPlay, match="not in the lexicon"):
        judge(rows, premiums, Play(4, 3, False, "EA"), "E")
