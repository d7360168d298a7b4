"""``greedy``: the highest-scoring play each turn; with no play, discard the
whole hand while the queue has tiles, else stop."""

from __future__ import annotations

from typing import cast

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.lexicon.loaded import Lexicon
from scrabble.wordgame.actions import Discard, Stop, play_of
from scrabble.wordgame.lexicons import PlayerLexicon
from scrabble.wordgame.players.board import OwnBoard
from scrabble.wordgame.players.choice import Choice
from scrabble.wordgame.referee import GameSetup, TurnView


class GreedyPlayer:
    name = "greedy"

    def __init__(self, lexicon: PlayerLexicon) -> None:
        self.lexicon = lexicon
        self.own: OwnBoard | None = None
        self.last_choice: Choice | None = None  # the last turn's decision (traces)
        self.engine = TrieEngine(cast(Lexicon, lexicon))  # the engine reads only .trie

    def start(self, setup: GameSetup) -> None:
        self.own = OwnBoard(setup)

    def set_board(self, board: np.ndarray) -> None:
        assert self.own is not None
        self.own.board = np.ascontiguousarray(board, dtype=np.uint8).copy()

    def decide(self, turn: TurnView, alternatives: int = 5) -> Choice:
        """The best play by score (the next best as alternatives), else the
        whole hand discarded while the queue has tiles, else stop."""
        assert self.own is not None
        moves = self.engine.generate(self.own.position(turn.hand))
        if len(moves):
            order = moves.order(1 + alternatives)
            plays = [(play_of(moves, int(i)), float(moves.scores[i])) for i in order]
            return Choice(
                plays[0][0],
                plays[0][1],
                {"score": plays[0][1]},
                [(a, v, {"score": v}) for a, v in plays[1:]],
            )
        if turn.queue_left > 0:
            return Choice(
                Discard(turn.hand),
                -float(self.own.setup.d),
                {"discard_cost": -float(self.own.setup.d)},
            )
        return Choice(Stop(), 0.0, {})

    def act(self, turn: TurnView) -> str:
        assert self.own is not None
        moves = self.engine.generate(self.own.position(turn.hand))
        if len(moves):
            best = int(moves.order(1)[0])
            score = float(moves.scores[best])
            play = self.own.play(moves, best)
            self.last_choice = Choice(play, score, {"score": score})
            return play.line()
        if turn.queue_left > 0:
            cost = -float(self.own.setup.d)
            self.last_choice = Choice(Discard(turn.hand), cost, {"discard_cost": cost})
            return Discard(turn.hand).line()
        self.last_choice = Choice(Stop(), 0.0, {})
        return Stop().line()
