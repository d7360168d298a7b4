"""From self-play records to leave values: the averaging and the smoothing.

A generation's records are tallied per full rack ``R`` (``rack_size`` tiles):
the number of turns it was held with tiles left in the bag, ``n(R)``, and the
sum of those turns' best equities, ``s(R)`` (integer millipoints, so tallies add
exactly in any order). A leave ``L`` is valued from the racks that contain it,
minus the same average over all racks (the empty leave's value, so keeping
nothing is 0). Two averagings (docs/leaves.md has the reasoning and figures):

``turn`` (default; MAGPIE's): every turn counts once for each distinct leave
    of its rack, ``value(L) = sum s(R) / sum n(R)`` over ``R`` containing ``L``.
``rack`` (wolges' per-rack): every distinct rack counts once at its mean,
    weighted by the ways the bag could complete ``L`` to it,
    ``ways(R, L) = prod_t C(tiles_t - L_t, R_t - L_t)`` over the full tile set:
    ``value(L) = sum ways * s/n / sum ways``; the baseline uses ``ways(R, {})``.

Either way a leave is "seen" ``sum n(R)`` times. Smoothing: a leave seen fewer
than ``smooth_count`` times is blended linearly toward its prior (the previous
generation's value; the linear model in the first): ``w = seen / smooth_count``,
``value = w * observed + (1 - w) * prior``; a leave never seen keeps its prior.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from scrabble.equity.leave_index import TYPES, LeaveIndex, unrank

AVERAGINGS = ("turn", "rack")


@njit(cache=True)
def _choose_table(top: int) -> np.ndarray:
    comb = np.zeros((top + 1, top + 1), dtype=np.float64)
    for n in range(top + 1):
        comb[n, 0] = 1.0
        for k in range(1, n + 1):
            comb[n, k] = comb[n - 1, k - 1] + comb[n - 1, k]
    return comb


@njit(cache=True)
def spread_racks(
    rack_ids: np.ndarray,
    rack_sums: np.ndarray,
    rack_counts: np.ndarray,
    rack_size: int,
    rack_ways: np.ndarray,
    caps: np.ndarray,
    skip: np.ndarray,
    gap: np.ndarray,
    offsets: np.ndarray,
    per_rack: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """Credit every observed rack to each of its distinct leaves of 1..rack_size-1 tiles.

    Returns per leave (catalog order) the numerator, the denominator and the
    times seen, and the baseline's numerator and denominator. ``turn``: numerator
    ``s``, denominator ``n``; ``rack``: ``ways * s / n`` and ``ways``.
    """
    leaves = offsets[-1]
    numerator = np.zeros(leaves, dtype=np.float64)
    denominator = np.zeros(leaves, dtype=np.float64)
    seen = np.zeros(leaves, dtype=np.int64)
    comb = _choose_table(max(int(caps.max()), rack_size))
    rack = np.zeros(TYPES, dtype=np.int64)
    types = np.zeros(TYPES, dtype=np.int64)
    digits = np.zeros(TYPES, dtype=np.int64)
    base_num = 0.0
    base_den = 0.0
    for r in range(rack_ids.shape[0]):
        unrank(rack_ids[r], rack_size, caps, rack_ways, rack)
        total = rack_sums[r]
        count = rack_counts[r]
        mean = total / count
        held = 0
        for t in range(TYPES):
            if rack[t] > 0:
                types[held] = t
                held += 1
            digits[t] = 0
        if per_rack:
            ways = 1.0
            for j in range(held):
                t = types[j]
                ways *= comb[caps[t], rack[t]]
            base_num += ways * mean
            base_den += ways
        else:
            base_num += total
            base_den += count
        size = 0
        while True:  # odometer over the sub-multisets of the rack
            j = 0
            while j < held and digits[j] == rack[types[j]]:
                size -= digits[j]
                digits[j] = 0
                j += 1
            if j == held:
                break
            digits[j] += 1
            size += 1
            if size >= rack_size:
                continue
            rank = offsets[size - 1]
            rem = size
            previous = 0
            for i in range(held):
                t = types[i]
                rank += gap[t, rem] - gap[previous, rem] + skip[t, rem, digits[i]]
                rem -= digits[i]
                previous = t + 1
            rank += gap[TYPES, rem] - gap[previous, rem]
            seen[rank] += count
            if per_rack:
                ways = 1.0
                for i in range(held):
                    t = types[i]
                    ways *= comb[caps[t] - digits[i], rack[t] - digits[i]]
                numerator[rank] += ways * mean
                denominator[rank] += ways
            else:
                numerator[rank] += total
                denominator[rank] += count
    return numerator, denominator, seen, base_num, base_den


@dataclass(frozen=True)
class RackTally:
    """Per full rack: turns held (``counts``) and the sum of their best equities (``sums``)."""

    index: LeaveIndex  # catalog of exactly rack_size tiles
    sums: np.ndarray  # int64[len(index)], millipoints
    counts: np.ndarray  # int64[len(index)]

    @classmethod
    def empty(cls, caps: np.ndarray, rack_size: int) -> RackTally:
        index = LeaveIndex.build(caps, rack_size, rack_size)
        return cls(
            index=index,
            sums=np.zeros(len(index), dtype=np.int64),
            counts=np.zeros(len(index), dtype=np.int64),
        )

    def add(self, rack_ids: np.ndarray, equities: np.ndarray) -> None:
        """Tally records: the rack's catalog position and the turn's best equity."""
        np.add.at(self.counts, rack_ids, 1)
        np.add.at(self.sums, rack_ids, np.asarray(equities, dtype=np.int64))

    @property
    def records(self) -> int:
        return int(self.counts.sum())


@dataclass(frozen=True)
class LeaveEstimate:
    observed: np.ndarray  # float64 per leave: its average minus the baseline (nan if unseen)
    seen: np.ndarray  # int64 per leave: turns whose rack contained it
    baseline: float  # the average all leaves are measured against (millipoints)


def estimate(tally: RackTally, leaves: LeaveIndex, averaging: str = "turn") -> LeaveEstimate:
    """Per-leave averages of a tally, by ``averaging`` (see the module doc)."""
    if averaging not in AVERAGINGS:
        raise ValueError(f"averaging must be one of {AVERAGINGS}")
    if leaves.min_size != 1 or leaves.max_size != tally.index.min_size - 1:
        raise ValueError("the leave catalog must hold 1..rack_size-1 tiles")
    ids = np.nonzero(tally.counts)[0].astype(np.int64)
    num, den, seen, base_num, base_den = spread_racks(
        ids,
        tally.sums[ids],
        tally.counts[ids],
        tally.index.min_size,
        tally.index.ways,
        leaves.caps,
        leaves.skip,
        leaves.gap,
        leaves.offsets,
        averaging == "rack",
    )
    baseline = base_num / base_den if base_den > 0 else 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = np.where(den > 0, num / np.where(den > 0, den, 1.0) - baseline, np.nan)
    return LeaveEstimate(observed=observed, seen=seen, baseline=baseline)


def smooth(estimate: LeaveEstimate, prior: np.ndarray, smooth_count: int) -> np.ndarray:
    """int32 values: the observed averages, blended toward ``prior`` below ``smooth_count``."""
    if smooth_count < 0:
        raise ValueError("smooth_count must be >= 0")
    prior64 = np.asarray(prior, dtype=np.float64)
    seen = estimate.seen.astype(np.float64)
    weight = np.ones_like(seen) if smooth_count == 0 else np.minimum(1.0, seen / smooth_count)
    weight = np.where(np.isnan(estimate.observed), 0.0, weight)
    observed = np.where(np.isnan(estimate.observed), 0.0, estimate.observed)
    return np.rint(weight * observed + (1.0 - weight) * prior64).astype(np.int32)
