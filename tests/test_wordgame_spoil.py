"""A play that spoils one of the best other slots pays for it.

The planner's future for a play was its target's plan (or, if the play takes
the target, the best other slot x 0.6): a small play could take the square of
another slot worth hundreds for nothing. Now the best other slots by
fresh-hand value are packed (apart from the target and from each other) and
a play whose new tiles land on a packed slot's squares, its two ends or the
squares beside them pays ``spoil_weight`` x that slot's value.

The check here rebuilds each slot's footprint from its window and the board
(not from the player's bitsets) and each play's new squares from its word.
"""

from __future__ import annotations

import numpy as np
import pytest

from scrabble.position import parse_board
from scrabble.wordgame import cases
from scrabble.wordgame.actions import Play
from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer
from scrabble.wordgame.referee import Referee


def footprint(direction: int, line: int, start: int, length: int, rows: list[str]) -> set:
    """The squares whose taking spoils the window: its empty squares, the
    squares just before and after it, and the squares beside its empty ones."""
    n = len(rows)

    def square(along: int, across: int) -> tuple[int, int]:
        return (across, along) if direction == 0 else (along, across)

    out = set()
    for along in (start - 1, start + length):
        if 0 <= along < n:
            out.add(square(along, line))
    for along in range(start, start + length):
        r, c = square(along, line)
        if rows[r][c] == ".":
            for across in (line - 1, line, line + 1):
                if 0 <= across < n:
                    out.add(square(along, across))
    return out


def new_squares(play: Play, rows: list[str]) -> set:
    out = set()
    for k in range(len(play.word)):
        r, c = (play.row, play.col + k) if play.horizontal else (play.row + k, play.col)
        if rows[r][c] == ".":
            out.add((r, c))
    return out


def test_packed_slots_are_apart_and_each_play_pays_for_those_it_touches(enable) -> None:
    # 10 x 10, T 5, a quarter of the squares word multipliers: many good slots
    case = cases.generate(548, cases.letter_probabilities(enable.words))
    weight = 0.5
    player = PlannerPlayer(enable, True, PlannerConfig(fixed_share=0.3, spoil_weight=weight))
    referee = Referee(case, enable.contains)
    player.start(referee.setup())
    charged = checked = 0
    for _ in range(14):
        if referee.over:
            break
        rows = list(referee.board_rows)
        choice = player.decide(referee.turn(0))
        packed = player.spoilable
        assert len(packed) <= player.pconfig.spoil_slots
        feet = [footprint(*slot.key, rows) for slot, _ in packed]
        target = player.target
        taken = set() if target is None else footprint(*target.key, rows)
        for i, foot in enumerate(feet):
            assert not foot & taken  # apart from the target
            assert all(not foot & other for other in feet[:i])  # and from each other
        assert all(value > 0 for _, value in packed)
        for action, _value, terms in choice.alternatives:
            if not isinstance(action, Play):
                continue
            placed = new_squares(action, rows)
            expected = -weight * sum(
                value for (_, value), foot in zip(packed, feet, strict=True) if placed & foot
            )
            assert terms.get("spoil", 0.0) == pytest.approx(expected)
            checked += 1
            charged += expected < 0
        action = choice.action
        if isinstance(action, Play):
            player._apply(action)
        referee.apply(action.line())
    assert checked > 20
    assert charged > 0  # some play on these turns did touch a packed slot


def test_no_weight_no_charge(enable) -> None:
    case = cases.generate(548, cases.letter_probabilities(enable.words))
    player = PlannerPlayer(enable, True, PlannerConfig(fixed_share=0.3, spoil_weight=0.0))
    referee = Referee(case, enable.contains)
    player.start(referee.setup())
    choice = player.decide(referee.turn(0))
    assert player.spoilable == []
    assert all(not terms.get("spoil") for _, _, terms in choice.alternatives)
    assert np.isfinite(choice.value)


def test_a_board_without_slots_packs_nothing_from_the_turn_before(enable) -> None:
    # with no slot window left the planner used to pack the previous turn's
    # slots, whose squares may be long taken, and charge plays for them
    case = cases.generate(548, cases.letter_probabilities(enable.words))
    player = PlannerPlayer(enable, True, PlannerConfig(fixed_share=0.3))
    referee = Referee(case, enable.contains)
    player.start(referee.setup())
    player.decide(referee.turn(0))
    assert player.spoilable  # the empty board offers slots to protect

    # every square filled but one a line (the diagonal): no run of T = 5 empty squares
    n = case.n
    full = ["".join("." if r == c else "ESTONIAN"[(r + c) % 8] for c in range(n)) for r in range(n)]
    player.set_board(parse_board(full, player.kit.rules))
    choice = player.decide(referee.turn(0))
    assert player.others == []
    assert player.spoilable == []
    assert all(not terms.get("spoil") for _, _, terms in choice.alternatives)
