"""Scoring a placement: the one implementation every engine uses.

A placement is a main word on one line, given as cell codes in a line buffer
(``word[start..end]``): the letter in the low 5 bits, ``BLANK_FLAG`` (32) for a
blank and ``NEW_FLAG`` (64) for a tile this move places. Premiums count only
under new tiles, each cross word (precomputed per square as the score of its
existing tiles, see ``board.cross_checks``) is scored the same way, blanks
score 0, and placing a full rack adds the bingo bonus.
"""

from __future__ import annotations

from numba import njit

NEW_FLAG = 64


@njit(cache=True, inline="always")
def score_line(word, start, end, line_lm, line_wm, line_cross, values, rack_size, bingo_bonus):
    main = 0
    main_mult = 1
    cross_total = 0
    placed = 0
    for c in range(start, end + 1):
        code = word[c]
        v = 0 if code & 32 else values[(code & 31) - 1]
        if code & NEW_FLAG:
            placed += 1
            lm = line_lm[c]
            wm = line_wm[c]
            main += v * lm
            main_mult *= wm
            if line_cross[c] >= 0:
                cross_total += (line_cross[c] + v * lm) * wm
        else:
            main += v
    total = main * main_mult + cross_total
    if placed == rack_size:
        total += bingo_bonus
    return total
