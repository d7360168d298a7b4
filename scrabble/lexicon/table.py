"""The compact signature table: every SQLite row in NumPy arrays plus an
open-addressed hash index, probed by Numba.

Layout (all flat arrays, nothing per-row in Python):
  keys      (m, 2) uint64  the 13-byte signature of row i: bytes 0..7 in
                           keys[i, 0], bytes 8..12 in keys[i, 1] (little endian)
  slots     int64[cap]     hash bits 33..63 << 32 | row index, or -1; cap a power of two
  text      uint8[...]     every row's words, space separated, each row ended by \n
  text_off  int32[m + 1]   row i's words are text[text_off[i]:text_off[i + 1] - 1]

Slot of a signature: FNV-1a 64-bit over its 13 bytes (offset 1469598103934665603,
prime 1099511628211) & (cap - 1), then linear probing; a hit needs both key
words equal, i.e. the full 13-byte compare. Every function is ``cache=True``
so a restarted worker loads compiled code from disk instead of recompiling.

The two-word form is also what the engines compute with: adding a letter to a
packed signature is adding one nibble increment (counts never exceed 15, so no
nibble ever carries into the next).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from scrabble.lexicon.signature import SIGNATURE_BYTES

FNV_OFFSET = np.uint64(1469598103934665603)
FNV_PRIME = np.uint64(1099511628211)
LOAD_FACTOR = 0.5  # capacity >= rows / LOAD_FACTOR keeps probe chains short


def _increments() -> np.ndarray:
    """INC[l] = (word 0, word 1) to add to a packed signature for letter l."""
    inc = np.zeros((26, 2), dtype=np.uint64)
    for letter in range(26):
        byte = letter >> 1
        shift = 8 * (byte % 8) + (4 if letter % 2 == 0 else 0)
        inc[letter, byte // 8] = np.uint64(1) << np.uint64(shift)
    return inc


INC = _increments()


def keys_from_blobs(blobs: list[bytes] | bytes, count: int) -> np.ndarray:
    """13-byte signatures (concatenated or a list) -> (count, 2) uint64 keys."""
    raw = blobs if isinstance(blobs, bytes) else b"".join(blobs)
    b13 = np.frombuffer(raw, dtype=np.uint8).reshape(count, SIGNATURE_BYTES)
    b16 = np.zeros((count, 16), dtype=np.uint8)
    b16[:, :SIGNATURE_BYTES] = b13
    return b16.view("<u8").reshape(count, 2).astype(np.uint64)


def blobs_from_keys(keys: np.ndarray) -> np.ndarray:
    """(m, 2) uint64 keys -> (m, 13) uint8 signatures."""
    little = np.ascontiguousarray(keys, dtype="<u8")
    return little.view(np.uint8).reshape(len(little), 16)[:, :SIGNATURE_BYTES]


@njit(cache=True, inline="always")
def fnv1a(low, high):
    """FNV-1a 64-bit over the 13 signature bytes held in (low, high)."""
    hashed = np.uint64(1469598103934665603)
    prime = np.uint64(1099511628211)
    for byte in range(8):
        hashed ^= (low >> np.uint64(8 * byte)) & np.uint64(255)
        hashed *= prime
    for byte in range(5):
        hashed ^= (high >> np.uint64(8 * byte)) & np.uint64(255)
        hashed *= prime
    return hashed


@njit(cache=True)
def build_slots(keys, capacity):
    """slot = (high 32 bits of the hash) << 32 | row, -1 when empty: a probe
    compares the stored hash bits first and reads the key row only when they
    match, so a miss (most look-ups) touches the slot array alone."""
    slots = np.full(capacity, -1, dtype=np.int64)
    mask = np.uint64(capacity - 1)
    for row in range(keys.shape[0]):
        hashed = fnv1a(keys[row, 0], keys[row, 1])
        slot = np.int64(hashed & mask)
        while slots[slot] >= 0:
            slot = (slot + 1) & (capacity - 1)
        slots[slot] = (np.int64(hashed >> np.uint64(33)) << 32) | row
    return slots


@njit(cache=True, inline="always")
def probe_one(slots, keys, low, high):
    """The row of signature (low, high), or -1: one probe sequence."""
    capacity = slots.shape[0]
    hashed = fnv1a(low, high)
    at = np.int64(hashed & np.uint64(capacity - 1))
    tag = np.int64(hashed >> np.uint64(33))
    while True:
        slot = slots[at]
        if slot < 0:
            return -1
        if slot >> 32 == tag:
            row = slot & 0xFFFFFFFF
            if keys[row, 0] == low and keys[row, 1] == high:
                return row
        at = (at + 1) & (capacity - 1)


@njit(cache=True)
def probe_signatures(slots, keys, queries):
    """Rows for (q, 2) query keys (-1 = miss) and the slots visited.

    Three passes rather than one probe after another: all hashes, then every
    first slot (independent loads the CPU overlaps, where a probe at a time
    waits on each cache miss in turn), then the comparisons and any further
    probing. 2.2x faster on the corpus's query sets with cold caches
    (``docs/worker-transport.md``)."""
    count = queries.shape[0]
    capacity = slots.shape[0]
    mask = np.uint64(capacity - 1)
    start = np.empty(count, dtype=np.int64)
    tag = np.empty(count, dtype=np.int64)
    for i in range(count):
        hashed = fnv1a(queries[i, 0], queries[i, 1])
        start[i] = np.int64(hashed & mask)
        tag[i] = np.int64(hashed >> np.uint64(33))
    first = np.empty(count, dtype=np.int64)
    for i in range(count):
        first[i] = slots[start[i]]
    out = np.empty(count, dtype=np.int32)
    visited = 0
    for i in range(count):
        at = start[i]
        slot = first[i]
        out[i] = -1
        while True:
            visited += 1
            if slot < 0:
                break
            if slot >> 32 == tag[i]:
                row = slot & 0xFFFFFFFF
                if keys[row, 0] == queries[i, 0] and keys[row, 1] == queries[i, 1]:
                    out[i] = row
                    break
            at = (at + 1) & (capacity - 1)
            slot = slots[at]
    return out, visited


@njit(cache=True)
def gather_rows(text, text_off, rows):
    """The words of the hit rows as one space-separated byte buffer (one
    decode and one split in Python instead of one per row)."""
    total = 0
    for row in rows:
        if row >= 0:
            total += text_off[row + 1] - text_off[row]
    out = np.empty(max(total - 1, 0), dtype=np.uint8)
    pos = 0
    for row in rows:
        if row < 0:
            continue
        if pos > 0:
            out[pos - 1] = 32  # the row's newline becomes the separator
        start = text_off[row]
        stop = text_off[row + 1] - 1
        out[pos : pos + stop - start] = text[start:stop]
        pos += stop - start + 1
    return out


@njit(cache=True)
def row_has_word(text, text_off, row, word, length):
    """Whether row's space-separated words include ``word`` (letter codes 1..26)."""
    pos = text_off[row]
    end = text_off[row + 1] - 1
    while pos < end:
        stop = pos
        while stop < end and text[stop] != 32:
            stop += 1
        if stop - pos == length:
            same = True
            for i in range(length):
                if text[pos + i] - 64 != word[i]:
                    same = False
                    break
            if same:
                return True
        pos = stop + 1
    return False


def _text_arrays(joined: bytes, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows' words joined by newlines -> (text, text_off); row i is
    text[text_off[i]:text_off[i + 1] - 1] (the newline after it excluded)."""
    text = np.frombuffer(joined + b"\n", dtype=np.uint8).copy()
    ends = np.flatnonzero(text == 10)
    if len(ends) != count:
        raise ValueError(f"expected {count} rows of words, found {len(ends)}")
    text_off = np.zeros(count + 1, dtype=np.int32)
    text_off[1:] = ends + 1
    return text, text_off


class SignatureTable(NamedTuple):
    """Passed to kernels as it is (Numba takes a named tuple of arrays)."""

    keys: npt.NDArray[np.uint64]
    slots: npt.NDArray[np.int64]
    text: npt.NDArray[np.uint8]
    text_off: npt.NDArray[np.int32]
    load_ms: float = 0.0

    @property
    def signatures(self) -> int:
        return len(self.keys)

    @property
    def capacity(self) -> int:
        return len(self.slots)

    @property
    def nbytes(self) -> int:
        return self.keys.nbytes + self.slots.nbytes + self.text.nbytes + self.text_off.nbytes

    @classmethod
    def from_arrays(
        cls, keys: np.ndarray, text: np.ndarray, text_off: np.ndarray, started: float
    ) -> SignatureTable:
        capacity = 1
        while capacity * LOAD_FACTOR < max(len(keys), 1):
            capacity <<= 1
        slots = build_slots(keys, capacity)
        return cls(
            keys=keys,
            slots=slots,
            text=text,
            text_off=text_off,
            load_ms=(time.perf_counter() - started) * 1000,
        )

    @classmethod
    def from_rows(cls, rows: list[tuple[bytes, str]]) -> SignatureTable:
        """From (signature, words) pairs (tests, small lexicons)."""
        started = time.perf_counter()
        joined = "\n".join(words for _, words in rows).encode("ascii")
        keys = keys_from_blobs([sig for sig, _ in rows], len(rows))
        return cls.from_arrays(keys, *_text_arrays(joined, len(rows)), started)

    @classmethod
    def load(cls, db_path: Path) -> SignatureTable:
        """Every row of the SQLite store in one scan: two aggregates over the same
        scan keep signatures and words aligned, and avoid building 237k tuples."""
        started = time.perf_counter()
        with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as con:
            hexes, words, count = con.execute(
                "SELECT group_concat(hex(signature), ''), group_concat(words, char(10)), "
                "count(*) FROM signatures"
            ).fetchone()
        con.close()
        keys = keys_from_blobs(bytes.fromhex(hexes or ""), count)
        return cls.from_arrays(keys, *_text_arrays((words or "").encode("ascii"), count), started)

    def lookup(self, queries: np.ndarray) -> tuple[np.ndarray, int]:
        """(q, 2) uint64 keys -> rows (-1 miss) and slots probed."""
        rows, probes = probe_signatures(self.slots, self.keys, np.ascontiguousarray(queries))
        return rows, int(probes)

    def words_of(self, rows: np.ndarray) -> list[str]:
        """The words of the given rows (misses skipped)."""
        buf = gather_rows(self.text, self.text_off, np.ascontiguousarray(rows, dtype=np.int32))
        return buf.tobytes().decode("ascii").split(" ") if len(buf) else []
