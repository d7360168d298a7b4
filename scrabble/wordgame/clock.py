"""Time management from the elapsed time the referee reports (section 6).

The budget left is shared over the turns to come in proportion to the shape
of a turn's time when nothing limits it: flat until 40 % of the tiles are
drawn, falling to a tenth by 60 % and flat again after. The effort a turn can
afford (lines searched with wild tiles, plays searched again, the plan's own
work) is steered by how the last turns' time compared with their share. Past
marks of the budget a turn does less: the least that is still sound (lean),
plays only (panic), the best score now (rescue), and STOP near the limit.
"""

from __future__ import annotations

from scrabble.wordgame.rules import TIME_LIMIT_MS

BUDGET_MS = 8000.0
EARLY, LATE, FLOOR = 0.4, 0.6, 0.1

LEAN = 0.85  # past this share of the budget a turn does the least that is still sound
RESCUE = 1.12  # past this share (9 s of 8) only the best score now: never out of time
# Past this much of the case's 10 s a turn answers STOP: the points made stay,
# where one more turn on a slow or loaded machine could cost them all (a case
# out of time scores 0). A rescue turn takes a few ms (up to about 150 on an
# empty 20 x 20 board); the rest of the 600 ms is for a loaded machine.
STOP_MARK_MS = TIME_LIMIT_MS - 600
# The first turn is the one whose work the clock cannot shorten (the empty
# board's plays valued against every window: up to 1.2 s here on 17 x 17 with
# T = 9), so on a machine many times slower or as loaded its reply came after
# the limit and the case scored 0 (20 of 48 cases at 24 jobs on 2 cores;
# docs/wordgame-rounds.md, 34th round). It answers with the rescue's play instead when
# the start-up already ran at a pace that would end the turn past the stop
# mark (the turn is up to about 3 x the player's own start-up, 0.37 s here,
# and the interpreter's start it cannot see adds a little), or when, half way,
# the rest (up to 1.8 x the work so far over 128 cases) would.
FIRST_TURN_PACE = 4.5
FIRST_TURN_REST = 2.5


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
        self.effort = 1.0  # share of the full effort a turn can afford
        self.allowance = 0.0  # the last timed turn's share of the budget, ms
        self.mode = "full"  # the last timed turn's mode: full, lean or panic

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

    def begin_turn(self, elapsed_ms: float, tiles_left: int) -> tuple[float, str]:
        """This turn's allowance (ms) and mode, kept for ``steer``."""
        self.allowance = self.allowance_ms(elapsed_ms, tiles_left)
        if elapsed_ms > self.budget_ms:
            self.mode = "panic"
        elif elapsed_ms > LEAN * self.budget_ms:
            self.mode = "lean"
        else:
            self.mode = "full"
        return self.allowance, self.mode

    def steer(self, spent_ms: float) -> None:
        """The effort after a turn that took ``spent_ms`` against the last
        allowance: up (at most x1.3 a turn) when it took less, down (at most
        x0.6) when more, both damped by a square root."""
        if self.allowance <= 0:
            return
        ratio = self.allowance / max(spent_ms, 0.1)
        self.effort = min(1.0, max(0.03, self.effort * min(1.3, max(0.6, ratio)) ** 0.5))

    def past_stop_mark(self, elapsed_ms: float) -> bool:
        return elapsed_ms > STOP_MARK_MS

    def past_rescue_mark(self, elapsed_ms: float) -> bool:
        return elapsed_ms > RESCUE * self.budget_ms

    def slow_start(self, elapsed_ms: float) -> bool:
        """Before the first turn's work: at the pace the start-up went, the
        turn would end past the stop mark (``FIRST_TURN_PACE``)."""
        return elapsed_ms * (1 + FIRST_TURN_PACE) > STOP_MARK_MS

    def behind_on_first_turn(self, elapsed_ms: float, spent_ms: float) -> bool:
        """Half way through the first turn (the empty board's plays not valued
        yet: up to ``FIRST_TURN_REST`` x the work so far): at this pace the
        turn would end past the stop mark."""
        return elapsed_ms + (1 + FIRST_TURN_REST) * spent_ms > STOP_MARK_MS
