"""The kit's fast multiset unique is ``np.unique(axis=0)`` for sub-multisets
of a hand: the same rows, in the same order, with the same inverse (the
prospect player's leave values are indexed by it)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble.wordgame.kit import unique_submultisets


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 300), letters=st.integers(1, 12))
def test_unique_submultisets_is_numpy_unique_rows(seed: int, rows: int, letters: int) -> None:
    rng = np.random.default_rng(seed)
    hand = np.zeros(26, dtype=np.int64)
    np.add.at(hand, rng.integers(0, 26, size=letters), 1)
    # each row keeps a random part of the hand, so many rows repeat
    subsets = rng.integers(0, hand + 1, size=(rows, 26)).astype(np.int64)
    want_rows, want_inverse = np.unique(subsets, axis=0, return_inverse=True)
    got_rows, got_inverse = unique_submultisets(subsets, hand)
    assert np.array_equal(got_rows, want_rows)
    assert np.array_equal(got_inverse, want_inverse.reshape(-1))
    assert np.array_equal(got_rows[got_inverse], subsets)
