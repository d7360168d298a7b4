"""Differential: every signature engine returns exactly the trie's moves and scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrabble.corpus import self_play_positions
from scrabble.engines.compact import candidates
from scrabble.lexicon.store import default_db_path
from scrabble.lexicon.table import SignatureTable
from scrabble.movegen import generate, generate_from_words
from scrabble.moves import MoveList, move_at
from scrabble.position import make_position
from tests.conftest import golden_cases

IN_PROCESS = ("memory-hash", "sqlite-hash", "prime-product")
CASES = golden_cases()


@pytest.fixture(scope="module")
def table() -> SignatureTable:
    return SignatureTable.load(default_db_path())


def rows(moves: MoveList) -> list[tuple]:
    """A move list as sorted (meta, word codes) rows: equal rows = equal output."""
    return sorted(tuple(moves.meta[i].tolist()) + tuple(moves.words[i].tolist())
                  for i in range(len(moves)))


def compact(position, lexicon, table) -> MoveList:
    """compact-numba without HTTP: the worker's candidates, the gateway's fit."""
    words, stats = candidates(table, position)
    return generate_from_words(position, lexicon, words, stats)


def assert_same_as_trie(position, lexicon, table, label):
    want = rows(generate(position, lexicon, "trie"))
    assert len(want) == len(set(want))
    for engine in IN_PROCESS:
        assert rows(generate(position, lexicon, engine)) == want, (label, engine)
    assert rows(compact(position, lexicon, table)) == want, (label, "compact")


@pytest.mark.parametrize(("position", "expected"), CASES, ids=[p["id"] for p, _ in CASES])
def test_engines_reproduce_golden(lexicon, table, position, expected):
    pos = make_position(position["board"], position["rack"])
    reference = {(m["row"], m["col"], m["dir"], m["word"], m["tiles"], m["score"])
                 for m in expected["moves"]}
    trie_rows = rows(generate(pos, lexicon, "trie"))
    for engine in IN_PROCESS:
        moves = generate(pos, lexicon, engine)
        keys = [move_at(moves, i).key() for i in range(len(moves))]
        assert len(keys) == expected["n_moves"], engine
        assert set(keys) == reference, engine
        assert rows(moves) == trie_rows, engine
    assert rows(compact(pos, lexicon, table)) == trie_rows


def test_seeded_self_play_with_0_1_2_blanks(lexicon, table):
    samples = self_play_positions(lexicon, count=45, seed=31, one_blank=0.3, two_blanks=0.2)
    assert {s.blanks for s in samples} == {0, 1, 2}
    for s in samples:
        assert_same_as_trie(s.position, lexicon, table, (s.game, s.turn))


def test_statistics_are_reported(lexicon):
    pos = make_position(["." * 15] * 15, "AEINRST")
    memory = generate(pos, lexicon, "memory-hash").stats
    assert memory["lookups"] == memory["distinct_signatures"] > 0
    assert 0 < memory["hits"] <= memory["lookups"] <= memory["signatures_built"]
    sqlite = generate(pos, lexicon, "sqlite-hash").stats
    assert sqlite["sqlite_queries"] >= 1 and sqlite["hits"] == memory["hits"]
    prime = generate(pos, lexicon, "prime-product").stats
    assert prime["hits"] == memory["hits"] and prime["probes"] >= prime["lookups"]
    assert prime["collisions"] >= 0


def test_prime_product_resolves_key_collisions(lexicon):
    from scrabble.engines.prime_product import PrimeProduct
    from scrabble.engines.signature import generate_with, lexicon_rows
    from scrabble.lexicon.table import keys_from_blobs

    rows_ = lexicon_rows(lexicon)
    full = PrimeProduct(rows_)
    assert full.shared_keys == 0  # no two SOWPODS signatures share a 64-bit product
    # 12-bit keys: thousands of signatures share each key, the signature compare decides
    narrow = PrimeProduct(rows_, key_bits=12)
    assert narrow.shared_keys > 200000
    pick = np.random.default_rng(3).choice(len(rows_), 300, replace=False)
    words, stats = narrow.lookup(narrow.keys[pick])
    assert stats["hits"] == 300 and stats["collisions"] > 0
    assert sorted(words) == sorted(w for r in pick for w in rows_[r][1].split(" "))
    absent = keys_from_blobs([bytes(13)], 1)
    assert narrow.lookup(absent)[1]["hits"] == 0
    # and whole positions still come out right
    pos = make_position(["." * 15] * 7 + ["....QUIET......"] + ["." * 15] * 7, "SORE?")
    assert rows(generate_with(pos, lexicon, narrow)) == rows(generate(pos, lexicon, "trie"))


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 14),
       blanks=st.sampled_from([0.0, 0.5, 1.0]))
def test_random_positions_agree(lexicon, table, seed, turns, blanks):
    sample = self_play_positions(lexicon, count=turns, seed=seed, one_blank=blanks / 2,
                                 two_blanks=blanks / 2)[-1]
    assert_same_as_trie(sample.position, lexicon, table, (seed, turns))
