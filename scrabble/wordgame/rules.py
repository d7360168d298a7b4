"""A WordGame case as a ``Rules`` value for the shared engine.

N x N board with a per-case premium map in the standard legend (``.dtDT``), the
standard letter values, no blanks, no all-tiles bonus, a hand of T tiles, the
first word anywhere and every later main word through a board tile. Tiles are
i.i.d. draws, so there is no tile set (``tile_counts`` is empty).
"""

from __future__ import annotations

from collections.abc import Sequence

from scrabble.rules import STANDARD_VALUES, Rules

MIN_SIZE, MAX_SIZE = 10, 20
MIN_HAND, MAX_HAND = 5, 9
MAX_VISIBLE = 5
MAX_DISCARD_COST = 5
PREMIUM_LEGEND = ".dtDT"
# the contract's limit: 10 s of the player's time per case
TIME_LIMIT_MS = 10_000


def wordgame_rules(size: int, premiums: Sequence[str], hand_size: int) -> Rules:
    """The rules of one case; raises ValueError on a malformed map or size."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"n must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
    if not MIN_HAND <= hand_size <= MAX_HAND:
        raise ValueError(f"t must be {MIN_HAND}..{MAX_HAND}, got {hand_size}")
    rows = tuple(premiums)
    if len(rows) != size or any(len(row) != size for row in rows):
        raise ValueError(f"premiums must be {size} rows of {size} squares")
    for r, row in enumerate(rows):
        bad = [ch for ch in row if ch not in PREMIUM_LEGEND]
        if bad:
            raise ValueError(f"premiums row {r}: {bad[0]!r} is not one of {PREMIUM_LEGEND!r}")
    return Rules(
        name=f"wordgame-{size}",
        size=size,
        premiums=rows,
        letter_values=STANDARD_VALUES,
        tile_counts={},
        rack_size=hand_size,
        bingo_bonus=0,
        connection="through",
        opening="anywhere",
    )
