"""The game model: seeded bag, draws, turns, end conditions and final adjustments."""

from __future__ import annotations

import numpy as np
import pytest

from scrabble.engines.trie_engine import TrieEngine
from scrabble.game import Game, GameOver
from scrabble.tiles import rack_counts


def greedy_game(lexicon, seed: int) -> Game:
    game = Game.new(seed)
    while not game.over:
        moves = TrieEngine(lexicon).generate(game.position())
        if len(moves):
            game.play_move(moves, int(moves.order(1)[0]))
        else:
            game.pass_turn()
        assert game.tiles_accounted() == 100
    return game


def test_new_game_deals_two_racks_from_a_seeded_bag():
    a, b = Game.new(5), Game.new(5)
    assert a.bag == b.bag and all((x == y).all() for x, y in zip(a.racks, b.racks, strict=True))
    assert a.racks[0].sum() == 7 and a.racks[1].sum() == 7 and a.bag_count == 86
    assert Game.new(6).bag != a.bag
    assert a.tiles_accounted() == 100


def test_greedy_game_is_deterministic_and_ends_correctly(lexicon):
    g1, g2 = greedy_game(lexicon, 11), greedy_game(lexicon, 11)
    assert [t.notation for t in g1.history] == [t.notation for t in g2.history]
    assert g1.scores == g2.scores
    plays = sum(t.score for t in g1.history)
    assert sum(g1.scores) == plays + sum(g1.adjustments)
    if g1.out_player is not None:
        p = g1.out_player
        assert g1.racks[p].sum() == 0 and g1.bag_count == 0
        assert g1.adjustments[p] == -g1.adjustments[1 - p] >= 0
    with pytest.raises(GameOver):
        g1.pass_turn()


def test_six_scoreless_turns_end_the_game_and_each_loses_own_rack():
    game = Game.new(3)
    v = [game.rack_value(0), game.rack_value(1)]
    for _ in range(6):
        assert not game.over
        game.pass_turn()
    assert game.over and game.out_player is None
    assert game.scores == [-v[0], -v[1]]


def test_exchange_draws_new_tiles_and_keeps_the_tile_count():
    game = Game.new(9)
    rack = game.racks[0].copy()
    throw = np.zeros(27, dtype=np.int32)
    first = int(np.nonzero(rack)[0][0])
    throw[first] = 1
    game.exchange(throw)
    assert game.racks[0].sum() == 7 and game.bag_count == 86 and game.tiles_accounted() == 100
    assert game.history[-1].kind == "exchange" and game.to_move == 1
    with pytest.raises(ValueError):
        game.exchange(rack_counts("ZZ").astype(np.int32))  # tiles player 1 does not hold


def test_exchange_refused_when_bag_has_fewer_than_seven():
    game = Game.new(2)
    game.bag = game.bag[:6]
    throw = np.zeros(27, dtype=np.int32)
    throw[int(np.nonzero(game.racks[0])[0][0])] = 1
    assert not game.can_exchange()
    with pytest.raises(ValueError):
        game.exchange(throw)


def test_equity_players_finish_endgames_without_the_unbounded_search(lexicon, monkeypatch):
    """Self-play has no wall-clock budget (a game must be the same on any
    machine), so the exact endgame search, bounded only by time, must not run
    there: it once stalled 10,000-pair runs for hours on a few endgames."""
    import scrabble.equity.terms as terms
    from scrabble.players import make_player

    def refuse(*args, **kwargs):
        raise AssertionError("self-play ran the exact endgame search")

    monkeypatch.setattr(terms, "solve", refuse)
    player = make_player("equity-cheap", TrieEngine(lexicon))
    game = Game.new(5)
    emptied = False
    while not game.over:
        emptied |= game.bag_count == 0
        player(game)
    assert emptied and game.tiles_accounted() == 100
