"""Anagram signatures: 26 letter counts, 4 bits each, two per byte (13 bytes).

Byte i holds letter 2i in its high nibble and letter 2i+1 in its low nibble.
A word has at most 15 letters, so no count exceeds 15 and the packing is
lossless. Blanks are never part of a stored signature.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SIGNATURE_BYTES = 13
MAX_WORD = 15


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
