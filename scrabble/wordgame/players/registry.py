"""Player names -> constructors; the default is the strongest player."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scrabble.wordgame.lexicons import PlayerLexicon
from scrabble.wordgame.referee import Player

Settings = dict[str, str]


def _greedy(lexicon: PlayerLexicon, fixed_effort: bool, settings: Settings) -> Player:
    from scrabble.wordgame.players.greedy import GreedyPlayer

    return GreedyPlayer(lexicon)


def _prospect(lexicon: PlayerLexicon, fixed_effort: bool, settings: Settings) -> Player:
    from scrabble.wordgame.players.prospect import ProspectConfig, ProspectPlayer

    return ProspectPlayer(lexicon, fixed_effort, configured(ProspectConfig(), settings))


def _planner(lexicon: PlayerLexicon, fixed_effort: bool, settings: Settings) -> Player:
    from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer

    return PlannerPlayer(lexicon, fixed_effort, configured(PlannerConfig(), settings))


def configured(config: Any, settings: Settings) -> Any:
    """A config dataclass with ``name=value`` overrides (tuning runs)."""
    for key, text in settings.items():
        if not hasattr(config, key):
            raise KeyError(f"unknown setting {key!r} for {type(config).__name__}")
        current = getattr(config, key)
        value: Any = (
            text.lower() in ("1", "true", "yes")
            if isinstance(current, bool)
            else type(current)(text)
        )
        setattr(config, key, value)
    return config


PLAYERS: dict[str, Callable[[PlayerLexicon, bool, Settings], Player]] = {
    "greedy": _greedy,
    "prospect": _prospect,
    "planner": _planner,
}
DEFAULT = "planner"


def make_player(
    name: str, lexicon: PlayerLexicon, fixed_effort: bool = False, settings: Settings | None = None
) -> Player:
    """A fresh player. ``fixed_effort``: decisions independent of the clock (the
    same moves in-process and over the protocol, for tests)."""
    if name not in PLAYERS:
        raise KeyError(f"unknown player {name!r}; one of {', '.join(PLAYERS)}")
    return PLAYERS[name](lexicon, fixed_effort, settings or {})
