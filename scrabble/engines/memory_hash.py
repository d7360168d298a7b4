"""``memory-hash``: the span signatures looked up in an in-process Python dict
keyed by the 13-byte signature (the plainest hash table there is)."""

from __future__ import annotations

import numpy as np

from scrabble.engines.signature import lexicon_rows
from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.signature import SIGNATURE_BYTES
from scrabble.lexicon.table import blobs_from_keys


class MemoryHash:
    def __init__(self, rows: list[tuple[bytes, str]]) -> None:
        self.table: dict[bytes, str] = dict(rows)

    @classmethod
    def for_lexicon(cls, lexicon: Lexicon) -> MemoryHash:
        return cls(lexicon_rows(lexicon))

    def lookup(self, queries: np.ndarray) -> tuple[list[str], dict[str, int]]:
        raw = blobs_from_keys(queries).tobytes()
        get = self.table.get
        words: list[str] = []
        hits = 0
        for i in range(0, len(raw), SIGNATURE_BYTES):
            found = get(raw[i:i + SIGNATURE_BYTES])
            if found is not None:
                hits += 1
                words.extend(found.split(" "))
        return words, {"lookups": len(queries), "hits": hits}
