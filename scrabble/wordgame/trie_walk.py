"""The WordGame kernels' trie walks, over the trie's flat arrays (``mask``,
``first``: see ``scrabble.lexicon.trie``, whose array-level steps these are),
so the kernels depend only on that array layout."""

from __future__ import annotations

import numpy as np
from numba import njit

from scrabble.lexicon.trie import child_in as child
from scrabble.lexicon.trie import lowest_letter
from scrabble.lexicon.trie import terminal_in as is_terminal

__all__ = ["child", "contains", "cross_checks", "is_terminal", "lowest_letter"]


@njit(cache=True)
def contains(mask, first, codes):
    """Whether the letters ``codes`` (0..25) spell a word."""
    node = 0
    for k in range(codes.shape[0]):
        node = child(mask, first, node, np.int64(codes[k]))
        if node < 0:
            return False
    return is_terminal(mask, node)


@njit(cache=True)
def cross_checks(lines, mask, first, values):
    """For each empty square of ``lines`` (n x n, the cross words running along
    the columns): the letters that make its perpendicular word a word (a bit
    mask; all 26 with no perpendicular neighbour) and that word's score
    without the new tile (-1 when there is no perpendicular word)."""
    n = lines.shape[0]
    out_mask = np.zeros((n, n), dtype=np.uint32)
    score = np.full((n, n), -1, dtype=np.int32)
    for r in range(n):
        for c in range(n):
            if lines[r, c] != 0:
                continue
            top = r
            while top > 0 and lines[top - 1, c] != 0:
                top -= 1
            bottom = r
            while bottom < n - 1 and lines[bottom + 1, c] != 0:
                bottom += 1
            if top == r and bottom == r:
                out_mask[r, c] = (1 << 26) - 1
                continue
            s = 0
            for k in range(top, bottom + 1):
                if k != r:
                    s += values[(lines[k, c] & 31) - 1]
            score[r, c] = s
            node = 0
            for k in range(top, r):
                if node >= 0:
                    node = child(mask, first, node, np.int64(lines[k, c] & 31) - 1)
            if node < 0:
                continue
            bits = 0
            for letter in range(26):
                nd = child(mask, first, node, np.int64(letter))
                k = r + 1
                while nd >= 0 and k <= bottom:
                    nd = child(mask, first, nd, np.int64(lines[k, c] & 31) - 1)
                    k += 1
                if nd >= 0 and is_terminal(mask, nd):
                    bits |= 1 << letter
            out_mask[r, c] = np.uint32(bits)
    return out_mask, score
