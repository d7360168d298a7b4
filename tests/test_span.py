"""Spans and their distinct signatures against a plain-Python enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from scrabble.engines.span import INC, plan, rack_subsets
from scrabble.lexicon.signature import pack
from scrabble.lexicon.table import blobs_from_keys
from scrabble.position import make_position
from scrabble.tiles import rack_counts
from tooling.golden import golden_positions

POSITIONS = {p["id"]: p for p in golden_positions()}


def brute_spans(lines: np.ndarray, masks: np.ndarray, tiles: int, empty_board: bool, playable: int):
    """(line, start, end) of every span, straight from the definition: every
    empty square in it must take some letter the rack can play (``playable``)."""
    n = lines.shape[0]

    def anchor(r, c):
        if lines[r, c]:
            return False
        if empty_board:
            return (r, c) == (7, 7)
        return any(
            0 <= rr < n and 0 <= cc < n and lines[rr, cc]
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        )

    out = set()
    for r in range(n):
        for s in range(n):
            for e in range(s + 1, min(n, s + 15)):
                if s > 0 and lines[r, s - 1] or e < n - 1 and lines[r, e + 1]:
                    continue
                empties = [c for c in range(s, e + 1) if not lines[r, c]]
                if not 1 <= len(empties) <= tiles:
                    continue
                if any(int(masks[r, c]) & playable == 0 for c in empties):
                    continue
                if any(anchor(r, c) for c in empties):
                    out.add((r, s, e))
    return out


def brute_signatures(position, view) -> set[bytes]:
    rack = position.rack
    letters = [lt for lt in range(26) for _ in range(int(rack[lt]))]
    blanks = int(rack[26])
    playable = (1 << 26) - 1 if blanks else sum(1 << lt for lt in set(letters))
    out = set()
    for lines, masks in zip(view.lines, view.cross_mask, strict=True):
        spans = brute_spans(lines, masks, int(rack.sum()), position.is_empty, playable)
        for r, s, e in spans:
            fixed = np.zeros(26, dtype=np.uint8)
            union = 0
            k = 0
            for c in range(s, e + 1):
                if lines[r, c]:
                    fixed[(lines[r, c] & 31) - 1] += 1
                else:
                    union |= int(masks[r, c])
                    k += 1
            allowed = [lt for lt in range(26) if union >> lt & 1]
            for j in range(0, min(blanks, k) + 1):
                for part in itertools.combinations(letters, k - j):
                    if any(lt not in allowed for lt in part):
                        continue
                    for extra in itertools.combinations_with_replacement(allowed, j):
                        counts = fixed.copy()
                        for lt in part + extra:
                            counts[lt] += 1
                        out.add(pack(counts))
    return out


def test_rack_subsets_collapse_duplicates():
    keys, sizes, _, size_first = rack_subsets(rack_counts("AABBC").astype(np.int64), INC)
    assert len(keys) == 3 * 3 * 2  # one per sub-multiset, the empty one included
    assert len({tuple(k) for k in keys}) == len(keys)
    assert sorted(sizes.tolist()).count(5) == 1 and sorted(sizes.tolist()).count(0) == 1
    assert sizes.tolist() == sorted(sizes.tolist())  # grouped by size, with offsets
    for z in range(6):
        assert (sizes[size_first[z] : size_first[z + 1]] == z).all()
    assert size_first[6] == size_first[-1] == len(keys)


def test_opening_spans(lexicon):
    position = make_position(["." * 15] * 15, "AEINRST")
    p = plan(position.view(lexicon.trie), position.rack)
    # each direction: every placement of length 2..7 covering the centre square
    assert len(p.spans) == 2 * sum(range(2, 8))
    assert len(p.queries) == len({bytes(b) for b in blobs_from_keys(p.queries)})


@pytest.mark.parametrize(
    ("pid", "rack"),
    [
        ("g01", None),
        ("g05", None),
        ("g21", None),
        ("g28", None),
        ("g36", None),
        ("g40", None),
        ("g19", "OR??"),
        ("g03", "AQ??"),
    ],
)  # (two blanks on short racks keep Python quick)
def test_signatures_equal_plain_enumeration(lexicon, pid, rack):
    position = make_position(POSITIONS[pid]["board"], rack or POSITIONS[pid]["rack"])
    view = position.view(lexicon.trie)
    p = plan(view, position.rack)
    got = [bytes(b) for b in blobs_from_keys(p.queries)]
    assert len(got) == len(set(got)), "a signature is looked up twice"
    assert set(got) == brute_signatures(position, view)
    assert p.built >= len(got)
