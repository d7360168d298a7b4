"""The board as a player knows it: only its own plays change it."""

from __future__ import annotations

import numpy as np

from scrabble.moves import MoveList, place
from scrabble.notation import move_at
from scrabble.position import Position
from scrabble.rules import Rules
from scrabble.tiles import ACROSS, rack_counts
from scrabble.wordgame.actions import Play
from scrabble.wordgame.referee import GameSetup
from scrabble.wordgame.rules import wordgame_rules


class OwnBoard:
    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.rules: Rules = wordgame_rules(setup.n, setup.premiums, setup.t)
        self.board = np.zeros(setup.n * setup.n, dtype=np.uint8)
        self.tiles = 0

    def position(self, hand: str) -> Position:
        return Position(board=self.board, rack=rack_counts(hand), rules=self.rules)

    def play(self, moves: MoveList, i: int) -> Play:
        """Put move i on the board and return it as the action to send."""
        move = move_at(moves, i)
        self.board = place(self.board, moves, i, self.rules.size)
        self.tiles += len(move.tiles)
        return Play(move.row, move.col, move.direction == ACROSS, move.word)

    @property
    def fill(self) -> float:
        return self.tiles / (self.setup.n * self.setup.n)
