"""``prime-product``: each signature keyed by the product of its letters'
primes (A=2, B=3, C=5 ... Z=101), multiplied in wrapping 64-bit arithmetic as
a real 64-bit product would. Long words overflow, so different signatures can
share a key: a slot is only a hit after its true signature compares equal,
and every key match with another signature is counted as a collision."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.table import keys_from_blobs

PRIMES = np.array(
    [
        2,
        3,
        5,
        7,
        11,
        13,
        17,
        19,
        23,
        29,
        31,
        37,
        41,
        43,
        47,
        53,
        59,
        61,
        67,
        71,
        73,
        79,
        83,
        89,
        97,
        101,
    ],
    dtype=np.uint64,
)


@njit(cache=True)
def products(keys, primes):
    """Wrapping product of letter primes for (m, 2) packed signatures."""
    out = np.empty(keys.shape[0], dtype=np.uint64)
    for i in range(keys.shape[0]):
        product = np.uint64(1)
        for letter in range(26):
            byte = letter >> 1
            half = keys[i, byte // 8]
            shift = np.uint64(8 * (byte % 8) + (4 if letter % 2 == 0 else 0))
            count = (half >> shift) & np.uint64(15)
            for _ in range(count):
                product *= primes[letter]  # wraps modulo 2^64
        out[i] = product
    return out


@njit(cache=True, inline="always")
def _slot(product, capacity):
    # products are even for any word with an A and share low bits; mix them
    mixed = product * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((mixed >> np.uint64(32)) & np.uint64(capacity - 1))


@njit(cache=True)
def build(prods, capacity):
    slots = np.full(capacity, -1, dtype=np.int32)
    for row in range(prods.shape[0]):
        slot = _slot(prods[row], capacity)
        while slots[slot] >= 0:
            slot = (slot + 1) & (capacity - 1)
        slots[slot] = row
    return slots


@njit(cache=True)
def probe_products(slots, prods, keys, qprods, queries):
    """Rows for the queries (-1 miss); counters = probes, key collisions."""
    capacity = slots.shape[0]
    rows = np.empty(queries.shape[0], dtype=np.int32)
    probes = 0
    collisions = 0
    for i in range(queries.shape[0]):
        slot = _slot(qprods[i], capacity)
        rows[i] = -1
        while True:
            probes += 1
            row = slots[slot]
            if row < 0:
                break
            if prods[row] == qprods[i]:
                if keys[row, 0] == queries[i, 0] and keys[row, 1] == queries[i, 1]:
                    rows[i] = row
                    break
                collisions += 1  # same 64-bit product, different letters
            slot = (slot + 1) & (capacity - 1)
    return rows, probes, collisions


class PrimeProduct:
    def __init__(self, rows: list[tuple[bytes, str]], key_bits: int = 64) -> None:
        """``key_bits`` < 64 keeps only the product's low bits: SOWPODS has no
        64-bit collisions, so tests use it to make collisions happen."""
        self.key_mask = np.uint64((1 << key_bits) - 1)
        self.keys = keys_from_blobs([sig for sig, _ in rows], len(rows))
        self.words = [ws for _, ws in rows]
        self.prods = products(self.keys, PRIMES) & self.key_mask
        capacity = 1
        while capacity < 2 * max(len(rows), 1):
            capacity <<= 1
        self.slots = build(self.prods, capacity)
        # signatures that share their 64-bit product with another one
        _, counts = np.unique(self.prods, return_counts=True)
        self.shared_keys = int(counts[counts > 1].sum())

    @classmethod
    def for_lexicon(cls, lexicon: Lexicon) -> PrimeProduct:
        return cls(lexicon.rows())

    def lookup(self, queries: npt.NDArray[np.uint64]) -> tuple[list[str], dict[str, int]]:
        q = np.ascontiguousarray(queries)
        rows, probes, collisions = probe_products(
            self.slots, self.prods, self.keys, products(q, PRIMES) & self.key_mask, q
        )
        words: list[str] = []
        for r in rows[rows >= 0]:
            words.extend(self.words[r].split(" "))
        return words, {
            "lookups": len(q),
            "hits": int((rows >= 0).sum()),
            "probes": int(probes),
            "collisions": int(collisions),
            "table_shared_keys": self.shared_keys,
        }
