"""Scoring a placement: the one implementation every engine and term uses.

A placement is a main word on one line, given as cell codes in a line buffer
(``word[start..end]``, ``NEW_FLAG`` on the tiles this move places). Premiums
count only under new tiles; each cross word (its existing tiles' score is
precomputed per square in the board view's ``cross_score``) is scored the
same way; blanks score 0; placing a full rack adds the bingo bonus.
"""

from __future__ import annotations

from numba import njit

from scrabble.tiles import BLANK_FLAG, LETTER_MASK, NEW_FLAG


@njit(cache=True, inline="always")
def score_line(word, start, end, letter_mult, word_mult, cross_score, scoring):
    """Score of ``word[start..end]`` on a line whose premiums and cross scores
    are ``letter_mult``, ``word_mult`` and ``cross_score`` (1-d, one line)."""
    main = 0
    main_mult = 1
    cross_total = 0
    placed = 0
    for square in range(start, end + 1):
        code = word[square]
        value = 0 if code & BLANK_FLAG else scoring.values[(code & LETTER_MASK) - 1]
        if code & NEW_FLAG:
            placed += 1
            letter_premium = letter_mult[square]
            word_premium = word_mult[square]
            main += value * letter_premium
            main_mult *= word_premium
            if cross_score[square] >= 0:
                cross_total += (cross_score[square] + value * letter_premium) * word_premium
        else:
            main += value
    total = main * main_mult + cross_total
    if placed == scoring.rack_size:
        total += scoring.bingo_bonus
    return total
