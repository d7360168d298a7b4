"""The referee's own legality check and scoring of a play, in plain Python.

Written from the contract, not from the move generator (which it checks in the
tests): the word is the whole maximal run in the declared direction, every
square of it is a board tile spelling the same letter or an empty square the
hand fills, after the first move it holds a board tile, it has at least two
letters, it and every cross word a new tile forms are words, and each word
scores (board tiles at face value + new tiles x letter multiplier) x the
product of the word multipliers under its new tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scrabble.wordgame.actions import Play

EMPTY = "."
LETTER_MULT = {"d": 2, "t": 3}
WORD_MULT = {"D": 2, "T": 3}


class IllegalPlay(ValueError):
    """The play breaks a rule; the message says which."""


@dataclass(frozen=True)
class Judgement:
    score: int
    tiles: tuple[tuple[int, int, str], ...]  # (row, col, letter) the play places
    words: tuple[tuple[str, int], ...]  # every word formed and its score, main word first


def _word_score(
    squares: Sequence[tuple[int, int, str, bool]], premiums: Sequence[str], values: dict[str, int]
) -> int:
    total = 0
    mult = 1
    for r, c, letter, new in squares:
        value = values[letter]
        if new:
            total += value * LETTER_MULT.get(premiums[r][c], 1)
            mult *= WORD_MULT.get(premiums[r][c], 1)
        else:
            total += value
    return total * mult


def judge_play(
    board: Sequence[Sequence[str]],
    premiums: Sequence[str],
    values: dict[str, int],
    play: Play,
    hand: Counter[str],
    is_word: Callable[[str], bool],
) -> Judgement:
    """Judge ``play`` on ``board`` (rows of '.' or A-Z) for a player holding
    ``hand``; raises IllegalPlay with the reason."""
    n = len(board)
    word = play.word
    dr, dc = (0, 1) if play.horizontal else (1, 0)
    if len(word) < 2:
        raise IllegalPlay("a word has at least 2 letters")
    if not (0 <= play.row < n and 0 <= play.col < n):
        raise IllegalPlay("the first square is off the board")
    end_r, end_c = play.row + dr * (len(word) - 1), play.col + dc * (len(word) - 1)
    if end_r >= n or end_c >= n:
        raise IllegalPlay("the word runs off the board")

    def occupied(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n and board[r][c] != EMPTY

    if occupied(play.row - dr, play.col - dc) or occupied(end_r + dr, end_c + dc):
        raise IllegalPlay("the word is not the whole run: a tile lies just before or after it")
    empty_board = not any(cell != EMPTY for row in board for cell in row)
    squares = []
    placed: list[tuple[int, int, str]] = []
    for k, letter in enumerate(word):
        r, c = play.row + dr * k, play.col + dc * k
        cell = board[r][c]
        if cell == EMPTY:
            placed.append((r, c, letter))
            squares.append((r, c, letter, True))
        elif cell != letter:
            raise IllegalPlay(f"square ({r}, {c}) holds {cell}, the word has {letter}")
        else:
            squares.append((r, c, letter, False))
    if not placed:
        raise IllegalPlay("the play places no tile")
    need = Counter(letter for _, _, letter in placed)
    short = need - hand
    if short:
        raise IllegalPlay(f"the hand lacks {''.join(sorted(short.elements()))}")
    if not empty_board and len(placed) == len(word):
        raise IllegalPlay("the word holds no tile already on the board")
    if not is_word(word):
        raise IllegalPlay(f"{word} is not in the lexicon")
    words = [(word, _word_score(squares, premiums, values))]
    for r, c, letter in placed:
        # the cross word runs perpendicular to the play through the new tile
        before = []
        rr, cc = r - dc, c - dr
        while occupied(rr, cc):
            before.append((rr, cc, board[rr][cc], False))
            rr, cc = rr - dc, cc - dr
        after = []
        rr, cc = r + dc, c + dr
        while occupied(rr, cc):
            after.append((rr, cc, board[rr][cc], False))
            rr, cc = rr + dc, cc + dr
        if not before and not after:
            continue
        cross = before[::-1] + [(r, c, letter, True)] + after
        text = "".join(sq[2] for sq in cross)
        if not is_word(text):
            raise IllegalPlay(f"cross word {text} is not in the lexicon")
        words.append((text, _word_score(cross, premiums, values)))
    return Judgement(score=sum(s for _, s in words), tiles=tuple(placed), words=tuple(words))
