"""The exchanges of a rack and their tie-break order against plain Python."""

from __future__ import annotations

from itertools import product

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble.equity.actions import exchange_keeps, thrown_rank
from scrabble.tiles import RACK_TYPES, rack_string

racks = st.lists(st.integers(0, RACK_TYPES - 1), min_size=0, max_size=9).map(
    lambda tiles: np.bincount(np.array(tiles, dtype=np.int64), minlength=RACK_TYPES)
)


def keeps_by_product(rack: np.ndarray) -> list[list[int]]:
    """Every sub-multiset short of the whole rack, the first tile type slowest."""
    held = [t for t in range(RACK_TYPES) if rack[t]]
    out = []
    for choice in product(*(range(int(rack[t]) + 1) for t in held)):
        keep = [0] * RACK_TYPES
        for t, c in zip(held, choice, strict=True):
            keep[t] = c
        if sum(keep) < rack.sum():
            out.append(keep)
    return out


@settings(max_examples=300, deadline=None)
@given(racks)
def test_exchange_keeps_are_every_throw_in_product_order(rack):
    assert exchange_keeps(rack).tolist() == keeps_by_product(rack)


@settings(max_examples=300, deadline=None)
@given(racks)
def test_thrown_rank_orders_as_python_orders_the_rack_strings(rack):
    thrown = rack[None, :] - exchange_keeps(rack)
    names = [rack_string(row) for row in thrown]
    expected = sorted(range(len(names)), key=names.__getitem__)
    rank = thrown_rank(thrown)
    assert sorted(range(len(names)), key=lambda i: int(rank[i])) == expected
    assert sorted(rank.tolist()) == list(range(len(names)))
