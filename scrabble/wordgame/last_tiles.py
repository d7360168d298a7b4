"""The last tiles: once the queue left is all visible, the rest is certain.

With ``queue_left <= X`` every tile still to come is known, so what the game
can still score is a deterministic search over sequences of plays: each play
draws the next tiles of the known queue, and the game goes on until no play
fits. The search is best-first by score, ``widths[k]`` plays wide at depth k
and greedy below the last width, with transpositions merged (two plays in
either order leave the same board and, the same number of tiles drawn, the
same hand). A sequence it finds is one the player can really make, so its
value is a lower bound on what the position is worth; the player compares
its own choice with it by the same count and takes the better.

Discards are not searched (a discard in the last tiles pays D to draw a known
tile); the player's own discard is valued here by the same search after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scrabble.engines.trie_engine import TrieEngine
from scrabble.moves import MoveList, leave_of, place
from scrabble.notation import move_at
from scrabble.position import Position
from scrabble.rules import Rules
from scrabble.tiles import ACROSS, tile_index
from scrabble.wordgame.actions import Play

Hand = tuple[int, ...]  # 27 tile counts (the blank's always 0 here)
WIDTHS = (8, 4, 2)


@dataclass
class LastTiles:
    """One search: the engine, the rules and the known queue (after the hand)."""

    engine: TrieEngine
    rules: Rules
    queue: str
    widths: tuple[int, ...] = WIDTHS
    nodes: int = 0
    _memo: dict[tuple[bytes, Hand, int, int], int] = field(default_factory=dict)

    def moves(self, board: npt.NDArray[np.uint8], hand: Hand) -> MoveList:
        self.nodes += 1
        rack = np.array(hand, dtype=np.uint8)
        return self.engine.generate(Position(board=board, rack=rack, rules=self.rules))

    def after(
        self, board: npt.NDArray[np.uint8], hand: Hand, drawn: int, moves: MoveList, i: int
    ) -> tuple[npt.NDArray[np.uint8], Hand, int]:
        """Board, hand and tiles drawn so far after move i and its refill."""
        leave = leave_of(np.array(hand), moves, i)
        used = int(sum(hand)) - int(leave.sum())
        board_after = place(board, moves, i, self.rules.size)
        drawn_after = drawn + min(used, len(self.queue) - drawn)
        return board_after, refill(leave, self.queue, drawn, used), drawn_after

    def value(self, board: npt.NDArray[np.uint8], hand: Hand, drawn: int, depth: int = 0) -> int:
        """The most the plays from here score (0 when none fits)."""
        # the depth is in the key because the width is: a value found wider
        # up the tree is one ``principal`` could not replay from deeper down
        key = (board.tobytes(), hand, drawn, min(depth, len(self.widths)))
        known = self._memo.get(key)
        if known is not None:
            return known
        moves = self.moves(board, hand)
        best = 0
        if len(moves):
            width = self.widths[depth] if depth < len(self.widths) else 1
            scores = moves.scores
            for i in moves.order(width).tolist():
                board2, hand2, drawn2 = self.after(board, hand, drawn, moves, i)
                best = max(best, int(scores[i]) + self.value(board2, hand2, drawn2, depth + 1))
        self._memo[key] = best
        return best

    def best_play(self, board: npt.NDArray[np.uint8], hand: Hand) -> tuple[int, MoveList, int]:
        """(value, the move list, the index of the first play of the best
        sequence, -1 if no play fits) from the root."""
        moves = self.moves(board, hand)
        best, best_i = 0, -1
        if len(moves):
            scores = moves.scores
            for i in moves.order(self.widths[0] if self.widths else 1).tolist():
                board2, hand2, drawn2 = self.after(board, hand, 0, moves, i)
                v = int(scores[i]) + self.value(board2, hand2, drawn2, 1)
                if v > best or best_i < 0:
                    best, best_i = v, i
        return best, moves, best_i

    def principal(self, board: npt.NDArray[np.uint8], hand: Hand) -> list[Play]:
        """The sequence of plays ``best_play``'s value counts, in order."""
        line: list[Play] = []
        drawn, depth = 0, 0
        while True:
            moves = self.moves(board, hand)
            if not len(moves):
                return line
            width = self.widths[depth] if depth < len(self.widths) else 1
            best, pick = -1, None
            for i in moves.order(width).tolist():
                after = self.after(board, hand, drawn, moves, i)
                v = int(moves.scores[i]) + self.value(*after, depth + 1)
                if v > best:
                    best, pick = v, (i, after)
            assert pick is not None
            m = move_at(moves, pick[0])
            line.append(Play(m.row, m.col, m.direction == ACROSS, m.word))
            board, hand, drawn = pick[1]
            depth += 1


def refill(leave: npt.NDArray[np.integer], queue: str, drawn: int, used: int) -> Hand:
    """The hand after a play that used ``used`` tiles: the leave plus the next
    tiles of the queue."""
    out = np.array(leave, dtype=np.int64)
    for ch in queue[drawn : drawn + used]:
        out[tile_index(ch)] += 1
    return tuple(int(c) for c in out)


def hand_counts(letters: str) -> Hand:
    out = [0] * 27
    for ch in letters:
        out[tile_index(ch)] += 1
    return tuple(out)
