"""The planner's rules that are plain functions, and its limits by the clock."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from scrabble.lexicon.loaded import Lexicon
from scrabble.wordgame import cases
from scrabble.wordgame.clock import FIRST_TURN_PACE, RESCUE, STOP_MARK_MS
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.players import prospect
from scrabble.wordgame.players.greedy import GreedyPlayer
from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer, scarcity, shrunk_horizon
from scrabble.wordgame.referee import Referee, TurnView
from scrabble.wordgame.rules import TIME_LIMIT_MS


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


def test_the_plans_work_follows_its_own_effort_mark_not_the_search_cap() -> None:
    enable = load_lexicon("enable")
    case = cases.generate(548, cases.letter_probabilities(enable.words))
    cfg = PlannerConfig(max_share=1.0, plan_effort=0.4)
    player = PlannerPlayer(enable, False, cfg)
    player.start(Referee(case, enable.contains).setup())
    # the clock has steered the effort to 0.5: above the plan's mark, so the
    # plan keeps all its candidates, backups and setup plays, although the
    # prospects' share (capped at 1.0 here) is only half
    player.clock.effort = 0.5
    assert player._limits() == (cfg.slots, cfg.candidates, cfg.backups, cfg.setup_evals)
    # below the mark they shrink with it
    player.clock.effort = 0.2
    _, candidates, _, setups = player._limits()
    assert candidates < cfg.candidates and setups < cfg.setup_evals
    # past the lean mark the clock's least numbers, whatever the effort
    player.clock.mode = "lean"
    assert player._limits()[1] < cfg.candidates


def test_near_the_time_limit_the_player_keeps_its_points_and_stops() -> None:
    enable = load_lexicon("enable")
    case = cases.generate(548, cases.letter_probabilities(enable.words))
    referee = Referee(case, enable.contains)
    player = PlannerPlayer(enable, False, PlannerConfig())
    player.start(referee.setup())
    view = referee.turn(0)
    rescue_ms = RESCUE * player.config.budget_ms
    assert rescue_ms < STOP_MARK_MS < TIME_LIMIT_MS
    # past the rescue mark: the best score now, a play on the empty board
    line = player.act(replace(view, elapsed_ms=round(rescue_ms) + 1))
    assert line.startswith("PLAY ")
    assert player.stats()["rescue"] == 1
    # past the stop mark: STOP, whatever the hand could still do
    assert player.act(replace(view, elapsed_ms=STOP_MARK_MS + 1)) == "STOP"
    assert player.stats()["stopped_by_clock"] == 1
    # with fixed effort (tuning) the clock is never read
    fixed = PlannerPlayer(enable, True, PlannerConfig(fixed_share=0.3))
    fixed.start(referee.setup())
    assert fixed.act(replace(view, elapsed_ms=TIME_LIMIT_MS)) != "STOP"


def _first_turn_of_wg4047() -> tuple[Lexicon, Referee, TurnView, str]:
    """wg-4047 (17 x 17, T 9): its first turn, and greedy's answer to it
    (TAILLEURS, 648 points), which the rescue gives too."""
    enable = load_lexicon("enable")
    case = cases.generate(4047, cases.letter_probabilities(enable.words))
    referee = Referee(case, enable.contains)
    view = referee.turn(0)
    greedy = GreedyPlayer(enable)
    greedy.start(referee.setup())
    return enable, referee, view, greedy.act(view)


def test_a_start_up_too_slow_for_the_first_turn_gets_the_rescue_s_play() -> None:
    # The empty board's turn costs up to about 3 x the start-up before it; a
    # start-up slower than the stop mark / (1 + FIRST_TURN_PACE) means a
    # machine where that turn would end past the limit (34th round: 20 of 48
    # cases at 24 jobs on 2 cores scored 0, all on their first turn).
    enable, referee, view, best_score_now = _first_turn_of_wg4047()
    limit_ms = STOP_MARK_MS / (1 + FIRST_TURN_PACE)

    def first_turn(elapsed_ms: int) -> tuple[str, dict[str, int]]:
        player = PlannerPlayer(enable, False, PlannerConfig())
        player.start(referee.setup())
        return player.act(replace(view, elapsed_ms=elapsed_ms)), player.stats()

    line, stats = first_turn(int(limit_ms) + 1)
    assert line == best_score_now
    assert stats["slow_start"] == 1 and stats["rescue"] == 1
    # a start-up just under the limit: the planner's own turn, valued in full
    # (here a two-letter setup, ES, against the 648 points)
    line, stats = first_turn(int(limit_ms))
    assert "slow_start" not in stats and "rescue" not in stats
    assert stats["full"] == 1 and stats["reevaluated"] >= 4
    # once the board holds a word the start-up's pace says nothing: no rescue
    player = PlannerPlayer(enable, False, PlannerConfig())
    player.start(referee.setup())
    referee.apply(player.act(view))
    player.act(replace(referee.turn(0), elapsed_ms=int(limit_ms) + 1))
    assert "slow_start" not in player.stats() and "rescue" not in player.stats()


def test_a_first_turn_that_falls_behind_half_way_answers_the_rescue_s_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The start-up looked normal, but the turn runs slow (a machine loaded
    # after the player started): once the plays and prospects are listed, the
    # rest of the turn (up to FIRST_TURN_REST x the work so far) would end
    # past the stop mark, so the rescue's play answers.
    enable, referee, view, best_score_now = _first_turn_of_wg4047()
    player = PlannerPlayer(enable, False, PlannerConfig())
    player.start(referee.setup())

    class FortyTimesSlower:  # every interval the player measures, x40
        @staticmethod
        def perf_counter() -> float:
            return 40 * time.perf_counter()

    monkeypatch.setattr(prospect, "time", FortyTimesSlower)
    assert player.act(view) == best_score_now
    stats = player.stats()
    assert stats["slow_first_turn"] == 1 and stats["rescue"] == 1
    assert "slow_start" not in stats  # the start-up (0 ms here) said nothing
