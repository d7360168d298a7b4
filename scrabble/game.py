"""A whole game between two players: bag, racks, turns, end and final adjustments.

The bag is the rules' tile set shuffled once by ``random.Random(seed)``; tiles
are drawn from its front, so two games with the same seed see the same tile
order (self-play pairs rely on this: only the choices differ). Exchanged tiles
go back into the bag, which is then reshuffled by the game's own seeded RNG,
so a game is a fixed function of its seed and its players' choices.

End (standard rules): the bag is empty and the player who just played has no
tiles left -- each opponent loses the value of their rack and the player who
went out gains it; or six consecutive scoreless turns (passes, exchanges,
zero-score plays) -- each player loses the value of their own rack.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from scrabble.moves import SCORE, MoveList, leave_of, place
from scrabble.notation import move_at
from scrabble.position import Position
from scrabble.rules import STANDARD, Rules
from scrabble.tiles import EMPTY, rack_string

SCORELESS_LIMIT = 6


@dataclass(frozen=True)
class Turn:
    player: int
    kind: str  # "play" | "exchange" | "pass"
    rack: str  # rack before the turn
    notation: str  # move notation, or the tiles thrown back, or ""
    score: int
    total: int  # the player's score after the turn


class GameOver(RuntimeError):
    """An action was attempted after the game ended."""


@dataclass
class Game:
    rules: Rules
    seed: int
    bag: list[int]  # tile indices 0..26 (26 = blank); drawn from the front
    board: np.ndarray
    racks: list[np.ndarray]  # int32[27] counts per player
    scores: list[int] = field(default_factory=lambda: [0, 0])
    to_move: int = 0
    scoreless: int = 0
    over: bool = False
    out_player: int | None = None  # who went out, if anyone
    adjustments: list[int] = field(default_factory=lambda: [0, 0])
    history: list[Turn] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random, repr=False)

    @classmethod
    def new(cls, seed: int, rules: Rules = STANDARD) -> Game:
        rng = random.Random(seed)
        bag = [i for i in range(27) for _ in range(int(rules.counts[i]))]
        rng.shuffle(bag)
        game = cls(
            rules=rules,
            seed=seed,
            bag=bag,
            board=np.zeros(rules.size * rules.size, dtype=np.uint8),
            racks=[np.zeros(27, dtype=np.int32), np.zeros(27, dtype=np.int32)],
            rng=rng,
        )
        game._draw(0)
        game._draw(1)
        return game

    # -- state -----------------------------------------------------------------
    def position(self, player: int | None = None) -> Position:
        """The position as ``player`` (default: the player to move) sees it."""
        p = self.to_move if player is None else player
        return Position(
            board=self.board.copy(), rack=self.racks[p].astype(np.uint8), rules=self.rules
        )

    @property
    def bag_count(self) -> int:
        return len(self.bag)

    def can_exchange(self) -> bool:
        """Exchanges need a full rack's worth of tiles in the bag (a method, as callers use it)."""
        return len(self.bag) >= self.rules.rack_size

    def rack_value(self, player: int) -> int:
        return int((self.racks[player] * self.rules.values).sum())

    @property
    def spread(self) -> int:
        """Player 0's score minus player 1's."""
        return self.scores[0] - self.scores[1]

    # -- actions ---------------------------------------------------------------
    def play_move(self, moves: MoveList, i: int) -> Turn:
        """Play placement ``i`` of ``moves`` (generated for ``self.position()``)."""
        self._check_live()
        p = self.to_move
        before = rack_string(self.racks[p])
        left = leave_of(self.racks[p], moves, i)
        if (left < 0).any():
            raise ValueError("move uses tiles the player does not hold")
        board = place(self.board, moves, i, self.rules.size)
        self.board = board
        self.racks[p] = left
        score = int(moves.meta[i, SCORE])
        self.scores[p] += score
        self._draw(p)
        turn = Turn(p, "play", before, move_at(moves, i).notation, score, self.scores[p])
        self.history.append(turn)
        self.scoreless = 0 if score > 0 else self.scoreless + 1
        if not self.bag and self.racks[p].sum() == 0:
            self._finish(out=p)
        else:
            self._next()
        return turn

    def exchange(self, tiles: np.ndarray) -> Turn:
        """Throw back ``tiles`` (27 counts) and draw as many; needs a full-enough bag."""
        self._check_live()
        p = self.to_move
        tiles = np.asarray(tiles, dtype=np.int32)
        if not self.can_exchange():
            raise ValueError(
                f"exchange needs {self.rules.rack_size} tiles in the bag, it holds {len(self.bag)}"
            )
        if tiles.sum() == 0 or (tiles > self.racks[p]).any() or (tiles < 0).any():
            raise ValueError("exchange must throw back 1+ tiles the player holds")
        before = rack_string(self.racks[p])
        self.racks[p] = self.racks[p] - tiles
        self._draw(p)  # draw first, then return the tiles: never redraw your own
        self.bag.extend(i for i in range(27) for _ in range(int(tiles[i])))
        self.rng.shuffle(self.bag)
        turn = Turn(p, "exchange", before, rack_string(tiles), 0, self.scores[p])
        self.history.append(turn)
        self._scoreless_turn()
        return turn

    def pass_turn(self) -> Turn:
        self._check_live()
        p = self.to_move
        turn = Turn(p, "pass", rack_string(self.racks[p]), "", 0, self.scores[p])
        self.history.append(turn)
        self._scoreless_turn()
        return turn

    # -- internals -------------------------------------------------------------
    def _check_live(self) -> None:
        if self.over:
            raise GameOver("the game is over")

    def _draw(self, p: int) -> None:
        need = self.rules.rack_size - int(self.racks[p].sum())
        take, self.bag = self.bag[:need], self.bag[need:]
        for t in take:
            self.racks[p][t] += 1

    def _scoreless_turn(self) -> None:
        self.scoreless += 1
        if self.scoreless >= SCORELESS_LIMIT:
            self._finish(out=None)
        else:
            self._next()

    def _next(self) -> None:
        self.to_move = 1 - self.to_move

    def _finish(self, out: int | None) -> None:
        values = [self.rack_value(0), self.rack_value(1)]
        adj = [-values[0], -values[1]]
        if out is not None:
            adj[out] += values[1 - out]
        for p in (0, 1):
            self.scores[p] += adj[p]
        self.adjustments = adj
        self.out_player = out
        self.over = True

    def tiles_accounted(self) -> int:
        """Tiles on board + racks + bag: always the tile set's total (an invariant)."""
        return (
            int((self.board != EMPTY).sum())
            + int(self.racks[0].sum())
            + int(self.racks[1].sum())
            + len(self.bag)
        )
