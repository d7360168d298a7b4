"""The lexicon's words as a code matrix sorted by length, for the kernels that
scan words of one length (slots, the target-line table, place value).

Words longer than 21 letters never fit (9 tiles through a 20-square line is
the longest play) and are left out. Built once per lexicon; a lexicon loaded
from the player's compiled cache (``lexicons.load_compiled``) brings it along.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from scrabble.lexicon.trie import word_matrix

LONGEST = 21


@dataclass(frozen=True)
class WordBank:
    matrix: np.ndarray  # int64 (words, longest) letter codes 1..26, 0 padded
    lengths: np.ndarray  # int32 (words,)
    offsets: np.ndarray  # int64 (LONGEST + 2,): words of length L are offsets[L]:offsets[L+1]


def build_bank(words: list[str]) -> WordBank:
    short = sorted((w for w in words if len(w) <= LONGEST), key=len)
    matrix, lengths = word_matrix(short)
    offsets = np.searchsorted(lengths, np.arange(LONGEST + 2)).astype(np.int64)
    return WordBank(np.ascontiguousarray(matrix, dtype=np.int64), lengths, offsets)


_BANKS: dict[int, tuple[Any, WordBank]] = {}


def bank_for(lexicon: Any) -> WordBank:
    bank = getattr(lexicon, "bank", None)
    if bank is not None:
        return bank  # type: ignore[no-any-return]
    entry = _BANKS.get(id(lexicon))
    if entry is None or entry[0] is not lexicon:
        entry = (lexicon, build_bank(lexicon.words))
        _BANKS[id(lexicon)] = entry
    return entry[1]
