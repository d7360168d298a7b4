"""Move choosers for whole games: each takes its turn in a ``Game``.

- ``score``: the highest score; no placement: exchange everything (bag >= 7)
  or pass.
- ``static``: static equity (score + the exhaustive leave table + endgame and
  opening adjustments) evaluated in the move generator (``equity.static``);
  exchanges valued from the same table.
- ``linear``: ``static`` with the old linear leave model written out as a table.
- ``equity``: the API's equity (score + table leave + endgame adjustments +
  prospect - premium waste; prospects for the best 4 by the cheap terms), and
  the best exchange when it is worth more; no exact endgame search (it has no
  deterministic bound).
- ``equity-cheap``: ``equity`` without prospects; ``equity-adv``: with risk.

Every chooser uses the best-N kernel; the ``equity`` family ranks its
shortlist (the best few by the cheap terms, ``equity.shortlist``) with the
API's ``evaluate``, which chooses as the whole list would.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.actions import EXCHANGE, PLAY
from scrabble.equity.evaluate import evaluate
from scrabble.equity.leave_table import LeaveTable
from scrabble.equity.options import EquityOptions
from scrabble.equity.shortlist import applies, shortlist
from scrabble.equity.static import RackValues, StaticEquity, choose, mixed_radix
from scrabble.game import Game
from scrabble.rules import STANDARD

Player = Callable[[Game], None]


def static_player(static: StaticEquity, trie: TrieEngine) -> Player:
    def play(game: Game) -> None:
        choice = choose(static, game.position(), trie.lexicon.trie, game.can_exchange())
        if choice.kind == "play":
            assert choice.best is not None
            game.play_move(choice.best.moves, 0)
        elif choice.kind == "exchange":
            assert choice.keep is not None
            game.exchange(game.racks[game.to_move] - choice.keep.astype(np.int32))
        else:
            game.pass_turn()

    return play


def score_player(trie: TrieEngine) -> Player:
    """The best-N kernel with every keep worth 0 and no opening penalty: the
    highest score, with MoveList.order's tie-break."""
    scorer = StaticEquity.for_lexicon(
        trie.lexicon, LeaveTable.linear(STANDARD.counts, STANDARD.rack_size)
    )

    def play(game: Game) -> None:
        position = game.position()
        radix = mixed_radix(position.rack)
        combos = int(np.prod(position.rack.astype(np.int64) + 1))
        nothing = RackValues(np.zeros(combos, dtype=np.int64), radix)
        found = scorer.best(position, trie.lexicon.trie, 1, nothing, opening_penalty=False)
        if len(found.moves):
            game.play_move(found.moves, 0)
        elif game.can_exchange():
            game.exchange(game.racks[game.to_move].copy())
        else:
            game.pass_turn()

    return play


def equity_player(trie: TrieEngine, static: StaticEquity, options: EquityOptions) -> Player:
    """The API's ranking (every action, the expensive terms for the best few),
    playing its first."""

    def play(game: Game) -> None:
        position = game.position()
        # No wall-clock cut, so a game is the same on any machine; hence no
        # exact endgame search either: without a time budget it is unbounded
        # (some endgames ran for many minutes and stalled whole self-play
        # runs), so the empty bag gets the static adjustments, as ``static``'s.
        opts = dataclasses.replace(
            options, budget_ms=1e9, endgame_search=False,
            seed=game.seed * 1000 + len(game.history),
        )  # fmt: skip
        # the best few by the cheap terms from the kernel: the same choice as
        # from the whole list (``equity.shortlist``), without building it
        if applies(position, opts):
            moves = shortlist(position, static, trie.lexicon.trie, opts, 1).moves
        else:
            moves = trie.generate(position)
        ev = evaluate(position, moves, trie, static, opts, limit=1)
        best = int(ev.order[0])
        kind = ev.actions.kind(best)
        if kind == PLAY:
            game.play_move(moves, best)
        elif kind == EXCHANGE:
            game.exchange(game.racks[game.to_move] - ev.actions.kept[best].astype(np.int32))
        else:
            game.pass_turn()

    return play


CHOOSERS = ("score", "static", "linear", "equity", "equity-cheap", "equity-adv")


def make_player(name: str, trie: TrieEngine, options: EquityOptions | None = None,
                table: LeaveTable | None = None) -> Player:  # fmt: skip
    opts = options or EquityOptions()
    if name.startswith("equity"):
        static = StaticEquity.for_lexicon(trie.lexicon, table)
    if name == "score":
        return score_player(trie)
    if name == "static":
        return static_player(StaticEquity.for_lexicon(trie.lexicon, table), trie)
    if name == "linear":
        linear = LeaveTable.linear(STANDARD.counts, STANDARD.rack_size)
        return static_player(StaticEquity.for_lexicon(trie.lexicon, linear), trie)
    if name == "equity":
        return equity_player(trie, static, dataclasses.replace(opts, max_moves=4))
    if name == "equity-cheap":
        return equity_player(trie, static, dataclasses.replace(opts, prospects=False))
    if name == "equity-adv":
        return equity_player(trie, static, dataclasses.replace(opts, adversarial=True, max_moves=4))
    raise ValueError(f"unknown chooser {name!r}; known: {', '.join(CHOOSERS)}")
