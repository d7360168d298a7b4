"""A slow, obviously-correct endgame value: plain minimax over the whole rest
of the game, played out by ``scrabble.game.Game`` itself.

No pruning, no transposition table, no move ordering, no shortcut rule for
passes: every legal play (``scrabble.movegen.generate``) and the pass are tried
at every turn until the game object says it is over, so the end rules are
exactly the game model's (going out, ``SCORELESS_LIMIT`` scoreless turns).
Only for tiny endgames: the tree is searched in full.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.game import Game
from scrabble.lexicon.loaded import Lexicon
from scrabble.position import Position


def endgame_game(position: Position, opponent: np.ndarray, scoreless: int = 0) -> Game:
    """A game with an empty bag, ``position``'s mover (player 0) to move."""
    return Game(
        rules=position.rules,
        seed=0,
        bag=[],
        board=position.board.copy(),
        racks=[position.rack.astype(np.int32), np.asarray(opponent, dtype=np.int32)],
        scoreless=scoreless,
    )


def _copy(game: Game) -> Game:
    return replace(
        game,
        board=game.board.copy(),
        racks=[r.copy() for r in game.racks],
        scores=list(game.scores),
        adjustments=list(game.adjustments),
        history=[],
    )


def _final_spread(game: Game, lexicon: Lexicon, player: int) -> int:
    """``player``'s final score minus the other's, both playing best from here."""
    if game.over:
        return game.scores[player] - game.scores[1 - player]
    mover = game.to_move
    moves = TrieEngine(lexicon).generate(game.position())
    best: int | None = None
    for i in range(len(moves) + 1):
        child = _copy(game)
        if i < len(moves):
            child.play_move(moves, i)
        else:
            child.pass_turn()
        value = _final_spread(child, lexicon, mover)
        best = value if best is None else max(best, value)
    assert best is not None
    return best if mover == player else -best


def root_values(
    position: Position,
    opponent: np.ndarray,
    lexicon: Lexicon,
    scoreless: int = 0,
    only: set[int] | None = None,
) -> dict[int, int]:
    """For each root move (its MoveList row, -1 for the pass; with ``only``,
    just those): the spread change from now to the end of the game, from the
    mover's view, under best play."""
    game = endgame_game(position, opponent, scoreless)
    moves = TrieEngine(lexicon).generate(position)
    out = {}
    for i in range(len(moves) + 1):
        index = i if i < len(moves) else -1
        if only is not None and index not in only:
            continue
        child = _copy(game)
        if i < len(moves):
            child.play_move(moves, i)
        else:
            child.pass_turn()
        out[index] = _final_spread(child, lexicon, 0)
    return out
