"""Static self-play that records what leave generation needs.

Both sides play the static player (``static_choice``) with the same leave table.
For every turn taken with a full rack and tiles left in the bag, the record is
the rack (its position in the catalog of full racks) and the best move's equity.
A game stops once the bag is empty: no later turn can be recorded, so playing
the endgame out would change nothing but the time spent.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scrabble.equity.leave_index import LeaveIndex
from scrabble.equity.leave_table import LeaveTable
from scrabble.equity.static_choice import Choice, Player, kernel_best
from scrabble.game import Game
from scrabble.lexicon.loaded import Lexicon
from scrabble.rules import Rules

PLAYER: Player = kernel_best  # the compiled static path (standin_best: the same, slowly)


def game_seed(seed: int, generation: int, game: int) -> int:
    """A game's seed: a fixed function of the run's seed, the generation and the game's number,
    so a generation's records do not depend on how its games are split over processes."""
    return (seed * 1_000 + generation) * 1_000_000_000 + game


@dataclass(frozen=True)
class Records:
    rack_ids: np.ndarray  # int64: catalog position of the full rack held
    equities: np.ndarray  # int64: that turn's best equity, millipoints
    games: int
    turns: int


def apply(game: Game, choice: Choice) -> None:
    if choice.kind == "play":
        assert choice.moves is not None
        game.play_move(choice.moves, choice.index)
    elif choice.kind == "exchange":
        assert choice.keep is not None
        game.exchange(game.racks[game.to_move].astype(np.int64) - choice.keep)
    else:
        game.pass_turn()


def play_games(
    table: LeaveTable,
    racks: LeaveIndex,
    lexicon: Lexicon,
    rules: Rules,
    seeds: list[int],
    player: Player = PLAYER,
) -> Records:
    """Play one game per seed until its bag is empty; return the records."""
    rack_ids: list[int] = []
    equities: list[int] = []
    turns = 0
    for seed in seeds:
        game = Game.new(seed, rules)
        while not game.over and game.bag_count > 0:
            rack = game.racks[game.to_move].astype(np.int64)
            values, radix = table.rack_values(rack)
            choice = player(game.position(), lexicon, values, radix, game.bag_count)
            if int(rack.sum()) == rules.rack_size:
                rack_ids.append(racks.rank(rack))
                equities.append(choice.equity)
            apply(game, choice)
            turns += 1
    return Records(
        rack_ids=np.array(rack_ids, dtype=np.int64),
        equities=np.array(equities, dtype=np.int64),
        games=len(seeds),
        turns=turns,
    )
