"""A play in hand is made, not waited for again (seeds 681 and 543).

At turn 100 of seed 681 (16 x 16, T 7, D 3) the hand FHCISAU makes FIASCHI
down column 0 through the board's I, for 342. Each discard of a spare tile
kept those letters, and a discard was valued -D plus the best prospect of the
hand it keeps: FIASCHI itself, certain, at its full score, none of the waste
and place terms the same play made now is charged. So the player discarded
U, then the next spare tile, for 170 turns (110 discards, 1,194 points
against greedy's 1,322) and played FIASCHI at the very end.
"""

from __future__ import annotations

import numpy as np
import pytest

from scrabble.position import parse_board
from scrabble.wordgame import cases
from scrabble.wordgame.actions import Discard, Play
from scrabble.wordgame.kit import counts26
from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer
from scrabble.wordgame.players.prospect import ProspectConfig, ProspectPlayer
from scrabble.wordgame.referee import Referee, TurnView
from scrabble.wordgame.rows import drop_thrown_back

BOARD_AT_TURN_100 = [
    "......HATER.....",
    "...CORER.NE.....",
    "....PETS........",
    "..BITTS.........",
    "..A.I...........",
    "INTRON..........",
    "..TEN...........",
    "...ES...........",
    "..US............",
    "..N.............",
    *["." * 16] * 6,
]
TURN_100 = TurnView(elapsed_ms=0, score=428, queue_left=129, hand="FHCISAU", visible="")
FIASCHI = Play(row=4, col=0, horizontal=False, word="FIASCHI")


@pytest.fixture(scope="module")
def seed_681(enable):
    return cases.generate(681, cases.letter_probabilities(enable.words))


def chooser_for(player: str, enable, case, board: list[str]) -> PlannerPlayer | ProspectPlayer:
    """A player (fixed effort) in the middle of ``case``, on ``board``."""
    chooser: PlannerPlayer | ProspectPlayer
    if player == "planner":
        chooser = PlannerPlayer(enable, True, PlannerConfig(fixed_share=0.3))
    else:
        chooser = ProspectPlayer(enable, True, ProspectConfig(fixed_share=0.3))
    chooser.start(Referee(case, enable.contains).setup())
    chooser.set_board(parse_board(board, chooser.kit.rules))
    return chooser


@pytest.mark.parametrize("player", ["planner", "prospect"])
def test_no_discard_counts_the_play_its_kept_hand_makes_now(enable, seed_681, player) -> None:
    choice = chooser_for(player, enable, seed_681, BOARD_AT_TURN_100).decide(TURN_100)

    assert isinstance(choice.action, Play)
    discards = [(v, terms) for a, v, terms in choice.alternatives if isinstance(a, Discard)]
    assert discards
    for value, terms in discards:
        # what a discard keeps may be worth waiting for (a chance below 1),
        # never at the full score of the play it could have made at once
        assert terms["prospect"] < 342
        assert value < choice.value


def test_the_planner_makes_the_play_in_hand(enable, seed_681) -> None:
    choice = chooser_for("planner", enable, seed_681, BOARD_AT_TURN_100).decide(TURN_100)

    assert choice.action == FIASCHI
    assert choice.terms["score"] == 342


# Seed 543 (20 x 20, T 6, D 3) at turn 70: WHACKED across row 7 through the
# board's E, for 1,800. A hunt for the slot is valued at its members' scores;
# the same play made now pays the waste and place terms (about 100 here), so
# discarding the A to draw another looked better than playing, every time an
# A came back (it played WHACKED 50 turns later, with the same hand).
BOARD_543 = [
    *["." * 20] * 7,
    "." * 16 + "E...",
    "." * 16 + "N...",
    "." * 16 + "G...",
    "." * 16 + "SENE",
    *["." * 20] * 9,
]
TURN_543 = TurnView(elapsed_ms=0, score=-180, queue_left=316, hand="KHWCDA", visible="")


def test_a_hunt_is_priced_as_the_play_in_hand_so_the_play_is_made(enable) -> None:
    case = cases.generate(543, cases.letter_probabilities(enable.words))
    choice = chooser_for("planner", enable, case, BOARD_543).decide(TURN_543)

    assert choice.action == Play(row=7, col=11, horizontal=True, word="WHACKED")
    assert choice.terms["score"] == 1800


# Seed 571 (12 x 12, T 7, D 4) at turn 9: ADJACENT across row 4 through the
# board's A, for 624, with the hand TCDJNAE. The kept hand of a discard of E
# (or of the A, N, T) no longer makes it, so the seventh round's rule let the
# discard count ADJACENT as a prospect: certain but for the one letter thrown
# back, 98 % within 32 draws, at its full score and none of its charges. The
# player threw the E back and drew one tile a turn for 50 turns (200 points of
# discards) before an E came again.
BOARD_571 = [
    *["." * 12] * 3,
    "......S.....",
    "......A.....",
    "......E.....",
    *["." * 12] * 6,
]
TURN_571 = TurnView(elapsed_ms=0, score=-21, queue_left=128, hand="TCDJNAE", visible="")


@pytest.mark.parametrize("player", ["planner", "prospect"])
def test_no_discard_counts_a_play_the_whole_hand_makes_now(enable, player) -> None:
    case = cases.generate(571, cases.letter_probabilities(enable.words))
    choice = chooser_for(player, enable, case, BOARD_571).decide(TURN_571)

    assert choice.action == Play(row=4, col=3, horizontal=True, word="ADJACENT")
    assert choice.terms["score"] == 624
    for action, _, terms in choice.alternatives:
        if isinstance(action, Discard):
            # ADJACENT counted would be 0.98 x 624; other words the keeps
            # wait for make up to about 330 here
            assert terms["prospect"] < 0.9 * 624


# Seed 640 (10 x 10, T 8, D 0) at turn 9: the hand CCROPCAI makes CAPRICCIO
# across row 7 through the board's I, for 138. A play of the hand's I (IS, for
# 2) counted CAPRICCIO among its leave's prospects: one letter short, 0.95
# within 32 draws, at its full score and none of the waste term (24) the
# play made now is charged, so IS (129) beat CAPRICCIO (125). The player threw
# the I back, made 2-8 point plays for 25 turns while it waited, and played
# CAPRICCIO at turn 34 (469 in all; 540 when it plays it at once).
BOARD_640 = [
    *["." * 10] * 6,
    ".....P....",
    ".....I....",
    ".....E....",
    ".....S....",
]
TURN_640 = TurnView(elapsed_ms=0, score=18, queue_left=80, hand="CCROPCAI", visible="R")
CAPRICCIO = Play(row=7, col=1, horizontal=True, word="CAPRICCIO")


def test_no_play_counts_a_play_in_hand_whose_letter_it_throws_back(enable) -> None:
    case = cases.generate(640, cases.letter_probabilities(enable.words))
    choice = chooser_for("planner", enable, case, BOARD_640).decide(TURN_640)

    assert choice.action == CAPRICCIO
    assert choice.terms["score"] == 138
    plays = [(a, terms) for a, _, terms in choice.alternatives if isinstance(a, Play)]
    for action, terms in plays:
        # every other play here puts an A, C, I, O, P or R of CAPRICCIO on
        # the board; what its leave waits for is worth much less
        assert terms["prospect"] < 0.9 * 138, action


@pytest.mark.parametrize(
    "leave,visible,kept",
    [
        ("CCROPCA", "", False),  # the I thrown back: CAPRICCIO waits for another
        ("CCROPCA", "I", True),  # an I among the visible tiles comes back for sure
        ("CCROPCAI", "", True),  # a leave that still holds every letter
        ("CCOPCAI", "R", True),
        ("", "", False),
    ],
)
def test_a_leave_keeps_a_play_made_now_only_while_it_holds_the_letters(
    leave: str, visible: str, kept: bool
) -> None:
    needs = counts26("CCROPCAI")[None, :]  # CAPRICCIO's new tiles
    haves = (counts26(leave) + counts26(visible))[None, :]
    vals = np.array([[131.0, 50.0]])  # rows: the play made now, another prospect
    drop_thrown_back(vals, haves, np.array([0]), needs)
    assert vals[0, 0] == (131.0 if kept else 0.0)
    assert vals[0, 1] == 50.0  # other rows untouched
