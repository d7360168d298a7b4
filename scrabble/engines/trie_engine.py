"""The ``trie`` engine: Appel-Jacobson over the lexicon's flat-array trie
(the kernel is ``engines.trie``)."""

from __future__ import annotations

from scrabble.engines import trie
from scrabble.engines.sink import ANCHORS, MOVES, NODES
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import MoveList, capacity_for
from scrabble.position import Position


class TrieEngine:
    name = "trie"

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon

    def generate(self, position: Position) -> MoveList:
        view = position.view(self.lexicon.trie)
        capacity = capacity_for(position.rack)
        while True:
            words, meta, counter = trie.generate(
                view, position.rack, self.lexicon.trie, position.rules.scoring, capacity
            )
            if counter[MOVES] <= capacity:
                break
            capacity = int(counter[MOVES])
        return MoveList(
            words=words,
            meta=meta,
            stats={
                "anchors": int(counter[ANCHORS]),
                "nodes_visited": int(counter[NODES]),
            },
        )
