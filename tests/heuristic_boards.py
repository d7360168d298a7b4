"""Hand-built boards shared by the heuristic tests."""

from __future__ import annotations

EMPTY_ROW = "." * 15


def board_with(words: list[tuple[int, int, str, str]]) -> list[str]:
    """Rows of a board holding ``(row, col, 'across'|'down', word)`` entries."""
    grid = [list(EMPTY_ROW) for _ in range(15)]
    for r, c, d, word in words:
        for k, ch in enumerate(word):
            rr, cc = (r, c + k) if d == "across" else (r + k, c)
            grid[rr][cc] = ch
    return ["".join(row) for row in grid]
