"""A player's decision: the action, its value in named terms, and the next
best alternatives (for the API and for reports)."""

from __future__ import annotations

from dataclasses import dataclass, field

from scrabble.wordgame.actions import Discard, Play, Stop

Action = Play | Discard | Stop
Alternative = tuple[Action, float, dict[str, float]]


@dataclass
class Choice:
    action: Action
    value: float
    terms: dict[str, float] = field(default_factory=dict)
    alternatives: list[Alternative] = field(default_factory=list)
