"""``memory-hash``: the span signatures looked up in an in-process Python dict
keyed by the 13-byte signature (the plainest hash table there is)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.signature import SIGNATURE_BYTES
from scrabble.lexicon.table import blobs_from_keys


class MemoryHash:
    def __init__(self, rows: list[tuple[bytes, str]]) -> None:
        self.table: dict[bytes, str] = dict(rows)

    @classmethod
    def for_lexicon(cls, lexicon: Lexicon) -> MemoryHash:
        return cls(lexicon.rows())

    def lookup(self, queries: npt.NDArray[np.uint64]) -> tuple[list[str], dict[str, int]]:
        raw = blobs_from_keys(queries).tobytes()
        keys = [raw[i : i + SIGNATURE_BYTES] for i in range(0, len(raw), SIGNATURE_BYTES)]
        found = [ws for ws in map(self.table.get, keys) if ws is not None]
        words = " ".join(found).split(" ") if found else []
        return words, {"lookups": len(keys), "hits": len(found)}
