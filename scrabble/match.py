"""Self-play between two move choosers, in pairs sharing the tile order.

Each pair plays two games from the same seed (so the same bag order) with the
sides swapped: A moves first in one, B in the other, and only the choices
differ. Games are full standard games (``scrabble.game.Game``): draws,
exchanges when the bag holds 7+, passes, end rules and final adjustments.
Pairs are spread over the CPU cores (multiprocessing); the result is a fixed
function of ``--seed`` and ``--pairs``. ``--gcg DIR`` writes every game as a
GCG record (``scrabble.gcg``).

Choosers: ``scrabble.players`` (score, static, linear, equity, equity-cheap, equity-adv).

Prints games, the win rate of A (ties count half), the mean spread (A - B)
with a 95 % confidence interval (normal, over per-pair mean spreads, since the
two games of a pair are not independent), mean points per game of each side,
and last one JSON line.

    scrabble selfplay --a equity --b score --pairs 500 --seed 1
    .venv/bin/python scripts/selfplay.py ...   (the same)
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

from scrabble import gcg
from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.leave_table import LeaveTable
from scrabble.equity.options import EquityOptions
from scrabble.game import Game
from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.store import default_db_path
from scrabble.players import CHOOSERS, Player, make_player

_PLAYERS: dict[str, Player] = {}
_LEXICON: list[str] = []  # the lexicon's name, for the GCG records


Side = tuple[str, tuple[str, ...], str | None]  # chooser, settings, leave table file


def side_key(side: Side) -> str:
    return repr(side)


def _init(sides: tuple[Side, Side], store: str) -> None:
    lexicon = Lexicon.load(Path(store))
    _LEXICON[:] = [lexicon.info.name]
    trie = TrieEngine(lexicon)
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


Scores = tuple[int, int, int, int]


def play_pair(args: tuple[int, str, str, tuple[str, str] | None]) -> tuple[Scores, list[str]]:
    """(A's points, B's points) in the game A starts and in the game B starts,
    and the two games as GCG text when ``names`` (A's and B's) are given."""
    seed, a, b, names = args
    g1 = play_game(seed, _PLAYERS[a], _PLAYERS[b])
    g2 = play_game(seed, _PLAYERS[b], _PLAYERS[a])
    records = []
    if names is not None:
        lexicon = _LEXICON[0] if _LEXICON else None
        for game, order in ((g1, names), (g2, (names[1], names[0]))):
            title = f"selfplay seed {seed}, {order[0]} first"
            records.append(gcg.format_gcg(gcg.record_of(game, order, lexicon, title)))
    return (g1.scores[0], g1.scores[1], g2.scores[1], g2.scores[0]), records


def ci95(values: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95 % normal interval."""
    array = np.array(values, dtype=float)
    half = 1.96 * array.std(ddof=1) / math.sqrt(len(array)) if len(array) > 1 else float("nan")
    return float(array.mean()), half


def summarise(results: list[Scores]) -> dict[str, Any]:
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


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--a", choices=CHOOSERS, default="static")  # docs/selfplay.md
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
    ap.add_argument("--lexicon", default="sowpods", help="the lexicon store's name")
    ap.add_argument("--gcg", type=Path, metavar="DIR", help="write every game as GCG into DIR")


def run(args: argparse.Namespace) -> int:
    store = default_db_path(args.lexicon.lower())
    if not store.is_file():
        Lexicon.load(store)  # the error names the store and what to run
    side_a: Side = (args.a, tuple(args.set + args.set_a), args.leaves_a)
    side_b: Side = (args.b, tuple(args.set + args.set_b), args.leaves_b)
    if side_a == side_b:
        raise SystemExit("A and B are the same player")
    if args.pairs < 1:
        raise SystemExit("--pairs: at least 1")
    ka, kb = side_key(side_a), side_key(side_b)
    names = (f"A_{args.a}", f"B_{args.b}") if args.gcg else None
    if args.gcg:
        args.gcg.mkdir(parents=True, exist_ok=True)
    jobs = [(args.seed * 1_000_000 + j, ka, kb, names) for j in range(args.pairs)]
    started = time.perf_counter()
    results: list[Scores] = []
    with Pool(args.workers, initializer=_init, initargs=((side_a, side_b), str(store))) as pool:
        played = zip(jobs, pool.imap(play_pair, jobs, chunksize=4), strict=True)
        bar = tqdm(played, total=len(jobs), unit="pair", disable=not sys.stderr.isatty())
        for (seed, *_), (scores, records) in bar:
            results.append(scores)
            for suffix, text in zip(("a", "b"), records, strict=False):
                (args.gcg / f"game-{seed}-{suffix}.gcg").write_text(text)
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
    if args.gcg:
        print(f"games written as GCG to {args.gcg} (game-<seed>-a.gcg: A first, -b: B first)")
    print(json.dumps(s))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(ap)
    return run(ap.parse_args(argv))
