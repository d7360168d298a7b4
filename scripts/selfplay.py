"""Self-play between two move choosers, in pairs sharing the tile order.

Each pair plays two games from the same seed (so the same bag order) with the
sides swapped: A moves first in one, B in the other, and only the choices
differ. Games are full standard games (``scrabble.game.Game``): draws,
exchanges when the bag holds 7+, passes, end rules and final adjustments.
Pairs are spread over the CPU cores (multiprocessing); the result is a fixed
function of ``--seed`` and ``--pairs``.

Choosers: ``scrabble.players`` (score, static, linear, equity, equity-cheap, equity-adv).

Prints games, the win rate of A (ties count half), the mean spread (A - B)
with a 95 % confidence interval (normal, over per-pair mean spreads, since the
two games of a pair are not independent), mean points per game of each side,
and last one JSON line.

    .venv/bin/python scripts/selfplay.py --a equity --b score --pairs 500 --seed 1
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.engines.trie_engine import TrieEngine  # noqa: E402
from scrabble.equity.options import EquityOptions  # noqa: E402
from scrabble.game import Game  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.players import CHOOSERS, Player, make_player  # noqa: E402

_PLAYERS: dict[str, Player] = {}


def _init(settings: list[str], names: tuple[str, str]) -> None:
    options = EquityOptions().with_settings(settings)
    trie = TrieEngine(Lexicon.load())
    for name in names:
        _PLAYERS[name] = make_player(name, trie, options)


def play_game(seed: int, first: Player, second: Player) -> Game:
    game = Game.new(seed)
    sides = (first, second)
    while not game.over:
        sides[game.to_move](game)
    return game


def play_pair(args: tuple[int, str, str]) -> tuple[int, int, int, int]:
    """(A's points, B's points) in the game A starts and in the game B starts."""
    seed, a, b = args
    g1 = play_game(seed, _PLAYERS[a], _PLAYERS[b])
    g2 = play_game(seed, _PLAYERS[b], _PLAYERS[a])
    return g1.scores[0], g1.scores[1], g2.scores[1], g2.scores[0]


def summarise(results: list[tuple[int, int, int, int]]) -> dict[str, Any]:
    spreads, pair_means, a_pts, b_pts = [], [], [], []
    wins = 0.0
    for a1, b1, a2, b2 in results:
        for a, b in ((a1, b1), (a2, b2)):
            spreads.append(a - b)
            a_pts.append(a)
            b_pts.append(b)
            wins += 1.0 if a > b else 0.5 if a == b else 0.0
        pair_means.append((a1 - b1 + a2 - b2) / 2)
    pm = np.array(pair_means, dtype=float)
    half = 1.96 * pm.std(ddof=1) / math.sqrt(len(pm)) if len(pm) > 1 else float("nan")
    mean = float(np.mean(spreads))
    return {
        "games": len(spreads),
        "win_rate_a": round(wins / len(spreads), 4),
        "spread_mean": round(mean, 2),
        "spread_ci95": [round(mean - half, 2), round(mean + half, 2)],
        "points_a": round(float(np.mean(a_pts)), 2),
        "points_b": round(float(np.mean(b_pts)), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", choices=CHOOSERS, default="equity")
    ap.add_argument("--b", choices=CHOOSERS, default="score")
    ap.add_argument("--pairs", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override an EquityOptions field, e.g. per_tile=0",
    )
    args = ap.parse_args()
    jobs = [(args.seed * 1_000_000 + j, args.a, args.b) for j in range(args.pairs)]
    started = time.perf_counter()
    with Pool(args.workers, initializer=_init, initargs=(args.set, (args.a, args.b))) as pool:
        results = pool.map(play_pair, jobs, chunksize=1)
    s = summarise(results)
    print(
        f"A = {args.a}, B = {args.b}, pairs = {args.pairs}, seed = {args.seed}, "
        f"{time.perf_counter() - started:.0f} s" + (f", set {args.set}" if args.set else "")
    )
    print(f"games {s['games']}")
    print(f"win rate of A {s['win_rate_a']:.4f}")
    print(
        f"mean spread A-B {s['spread_mean']:+.2f} "
        f"(95% CI {s['spread_ci95'][0]:+.2f} .. {s['spread_ci95'][1]:+.2f})"
    )
    print(f"mean points per game: A {s['points_a']:.2f}, B {s['points_b']:.2f}")
    print(json.dumps(s))


if __name__ == "__main__":
    main()
