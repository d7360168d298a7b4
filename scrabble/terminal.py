"""A board and tables drawn as plain text, for the command line.

Squares: a tile's letter (lower case a blank), else its premium: ``=`` triple
word, ``-`` double word, ``"`` triple letter, ``'`` double letter, ``*`` the
start square, ``.`` none. Tiles a move would place are shown in brackets
around the square, so a preview reads without colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from scrabble.rules import STANDARD, Rules
from scrabble.tiles import ALPHABET

PREMIUM_MARKS = {"T": "=", "D": "-", "t": '"', "d": "'", "*": "*", ".": "."}
LEGEND = "= triple word  - double word  \" triple letter  ' double letter  * start"


def board_text(
    rows: Sequence[str],
    rules: Rules = STANDARD,
    preview: dict[tuple[int, int], str] | None = None,
) -> str:
    """The board with coordinates; ``preview`` (row, col) -> letter: a move's
    tiles, drawn in brackets."""
    n = rules.size
    shown = preview or {}
    lines = ["    " + "".join(f" {ALPHABET[col]} " for col in range(n))]
    for row in range(n):
        cells = []
        for col in range(n):
            if (row, col) in shown:
                cells.append(f"[{shown[(row, col)]}]")
                continue
            ch = rows[row][col]
            cells.append(f" {ch if ch != '.' else PREMIUM_MARKS[rules.premiums[row][col]]} ")
        lines.append(f"{row + 1:>3} " + "".join(cells).rstrip())
    return "\n".join(lines)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Columns padded to their widest cell; numbers right-aligned."""
    text = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in text) for i in range(len(headers))]
    numeric = [bool(rows) and all(_is_number(r[i]) for r in rows) for i in range(len(headers))]
    out = []
    for k, r in enumerate(text):
        cells = [
            cell.rjust(widths[i]) if numeric[i] and k else cell.ljust(widths[i])
            for i, cell in enumerate(r)
        ]
        out.append("  ".join(cells).rstrip())
    out.insert(1, "  ".join("-" * w for w in widths).rstrip())
    return "\n".join(out)


def _is_number(cell: object) -> bool:
    if cell is None or cell == "" or isinstance(cell, (int, float)):
        return True
    try:
        float(str(cell))
    except ValueError:
        return False
    return True
