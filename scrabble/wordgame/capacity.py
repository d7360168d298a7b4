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

from math import prod

from scrabble.wordgame.judge import WORD_MULT


def packed_products(premiums: list[str], t: int, pre: int, limit: int = 8) -> list[int]:
    """The products of up to ``limit`` windows of ``t + pre`` squares, best
    first, packed greedily apart; empty when the board is shorter than that."""
    n = len(premiums)
    length = t + pre
    windows: list[tuple[int, int, int, int]] = []  # (-product, direction, line, start)
    for direction in (0, 1):
        for line in range(n):
            for start in range(n - length + 1):
                factors = sorted(
                    (
                        WORD_MULT.get(
                            premiums[line][start + i]
                            if direction == 0
                            else premiums[start + i][line],
                            1,
                        )
                        for i in range(length)
                    ),
                    reverse=True,
                )
                windows.append((-prod(factors[:t]), direction, line, start))
    windows.sort()
    blocked: set[tuple[int, int]] = set()
    products: list[int] = []
    for neg, direction, line, start in windows:
        squares = [
            (line, start + i) if direction == 0 else (start + i, line) for i in range(length)
        ]
        if any(sq in blocked for sq in squares):
            continue
        products.append(-neg)
        for row, col in squares:
            blocked.update(
                ((row, col), (row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1))
            )
        if len(products) == limit:
            break
    return products
