"""Prospect rows: the plays an action is valued against, as flat arrays.

A row is a placement on one line: its span, its letters with flags (``NEW`` a
square the hand fills, ``PRE`` a square an earlier play must fill with that
letter, neither a board tile), its score when played, the letters its new
tiles need (at most 9 distinct), its footprint (the squares where another
play's tile would change it: new and pre-placed squares, the squares just
before and after the span, and the perpendicular neighbours of new and
pre-placed squares) as a bitset, and a weight: 1 for a prospect, less for a
setup or target-line row that the action does not itself advance.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from scrabble.wordgame.search import (
    LETTER,
    META_DIR,
    META_LEN,
    META_LINE,
    META_SCORE,
    META_START,
    NEW,
)

PRE = 32  # the search's VISIBLE bit, dropped when a row is made
FOOT_WORDS = 7  # 7 x 64 bits >= 400 squares
MAX_NEED = 9
PROSPECT, SETUP, TABLE = 0, 1, 2
PRE_FACTOR = 0.6  # the write-up's discount per pre-placed letter still to place
FIELDS = (
    "direction",
    "line",
    "start",
    "length",
    "codes",
    "score",
    "pre",
    "weight",
    "kind",
    "need_letter",
    "need_count",
    "need_k",
    "foot",
)


@dataclass
class Rows:
    direction: np.ndarray  # int64 (R,)
    line: np.ndarray
    start: np.ndarray
    length: np.ndarray
    codes: np.ndarray  # uint8 (R, n)
    score: np.ndarray  # int64
    pre: np.ndarray  # int64: pre-placed squares
    weight: np.ndarray  # float64
    kind: np.ndarray  # int64: PROSPECT, SETUP or TABLE
    need_letter: np.ndarray  # int64 (R, 9)
    need_count: np.ndarray  # int64 (R, 9)
    need_k: np.ndarray  # int64
    foot: np.ndarray  # uint64 (R, 7)

    def __len__(self) -> int:
        return len(self.score)


@njit(cache=True)
def _describe(
    direction, line, start, length, codes, n, need_letter, need_count, need_k, foot, with_foot
):
    rows = direction.shape[0]
    counts = np.zeros(26, dtype=np.int64)
    for i in range(rows):
        d = direction[i]
        r = line[i]
        s = start[i]
        ln = length[i]
        k = 0
        for lt in range(26):
            counts[lt] = 0
        if not with_foot:
            for j in range(ln):
                code = codes[i, j]
                if code & NEW:
                    counts[(code & LETTER) - 1] += 1
        for j in range(-1, ln + 1):
            if not with_foot:
                break
            c = s + j
            if c < 0 or c >= n:
                continue
            row, col = (r, c) if d == 0 else (c, r)
            if j == -1 or j == ln:
                sq = row * n + col
                foot[i, sq >> 6] |= np.uint64(1) << np.uint64(sq & 63)
                continue
            code = codes[i, j]
            if code & (NEW | PRE) == 0:
                continue
            if code & NEW:
                counts[(code & LETTER) - 1] += 1
            for dr, dc in ((0, 0), (1, 0), (-1, 0)) if d == 0 else ((0, 0), (0, 1), (0, -1)):
                rr = row + dr
                cc = col + dc
                if 0 <= rr < n and 0 <= cc < n:
                    sq = rr * n + cc
                    foot[i, sq >> 6] |= np.uint64(1) << np.uint64(sq & 63)
        for lt in range(26):
            if counts[lt] > 0 and k < need_letter.shape[1]:
                need_letter[i, k] = lt
                need_count[i, k] = counts[lt]
                k += 1
        need_k[i] = k


def make_rows(
    direction: np.ndarray,
    line: np.ndarray,
    start: np.ndarray,
    length: np.ndarray,
    codes: np.ndarray,
    score: np.ndarray,
    pre: np.ndarray,
    weight: np.ndarray,
    n: int,
    with_foot: bool = True,
    kind: int = PROSPECT,
) -> Rows:
    """Rows with their needs; footprints too unless ``with_foot`` is False (rows
    that are only valued, never checked against a play)."""
    count = len(score)
    need_letter = np.zeros((count, MAX_NEED), dtype=np.int64)
    need_count = np.zeros((count, MAX_NEED), dtype=np.int64)
    need_k = np.zeros(count, dtype=np.int64)
    foot = np.zeros((count, FOOT_WORDS), dtype=np.uint64)
    direction = np.ascontiguousarray(direction, dtype=np.int64)
    line = np.ascontiguousarray(line, dtype=np.int64)
    start = np.ascontiguousarray(start, dtype=np.int64)
    length = np.ascontiguousarray(length, dtype=np.int64)
    codes = np.ascontiguousarray(codes, dtype=np.uint8)
    _describe(
        direction, line, start, length, codes, n, need_letter, need_count, need_k, foot, with_foot
    )
    return Rows(
        direction=direction,
        line=line,
        start=start,
        length=length,
        codes=codes,
        score=np.ascontiguousarray(score, dtype=np.int64),
        pre=np.ascontiguousarray(pre, dtype=np.int64),
        weight=np.ascontiguousarray(weight, dtype=np.float64),
        kind=np.full(count, kind, dtype=np.int64),
        need_letter=need_letter,
        need_count=need_count,
        need_k=need_k,
        foot=foot,
    )


def rows_from_search(meta: np.ndarray, codes: np.ndarray, n: int, with_foot: bool = True) -> Rows:
    """Search output -> prospect rows (weight 1, nothing pre-placed). The
    search's MISSING flag is dropped: what is missing depends on the hand an
    action leaves, and is worked out against it."""
    k = len(meta)
    return make_rows(
        meta[:, META_DIR],
        meta[:, META_LINE],
        meta[:, META_START],
        meta[:, META_LEN],
        codes & np.uint8(LETTER | NEW),
        meta[:, META_SCORE],
        np.zeros(k, dtype=np.int64),
        np.ones(k, dtype=np.float64),
        n,
        with_foot,
    )


def concat(parts: list[Rows], n: int) -> Rows:
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty_rows(n)
    return Rows(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))


def empty_rows(n: int) -> Rows:
    z = np.zeros(0, dtype=np.int64)
    return Rows(
        direction=z,
        line=z,
        start=z,
        length=z,
        codes=np.zeros((0, n), dtype=np.uint8),
        score=z,
        pre=z,
        weight=np.zeros(0, dtype=np.float64),
        kind=z,
        need_letter=np.zeros((0, MAX_NEED), dtype=np.int64),
        need_count=np.zeros((0, MAX_NEED), dtype=np.int64),
        need_k=z,
        foot=np.zeros((0, FOOT_WORDS), dtype=np.uint64),
    )


def with_footprints(rows: Rows, n: int) -> Rows:
    out = make_rows(
        rows.direction,
        rows.line,
        rows.start,
        rows.length,
        rows.codes,
        rows.score,
        rows.pre,
        rows.weight,
        n,
    )
    out.kind = rows.kind.copy()
    return out


def take(rows: Rows, index: np.ndarray) -> Rows:
    return Rows(*(getattr(rows, f)[index] for f in FIELDS))


@njit(cache=True)
def play_tiles(direction, line, start, length, codes, n):
    """Per play: its new tiles' squares and letters, their count, their
    squares as a bitset, and the letters they use (26 counts)."""
    moves = direction.shape[0]
    tile_sq = np.zeros((moves, MAX_NEED), dtype=np.int64)
    tile_lt = np.zeros((moves, MAX_NEED), dtype=np.int64)
    tile_n = np.zeros(moves, dtype=np.int64)
    stamp = np.zeros((moves, FOOT_WORDS), dtype=np.uint64)
    used = np.zeros((moves, 26), dtype=np.int64)
    for m in range(moves):
        t = 0
        for j in range(length[m]):
            code = codes[m, j]
            if code & NEW == 0:
                continue
            c = start[m] + j
            sq = line[m] * n + c if direction[m] == 0 else c * n + line[m]
            lt = (code & LETTER) - 1
            tile_sq[m, t] = sq
            tile_lt[m, t] = lt
            used[m, lt] += 1
            stamp[m, sq >> 6] |= np.uint64(1) << np.uint64(sq & 63)
            t += 1
        tile_n[m] = t
    return tile_sq, tile_lt, tile_n, stamp, used


def need_counts(rows: Rows) -> np.ndarray:
    """(R, 26): each row's new letters as counts."""
    need = np.zeros((len(rows), 26), dtype=np.int64)
    for j in range(rows.need_letter.shape[1]):
        live = np.nonzero(j < rows.need_k)[0]
        np.add.at(need, (live, rows.need_letter[live, j]), rows.need_count[live, j])
    return need


def in_hand(hand: np.ndarray, rows: Rows, needs: np.ndarray) -> np.ndarray:
    """(R,): whether row r (``needs``: its ``need_counts``) is a play that
    ``hand`` (26 counts) makes now: an ordinary prospect, nothing pre-placed,
    every new letter held."""
    ordinary = (rows.kind == PROSPECT) & (rows.pre == 0)
    held = (needs <= hand[None, :]).all(axis=1)
    return np.asarray(held & ordinary)


def placement(rows: Rows, r: int) -> tuple[int, int, int, int, bytes]:
    """Row r's line, start, length and letters: equal exactly for the same play."""
    return (
        int(rows.direction[r]),
        int(rows.line[r]),
        int(rows.start[r]),
        int(rows.length[r]),
        rows.codes[r].tobytes(),
    )


def same_rows(found: Rows, rows: Rows, among: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indices in ``found`` of the placements that are rows ``among`` of
    ``rows`` too (same line, start and letters), their needs)."""
    if not len(among):
        return among, np.zeros((0, 26), dtype=np.int64)
    # the spans first, all at once: the letters are compared only where a
    # span matches (a handful of the thousands found; a loop over them all
    # was a quarter of the planner's time)
    on_span = np.nonzero(np.isin(_span_keys(found), _span_keys(rows)[among]))[0]
    keys = {placement(rows, r) for r in among.tolist()}
    idx = np.array([r for r in on_span.tolist() if placement(found, r) in keys], dtype=np.int64)
    return idx, need_counts(take(found, idx))


def _span_keys(rows: Rows) -> np.ndarray:
    """(R,): each row's direction, line, start and length as one integer
    (five bits each: N is at most 20)."""
    keys: np.ndarray = ((rows.direction * 32 + rows.line) * 32 + rows.start) * 32 + rows.length
    return keys


def thrown_back(haves: np.ndarray, needs: np.ndarray) -> np.ndarray:
    """(L, k): which of k rows (their new letters ``needs``) each leave
    (``haves``, with the visible tiles) no longer holds."""
    holds = np.all(needs[None, :, :] <= haves[:, None, :], axis=2)
    thrown: np.ndarray = np.logical_not(holds)
    return thrown


def drop_thrown_back(
    vals: np.ndarray, haves: np.ndarray, made: np.ndarray, needs: np.ndarray
) -> None:
    """Zero, in ``vals`` (leaves x rows, in place), the plays made now (``made``,
    with ``needs``) that a leave (``haves``: with the visible tiles) no longer
    holds: a letter thrown back to be drawn again can only cost turns, and the
    row carries none of the terms the same play made now is charged."""
    if not len(made):
        return
    thrown = thrown_back(haves, needs)
    part = vals[:, made]
    part[thrown] = 0.0
    vals[:, made] = part
