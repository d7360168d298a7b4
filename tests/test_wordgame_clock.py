"""The WordGame players' clock: the budget shared over the turns, the effort
steered by the turns' time, and the marks past which a turn does less."""

from __future__ import annotations

import math

import pytest

from scrabble.wordgame.clock import (
    FIRST_TURN_PACE,
    FIRST_TURN_REST,
    LEAN,
    RESCUE,
    STOP_MARK_MS,
    Clock,
)
from scrabble.wordgame.rules import TIME_LIMIT_MS


@pytest.mark.parametrize("squares", [100, 225, 400])
def test_turns_that_spend_their_allowance_spend_the_budget_and_no_more(squares: int) -> None:
    clock = Clock(squares, 7500.0)
    clock.tiles_per_turn = 3.0  # the estimate right from the start: every turn uses 3
    elapsed, tiles_left, shares = 0.0, squares, {}
    while tiles_left > 0:
        share = clock.allowance_ms(elapsed, tiles_left)
        shares[1 - tiles_left / squares] = share
        elapsed += share
        clock.observe(3)
        tiles_left -= 3
    assert elapsed <= 7500.0 + 1e-6
    assert elapsed >= 0.99 * 7500.0
    # the profile: a turn before 40 % of the tiles gets ten times a turn after 60 %
    early = [v for progress, v in shares.items() if progress < 0.35]
    late = [v for progress, v in shares.items() if 0.65 < progress < 0.8]
    assert min(early) / max(late) == pytest.approx(10.0, rel=0.02)
    assert max(early) / min(late) == pytest.approx(10.0, rel=0.02)


def test_an_exhausted_budget_allows_nothing() -> None:
    clock = Clock(225, 7500.0)
    assert clock.allowance_ms(7500.0, 100) == 0.0
    assert clock.allowance_ms(9000.0, 100) == 0.0


def test_a_turn_s_mode_follows_the_marks_of_the_budget() -> None:
    clock = Clock(225, 8000.0)
    assert clock.begin_turn(LEAN * 8000.0 - 1, 100)[1] == "full"
    assert clock.begin_turn(LEAN * 8000.0 + 1, 100)[1] == "lean"
    assert clock.begin_turn(8000.0 + 1, 100) == (0.0, "panic")
    assert clock.mode == "panic"
    allowance, mode = clock.begin_turn(0.0, 225)
    assert mode == "full" and clock.allowance == allowance > 0


def test_the_effort_follows_the_turns_time_within_its_bounds() -> None:
    clock = Clock(225, 8000.0)
    clock.steer(10.0)  # no timed turn yet: nothing to steer by
    assert clock.effort == 1.0
    clock.begin_turn(0.0, 225)
    allowance = clock.allowance
    clock.steer(4 * allowance)  # four times over: down by at most sqrt(0.6)
    assert clock.effort == pytest.approx(math.sqrt(0.6))
    clock.steer(allowance / 4)  # four times under: up by at most sqrt(1.3)
    assert clock.effort == pytest.approx(math.sqrt(0.6) * math.sqrt(1.3))
    clock.steer(allowance / 1.1)  # a little under: up by sqrt(1.1)
    assert clock.effort == pytest.approx(math.sqrt(0.6 * 1.3 * 1.1))
    for _ in range(50):
        clock.steer(allowance / 4)
    assert clock.effort == 1.0  # never above the full effort
    for _ in range(50):
        clock.steer(100 * allowance)
    assert clock.effort == 0.03  # nor below the floor


def test_the_marks_keep_the_rescue_before_the_stop_before_the_limit() -> None:
    clock = Clock(225, 7500.0)
    assert RESCUE * 7500.0 < STOP_MARK_MS < TIME_LIMIT_MS
    assert not clock.past_rescue_mark(RESCUE * 7500.0)
    assert clock.past_rescue_mark(RESCUE * 7500.0 + 1)
    assert not clock.past_stop_mark(STOP_MARK_MS)
    assert clock.past_stop_mark(STOP_MARK_MS + 1)


def test_the_first_turn_s_marks_scale_the_work_done_to_the_stop_mark() -> None:
    clock = Clock(225, 7500.0)
    start_up = STOP_MARK_MS / (1 + FIRST_TURN_PACE)
    assert not clock.slow_start(start_up - 1)
    assert clock.slow_start(start_up + 1)
    # half way: 1 s reported, the work so far 2 s; the rest at 2.5 x that passes 9.4 s
    spent = (STOP_MARK_MS - 1000.0) / (1 + FIRST_TURN_REST)
    assert not clock.behind_on_first_turn(1000.0, spent - 1)
    assert clock.behind_on_first_turn(1000.0, spent + 1)
