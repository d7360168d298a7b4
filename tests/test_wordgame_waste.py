"""A word multiplier is not spent on a word of few letters (tenth round).

The waste penalty charged only a product spent under half of what its square
could still make. A play that used a square's whole product on a short, cheap
word paid nothing: on seed 522 (11 x 11, T 6, few word multipliers) the first
move was EGER down column 5 over a D and a T, 42 points for a x6, 7 points of
letters a unit of product where a whole hand's word makes about 14. Now the
shortfall under ``sum_per_tile`` x (T + 1) a unit of product (at most
``sum_cap`` of it) costs ``sum_weight`` x the shortfall x that product.
"""

from __future__ import annotations

import numpy as np

from scrabble.wordgame import cases
from scrabble.wordgame.actions import Play
from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer
from scrabble.wordgame.players.prospect import ProspectPlayer
from scrabble.wordgame.referee import Referee
from scrabble.wordgame.value import waste_penalties

N = 5
# square 0 a double word, square 1 a triple word, the rest plain
WORD_MULT = np.array([2, 3] + [1] * (N * N - 2), dtype=np.int64)
NO_WINDOWS = np.zeros((N, N), dtype=np.float64)  # the product term charges nothing
TILE_SQ = np.array([[0, 1], [0, 1], [2, 3]], dtype=np.int64)  # x6, x6, plain
TILE_N = np.array([2, 2, 2], dtype=np.int64)
SCORES = np.array([42.0, 90.0, 2.0])  # letters 7 and 15 a unit of product; no product


def penalties(weight: float, cap: float, decay: float = 1.0) -> list[float]:
    pen = waste_penalties(
        TILE_SQ, TILE_N, WORD_MULT, NO_WINDOWS, decay, 3.0, SCORES, 14.0, weight, cap
    )
    return [float(x) for x in pen]


def test_the_letter_shortfall_under_a_product_is_charged() -> None:
    # 42 points on a x6: (14 - 7) x 6 = 42, + 3 a tile
    assert penalties(1.0, 1e9) == [48.0, 6.0, 6.0]


def test_the_product_counted_is_capped_and_the_weight_and_fade_apply() -> None:
    assert penalties(1.0, 4.0) == [7.0 * 4 + 6.0, 6.0, 6.0]
    assert penalties(0.5, 1e9) == [21.0 + 6.0, 6.0, 6.0]
    assert penalties(1.0, 1e9, decay=0.5) == [21.0 + 6.0, 6.0, 6.0]
    assert penalties(0.0, 1e9) == [6.0, 6.0, 6.0]


EGER = Play(row=2, col=5, horizontal=False, word="EGER")


def first_choice(enable, sum_weight: float):
    case = cases.generate(522, cases.letter_probabilities(enable.words))
    player = PlannerPlayer(enable, True, PlannerConfig(fixed_share=0.3, sum_weight=sum_weight))
    referee = Referee(case, enable.contains)
    player.start(referee.setup())
    return player.decide(referee.turn(0))


def value_of(choice, play: Play) -> float | None:
    return next((value for action, value, _ in choice.alternatives if action == play), None)


def test_the_x6_of_seed_522_is_not_spent_on_eger(enable) -> None:
    chosen = first_choice(enable, PlannerConfig().sum_weight).action
    assert isinstance(chosen, Play)
    assert chosen != EGER
    assert chosen.col != 5 or chosen.horizontal  # column 5's D and T are kept


def test_eger_pays_for_its_x6(enable) -> None:
    # since a prospect's multipliers spent under a play's tiles are taken off
    # (test_wordgame_spent_multipliers) EGER is no longer the first move even
    # uncharged; the charge still costs it its letters' shortfall on the x6
    free = value_of(first_choice(enable, 0.0), EGER)
    assert free is not None  # among the plays searched again
    charged = value_of(first_choice(enable, PlannerConfig().sum_weight), EGER)
    # (14 - 7) x 6 = 42 points less, or out of the best plays altogether
    assert charged is None or charged <= free - 40


def test_the_planner_fades_the_waste_penalty_over_the_last_half(enable) -> None:
    # twenty-sixth round: fading over the last half of the tiles (not the
    # prospect player's last 30 %) gained on every set measured
    case = cases.generate(522, cases.letter_probabilities(enable.words))
    squares = case.n * case.n
    planner = PlannerPlayer(enable, True)
    prospect = ProspectPlayer(enable, True)
    for player in (planner, prospect):
        player.start(Referee(case, enable.contains).setup())
    # with 40 % of the tiles left the prospect player still charges in full
    assert prospect._waste_weight(round(0.4 * squares)) == 1.0
    assert abs(planner._waste_weight(round(0.4 * squares)) - 0.8) < 0.02
    # both fade to nothing with the tiles
    assert planner._waste_weight(round(0.25 * squares)) < prospect._waste_weight(
        round(0.25 * squares)
    )
    assert planner._waste_weight(0) == prospect._waste_weight(0) == 0.0
