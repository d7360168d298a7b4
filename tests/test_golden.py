"""The trie engine reproduces the reference engine's complete move lists."""

from __future__ import annotations

import pytest

from scrabble.notation import move_at
from scrabble.position import make_position
from tooling.golden import golden_cases

CASES = golden_cases()


@pytest.mark.parametrize(("position", "expected"), CASES, ids=[p["id"] for p, _ in CASES])
def test_trie_matches_golden(trie, position, expected):
    moves = trie.generate(make_position(position["board"], position["rack"]))
    ours = [move_at(moves, i).golden_key() for i in range(len(moves))]
    reference = [
        (m["row"], m["col"], m["dir"], m["word"], m["tiles"], m["score"]) for m in expected["moves"]
    ]
    assert len(ours) == expected["n_moves"]
    assert len(set(ours)) == len(ours), "a move is listed twice"
    missing = set(reference) - set(ours)
    extra = set(ours) - set(reference)
    assert not missing and not extra, (sorted(missing)[:5], sorted(extra)[:5])
