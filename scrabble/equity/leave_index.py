"""The canonical enumeration of leaves: every multiset of tiles a tile set can hold.

A leave is a count vector over the 27 tile types (A..Z, blank) bounded by the
tile set's counts. The catalog holds every leave of ``min_size..max_size``
tiles in one fixed order: by size, then by the leave's sorted tile string
(A..Z, blank last) in lexicographic order -- so ``A`` < ``B`` < ... < ``?``,
then ``AA`` < ``AB`` < ... For the English 100-tile set, 1..6 tiles give
914,624 leaves and 7 tiles 3,199,724 racks.

Nothing is stored per leave: a leave's position is computed from its counts by
a combinatorial rank (``ranks`` below counts the multisets that sort before
it), so a table file only needs the values in this order. Two sorted tile
strings compare at the first tile type whose count differs, and the one with
*more* copies of that type sorts first; the rank sums, type by type, the
number of multisets that agree so far and hold more copies of the current type.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

TYPES = 27


@njit(cache=True)
def completion_counts(caps: np.ndarray, max_size: int) -> np.ndarray:
    """``ways[t, r]``: multisets of exactly ``r`` tiles drawn from types ``t..26``."""
    ways = np.zeros((TYPES + 1, max_size + 1), dtype=np.int64)
    ways[TYPES, 0] = 1
    for t in range(TYPES - 1, -1, -1):
        for r in range(max_size + 1):
            total = 0
            for v in range(min(caps[t], r) + 1):
                total += ways[t + 1, r - v]
            ways[t, r] = total
    return ways


@njit(cache=True)
def rank_steps(caps: np.ndarray, ways: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rank's building blocks.

    ``skip[t, rem, c]``: multisets that agree before type ``t``, have ``rem``
    tiles left to place from ``t`` on, and hold more than ``c`` copies of ``t``
    (they all sort before a leave holding exactly ``c``).
    ``gap[t, rem]``: the sum of ``skip[t', rem, 0]`` over ``t' < t``, so a run of
    types a leave does not hold costs one subtraction.
    """
    max_size = ways.shape[1] - 1
    skip = np.zeros((TYPES, max_size + 1, max_size + 1), dtype=np.int64)
    for t in range(TYPES):
        for rem in range(max_size + 1):
            top = min(caps[t], rem)
            for c in range(max_size + 1):
                total = 0
                for v in range(c + 1, top + 1):
                    total += ways[t + 1, rem - v]
                skip[t, rem, c] = total
    gap = np.zeros((TYPES + 1, max_size + 1), dtype=np.int64)
    for t in range(TYPES):
        for rem in range(max_size + 1):
            gap[t + 1, rem] = gap[t, rem] + skip[t, rem, 0]
    return skip, gap


@njit(cache=True)
def rank_of(
    counts: np.ndarray, caps: np.ndarray, skip: np.ndarray, offsets: np.ndarray, min_size: int
) -> int:
    """Catalog position of ``counts`` (27), or -1 when it is not in the catalog
    (size outside ``min_size..max_size`` or more copies than the tile set holds)."""
    max_size = skip.shape[1] - 1
    size = 0
    for t in range(TYPES):
        if counts[t] < 0 or counts[t] > caps[t]:
            return -1
        size += counts[t]
    if size < min_size or size > max_size:
        return -1
    rank = offsets[size - min_size]
    rem = size
    for t in range(TYPES):
        if rem == 0:
            break
        rank += skip[t, rem, counts[t]]
        rem -= counts[t]
    return int(rank)


@njit(cache=True)
def unrank(rank: int, size: int, caps: np.ndarray, ways: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out`` (27) the leave at position ``rank`` among those of ``size`` tiles."""
    rem = size
    for t in range(TYPES):
        out[t] = 0
        if rem == 0:
            continue
        for v in range(min(caps[t], rem), -1, -1):
            block = ways[t + 1, rem - v]
            if rank < block:
                out[t] = v
                rem -= v
                break
            rank -= block


@njit(cache=True)
def enumerate_catalog(
    caps: np.ndarray, ways: np.ndarray, min_size: int, max_size: int
) -> np.ndarray:
    """Every leave of the catalog as rows of 27 counts, in catalog order."""
    total = 0
    for size in range(min_size, max_size + 1):
        total += ways[0, size]
    out = np.zeros((total, TYPES), dtype=np.uint8)
    row = np.zeros(TYPES, dtype=np.int64)
    i = 0
    for size in range(min_size, max_size + 1):
        for rank in range(ways[0, size]):
            unrank(rank, size, caps, ways, row)
            for t in range(TYPES):
                out[i, t] = row[t]
            i += 1
    return out


@dataclass(frozen=True)
class LeaveIndex:
    """The catalog of leaves of ``min_size..max_size`` tiles for tile counts ``caps``."""

    caps: np.ndarray  # int64[27]
    min_size: int
    max_size: int
    ways: np.ndarray  # int64[28, max_size + 1]
    skip: np.ndarray  # int64[27, max_size + 1, max_size + 1]
    gap: np.ndarray  # int64[28, max_size + 1]
    offsets: np.ndarray  # int64[sizes + 1]: where each size starts, then the total

    @classmethod
    def build(cls, caps: np.ndarray, min_size: int, max_size: int) -> LeaveIndex:
        caps64 = np.asarray(caps, dtype=np.int64)
        if caps64.shape != (TYPES,) or (caps64 < 0).any():
            raise ValueError("caps must be 27 non-negative tile counts")
        if not 0 <= min_size <= max_size:
            raise ValueError("need 0 <= min_size <= max_size")
        ways = completion_counts(caps64, max_size)
        skip, gap = rank_steps(caps64, ways)
        sizes = ways[0, min_size : max_size + 1]
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        for arr in (caps64, ways, skip, gap, offsets):
            arr.setflags(write=False)
        return cls(
            caps=caps64,
            min_size=min_size,
            max_size=max_size,
            ways=ways,
            skip=skip,
            gap=gap,
            offsets=offsets,
        )

    def __len__(self) -> int:
        return int(self.offsets[-1])

    def rank(self, counts: np.ndarray) -> int:
        """Position of a leave (27 counts) in the catalog, -1 if it is not in it."""
        return int(
            rank_of(
                np.asarray(counts, dtype=np.int64),
                self.caps,
                self.skip,
                self.offsets,
                self.min_size,
            )
        )

    def leave_at(self, position: int) -> np.ndarray:
        """The 27 counts of the leave at ``position``."""
        if not 0 <= position < len(self):
            raise IndexError(f"position {position} outside the catalog of {len(self)}")
        size = self.min_size + int(np.searchsorted(self.offsets, position, side="right")) - 1
        out = np.zeros(TYPES, dtype=np.int64)
        unrank(position - int(self.offsets[size - self.min_size]), size, self.caps, self.ways, out)
        return out

    def all_leaves(self) -> np.ndarray:
        """Every leave, (len, 27) uint8, in catalog order."""
        return enumerate_catalog(self.caps, self.ways, self.min_size, self.max_size)
