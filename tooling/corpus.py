"""Seeded positions from self-played games, for benchmarks and differential tests.

Each game picks a random move among the ten best by score (so positions look
like real play without being all-greedy), exchanges or passes when it must, and
every turn's position is kept. Real racks hold blanks rarely, so a fixed share
of positions gets one or two blanks swapped in from the unseen pool, which
keeps each position a legal one (no tile beyond the set).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.game import Game
from scrabble.lexicon.loaded import Lexicon
from scrabble.position import Position
from scrabble.tiles import BLANK


@dataclass(frozen=True)
class Sample:
    game: int
    turn: int
    position: Position

    @property
    def blanks(self) -> int:
        return int(self.position.rack[BLANK])


def _with_blanks(position: Position, want: int, rng: random.Random) -> Position:
    """Swap rack tiles for unseen blanks until the rack holds ``want`` blanks."""
    rack = position.rack.copy()
    unseen = position.unseen()
    while rack[BLANK] < want and unseen[BLANK] > 0:
        letters = [i for i in range(26) if rack[i] > 0]
        if not letters:
            break
        out = rng.choice(letters)
        rack[out] -= 1
        rack[BLANK] += 1
        unseen[BLANK] -= 1
    return Position(board=position.board, rack=rack, rules=position.rules)


def self_play_positions(
    lexicon: Lexicon,
    count: int = 240,
    seed: int = 2026,
    one_blank: float = 0.15,
    two_blanks: float = 0.08,
) -> list[Sample]:
    rng = random.Random(seed)
    engine = TrieEngine(lexicon)
    samples: list[Sample] = []
    game_no = 0
    while len(samples) < count:
        game = Game.new(seed * 1000 + game_no)
        turn = 0
        while not game.over and len(samples) < count:
            position = game.position()
            moves = engine.generate(position)
            roll = rng.random()
            shown = position
            if roll < two_blanks:
                shown = _with_blanks(position, 2, rng)
            elif roll < two_blanks + one_blank:
                shown = _with_blanks(position, 1, rng)
            samples.append(Sample(game=game_no, turn=turn, position=shown))
            if len(moves):
                top = moves.order(10)
                game.play_move(moves, int(top[rng.randrange(len(top))]))
            elif game.can_exchange():
                rack = game.racks[game.to_move].copy()
                game.exchange(np.minimum(rack, 1).astype(rack.dtype))
            else:
                game.pass_turn()
            turn += 1
        game_no += 1
    return samples
