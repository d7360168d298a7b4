"""``greedy``: the highest-scoring play each turn; with no play, discard the
whole hand while the queue has tiles, else stop."""

from __future__ import annotations

from scrabble.lexicon.loaded import Lexicon
from scrabble.movegen import generate_trie
from scrabble.wordgame.actions import Discard, Stop
from scrabble.wordgame.players.board import OwnBoard
from scrabble.wordgame.referee import GameSetup, TurnView


class GreedyPlayer:
    name = "greedy"

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self.own: OwnBoard | None = None

    def start(self, setup: GameSetup) -> None:
        self.own = OwnBoard(setup)

    def act(self, turn: TurnView) -> str:
        assert self.own is not None
        moves = generate_trie(self.own.position(turn.hand), self.lexicon)
        if len(moves):
            return self.own.play(moves, int(moves.order(1)[0])).line()
        if turn.queue_left > 0:
            return Discard(turn.hand).line()
        return Stop().line()
