"""The fitting step's word bucketing, against a plain-Python statement of it."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scrabble.engines.fit import words_by_length


def _oracle(words: list[str], width: int) -> tuple[list[str], list[int]]:
    ordered = sorted(words, key=len)  # stable: same-length words keep their order
    first = [sum(len(w) < length for w in words) for length in range(width + 2)]
    return ordered, first


@pytest.mark.parametrize("seed", range(5))
def test_words_are_grouped_by_length_in_order(seed):
    rng = random.Random(seed)
    words = [
        "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(1, 15)))
        for _ in range(rng.randint(1, 400))
    ]
    width = max(map(len, words))
    matrix, len_first = words_by_length(words, width)
    ordered, first = _oracle(words, width)
    assert len_first.tolist() == first
    assert matrix.shape == (len(words), width)
    for row, word in zip(matrix, ordered, strict=True):
        assert bytes(row + 64).decode().rstrip("@") == word
        assert not row[len(word) :].any()


def test_no_words():
    matrix, len_first = words_by_length([], 15)
    assert matrix.shape == (0, 15) and not len_first.any()


def test_full_length_and_single_letter_words():
    matrix, len_first = words_by_length(["Z", "ABCDEFGHIJKLMNO", "QI"], 15)
    assert len_first[1:4].tolist() == [0, 1, 2] and len_first[16] == 3
    assert matrix[0, 0] == 26 and matrix[2].tolist() == list(range(1, 16))
    assert np.array_equal(matrix[1, :2], [17, 9])
