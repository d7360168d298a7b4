"""Time management from the elapsed time the referee reports (section 6).

The budget left is shared over the turns to come in proportion to the shape
of a turn's time when nothing limits it: flat until 40 % of the tiles are
drawn, falling to a tenth by 60 % and flat again after.
"""

from __future__ import annotations

BUDGET_MS = 8000.0
EARLY, LATE, FLOOR = 0.4, 0.6, 0.1


def profile(progress: float) -> float:
    if progress <= EARLY:
        return 1.0
    if progress >= LATE:
        return FLOOR
    return 1.0 - (1.0 - FLOOR) * (progress - EARLY) / (LATE - EARLY)


class Clock:
    def __init__(self, squares: int, budget_ms: float = BUDGET_MS) -> None:
        self.squares = squares
        self.budget_ms = budget_ms
        self.tiles_per_turn = 2.5  # running estimate of tiles a turn uses

    def observe(self, tiles_used: int) -> None:
        # capped: a long discard now and then must not make the game look short
        used = min(max(1, tiles_used), 4)
        self.tiles_per_turn = 0.9 * self.tiles_per_turn + 0.1 * used

    def allowance_ms(self, elapsed_ms: float, tiles_left: int) -> float:
        """This turn's share of the budget left (tiles_left: queue + hand)."""
        left = self.budget_ms - elapsed_ms
        if left <= 0:
            return 0.0
        drawn = self.squares - tiles_left
        step = self.tiles_per_turn
        weights = 0.0
        tiles: float = drawn
        while tiles < self.squares:
            weights += profile(tiles / self.squares)
            tiles += step
        now = profile(drawn / self.squares)
        return left * now / max(weights, now)
