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
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.engines.trie_engine import TrieEngine  # noqa: E402
from scrabble.equity.leave_table import LeaveTable  # noqa: E402
from scrabble.equity.options import EquityOptions  # noqa: E402
from scrabble.game import Game  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.players import CHOOSERS, Player, make_player  # noqa: E402

_PLAYERS: dict[str, Player] = {}


Side = tuple[str, tuple[str, ...], str | None]  # chooser, settings, leave table file


def side_key(side: Side) -> str:
    return repr(side)


def _init(sides: tuple[Side, Side]) -> None:
    trie = TrieEngine(Lexicon.load())
    for side in sides:
        name, settings, leaves = side
        options = EquityOptions().with_settings(list(settings))
        table = LeaveTable.read(Path(leaves)) if leaves else None
        _PLAYERS[side_key(side)] = make_player(name, trie, options, table)


def play_game(seed: int, first: Player, second: Player) -> Game:
    game = Game.new(seed)
    sides = (first, second)
    while not game.over:
        sides[game.to_move](game)
    return game


def play_pair(args: tuple[int, str, str]) -> tuple[int, int, int, int]:  # keys of _PLAYERS
    """(A's points, B's points) in the game A starts and in the game B starts."""
    seed, a, b = args
    g1 = play_game(seed, _PLAYERS[a], _PLAYERS[b])
    g2 = play_game(seed, _PLAYERS[b], _PLAYERS[a])
    return g1.scores[0], g1.scores[1], g2.scores[1], g2.scores[0]


def ci95(values: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95 % normal interval."""
    array = np.array(values, dtype=float)
    half = 1.96 * array.std(ddof=1) / math.sqrt(len(array)) if len(array) > 1 else float("nan")
    return float(array.mean()), half


def summarise(results: list[tuple[int, int, int, int]]) -> dict[str, Any]:
    """Win rate and spread of A, each with a 95 % interval over pairs (the two
    games of a pair share a tile order, so the pair is the independent unit)."""
    spreads, pair_means, pair_wins, a_pts, b_pts = [], [], [], [], []
    for a1, b1, a2, b2 in results:
        won = 0.0
        for a, b in ((a1, b1), (a2, b2)):
            spreads.append(a - b)
            a_pts.append(a)
            b_pts.append(b)
            won += 1.0 if a > b else 0.5 if a == b else 0.0
        pair_wins.append(won / 2)
        pair_means.append((a1 - b1 + a2 - b2) / 2)
    mean, half = ci95(pair_means)
    win, win_half = ci95(pair_wins)
    return {
        "games": len(spreads),
        "win_rate_a": round(win, 4),
        "win_rate_ci95": [round(win - win_half, 4), round(win + win_half, 4)],
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
    for flag, whom in (("--set", "both sides"), ("--set-a", "A"), ("--set-b", "B")):
        ap.add_argument(
            flag,
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=f"override an EquityOptions field for {whom}, e.g. premium_waste=false",
        )
    ap.add_argument("--leaves-a", help="A's leave table file (default: the lexicon's)")
    ap.add_argument("--leaves-b", help="B's leave table file")
    args = ap.parse_args()
    side_a: Side = (args.a, tuple(args.set + args.set_a), args.leaves_a)
    side_b: Side = (args.b, tuple(args.set + args.set_b), args.leaves_b)
    if side_a == side_b:
        raise SystemExit("A and B are the same player")
    ka, kb = side_key(side_a), side_key(side_b)
    jobs = [(args.seed * 1_000_000 + j, ka, kb) for j in range(args.pairs)]
    started = time.perf_counter()
    with Pool(args.workers, initializer=_init, initargs=((side_a, side_b),)) as pool:
        results = list(tqdm(pool.imap(play_pair, jobs, chunksize=4), total=len(jobs),
                            unit="pair", disable=not sys.stderr.isatty()))  # fmt: skip
    s = summarise(results)
    print(
        f"A = {args.a}, B = {args.b}, pairs = {args.pairs}, seed = {args.seed}, "
        f"{time.perf_counter() - started:.0f} s"
        + (f", A settings {list(side_a[1])}" if side_a[1] else "")
        + (f", B settings {list(side_b[1])}" if side_b[1] else "")
        + (f", A leaves {args.leaves_a}" if args.leaves_a else "")
        + (f", B leaves {args.leaves_b}" if args.leaves_b else "")
    )
    print(f"games {s['games']}")
    print(
        f"win rate of A {s['win_rate_a']:.4f} "
        f"(95% CI {s['win_rate_ci95'][0]:.4f} .. {s['win_rate_ci95'][1]:.4f})"
    )
    print(
        f"mean spread A-B {s['spread_mean']:+.2f} "
        f"(95% CI {s['spread_ci95'][0]:+.2f} .. {s['spread_ci95'][1]:+.2f})"
    )
    print(f"mean points per game: A {s['points_a']:.2f}, B {s['points_b']:.2f}")
    print(json.dumps(s))


if __name__ == "__main__":
    main()
