"""The compact signature table: FNV-1a, packing, every row found, misses missed."""

from __future__ import annotations

import numpy as np
import pytest

from scrabble.board import table_view_arrays, trie_view
from scrabble.lexicon.signature import counts_of, pack, signature_of
from scrabble.lexicon.store import default_db_path
from scrabble.lexicon.table import (
    FNV_OFFSET,
    FNV_PRIME,
    INC,
    SignatureTable,
    blobs_from_keys,
    build_slots,
    fnv1a,
    keys_from_blobs,
    probe_signatures,
)
from scrabble.position import make_position
from scrabble.tiles import ALL_LETTERS
from tooling.golden import golden_positions


@pytest.fixture(scope="module")
def table() -> SignatureTable:
    return SignatureTable.load(default_db_path())


def fnv1a_reference(data: bytes) -> int:
    h = int(FNV_OFFSET)
    for byte in data:
        h ^= byte
        h = (h * int(FNV_PRIME)) % (1 << 64)
    return h


def test_fnv1a_matches_the_textbook_definition():
    rng = np.random.default_rng(7)
    sigs = [signature_of(w) for w in ("A", "RETAINS", "ZYZZYVAS", "QI")]
    sigs += [bytes(rng.integers(0, 256, 13, dtype=np.uint8)) for _ in range(50)]
    keys = keys_from_blobs(sigs, len(sigs))
    for sig, (a, b) in zip(sigs, keys, strict=True):
        assert int(fnv1a(a, b)) == fnv1a_reference(sig)


def test_keys_round_trip_and_letter_increments():
    sigs = [signature_of(w) for w in ("AA", "QUIZ", "MUZJIKS", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")]
    keys = keys_from_blobs(sigs, len(sigs))
    assert [bytes(r) for r in blobs_from_keys(keys)] == sigs
    # adding INC[letter] to a packed signature is adding one of that letter
    a, b = keys[1]
    for letter in range(26):
        counts = counts_of("QUIZ")
        counts[letter] += 1
        want = keys_from_blobs(pack(counts), 1)[0]
        assert (a + INC[letter, 0], b + INC[letter, 1]) == (want[0], want[1])


def test_table_is_compact_and_finds_every_row(table):
    assert table.signatures == 237739
    assert table.capacity & (table.capacity - 1) == 0
    assert table.capacity >= 2 * table.signatures
    assert table.nbytes < 16 * 2**20
    rows, probes = table.lookup(table.keys)
    assert (rows == np.arange(table.signatures)).all()
    assert table.signatures <= probes < 2 * table.signatures  # short probe chains


def test_lookup_words_and_misses(table):
    queries = keys_from_blobs(
        [signature_of("RETAINS"), signature_of("QQQQ"), signature_of("ZZZ")], 3
    )
    rows, _ = table.lookup(queries)
    assert rows[1] == -1
    words = table.words_of(rows)
    assert "STEARIN" in words and "RETINAS" in words and "ZZZ" in words
    assert len(words) == 12  # 11 anagrams of RETAINS and ZZZ


def test_cross_checks_from_the_table_equal_the_tries(table, lexicon):
    positions = golden_positions()
    for p in positions[::4]:
        position = make_position(p["board"], p["rack"])
        rules = position.rules
        want = trie_view(position.board, rules, lexicon.trie)
        # only some letters tried (a blank-free rack's): the same bits of them
        for letters in (
            ALL_LETTERS,
            sum(1 << (ord(ch) - 65) for ch in set(p["rack"]) if ch != "?"),
        ):
            lines, mask, score, anchors, probes = table_view_arrays(
                position.board,
                rules.size,
                letters,
                table,
                rules.values,
                *rules.opening_square,
                False,
            )
            assert probes > 0 or position.is_empty
            assert (lines == want.lines).all() and (anchors == want.anchors).all()
            assert (score == want.cross_score).all(), p["id"]
            empty = lines == 0
            beside = np.zeros_like(empty)  # a tile above or below: a cross word
            beside[:, 1:] |= lines[:, :-1] != 0
            beside[:, :-1] |= lines[:, 1:] != 0
            crossed = empty & beside
            assert (mask[crossed] == (want.cross_mask[crossed] & letters)).all(), p["id"]
            assert (mask[empty & ~beside] == ALL_LETTERS).all()


def test_small_table_from_rows():
    rows = [(signature_of("AB"), "AB BA"), (signature_of("CAT"), "ACT CAT")]
    small = SignatureTable.from_rows(rows)
    found, _ = small.lookup(keys_from_blobs([signature_of("TAC"), signature_of("DOG")], 2))
    assert list(found) == [1, -1]
    assert small.words_of(found) == ["ACT", "CAT"]


def _one_at_a_time(slots, keys, queries):
    """Linear probing one query after another, in plain Python: rows, slots visited."""
    cap = len(slots)
    rows, visited = [], 0
    for a, b in queries:
        h = int(fnv1a(a, b))
        s, tag, row = h & (cap - 1), h >> 33, -1
        while True:
            visited += 1
            slot = int(slots[s])
            if slot < 0:
                break
            if slot >> 32 == tag and (keys[slot & 0xFFFFFFFF] == (a, b)).all():
                row = slot & 0xFFFFFFFF
                break
            s = (s + 1) & (cap - 1)
        rows.append(row)
    return rows, visited


@pytest.mark.parametrize("capacity", [None, 2**14])
def test_batched_probing_equals_probing_one_at_a_time(table, capacity):
    rng = np.random.default_rng(7)
    keys = table.keys if capacity is None else table.keys[:12000]  # 73% full: long chains
    slots = table.slots if capacity is None else build_slots(keys, capacity)
    hits = keys[rng.choice(len(keys), 400, replace=False)]
    misses = hits + INC[rng.integers(0, 26, 400)]  # one letter more: mostly not words
    queries = np.ascontiguousarray(np.concatenate([hits, misses])[rng.permutation(800)])
    rows, visited = probe_signatures(slots, keys, queries)
    want_rows, want_visited = _one_at_a_time(slots, keys, queries)
    assert rows.tolist() == want_rows
    assert visited == want_visited
    assert (rows >= 0).sum() >= 400 and (rows < 0).sum() > 0
