"""Player names -> constructors; the default is the strongest player."""

from __future__ import annotations

from collections.abc import Callable

from scrabble.lexicon.loaded import Lexicon
from scrabble.wordgame.referee import Player


def _greedy(lexicon: Lexicon, fixed_effort: bool) -> Player:
    from scrabble.wordgame.players.greedy import GreedyPlayer

    return GreedyPlayer(lexicon)


PLAYERS: dict[str, Callable[[Lexicon, bool], Player]] = {"greedy": _greedy}
DEFAULT = "greedy"


def make_player(name: str, lexicon: Lexicon, fixed_effort: bool = False) -> Player:
    """A fresh player. ``fixed_effort``: decisions independent of the clock (the
    same moves in-process and over the protocol, for tests)."""
    if name not in PLAYERS:
        raise KeyError(f"unknown player {name!r}; one of {', '.join(PLAYERS)}")
    return PLAYERS[name](lexicon, fixed_effort)
