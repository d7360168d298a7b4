"""Player names -> constructors; the default is the strongest player."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scrabble.wordgame.lexicons import PlayerLexicon
from scrabble.wordgame.referee import Player

Settings = dict[str, str]


def _greedy(lexicon: PlayerLexicon, fixed_effort: bool, config: Any) -> Player:
    from scrabble.wordgame.players.greedy import GreedyPlayer

    return GreedyPlayer(lexicon)


def _prospect(lexicon: PlayerLexicon, fixed_effort: bool, config: Any) -> Player:
    from scrabble.wordgame.players.prospect import ProspectPlayer

    return ProspectPlayer(lexicon, fixed_effort, config)


def _planner(lexicon: PlayerLexicon, fixed_effort: bool, config: Any) -> Player:
    from scrabble.wordgame.players.planner import PlannerPlayer

    return PlannerPlayer(lexicon, fixed_effort, config)


def configured(config: Any, settings: Settings) -> Any:
    """A config dataclass with ``name=value`` overrides (tuning runs)."""
    for key, text in settings.items():
        if not hasattr(config, key):
            raise KeyError(f"unknown setting {key!r} for {type(config).__name__}")
        current = getattr(config, key)
        kind = type(current)
        value: Any
        try:
            value = _flag(text) if kind is bool else kind(text)
        except ValueError:
            expected = {int: "a whole number", float: "a number", bool: "true or false"}
            raise ValueError(
                f"setting {key!r}: {text!r} is not {expected.get(kind, kind.__name__)}"
            ) from None
        setattr(config, key, value)
    return config


def _flag(text: str) -> bool:
    word = text.lower()
    if word in ("1", "true", "yes"):
        return True
    if word in ("0", "false", "no"):
        return False
    raise ValueError(text)


def player_config(name: str, settings: Settings) -> Any:
    """The named player's config with the ``name=value`` overrides (None for
    ``greedy``, which has nothing to set and refuses any setting, so that a
    tuning run does not pass silently). ``KeyError`` for an unknown player or
    setting, ``ValueError`` for a value of the wrong type."""
    if name not in PLAYERS:
        raise KeyError(f"unknown player {name!r}; one of {', '.join(PLAYERS)}")
    if name == "greedy":
        if settings:
            raise KeyError(f"unknown setting {next(iter(settings))!r}: greedy has no settings")
        return None
    if name == "prospect":
        from scrabble.wordgame.players.prospect import ProspectConfig

        return configured(ProspectConfig(), settings)
    from scrabble.wordgame.players.planner import PlannerConfig

    return configured(PlannerConfig(), settings)


def check_settings(name: str, settings: Settings) -> None:
    """Refuse, before any case runs, what ``make_player`` would refuse."""
    player_config(name, settings)


PLAYERS: dict[str, Callable[[PlayerLexicon, bool, Any], Player]] = {
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
    config = player_config(name, settings or {})
    return PLAYERS[name](lexicon, fixed_effort, config)
