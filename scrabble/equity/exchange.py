"""The best exchange: which tiles to throw back, valued like a move.

An exchange scores 0 and keeps a sub-rack; its equity is the leave value of
what it keeps (leave values already mean "compared with drawing fresh tiles",
so the tiles drawn back are worth 0 on average), minus ``exchange_cost`` for
the tempo. Every distinct sub-multiset of the rack (at most 2^7 = 128) is tried;
ties go to keeping more tiles, then to the first in enumeration order, so the
answer is deterministic. Only allowed when the bag holds >= rack_size tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np
import numpy.typing as npt

from scrabble.equity.leave import leave_values
from scrabble.tiles import RACK_TYPES, rack_string


@dataclass(frozen=True)
class Exchange:
    throw: npt.NDArray[np.int64]  # 27 counts thrown back
    keep: npt.NDArray[np.int64]  # 27 counts kept
    leave: int  # millipoints
    equity: int  # millipoints
    prospect: int = 0  # millipoints, when prospects were evaluated (equity includes it)

    @property
    def throw_string(self) -> str:
        return rack_string(self.throw)

    @property
    def keep_string(self) -> str:
        return rack_string(self.keep)


def best_exchange(
    rack: npt.NDArray[np.integer], bag_count: int, rack_size: int = 7, exchange_cost: int = 0
) -> Exchange | None:
    rack = np.asarray(rack, dtype=np.int64)
    if bag_count < rack_size or rack.sum() == 0:
        return None
    held = np.nonzero(rack)[0]
    keeps = []
    for combo in product(*(range(int(rack[t]) + 1) for t in held)):
        keep = np.zeros(RACK_TYPES, dtype=np.int64)
        keep[held] = combo
        if keep.sum() < rack.sum():  # throw at least one tile
            keeps.append(keep)
    keeps_arr = np.array(keeps)
    values = leave_values(keeps_arr) - exchange_cost
    # best value, then more tiles kept, then the first keep in enumeration order
    # (a fixed order of the rack's letters), so the answer is deterministic
    j = int(np.lexsort((np.arange(len(keeps)), -keeps_arr.sum(axis=1), -values))[0])
    keep = keeps_arr[j]
    return Exchange(
        throw=rack - keep, keep=keep, leave=int(values[j]) + exchange_cost, equity=int(values[j])
    )
