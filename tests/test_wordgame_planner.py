"""The planner's rules that are plain functions (no game needed)."""

from __future__ import annotations

from scrabble.wordgame.players.planner import PlannerConfig, scarcity, shrunk_horizon


def test_burnt_tiles_are_free_while_the_tiles_left_overfill_the_board() -> None:
    cfg = PlannerConfig(fill=0.7, scarcity_ramp=0.2)
    # 13 x 13: the board takes ~118 tiles; all 169 left leave 51 to spare (> 34)
    assert scarcity(13, 0, 169, cfg) == 0.0
    # halfway down the ramp
    assert abs(scarcity(13, 0, 118 + 17, cfg) - 0.5) < 0.02
    # the tiles left no longer fill what the board can still take
    assert scarcity(13, 60, 40, cfg) == 1.0
    # fewer tiles left for the same board: each is worth more
    assert scarcity(13, 20, 90, cfg) > scarcity(13, 20, 110, cfg)


def test_the_prospects_horizon_shrinks_to_one_hand_when_tiles_are_scarce() -> None:
    assert shrunk_horizon(32, 6, 0.0) == 32
    assert shrunk_horizon(32, 6, 1.0) == 6
    assert 6 < shrunk_horizon(32, 6, 0.5) < 32
    assert shrunk_horizon(4, 6, 1.0) == 4  # never longer than asked
