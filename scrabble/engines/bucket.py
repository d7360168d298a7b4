"""Stable counting sort: the one grouping step behind rack subsets by size and
candidate words by length."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def bucket_order(keys, buckets):
    """For small integer ``keys`` (0 <= key < buckets): ``first`` (buckets + 1),
    with bucket b's items at positions first[b]..first[b + 1], and ``dest``,
    the position of item i, keeping equal keys in their order."""
    first = np.zeros(buckets + 1, dtype=np.int64)
    for i in range(keys.shape[0]):
        first[keys[i] + 1] += 1
    for bucket in range(1, buckets + 1):
        first[bucket] += first[bucket - 1]
    fill = first.copy()
    dest = np.empty(keys.shape[0], dtype=np.int64)
    for i in range(keys.shape[0]):
        dest[i] = fill[keys[i]]
        fill[keys[i]] += 1
    return first, dest
