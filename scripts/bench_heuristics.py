#!/usr/bin/env python3
"""Benchmark the heuristics' cost: extra ms per request with ``heuristics`` and
with ``adversarial``, over the seeded self-play corpus (scrabble.corpus).

For each position the moves are generated once; the plain request's ranking
(``moves.order(limit)``) is the baseline, and the extra cost is the time of
``equity.evaluate`` (everything the gateway does on top: cheap terms for all
moves, prospects for the best few, risk when adversarial, the best exchange)
minus that baseline. Default options are the API's (budget 300 ms, max_moves 8).

    .venv/bin/python scripts/bench_heuristics.py [--positions 80] [--seed 2026]

Prints per-mode median / p90 / max and one JSON line last.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scrabble.engines.trie_engine import TrieEngine  # noqa: E402
from scrabble.equity.evaluate import evaluate  # noqa: E402
from scrabble.equity.options import EquityOptions  # noqa: E402
from scrabble.equity.static import StaticEquity  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.moves import MoveList  # noqa: E402
from scrabble.position import Position  # noqa: E402
from tooling.corpus import self_play_positions  # noqa: E402


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=80)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--limit", type=int, default=20)
    args = ap.parse_args()
    lexicon = Lexicon.load()
    samples = self_play_positions(lexicon, count=args.positions, seed=args.seed)
    # warm up Numba and caches on a first position, not counted
    warm = samples[0].position
    trie = TrieEngine(lexicon)
    static = StaticEquity.for_lexicon(lexicon)
    wm = trie.generate(warm)
    evaluate(warm, wm, trie, static, EquityOptions(adversarial=True), limit=args.limit)
    extra: dict[str, list[float]] = {"heuristics": [], "adversarial": []}
    evaluated: dict[str, list[int]] = {"heuristics": [], "adversarial": []}
    cut = {"heuristics": 0, "adversarial": 0}
    for s in samples:
        pos = s.position
        moves = trie.generate(pos)
        base = timed(lambda: moves.order(args.limit))  # noqa: B023
        for mode in ("heuristics", "adversarial"):
            opts = EquityOptions(rank_by="equity", adversarial=mode == "adversarial")
            result: dict[str, Any] = {}

            def run(
                m: MoveList = moves,
                o: EquityOptions = opts,
                p: Position = pos,
                r: dict[str, Any] = result,
            ) -> None:
                r["ev"] = evaluate(p, m, trie, static, o, limit=args.limit)

            extra[mode].append(timed(run) - base)
            evaluated[mode].append(result["ev"].evaluated)
            cut[mode] += int(result["ev"].budget_cut)
    out: dict[str, float] = {"positions": len(samples)}
    for mode, values in extra.items():
        med = statistics.median(values)
        p90 = float(np.percentile(values, 90))
        print(
            f"{mode:>12}: extra ms median {med:.1f}, p90 {p90:.1f}, max {max(values):.1f}; "
            f"moves evaluated median {statistics.median(evaluated[mode])}, "
            f"budget cut {cut[mode]}/{len(values)}"
        )
        out[f"{mode}_median_ms"] = round(med, 2)
        out[f"{mode}_p90_ms"] = round(p90, 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
