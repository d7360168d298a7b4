#!/usr/bin/env python3
"""Self-play speed: games per second of each chooser against itself, one core.

    .venv/bin/python scripts/bench_selfplay.py [--games 100] [--choosers score static linear]

Each chooser plays the same seeded games (after one warm-up game, not
counted); printed: games per second of this process's CPU time (what one core
does; wall time on this shared machine moves with the other processes' load,
and is printed too), ms of CPU per turn, and the ratio to ``score`` measured in
the same process.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.engines.trie_engine import TrieEngine  # noqa: E402
from scrabble.game import Game  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.players import CHOOSERS, make_player  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--choosers", nargs="+", choices=CHOOSERS,
                        default=["score", "static", "linear"])  # fmt: skip
    args = parser.parse_args()
    trie = TrieEngine(Lexicon.load())
    results: dict[str, dict[str, float]] = {}
    for name in args.choosers:
        player = make_player(name, trie)
        warm = Game.new(args.seed - 1)
        while not warm.over:
            player(warm)
        turns = 0
        started = time.perf_counter()
        cpu_started = time.process_time()
        for g in range(args.games):
            game = Game.new(args.seed * 100_000 + g)
            while not game.over:
                player(game)
            turns += len(game.history)
        cpu = time.process_time() - cpu_started
        wall = time.perf_counter() - started
        results[name] = {
            "games_per_second": round(args.games / cpu, 1),
            "ms_per_turn": round(1000 * cpu / turns, 3),
            "wall_games_per_second": round(args.games / wall, 1),
        }
    base = results.get("score", {}).get("games_per_second")
    for name, figures in results.items():
        ratio = f"  {figures['games_per_second'] / base:.2f}x score" if base else ""
        print(f"{name:>13}: {figures['games_per_second']:7.1f} games per CPU second, "
              f"{figures['ms_per_turn']:.3f} ms/turn{ratio} "
              f"(wall: {figures['wall_games_per_second']:.1f} games/s)")  # fmt: skip
    print(json.dumps(results))


if __name__ == "__main__":
    main()
