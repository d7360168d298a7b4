"""A board seen as lines: per direction the cells, cross-checks, cross-word
scores and multipliers the search kernels take, as (2, n, n) arrays
(direction 0 = the rows, 1 = the rows of the transpose)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scrabble.rules import Rules
from scrabble.wordgame.lexicons import PlayerLexicon
from scrabble.wordgame.trie_walk import cross_checks


@dataclass(frozen=True)
class BoardLines:
    cells: np.ndarray  # uint8 (2, n, n)
    cmask: np.ndarray  # uint32 (2, n, n)
    cross: np.ndarray  # int32 (2, n, n); -1 where no cross word
    empty: bool


def multiplier_lines(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    n = rules.size
    lm = rules.letter_mult.reshape(n, n)
    wm = rules.word_mult.reshape(n, n)
    return (
        np.ascontiguousarray(np.stack([lm, lm.T])).astype(np.int32),
        np.ascontiguousarray(np.stack([wm, wm.T])).astype(np.int32),
    )


def board_lines(
    board: np.ndarray, n: int, lexicon: PlayerLexicon, values: np.ndarray
) -> BoardLines:
    b = board.reshape(n, n)
    cells = np.ascontiguousarray(np.stack([b, b.T]))
    masks = []
    scores = []
    for d in range(2):
        mask, score = cross_checks(cells[d], lexicon.trie.mask, lexicon.trie.first, values)
        masks.append(mask)
        scores.append(score)
    return BoardLines(
        cells=cells,
        cmask=np.ascontiguousarray(np.stack(masks)),
        cross=np.ascontiguousarray(np.stack(scores)),
        empty=not board.any(),
    )
