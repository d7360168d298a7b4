"""The three actions of a WordGame turn and their one-line text form.

``PLAY <row> <col> <H|V> <WORD>`` (0-based square of the main word's first
letter; WORD the whole main word, board letters included), ``DISCARD
<LETTERS>`` and ``STOP``: upper-case ASCII, fields separated by single spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scrabble.moves import MoveList
from scrabble.notation import move_at
from scrabble.tiles import ACROSS

_PLAY = re.compile(r"PLAY (0|[1-9][0-9]?) (0|[1-9][0-9]?) ([HV]) ([A-Z]{1,20})")
_DISCARD = re.compile(r"DISCARD ([A-Z]{1,9})")


class ActionError(ValueError):
    """A reply that is not one of the three actions, spelled exactly."""


@dataclass(frozen=True)
class Play:
    row: int
    col: int
    horizontal: bool
    word: str

    def line(self) -> str:
        return f"PLAY {self.row} {self.col} {'H' if self.horizontal else 'V'} {self.word}"


@dataclass(frozen=True)
class Discard:
    letters: str

    def line(self) -> str:
        return f"DISCARD {self.letters}"


@dataclass(frozen=True)
class Stop:
    def line(self) -> str:
        return "STOP"


Action = Play | Discard | Stop


def play_of(moves: MoveList, i: int) -> Play:
    """Move i of the shared engine's list as the action that makes it."""
    move = move_at(moves, i)
    return Play(move.row, move.col, move.direction == ACROSS, move.word)


def parse_action(line: str) -> Action:
    if line == "STOP":
        return Stop()
    match = _PLAY.fullmatch(line)
    if match:
        return Play(int(match[1]), int(match[2]), match[3] == "H", match[4])
    match = _DISCARD.fullmatch(line)
    if match:
        return Discard(match[1])
    raise ActionError(f"unparsable reply {line[:60]!r}")
