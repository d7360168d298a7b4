#!/usr/bin/env python3
"""Which averaging predicts what a kept leave is worth? A held-out check.

Plays --games games with the linear model (generation 1 of leavegen, seed
--seed), builds the table both ways (``turn`` and ``rack`` averaging, the same
smoothing), then plays --holdout fresh games (seed --holdout-seed) with the same
linear model and records, for every move that keeps a leave L of 1-6 tiles, the
best equity of the same player's next turn (when that turn has a full rack and
tiles in the bag). A leave value is meant to be that next-turn equity minus a
constant, so the better table has the smaller squared error of
``next equity - (c + value(L))``, with ``c`` the held-out mean of the residual
(only differences between leaves steer the choice). Prints the mean squared
errors, their difference with a 95 % interval (paired over held-out turns),
and the same split by leave size.

    .venv/bin/python scripts/compare_averaging.py --games 5000 --holdout 5000
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from scrabble.equity import leavegen  # noqa: E402
from scrabble.equity.leave_average import estimate, smooth  # noqa: E402
from scrabble.equity.leave_selfplay import PLAYER, apply, game_seed  # noqa: E402
from scrabble.game import Game  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.lexicon.store import default_db_path  # noqa: E402
from scrabble.moves import leave_of  # noqa: E402
from scrabble.rules import STANDARD  # noqa: E402


def holdout_pairs(seeds: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(kept leave counts (n, 27), the keeper's next best equity (n,)) over these games."""
    worker = leavegen._WORKER
    table, lexicon, rules = worker["table"], worker["lexicon"], worker["rules"]
    kept_rows: list[np.ndarray] = []
    nexts: list[int] = []
    for seed in seeds:
        game = Game.new(seed, rules)
        waiting: list[np.ndarray | None] = [None, None]  # a player's last kept leave
        while not game.over and game.bag_count > 0:
            player = game.to_move
            rack = game.racks[player].astype(np.int64)
            values, radix = table.rack_values(rack)
            choice = PLAYER(game.position(), lexicon, values, radix, game.bag_count)
            full = int(rack.sum()) == rules.rack_size
            previous = waiting[player]
            if previous is not None and full:
                kept_rows.append(previous)
                nexts.append(choice.equity)
            waiting[player] = None
            if choice.kind == "play":
                assert choice.moves is not None
                kept = leave_of(rack, choice.moves, choice.index).astype(np.int64)
            elif choice.kind == "exchange":
                assert choice.keep is not None
                kept = choice.keep
            else:
                kept = rack
            if 0 < kept.sum() < rules.rack_size:
                waiting[player] = kept
            apply(game, choice)
    return np.array(kept_rows, dtype=np.int64).reshape(-1, 27), np.array(nexts, dtype=np.int64)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--holdout", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--holdout-seed", type=int, default=2)
    ap.add_argument("--smooth-count", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    lexicon = Lexicon.load(default_db_path("sowpods"))
    settings = leavegen.settings_for(lexicon, args.games, args.seed, smooth_count=args.smooth_count)
    state = leavegen.start_state(settings, STANDARD)
    tally, games, _, seconds = leavegen.play_generation(
        state, lexicon, STANDARD, args.jobs, 25, progress=False
    )
    print(f"training: {games} games, {tally.records} records ({seconds:.0f} s)")
    tables = {}
    for averaging in ("turn", "rack"):
        est = estimate(tally, state.table.index, averaging)
        tables[averaging] = smooth(est, state.table.values, args.smooth_count)
    seeds = [game_seed(args.holdout_seed, 0, i) for i in range(args.holdout)]
    parts = [seeds[i : i + 25] for i in range(0, len(seeds), 25)]
    with Pool(
        args.jobs,
        initializer=leavegen._init_worker,
        initargs=(str(lexicon.db_path), np.array(state.table.values), STANDARD),
    ) as pool:
        results = pool.map(holdout_pairs, parts)
    kept = np.concatenate([r[0] for r in results])
    target = np.concatenate([r[1] for r in results]).astype(np.float64)
    index = state.table.index
    positions = np.array([index.rank(row) for row in kept])
    sizes = kept.sum(axis=1)
    print(f"held out: {args.holdout} games, {len(target)} kept leaves with a next turn")
    errors = {}
    for averaging, values in tables.items():
        guess = values[positions].astype(np.float64)
        residual = target - guess
        errors[averaging] = (residual - residual.mean()) ** 2 / 1e6
        print(f"{averaging}: mean squared error {errors[averaging].mean():.2f} points^2")
    diff = errors["turn"] - errors["rack"]
    half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff))
    print(
        f"turn - rack: {diff.mean():+.2f} points^2 (95% CI {diff.mean() - half:+.2f} .. "
        f"{diff.mean() + half:+.2f})"
    )
    for size in range(1, 7):
        mask = sizes == size
        if mask.sum() > 1:
            d = diff[mask]
            h = 1.96 * d.std(ddof=1) / math.sqrt(len(d))
            print(
                f"  kept {size}: {mask.sum()} turns, turn - rack {d.mean():+.2f} "
                f"({d.mean() - h:+.2f} .. {d.mean() + h:+.2f})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
