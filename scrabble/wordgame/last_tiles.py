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

import itertools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scrabble.engines.trie_engine import TrieEngine
from scrabble.moves import MoveList, leave_of, place
from scrabble.position import Position
from scrabble.rules import Rules
from scrabble.tiles import rack_counts
from scrabble.wordgame.actions import Play, play_of

Hand = tuple[int, ...]  # 27 tile counts (the blank's always 0 here)
State = tuple[npt.NDArray[np.uint8], Hand, int]  # board, hand, tiles drawn
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
    ) -> State:
        """Board, hand and tiles drawn so far after move i and its refill."""
        leave = leave_of(np.array(hand), moves, i)
        used = int(sum(hand)) - int(leave.sum())
        board_after = place(board, moves, i, self.rules.size)
        drawn_after = drawn + min(used, len(self.queue) - drawn)
        return board_after, refill(leave, self.queue, drawn, used), drawn_after

    def width(self, depth: int) -> int:
        """Plays tried at this depth: greedy below the last width."""
        return self.widths[depth] if depth < len(self.widths) else 1

    def options(
        self, board: npt.NDArray[np.uint8], hand: Hand, drawn: int, depth: int
    ) -> tuple[MoveList, list[tuple[int, int, State]]]:
        """The move list and, for the plays tried, (the most that play and
        the plays after it score, its index, the state after it), by score."""
        moves = self.moves(board, hand)
        tried = []
        if len(moves):
            for i in moves.order(self.width(depth)).tolist():
                after = self.after(board, hand, drawn, moves, i)
                tried.append((int(moves.scores[i]) + self.value(*after, depth + 1), i, after))
        return moves, tried

    def value(self, board: npt.NDArray[np.uint8], hand: Hand, drawn: int, depth: int = 0) -> int:
        """The most the plays from here score (0 when none fits)."""
        # the depth is in the key because the width is: a value found wider
        # up the tree is one ``principal`` could not replay from deeper down
        key = (board.tobytes(), hand, drawn, min(depth, len(self.widths)))
        known = self._memo.get(key)
        if known is None:
            _, tried = self.options(board, hand, drawn, depth)
            known = self._memo[key] = max((total for total, _, _ in tried), default=0)
        return known

    def best_play(self, board: npt.NDArray[np.uint8], hand: Hand) -> tuple[int, MoveList, int]:
        """(value, the move list, the index of the first play of the best
        sequence, -1 if no play fits) from the root."""
        moves, tried = self.options(board, hand, 0, 0)
        if not tried:
            return 0, moves, -1
        total, i, _ = max(tried, key=lambda option: option[0])  # the first of equals
        return total, moves, i

    def principal(self, board: npt.NDArray[np.uint8], hand: Hand) -> list[Play]:
        """The sequence of plays ``best_play``'s value counts, in order."""
        line: list[Play] = []
        state: State = (board, hand, 0)
        for depth in itertools.count():
            moves, tried = self.options(*state, depth)
            if not tried:
                return line
            _, i, after = max(tried, key=lambda option: option[0])
            line.append(play_of(moves, i))
            state = after
        raise AssertionError("unreachable")


def refill(leave: npt.NDArray[np.integer], queue: str, drawn: int, used: int) -> Hand:
    """The hand after a play (or a discard) that used ``used`` tiles: the
    leave plus the next tiles of the queue."""
    out = np.asarray(leave, dtype=np.int64) + rack_counts(queue[drawn : drawn + used])
    return tuple(int(c) for c in out)


def hand_counts(letters: str) -> Hand:
    return tuple(int(c) for c in rack_counts(letters))
