"""Generate every legal placement of a position with a chosen engine."""

from __future__ import annotations

from scrabble.engines import trie as trie_engine
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import MoveList
from scrabble.position import Position

ENGINES = ("trie", "sqlite-hash", "memory-hash", "compact-numba", "prime-product")
_CAPACITY = 8192


def generate_trie(position: Position, lexicon: Lexicon) -> MoveList:
    rules = position.rules
    sr, sc = rules.start  # type: ignore[misc]
    capacity = _CAPACITY
    while True:
        words, meta, counter = trie_engine.generate(
            position.board, rules.size, rules.letter_mult, rules.word_mult, rules.values,
            position.rack, lexicon.trie.mask, lexicon.trie.first, sr, sc, rules.rack_size,
            rules.bingo_bonus, capacity)
        if counter[trie_engine.MOVES] <= capacity:
            break
        capacity = int(counter[trie_engine.MOVES])
    return MoveList(words=words, meta=meta,
                    stats={"anchors": int(counter[trie_engine.ANCHORS]),
                           "nodes_visited": int(counter[trie_engine.NODES])})


class EngineUnavailable(RuntimeError):
    """The engine name is valid but not available here (yet)."""


def generate(position: Position, lexicon: Lexicon, engine: str = "trie") -> MoveList:
    """All placements of ``position`` found by ``engine`` (in-process engines only;
    ``compact-numba`` goes through the worker, see the gateway)."""
    if engine == "trie":
        return generate_trie(position, lexicon)
    raise EngineUnavailable(f"engine {engine!r} is not implemented yet")
