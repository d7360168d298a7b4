"""What a premium map offers: its best windows packed apart.

A window of T + k squares on one line holds a whole hand's T new tiles on its
T largest word multipliers and k letters pre-placed by earlier plays on the
rest. Packing windows greedily by that product, each apart from the ones
before (no shared or neighbouring square), gives the products a game could
collect; with k = 1 they match what the planner plays (seventeenth round), and
larger k bounds what a plan of several plays could add. A count over the
premium map only: no word, no tile.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from math import prod

from scrabble.wordgame.judge import EMPTY, WORD_MULT

Square = tuple[int, int]


def _windows(premiums: list[str], length: int) -> Iterator[tuple[list[Square], list[int]]]:
    """Every window of ``length`` squares (rows before columns, top-left first):
    its squares and the word multiplier under each (1 for none)."""
    n = len(premiums)
    for direction in (0, 1):
        for line in range(n):
            for start in range(n - length + 1):
                squares = [
                    (line, start + i) if direction == 0 else (start + i, line)
                    for i in range(length)
                ]
                yield squares, [WORD_MULT.get(premiums[row][col], 1) for row, col in squares]


def _packed(premiums: list[str], t: int, pre: int) -> Iterator[tuple[int, list[Square], list[int]]]:
    """Windows of ``t + pre`` squares, best first by the product of their t
    largest word multipliers (ties: rows before columns, top-left first), each
    apart from those yielded before it (no shared or neighbouring square):
    (product, squares, indices of the ``pre`` squares under the smallest
    multipliers, which a plan would pre-place)."""
    length = t + pre
    ranked = []  # (-product, scan order, squares, spare indices)
    for order, (squares, factors) in enumerate(_windows(premiums, length)):
        spare = sorted(sorted(range(length), key=lambda i: (factors[i], i))[:pre])
        product = prod(f for i, f in enumerate(factors) if i not in spare)
        ranked.append((-product, order, squares, spare))
    ranked.sort()
    blocked: set[Square] = set()
    for neg, _, squares, spare in ranked:
        if any(sq in blocked for sq in squares):
            continue
        yield -neg, squares, spare
        for row, col in squares:
            blocked.update(
                ((row, col), (row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1))
            )


def packed_products(premiums: list[str], t: int, pre: int, limit: int = 8) -> list[int]:
    """The products of up to ``limit`` windows of ``t + pre`` squares, best
    first, packed greedily apart; empty when the board is shorter than that."""
    return [product for product, _, _ in islice(_packed(premiums, t, pre), limit)]


@dataclass(frozen=True)
class PreplacedWindow:
    """The map's best window of T + k squares with its k pre-place squares (the
    ones under the smallest multipliers) and the letters most words of that
    length share there: an upper-bound experiment's free start (``run --pre``)."""

    product: int  # the word multipliers left under the T other squares
    squares: tuple[Square, ...]  # (row, col) of the k pre-placed letters
    letters: str
    family: int  # words of the window's length with those letters there

    def board(self, n: int) -> list[str]:
        return preplaced_board([self], n)


def preplaced_windows(
    premiums: list[str], t: int, pre: int, words: Iterable[str], count: int = 1
) -> list[PreplacedWindow]:
    """Up to ``count`` windows of T + ``pre`` squares, best first and packed
    apart (``_packed``), each with letters for its ``pre`` squares under the
    smallest multipliers, chosen by the most words of the window's length
    sharing them there (ties: the first in alphabetical order). Empty when the
    board is shorter than T + ``pre`` or no word has that length."""
    sized = [word for word in words if len(word) == t + pre]
    chosen: list[PreplacedWindow] = []
    for product, squares, spare in islice(_packed(premiums, t, pre), count):
        shared = Counter("".join(word[i] for i in spare) for word in sized)
        if not shared:
            break
        letters, family = min(shared.items(), key=lambda item: (-item[1], item[0]))
        chosen.append(PreplacedWindow(product, tuple(squares[i] for i in spare), letters, family))
    return chosen


def preplaced_window(
    premiums: list[str], t: int, pre: int, words: Iterable[str]
) -> PreplacedWindow | None:
    """The best window of ``preplaced_windows``, or None."""
    windows = preplaced_windows(premiums, t, pre, words, 1)
    return windows[0] if windows else None


def preplaced_board(windows: list[PreplacedWindow], n: int) -> list[str]:
    """An n x n board holding the pre-placed letters of every window."""
    rows = [[EMPTY] * n for _ in range(n)]
    for window in windows:
        for (row, col), letter in zip(window.squares, window.letters, strict=True):
            rows[row][col] = letter
    return ["".join(row) for row in rows]
