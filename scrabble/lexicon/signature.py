"""Anagram signatures: 26 letter counts, 4 bits each, two per byte (13 bytes).

Byte i holds letter 2i in its high nibble and letter 2i+1 in its low nibble.
The packing is lossless while no letter occurs more than ``MAX_COUNT`` (15)
times in a word, which the word-list reader checks (no English word comes
close; ENABLE's 28-letter words hold at most 5 of a letter). Blanks are never
part of a stored signature.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SIGNATURE_BYTES = 13
MAX_COUNT = 15  # one nibble per letter
MAX_WORD = 15  # longest word the signature engines place (a 15x15 line)


def counts_of(word: str) -> np.ndarray:
    counts = np.zeros(26, dtype=np.uint8)
    for ch in word.upper():
        counts[ord(ch) - 65] += 1
    return counts


def pack(counts: np.ndarray) -> bytes:
    """26 counts -> 13-byte signature."""
    c = np.asarray(counts, dtype=np.uint8)
    return bytes(((c[0::2] << 4) | c[1::2]).astype(np.uint8))


def unpack(signature: bytes) -> np.ndarray:
    b = np.frombuffer(signature, dtype=np.uint8)
    counts = np.empty(26, dtype=np.uint8)
    counts[0::2] = b >> 4
    counts[1::2] = b & 15
    return counts


def signature_of(word: str) -> bytes:
    return pack(counts_of(word))


def pack_rows(counts: np.ndarray) -> np.ndarray:
    """(n, 26) counts -> (n, 13) packed signatures, vectorised."""
    c = np.asarray(counts, dtype=np.uint8)
    return ((c[:, 0::2] << 4) | c[:, 1::2]).astype(np.uint8)


@njit(cache=True, inline="always")
def pack_into(counts, out, row):
    """Pack 26 counts into out[row, :13] (Numba hot paths)."""
    for i in range(SIGNATURE_BYTES):
        out[row, i] = (counts[2 * i] << 4) | counts[2 * i + 1]
