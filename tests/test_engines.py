"""Differential: every signature engine returns exactly the trie's moves and scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrabble.engines.compact.table_side import find_candidate_words
from scrabble.engines.compact.wire import WIRE_STATS
from scrabble.engines.registry import ENGINES, EngineSet
from scrabble.engines.span import plan
from scrabble.engines.span_engine import SpanEngine, finish
from scrabble.lexicon.signature import signature_of
from scrabble.lexicon.store import default_db_path
from scrabble.lexicon.table import SignatureTable
from scrabble.moves import MoveList
from scrabble.notation import move_at
from scrabble.position import make_position
from tooling.corpus import self_play_positions
from tooling.golden import golden_cases

IN_PROCESS = tuple(name for name, spec in ENGINES.items() if spec.lookup is not None)
CASES = golden_cases()


@pytest.fixture(scope="module")
def table() -> SignatureTable:
    return SignatureTable.load(default_db_path())


@pytest.fixture(scope="module")
def engines(lexicon) -> EngineSet:
    return EngineSet(lexicon)


def rows(moves: MoveList) -> list[tuple]:
    """A move list as sorted (meta, word codes) rows: equal rows = equal output."""
    return sorted(
        tuple(moves.meta[i].tolist()) + tuple(moves.words[i].tolist()) for i in range(len(moves))
    )


def compact(position, lexicon, table) -> MoveList:
    """compact-numba without HTTP: the worker's candidates, the gateway's fit."""
    words, wire = find_candidate_words(table, position)
    view = position.view(lexicon.trie)
    stats = {name: wire[key] for key, name in WIRE_STATS.items() if key in wire}
    return finish(position, view, plan(view, position.rack, signatures=False), words, stats)


def assert_same_as_trie(position, engines, table, label):
    want = rows(engines.trie.generate(position))
    assert len(want) == len(set(want))
    for engine in IN_PROCESS:
        assert rows(engines[engine].generate(position)) == want, (label, engine)
    assert rows(compact(position, engines.lexicon, table)) == want, (label, "compact")


@pytest.mark.parametrize(("position", "expected"), CASES, ids=[p["id"] for p, _ in CASES])
def test_engines_reproduce_golden(engines, table, position, expected):
    pos = make_position(position["board"], position["rack"])
    reference = {
        (m["row"], m["col"], m["dir"], m["word"], m["tiles"], m["score"]) for m in expected["moves"]
    }
    trie_rows = rows(engines.trie.generate(pos))
    for engine in IN_PROCESS:
        moves = engines[engine].generate(pos)
        keys = [move_at(moves, i).golden_key() for i in range(len(moves))]
        assert len(keys) == expected["n_moves"], engine
        assert set(keys) == reference, engine
        assert rows(moves) == trie_rows, engine
    assert rows(compact(pos, engines.lexicon, table)) == trie_rows


def test_seeded_self_play_with_0_1_2_blanks(lexicon, engines, table):
    samples = self_play_positions(lexicon, count=45, seed=31, one_blank=0.3, two_blanks=0.2)
    assert {s.blanks for s in samples} == {0, 1, 2}
    for s in samples:
        assert_same_as_trie(s.position, engines, table, (s.game, s.turn))


def test_every_engine_reports_its_statistics(engines, table):
    pos = make_position(["." * 15] * 7 + ["....QUIET......"] + ["." * 15] * 7, "SORE?")
    trie = engines.trie.generate(pos)
    # each signature of a main word the trie found is a hit of every signature engine
    main_signatures = {signature_of(move_at(trie, i).word) for i in range(len(trie))}
    compact_stats = compact(pos, engines.lexicon, table).stats
    hop = {"worker_ms", "cache_hit", "worker_roundtrip_ms"}  # over HTTP: test_worker.py
    for name, spec in ENGINES.items():
        stats = compact_stats if spec.remote else engines[name].generate(pos).stats
        assert set(spec.stats) - hop <= set(stats), name
        if spec.lookup is not None or spec.remote:
            assert len(main_signatures) <= stats["hits"] <= stats["lookups"], name
            assert stats["lookups"] <= stats["signatures_built"], name
            assert stats["candidate_words"] >= len(
                {move_at(trie, i).word.upper() for i in range(len(trie))}
            ), name
    assert engines["sqlite-hash"].generate(pos).stats["sqlite_queries"] >= 1


def test_prime_product_resolves_key_collisions(lexicon):
    from scrabble.engines.prime_product import PrimeProduct
    from scrabble.lexicon.table import keys_from_blobs

    rows_ = lexicon.rows()
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
    narrow_engine = SpanEngine("prime-product", lexicon, narrow)
    assert rows(narrow_engine.generate(pos)) == rows(EngineSet(lexicon).trie.generate(pos))


@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    seed=st.integers(0, 10**6), turns=st.integers(1, 14), blanks=st.sampled_from([0.0, 0.5, 1.0])
)
def test_random_positions_agree(lexicon, engines, table, seed, turns, blanks):
    sample = self_play_positions(
        lexicon, count=turns, seed=seed, one_blank=blanks / 2, two_blanks=blanks / 2
    )[-1]
    assert_same_as_trie(sample.position, engines, table, (seed, turns))
