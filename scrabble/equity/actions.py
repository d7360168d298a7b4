"""A position's legal turns, ranked together: placements, exchanges, pass.

Indices 0..k-1 are the placements of a ``MoveList`` (in its order), then one
index per distinct exchange (each sub-multiset of the rack thrown back, when
the bag holds a full rack), then pass. Every equity term is defined on all of
them: an exchange scores 0 and keeps its tiles; a pass keeps the whole rack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import product

import numpy as np
import numpy.typing as npt

from scrabble.moves import PLACED, MoveList, leaves_of
from scrabble.position import Position
from scrabble.tiles import RACK_TYPES, rack_string

PLAY = 0
EXCHANGE = 1
PASS = 2


def exchange_keeps(rack: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Every distinct keep that throws at least one tile back, (E, 27), in a
    fixed order (mixed radix over the rack's tile types)."""
    counts = np.asarray(rack, dtype=np.int64)
    held = np.nonzero(counts)[0]
    keeps = []
    for choice in product(*(range(int(counts[t]) + 1) for t in held)):
        keep = np.zeros(RACK_TYPES, dtype=np.int64)
        keep[held] = choice
        if keep.sum() < counts.sum():
            keeps.append(keep)
    if not keeps:
        return np.zeros((0, RACK_TYPES), dtype=np.int64)
    return np.array(keeps, dtype=np.int64)


@dataclass
class Actions:
    position: Position
    moves: MoveList
    keeps: npt.NDArray[np.int64] = field(init=False)  # (E, 27) exchanges' keeps

    def __post_init__(self) -> None:
        allowed = self.position.bag_count >= self.position.rules.rack_size
        rack = self.position.rack
        self.keeps = (
            exchange_keeps(rack)
            if allowed and rack.sum()
            else np.zeros((0, RACK_TYPES), dtype=np.int64)
        )

    @property
    def placements(self) -> int:
        return len(self.moves)

    def __len__(self) -> int:
        return self.placements + len(self.keeps) + 1  # pass is always legal

    def kind(self, i: int) -> int:
        if i < self.placements:
            return PLAY
        return EXCHANGE if i < self.placements + len(self.keeps) else PASS

    @cached_property
    def kinds(self) -> npt.NDArray[np.int64]:
        out = np.full(len(self), PLAY, dtype=np.int64)
        out[self.placements : self.placements + len(self.keeps)] = EXCHANGE
        out[-1] = PASS
        return out

    @cached_property
    def kept(self) -> npt.NDArray[np.int64]:
        """(n, 27): the tiles each action keeps."""
        rack = self.position.rack.astype(np.int64)[None, :]
        return np.concatenate((leaves_of(self.position.rack, self.moves), self.keeps, rack))

    @cached_property
    def placed(self) -> npt.NDArray[np.int64]:
        """Tiles each action puts on the board (0 for exchange and pass)."""
        out = np.zeros(len(self), dtype=np.int64)
        out[: self.placements] = self.moves.meta[:, PLACED]
        return out

    @cached_property
    def drawn(self) -> npt.NDArray[np.int64]:
        """Tiles each action draws afterwards (capped by the bag)."""
        rack = int(self.position.rack.sum())
        thrown = rack - self.kept.sum(axis=1)
        out: npt.NDArray[np.int64] = np.minimum(thrown, self.position.bag_count)
        return out

    def thrown(self, i: int) -> str:
        """An exchange's tiles thrown back, as a rack string."""
        rack = self.position.rack.astype(np.int64)
        return rack_string(rack - self.kept[i])

    def order(self, key: npt.NDArray[np.int64], limit: int | None = None) -> npt.NDArray[np.intp]:
        """Indices by ``key`` descending, then placements (in ``MoveList.order``'s
        tie-break) before exchanges (by the tiles thrown) before pass."""
        k = self.placements
        sub = np.zeros(len(self), dtype=np.int64)
        if k:
            ranked = self.moves.order(None, primary=key[:k])
            sub[ranked] = np.arange(k)
        exchanges = range(k, k + len(self.keeps))
        names = sorted(exchanges, key=self.thrown)
        for rank, i in enumerate(names):
            sub[i] = rank
        ordered = np.lexsort((sub, self.kinds, -key)).astype(np.intp)
        return ordered if limit is None else ordered[:limit]
