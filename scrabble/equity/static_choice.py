"""The static player's choice: the best move by score + leave value, or an exchange.

``choose_action`` is the one rule (shared by every static player); a player is
a function ``(position, lexicon, rack_values, radix, bag_count) -> Choice``.
``kernel_best`` is the player leave generation uses: the compiled best-move
path (``equity.static``: static equity evaluated in the move generator, shadow
pruning). ``standin_best`` makes the same choice from the full move list (each
move's leave read from ``rack_values`` by its mixed-radix index); the tests
check the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.leave_table import LeaveTable
from scrabble.equity.static import RackValues, StaticEquity
from scrabble.lexicon.loaded import Lexicon, signature_table
from scrabble.moves import MoveList, leaves_of
from scrabble.position import Position
from scrabble.rules import STANDARD

POINT = 1000  # millipoints


@dataclass(frozen=True)
class Choice:
    kind: str  # "play" | "exchange" | "pass"
    equity: int  # millipoints: score + value of the tiles kept (exchange: 0 + kept; pass: 0)
    moves: MoveList | None = None  # play: the list the move is in
    index: int = -1  # play: its row in ``moves``
    keep: np.ndarray | None = None  # exchange: the 27 counts kept


Player = Callable[[Position, Lexicon, np.ndarray, np.ndarray, int], Choice]


def choose_action(play_equity: int | None, exchange_equity: int | None) -> str:
    """Play the best placement unless the best exchange (offered only when the
    bag holds a full rack) is strictly better; with neither, pass."""
    if exchange_equity is not None and (play_equity is None or exchange_equity > play_equity):
        return "exchange"
    return "play" if play_equity is not None else "pass"


def digits_of(index: int, rack: np.ndarray, radix: np.ndarray) -> np.ndarray:
    """The 27 counts of the sub-multiset of ``rack`` at mixed-radix ``index``."""
    rack64 = np.asarray(rack, dtype=np.int64)
    held = radix > 0
    out = np.zeros(27, dtype=np.int64)
    out[held] = (index // radix[held]) % (rack64[held] + 1)
    return out


def best_exchange(rack_values: np.ndarray) -> int:
    """Mixed-radix index of the best keep that throws back at least one tile (the
    whole rack is the last index); the first of equals, so it is deterministic."""
    return int(np.argmax(rack_values[:-1]))


def standin_best(
    position: Position, lexicon: Lexicon, rack_values: np.ndarray, radix: np.ndarray, bag_count: int
) -> Choice:
    rack = np.asarray(position.rack, dtype=np.int64)
    moves = TrieEngine(lexicon).generate(position)
    play_equity: int | None = None
    best = -1
    if len(moves):
        equity = moves.scores.astype(np.int64) * POINT + rack_values[leaves_of(rack, moves) @ radix]
        best = int(moves.order(1, primary=equity)[0])
        play_equity = int(equity[best])
    keep_index = -1
    exchange_equity: int | None = None
    if bag_count >= position.rules.rack_size and len(rack_values) > 1:
        keep_index = best_exchange(rack_values)
        exchange_equity = int(rack_values[keep_index])
    action = choose_action(play_equity, exchange_equity)
    if action == "play":
        assert play_equity is not None
        return Choice("play", play_equity, moves=moves, index=best)
    if action == "exchange":
        assert exchange_equity is not None
        return Choice("exchange", exchange_equity, keep=digits_of(keep_index, rack, radix))
    return Choice("pass", 0)


def kernel_best(position: Position, lexicon: Lexicon, rack_values: np.ndarray,
                radix: np.ndarray, bag_count: int) -> Choice:  # fmt: skip
    """``standin_best``'s choice from the compiled best-move path."""
    static = _static_for(lexicon)
    worth = RackValues(np.asarray(rack_values, dtype=np.int64), np.asarray(radix, dtype=np.int64))
    found = static.best(position, lexicon.trie, 1, worth, opening_penalty=False)
    play_equity = int(found.equity[0]) if len(found.moves) else None
    rack = np.asarray(position.rack, dtype=np.int64)
    keep_index = -1
    exchange_equity: int | None = None
    if bag_count >= position.rules.rack_size and len(rack_values) > 1:
        keep_index = best_exchange(rack_values)
        exchange_equity = int(rack_values[keep_index])
    action = choose_action(play_equity, exchange_equity)
    if action == "play":
        assert play_equity is not None
        return Choice("play", play_equity, moves=found.moves, index=0)
    if action == "exchange":
        assert exchange_equity is not None
        return Choice("exchange", exchange_equity, keep=digits_of(keep_index, rack, radix))
    return Choice("pass", 0)


_STATIC: dict[int, tuple[Lexicon, StaticEquity]] = {}


def _static_for(lexicon: Lexicon) -> StaticEquity:
    entry = _STATIC.get(id(lexicon))
    if entry is None or entry[0] is not lexicon:
        # the leave values come with each call; the table here is only a placeholder
        placeholder = LeaveTable.linear(STANDARD.counts, STANDARD.rack_size)
        entry = (lexicon, StaticEquity(placeholder, signature_table(lexicon)))
        _STATIC[id(lexicon)] = entry
    return entry[1]
