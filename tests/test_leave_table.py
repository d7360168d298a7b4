"""The leave catalog, the table file and the kernel's per-rack lookup."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import numpy as np
import pytest

from scrabble.equity.leave import leave_value
from scrabble.equity.leave_index import LeaveIndex
from scrabble.equity.leave_table import LeaveTable, LeaveTableError, file_sha256, table_path
from scrabble.lexicon.loaded import Lexicon
from scrabble.rules import STANDARD
from scrabble.tiles import RACK_SYMBOLS, rack_counts

ROOT = Path(__file__).resolve().parents[1]


def caps_from(tiles: str) -> np.ndarray:
    return rack_counts(tiles).astype(np.int64)


def brute_catalog(caps: np.ndarray, min_size: int, max_size: int) -> list[tuple[int, ...]]:
    """Every sub-multiset of the tile set as sorted tile codes (blank = 26, last),
    by size then lexicographically: itertools over the tiles themselves."""
    tiles = [t for t in range(27) for _ in range(int(caps[t]))]
    out: list[tuple[int, ...]] = []
    for size in range(min_size, max_size + 1):
        out.extend(sorted(set(itertools.combinations(tiles, size))))
    return out


def codes_of(row: np.ndarray) -> tuple[int, ...]:
    return tuple(t for t in range(27) for _ in range(int(row[t])))


@pytest.mark.parametrize(
    "tiles, min_size, max_size",
    [
        ("AAABBC??", 1, 4),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZ?", 1, 3),
        ("EEEEQSSUZ??", 0, 11),  # sizes 0..all, types with no tiles between held ones
        ("AAABBC??", 3, 3),
    ],
)
def test_catalog_order_is_the_brute_force_order(tiles: str, min_size: int, max_size: int) -> None:
    caps = caps_from(tiles)
    index = LeaveIndex.build(caps, min_size, max_size)
    expected = brute_catalog(caps, min_size, max_size)
    got = [codes_of(row) for row in index.all_leaves()]
    assert got == expected
    assert len(index) == len(expected)
    for position, row in enumerate(index.all_leaves()):
        assert index.rank(row) == position
        assert (index.leave_at(position) == row).all()


def test_english_catalog_sizes() -> None:
    """914,624 leaves of 1-6 tiles and 3,199,724 racks of 7, by the catalog and by
    an independent count: the coefficients of prod_t (1 + x + ... + x^tiles_t)."""
    poly = np.array([1], dtype=object)
    for n in STANDARD.counts.tolist():
        poly = np.convolve(poly, np.array([1] * (n + 1), dtype=object))
    leaves = LeaveIndex.build(STANDARD.counts, 1, 6)
    racks = LeaveIndex.build(STANDARD.counts, 7, 7)
    assert len(leaves) == sum(poly[1:7]) == 914_624
    assert len(racks) == poly[7] == 3_199_724
    assert leaves.all_leaves().shape == (914_624, 27)


def test_english_rank_round_trip_and_outside() -> None:
    index = LeaveIndex.build(STANDARD.counts, 1, 6)
    rows = index.all_leaves()
    rng = np.random.default_rng(3)
    for position in [0, 1, 26, 27, len(index) - 1, *rng.integers(0, len(index), 3000)]:
        assert index.rank(rows[position]) == position
    assert index.rank(caps_from("")) == -1  # empty: not a table leave
    assert index.rank(caps_from("AEINRST")) == -1  # a whole rack
    assert index.rank(caps_from("???")) == -1  # more blanks than the set holds
    assert index.rank(caps_from("ZZ")) == -1


def random_table(seed: int) -> LeaveTable:
    index = LeaveTable.catalog(STANDARD.counts, 7)
    values = np.random.default_rng(seed).integers(-40_000, 40_000, len(index)).astype(np.int32)
    return LeaveTable(index=index, values=values, rack_size=7)


def test_file_round_trip(tmp_path: Path) -> None:
    table = random_table(1)
    table = LeaveTable(
        index=table.index, values=table.values, rack_size=7, provenance={"seed": 5, "command": "x"}
    )
    path = tmp_path / "t.leaves"
    sha = table.save(path)
    assert sha == file_sha256(path)
    back = LeaveTable.read(path)
    assert (back.values == table.values).all()
    assert back.provenance == {"seed": 5, "command": "x"}
    assert back.header()["leaves"] == 914_624
    assert back.value(caps_from("ERS")) == table.values[table.index.rank(caps_from("ERS"))]
    (tmp_path / "bad.leaves").write_bytes(b"not a table\n")
    with pytest.raises(LeaveTableError):
        LeaveTable.read(tmp_path / "bad.leaves")
    path.write_bytes(path.read_bytes()[:-1000])
    with pytest.raises(Exception):  # noqa: B017 - truncated zlib data or a short payload
        LeaveTable.read(path)


def test_linear_table_is_the_linear_model() -> None:
    table = LeaveTable.linear(STANDARD.counts, 7)
    rows = table.index.all_leaves()
    for position in np.random.default_rng(4).integers(0, len(rows), 3000):
        assert table.values[position] == leave_value(rows[position])


def plain_rack_values(
    table: LeaveTable, lookup: dict[bytes, int], rack: np.ndarray
) -> tuple[list[int], list[int]]:
    """The per-subset lookup in plain Python: itertools over the rack's types."""
    held = [t for t in range(27) if rack[t] > 0]
    radix = [0] * 27
    step = 1
    for t in held:
        radix[t] = step
        step *= int(rack[t]) + 1
    values = [0] * step
    for combo in itertools.product(*(range(int(rack[t]) + 1) for t in held)):
        leave = np.zeros(27, dtype=np.uint8)
        leave[held] = combo
        index = sum(c * radix[t] for c, t in zip(combo, held, strict=True))
        size = int(leave.sum())
        if size == 0 or size == int(rack.sum()):
            values[index] = 0
        elif leave.tobytes() in lookup:
            values[index] = int(table.values[lookup[leave.tobytes()]])
        else:
            values[index] = leave_value(leave)
    return values, radix


def test_rack_leave_values_against_a_plain_lookup() -> None:
    table = random_table(2)
    rows = table.index.all_leaves()
    lookup = {rows[i].tobytes(): i for i in range(len(rows))}
    bag = [t for t in range(27) for _ in range(int(STANDARD.counts[t]))]
    rng = random.Random(5)
    racks = []
    for size in (1, 2, 5, 7, 7, 7, 8, 9, 9):
        for _ in range(6):
            racks.append(rng.sample(bag, size))
    racks += [
        [26, 26, 0, 4, 18, 19, 17],
        [26, 26, 26, 25, 25, 16, 20],  # beyond the tile set
        [0] * 9,
        [25] * 5 + [16, 20, 26, 26],
        list(range(9)),
    ]
    for tiles in racks:
        rack = np.bincount(tiles, minlength=27).astype(np.int64)
        values, radix = table.rack_values(rack)
        expected_values, expected_radix = plain_rack_values(table, lookup, rack)
        assert radix.tolist() == expected_radix
        assert values.tolist() == expected_values, "".join(RACK_SYMBOLS[t] for t in tiles)


def documented_sha256(name: str) -> str:
    text = (ROOT / "docs" / "leaves.md").read_text()
    found = re.search(rf"`{name}\.leaves`[^\n]*sha256 `([0-9a-f]{{64}})`", text)
    assert found, f"docs/leaves.md records no sha256 for {name}.leaves"
    return found.group(1)


def test_committed_sowpods_table(lexicon: Lexicon) -> None:
    path = table_path("sowpods")
    assert file_sha256(path) == documented_sha256("sowpods")
    table = LeaveTable.load("sowpods")
    p = table.provenance
    assert p["lexicon"] == {"name": "sowpods", "sha256": lexicon.info.sha256}
    assert p["games"] == p["games_per_generation"] * p["generations"] >= 1_000_000
    assert p["dirty_tree"] is False and re.fullmatch(r"[0-9a-f]{40}", p["commit"])
    assert p["command"].startswith("scripts/leavegen.py --lexicon sowpods")
    value = {leave: table.value(caps_from(leave)) for leave in ("?", "S", "Q", "UU", "VV")}
    assert value["?"] > value["S"] > 0, value
    assert value["Q"] < 0 and value["UU"] < 0 and value["VV"] < 0, value
