"""An exhaustive leave table: one integer value (millipoints) per leave of 1..rack_size-1 tiles.

The file (``scrabble/data/leaves/<lexicon>.leaves``) is a magic line, one line
of JSON (format, tile set, sizes, provenance) and the values as zlib-compressed
little-endian int32 in the canonical order of ``leave_index`` -- no keys: a
leave's position is its combinatorial rank, computed from its counts.

``rack_leave_values`` is what a move generator needs per rack: the value of
every sub-multiset of the rack, indexed in mixed radix over the rack's tile
types (``radix[t] = prod over t' < t of (rack[t'] + 1)``, 0 for types not held),
so a move keeping counts ``S`` reads ``values[S @ radix]``. Conventions:

* the empty leave (every tile played, or all thrown back) is 0;
* the whole rack kept (a pass) is 0: it draws nothing, so the table's meaning
  ("what these tiles are worth with the rack refilled") does not apply;
* a leave the table does not hold -- more tiles than its largest leaves (racks
  of 8-9 tiles), or more copies of a tile than the tile set has (variants that
  draw with replacement) -- gets the linear model of ``equity.leave``.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from scrabble.equity.leave import VOWELS, WEIGHTS
from scrabble.equity.leave_index import TYPES, LeaveIndex
from scrabble.tiles import RACK_SYMBOLS

MAGIC = b"scrabble-leave-table\n"
FORMAT = 1
Q, U = 16, 20
FALLBACK_VOWELS = VOWELS.astype(np.int64)  # the linear model's vowel mask (blank: neither)


@njit(cache=True)
def linear_leave_value(counts: np.ndarray, weights: np.ndarray, vowels: np.ndarray) -> int:
    """The linear model of ``equity.leave.features`` @ ``WEIGHTS`` (27 counts)."""
    value = 0
    dup_vowel = 0
    dup_consonant = 0
    triple = 0
    vowel_count = 0
    consonant_count = 0
    for t in range(TYPES):
        value += counts[t] * weights[t]
        if t == TYPES - 1:
            continue  # the blank: no duplicate or balance terms
        if counts[t] > 1:
            if vowels[t]:
                dup_vowel += counts[t] - 1
            else:
                dup_consonant += counts[t] - 1
        if counts[t] > 2:
            triple += counts[t] - 2
        if vowels[t]:
            vowel_count += counts[t]
        else:
            consonant_count += counts[t]
    vowel_excess = max(0, vowel_count - consonant_count)
    consonant_excess = max(0, consonant_count - vowel_count - 1)
    value += dup_vowel * weights[27] + dup_consonant * weights[28] + triple * weights[29]
    value += vowel_excess * vowel_excess * weights[30]
    value += consonant_excess * consonant_excess * weights[31]
    if counts[Q] > 0 and counts[U] == 0:
        value += weights[32]
    return int(value)


@njit(cache=True)
def rack_leave_values(
    values: np.ndarray,
    caps: np.ndarray,
    skip: np.ndarray,
    gap: np.ndarray,
    offsets: np.ndarray,
    weights: np.ndarray,
    vowels: np.ndarray,
    rack: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Values (millipoints) of every sub-multiset of ``rack`` (27 counts, up to 9
    tiles or more) in mixed-radix order, and the radix (see the module doc).

    The table arrays are ``LeaveTable.arrays`` (a catalog starting at size 1).
    Sub-multisets are visited as an odometer over the rack's tile types; each
    one's catalog rank costs one step per type held (runs of types not held are
    one ``gap`` subtraction), so a 7-tile rack (at most 128 leaves) is a few
    hundred operations.
    """
    max_size = skip.shape[1] - 1
    radix = np.zeros(TYPES, dtype=np.int64)
    types = np.zeros(TYPES, dtype=np.int64)
    held = 0
    combos = 1
    total = 0
    for t in range(TYPES):
        if rack[t] > 0:
            radix[t] = combos
            types[held] = t
            held += 1
            combos *= rack[t] + 1
            total += rack[t]
    out = np.zeros(combos, dtype=np.int64)
    digits = np.zeros(TYPES, dtype=np.int64)  # copies of types[j] kept
    counts = np.zeros(TYPES, dtype=np.int64)
    size = 0
    for index in range(combos):
        if index > 0:  # odometer step: the next sub-multiset in mixed-radix order
            j = 0
            while digits[j] == rack[types[j]]:
                size -= digits[j]
                digits[j] = 0
                counts[types[j]] = 0
                j += 1
            digits[j] += 1
            counts[types[j]] += 1
            size += 1
        if size == 0 or size == total:
            continue  # empty leave and whole rack kept: 0
        inside = size <= max_size
        for j in range(held):
            if digits[j] > caps[types[j]]:
                inside = False
        if not inside:
            out[index] = linear_leave_value(counts, weights, vowels)
            continue
        rank = offsets[size - 1]
        rem = size
        previous = 0
        for j in range(held):
            t = types[j]
            rank += gap[t, rem] - gap[previous, rem] + skip[t, rem, digits[j]]
            rem -= digits[j]
            previous = t + 1
        rank += gap[TYPES, rem] - gap[previous, rem]
        out[index] = values[rank]
    return out, radix


@njit(cache=True)
def catalog_linear_values(
    leaves: np.ndarray, weights: np.ndarray, vowels: np.ndarray
) -> np.ndarray:
    out = np.zeros(leaves.shape[0], dtype=np.int32)
    counts = np.zeros(TYPES, dtype=np.int64)
    for i in range(leaves.shape[0]):
        for t in range(TYPES):
            counts[t] = leaves[i, t]
        out[i] = linear_leave_value(counts, weights, vowels)
    return out


def data_dir() -> Path:
    """Where the package's leave tables live (``scrabble/data/leaves``)."""
    return Path(str(resources.files("scrabble"))) / "data" / "leaves"


def table_path(name: str) -> Path:
    return data_dir() / f"{name}.leaves"


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tile_set_of(caps: np.ndarray) -> dict[str, int]:
    return {symbol: int(n) for symbol, n in zip(RACK_SYMBOLS, caps.tolist(), strict=True)}


def caps_of(tile_set: dict[str, int]) -> np.ndarray:
    return np.array([tile_set.get(symbol, 0) for symbol in RACK_SYMBOLS], dtype=np.int64)


class LeaveTableError(ValueError):
    """A leave table file that is not one, or does not fit its header."""


@dataclass(frozen=True)
class LeaveTable:
    index: LeaveIndex  # the catalog, sizes 1..rack_size-1
    values: np.ndarray  # int32[len(index)], millipoints
    rack_size: int
    provenance: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.index.min_size != 1:
            raise ValueError("a leave table's catalog starts at one tile")
        if self.values.shape != (len(self.index),) or self.values.dtype != np.int32:
            raise ValueError(f"values must be int32[{len(self.index)}]")

    # -- construction ----------------------------------------------------------
    @classmethod
    def catalog(cls, caps: np.ndarray, rack_size: int) -> LeaveIndex:
        return LeaveIndex.build(caps, 1, rack_size - 1)

    @classmethod
    def linear(cls, caps: np.ndarray, rack_size: int) -> LeaveTable:
        """The linear model of ``equity.leave`` written out for every leave."""
        index = cls.catalog(caps, rack_size)
        values = catalog_linear_values(index.all_leaves(), WEIGHTS, FALLBACK_VOWELS)
        return cls(
            index=index,
            values=values,
            rack_size=rack_size,
            provenance={"model": "linear (scrabble/equity/leave.py)"},
        )

    # -- lookups ---------------------------------------------------------------
    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arguments ``rack_leave_values`` takes before the rack."""
        return (
            self.values,
            self.index.caps,
            self.index.skip,
            self.index.gap,
            self.index.offsets,
            WEIGHTS,
            FALLBACK_VOWELS,
        )

    def rack_values(self, rack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``rack_leave_values`` for one rack (27 counts)."""
        index = self.index
        return rack_leave_values(
            self.values,
            index.caps,
            index.skip,
            index.gap,
            index.offsets,
            WEIGHTS,
            FALLBACK_VOWELS,
            np.asarray(rack, dtype=np.int64),
        )

    def value(self, counts: np.ndarray) -> int:
        """Millipoints of keeping ``counts`` (27): 0 for nothing, the table's value
        when it holds the leave, else the linear model."""
        counts64 = np.asarray(counts, dtype=np.int64)
        if counts64.sum() == 0:
            return 0
        position = self.index.rank(counts64)
        if position < 0:
            return int(linear_leave_value(counts64, WEIGHTS, FALLBACK_VOWELS))
        return int(self.values[position])

    # -- file ------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "tile_set": tile_set_of(self.index.caps),
            "rack_size": self.rack_size,
            "min_size": 1,
            "max_size": self.index.max_size,
            "leaves": len(self.index),
            "order": "size, then sorted tiles A..Z?",
            "values": "int32 little-endian millipoints, zlib",
            "provenance": self.provenance,
        }

    def save(self, path: Path) -> str:
        """Write the table (atomically); returns the file's sha256."""
        head = json.dumps(self.header(), sort_keys=True, separators=(",", ":")).encode()
        body = zlib.compress(self.values.astype("<i4").tobytes(), 9)
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(MAGIC + head + b"\n" + body)
        tmp.replace(path)
        return file_sha256(path)

    @classmethod
    def read(cls, path: Path) -> LeaveTable:
        data = Path(path).read_bytes()
        if not data.startswith(MAGIC):
            raise LeaveTableError(f"{path} is not a leave table")
        end = data.index(b"\n", len(MAGIC))
        head = json.loads(data[len(MAGIC) : end])
        if head.get("format") != FORMAT:
            raise LeaveTableError(f"{path}: format {head.get('format')}, expected {FORMAT}")
        rack_size = int(head["rack_size"])
        index = cls.catalog(caps_of(head["tile_set"]), rack_size)
        values = np.frombuffer(zlib.decompress(data[end + 1 :]), dtype="<i4").astype(np.int32)
        if len(values) != len(index) or head["leaves"] != len(index):
            raise LeaveTableError(f"{path}: {len(values)} values for {len(index)} leaves")
        values.setflags(write=False)
        return cls(
            index=index, values=values, rack_size=rack_size, provenance=head.get("provenance", {})
        )

    @classmethod
    def load(cls, name: str | Path) -> LeaveTable:
        """The package's table for lexicon ``name`` (``sowpods``), or a file path."""
        path = Path(name) if isinstance(name, Path) or "/" in str(name) else table_path(name)
        if not path.is_file():
            raise FileNotFoundError(f"no leave table at {path}: make one with scripts/leavegen.py")
        return cls.read(path)
