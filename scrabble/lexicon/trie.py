"""The lexicon as a trie in two flat arrays, built and walked by Numba.

Node i has ``mask[i]``: bits 0..25 say which letters have a child, bit 26 that
the path to i spells a word; its children are stored contiguously from
``first[i]`` in letter order, so the child for letter l is
``first[i] + popcount(mask[i] & ((1 << l) - 1))``. Nodes are numbered in
breadth-first order, which keeps the top levels (walked most) together.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

TERMINAL = np.uint32(1 << 26)
LETTERS = (1 << 26) - 1


class Trie(NamedTuple):
    """Passed to kernels as it is (Numba takes a named tuple of arrays)."""

    mask: npt.NDArray[np.uint32]  # per node
    first: npt.NDArray[np.int32]  # per node

    @property
    def nodes(self) -> int:
        return len(self.mask)

    @property
    def nbytes(self) -> int:
        return self.mask.nbytes + self.first.nbytes

    def contains(self, word: str) -> bool:
        codes = np.frombuffer(word.upper().encode("ascii"), dtype=np.uint8) - 65
        return bool(contains(self, codes.astype(np.uint8)))


def word_matrix(words: list[str]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """Sorted words -> (n, longest) letter codes 1..26 (0 padded) and lengths."""
    width = max((len(w) for w in words), default=1)
    padded = "".join(w.ljust(width, "@") for w in words).encode("ascii")
    matrix = np.frombuffer(padded, dtype=np.uint8).reshape(len(words), width) - 64
    lengths = np.fromiter((len(w) for w in words), dtype=np.int32, count=len(words))
    return np.ascontiguousarray(matrix), lengths


@njit(cache=True)
def _build(matrix, lengths, total_letters):
    # breadth first: a queue of (node, its words' range in the sorted list, depth)
    room = total_letters + 1
    mask = np.zeros(room, dtype=np.uint32)
    first = np.zeros(room, dtype=np.int32)
    queue_node = np.empty(room, dtype=np.int32)
    queue_from = np.empty(room, dtype=np.int32)
    queue_to = np.empty(room, dtype=np.int32)
    queue_depth = np.empty(room, dtype=np.int32)
    head = 0
    tail = 1
    queue_node[0] = 0
    queue_from[0] = 0
    queue_to[0] = matrix.shape[0]
    queue_depth[0] = 0
    free = 1
    while head < tail:
        node = queue_node[head]
        word = queue_from[head]
        end = queue_to[head]
        depth = queue_depth[head]
        head += 1
        # Sorted order puts the word that ends here first.
        if word < end and lengths[word] == depth:
            mask[node] |= np.uint32(1 << 26)
            word += 1
        first[node] = free
        while word < end:
            letter = matrix[word, depth]
            after = word + 1
            while after < end and matrix[after, depth] == letter:
                after += 1
            mask[node] |= np.uint32(1 << (letter - 1))
            queue_node[tail] = free
            queue_from[tail] = word
            queue_to[tail] = after
            queue_depth[tail] = depth + 1
            tail += 1
            free += 1
            word = after
    return mask[:free].copy(), first[:free].copy()


def build_trie(words: list[str]) -> Trie:
    """Build from a sorted list of distinct upper-case words."""
    matrix, lengths = word_matrix(words)
    mask, first = _build(matrix, lengths, int(lengths.sum()))
    return Trie(mask=mask, first=first)


@njit(cache=True, inline="always")
def popcount32(x):
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True, inline="always")
def lowest_letter(letters):
    """Index of the lowest set bit of a non-zero 26-bit letter set: one
    count-trailing-zeros instruction (a shift loop over the bits made the
    WordGame's whole game 1.16x slower, ``scripts/bench_wordgame.py``)."""
    return trailing_zeros(np.int64(letters))


@njit(cache=True, inline="always")
def child_in(mask, first, node, letter):
    """``child`` over the trie's two arrays (kernels that hold them apart)."""
    letters = np.int64(mask[node])
    if (letters >> letter) & 1 == 0:
        return -1
    return first[node] + popcount32(letters & ((np.int64(1) << letter) - 1))


@njit(cache=True, inline="always")
def child(trie, node, letter):
    """Child of node for letter index 0..25, or -1."""
    return child_in(trie.mask, trie.first, node, letter)


@njit(cache=True, inline="always")
def terminal_in(mask, node):
    return (np.int64(mask[node]) >> 26) & 1 == 1


@njit(cache=True, inline="always")
def is_terminal(trie, node):
    return terminal_in(trie.mask, node)


@njit(cache=True)
def contains(trie, codes):
    """codes: letter indices 0..25."""
    node = 0
    for k in range(codes.shape[0]):
        node = child(trie, node, np.int64(codes[k]))
        if node < 0:
            return False
    return is_terminal(trie, node)
