"""The plays searched again are picked by what the search again counts.

A turn values every play at once (score - waste + the best prospect it
leaves + the best setup it advances + the slots it spoils) and searches the
best few again on the board after them. The search again counts one best row
(the prospect or the setup), but the pick added the two maxima, so plays
laying a letter of a setup, each a few points, crowded out a 180-point play,
which then was never valued at all. Both players now pick by the larger of
the two (twenty-fifth round, docs/wordgame-rounds.md).

The position is seed 1012's map early in the planner's game: AIN across and
NAE down, a hand that makes PEACH down column 1 through the A (both T squares
of that column, 180 points) while the planner hunts a bigger word there.
"""

from __future__ import annotations

from scrabble.lexicon.loaded import Lexicon
from scrabble.wordgame import cases
from scrabble.wordgame.actions import Play
from scrabble.wordgame.players.choice import Choice
from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer
from scrabble.wordgame.referee import Referee, TurnView, board_codes
from tests.wordgame_boards import board_with


def decide(enable: Lexicon, config: PlannerConfig) -> Choice:
    case = cases.generate(1012, cases.letter_probabilities(enable.words))
    assert case.n == 15 and case.premiums[1][1] == "T" and case.premiums[3][1] == "T"
    player = PlannerPlayer(enable, True, config)
    player.start(Referee(case, enable.contains).setup())
    player.set_board(board_codes(board_with([(2, 1, "H", "AIN"), (2, 3, "V", "NAE")], 15)))
    view = TurnView(elapsed_ms=0, score=0, queue_left=177, hand="PHCDEN", visible="L")
    return player.decide(view)


def valued_plays(choice: Choice) -> dict[str, float]:
    """Every play the turn valued in full, by its line: its points now."""
    offered = [(choice.action, choice.value, choice.terms), *choice.alternatives]
    return {a.line(): t["score"] for a, _, t in offered if isinstance(a, Play)}


def test_a_180_point_play_is_searched_again_and_offered(enable: Lexicon) -> None:
    plays = valued_plays(decide(enable, PlannerConfig(fixed_share=0.3)))
    assert plays.get("PLAY 0 1 V PEACH") == 180.0


def test_picking_by_the_sum_left_it_out(enable: Lexicon) -> None:
    plays = valued_plays(decide(enable, PlannerConfig(fixed_share=0.3, preselect_max=False)))
    assert "PLAY 0 1 V PEACH" not in plays
    assert all(points < 150 for points in plays.values())
