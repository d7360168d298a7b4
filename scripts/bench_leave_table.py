#!/usr/bin/env python3
"""Leave table speed: load time, the per-rack lookup, and stand-in self-play on one core.

* load: ``LeaveTable.load(name)`` in fresh processes (what a service or a worker
  pays at start, Numba's cache included), against reading the file's bytes in
  the same processes;
* lookup: ``rack_leave_values`` for random 7- and 9-tile racks, against the
  linear model over the same sub-multisets (``equity.leave.leave_values``),
  the per-move path it replaces;
* self-play: games/s of leavegen's stand-in player (to an empty bag) on one
  core, against the same loop choosing by score alone.

Prints medians and ratios.

    .venv/bin/python scripts/bench_leave_table.py --lexicon sowpods
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from scrabble.engines.trie_engine import TrieEngine  # noqa: E402
from scrabble.equity.leave import leave_values  # noqa: E402
from scrabble.equity.leave_index import LeaveIndex  # noqa: E402
from scrabble.equity.leave_selfplay import play_games  # noqa: E402
from scrabble.equity.leave_table import LeaveTable, table_path  # noqa: E402
from scrabble.equity.static_choice import Choice  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.position import Position  # noqa: E402
from scrabble.rules import STANDARD  # noqa: E402

LOAD = """
import json, sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
import numpy as np
import numba
t1 = time.perf_counter()
from scrabble.equity.leave_table import LeaveTable
t2 = time.perf_counter()
table = LeaveTable.load({name!r})
table.rack_values(np.array([1] * 7 + [0] * 20))  # the first lookup loads its machine code
t3 = time.perf_counter()
open({path!r}, "rb").read()
t4 = time.perf_counter()
print(json.dumps({{"libraries": t1 - t0, "import": t2 - t1, "load": t3 - t2, "raw": t4 - t3}}))
"""


def score_only(
    position: Position, lexicon: Lexicon, rack_values: np.ndarray, radix: np.ndarray, bag_count: int
) -> Choice:
    moves = TrieEngine(lexicon).generate(position)
    if not len(moves):
        return Choice("pass", 0)
    best = int(moves.order(1)[0])
    return Choice("play", int(moves.scores[best]) * 1000, moves=moves, index=best)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default="sowpods")
    ap.add_argument("--loads", type=int, default=7)
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    code = LOAD.format(root=str(ROOT), path=str(table_path(args.lexicon)), name=args.lexicon)
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(args.loads)
    ]
    ms = {key: statistics.median(r[key] for r in runs) * 1000 for key in runs[0]}
    print(
        f"load {args.lexicon} in a fresh process (median of {args.loads}): "
        f"LeaveTable.load + first lookup {ms['load']:.0f} ms (file read alone "
        f"{ms['raw']:.1f} ms); before it, importing the module {ms['import']:.0f} ms "
        f"and numpy + numba {ms['libraries']:.0f} ms"
    )

    table = LeaveTable.load(args.lexicon)
    bag = [t for t in range(27) for _ in range(int(STANDARD.counts[t]))]
    rng = np.random.default_rng(1)
    for size in (7, 9):
        racks = [
            np.bincount(rng.choice(bag, size, replace=False), minlength=27) for _ in range(2000)
        ]
        table.rack_values(racks[0])
        started = time.perf_counter()
        for rack in racks:
            table.rack_values(rack)
        kernel = (time.perf_counter() - started) / len(racks) * 1e6
        started = time.perf_counter()
        for rack in racks[:300]:
            subsets = np.array(list(itertools.product(*(range(n + 1) for n in rack))))
            leave_values(subsets)
        linear = (time.perf_counter() - started) / 300 * 1e6
        print(
            f"rack_leave_values, {size}-tile racks: {kernel:.1f} us a rack; linear model "
            f"over the same sub-multisets {linear:.0f} us ({linear / kernel:.0f}x)"
        )

    lexicon = Lexicon.load()
    racks_index = LeaveIndex.build(STANDARD.counts, 7, 7)
    seeds = list(range(args.games))
    play_games(table, racks_index, lexicon, STANDARD, seeds[:2])
    timings = {}
    for name, player in (("stand-in (score + leave)", None), ("score only", score_only)):
        started = time.perf_counter()
        if player is None:
            records = play_games(table, racks_index, lexicon, STANDARD, seeds)
        else:
            records = play_games(table, racks_index, lexicon, STANDARD, seeds, player)
        timings[name] = time.perf_counter() - started
        print(
            f"{name}: {args.games / timings[name]:.1f} games/s on one core "
            f"({records.turns / timings[name]:.0f} turns/s, games to an empty bag)"
        )
    ratio = timings["stand-in (score + leave)"] / timings["score only"]
    print(f"stand-in / score-only time: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
