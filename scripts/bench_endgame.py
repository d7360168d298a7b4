#!/usr/bin/env python3
"""Benchmark the exact endgame search on the golden set's bag-empty positions
(``tests/golden/positions.jsonl``, category ``endgame``) and MAGPIE's endgame
of issue 10.

Each position is solved ``--repeats`` times with the default budget (300 ms)
after one unmeasured solve (Numba's cache load); the figures are wall-clock and
CPU milliseconds (median and max), whether every value came out exact within
the budget, and the nodes searched. The baseline, run in the same process, is
the same search deepening one ply at a time (1, 2, 3, ...) with no budget.

    .venv/bin/python scripts/bench_endgame.py [--repeats 7]

Prints one line per position and one JSON line last.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scrabble import cgp  # noqa: E402
from scrabble.cgp import CGP  # noqa: E402
from scrabble.equity import endgame_search  # noqa: E402
from scrabble.equity.endgame import DEFAULT_BUDGET_MS, EndgameResult, solve  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.position import Position, make_position  # noqa: E402
from tooling.golden import golden_positions  # noqa: E402

MAGPIE_CGP = (
    "4RUMMAGED2C/7A6A/2H1G2T6V/2O1O2I6E/2WAB2PREBENDS/2ER3O3n3/2SI6COW2/3L2HUE2KANE/"
    "3LI3FILII2/J1TANGENT2T1Z1/A2TA5FA1OP/R2EN5Ok1OU/VILDE5YEX1D/I3R6SUQS/E13Y "
    "INR/OT 440/448 0 lex sowpods;"
)
ONE_PLY_AT_A_TIME = tuple(range(1, endgame_search.MAX_PLY - 1))


def positions() -> list[tuple[str, str]]:
    rows = golden_positions()
    return [(r["id"], r["cgp"]) for r in rows if r["category"] == "endgame"] + [
        ("magpie", MAGPIE_CGP)
    ]


def timed(run: Callable[[], EndgameResult]) -> tuple[EndgameResult, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    lexicon = Lexicon.load()
    summary = []
    print(
        f"{'position':8} {'racks':>12} {'moves':>5} {'exact':>5} {'wall med':>8} {'wall max':>8} "
        f"{'cpu med':>7} {'nodes':>7} {'gen':>6} {'depth':>5} {'base ms':>7} {'base nodes':>10} "
        f"{'x':>5}"
    )
    for name, text in positions():
        parsed = cgp.parse(text)
        position = make_position(parsed.rows, parsed.rack)

        def run(
            schedule: Any = None,
            budget: float = DEFAULT_BUDGET_MS,
            p: Position = position,
            c: CGP = parsed,
        ) -> EndgameResult:
            extra = {} if schedule is None else {"schedule": schedule}
            return solve(p, c.opponent_rack, lexicon, budget, scoreless=c.zero_turns, **extra)

        run(budget=60_000)  # Numba's cache load and first touches, not counted
        runs = [timed(run) for _ in range(args.repeats)]
        walls = [w for _, w, _ in runs]
        cpus = [c for _, _, c in runs]
        result = runs[0][0]
        base = [timed(lambda: run(ONE_PLY_AT_A_TIME, 60_000)) for _ in range(3)]
        base_ms = statistics.median(w for _, w, _ in base)
        row = {
            "position": name,
            "racks": f"{parsed.rack}/{parsed.opponent_rack}",
            "moves": len(result.moves),
            "completed": all(r.completed for r, _, _ in runs),
            "wall_median_ms": round(statistics.median(walls), 1),
            "wall_max_ms": round(max(walls), 1),
            "cpu_median_ms": round(statistics.median(cpus), 1),
            "nodes": result.nodes,
            "generated": result.generated,
            "depth": result.depth,
            "best": f"{result.best.notation} {result.best.value:+d}",
            "baseline_ms": round(base_ms, 1),
            "baseline_nodes": base[0][0].nodes,
            "speedup": round(base_ms / statistics.median(walls), 2),
        }
        summary.append(row)
        print(
            f"{name:8} {row['racks']:>12} {row['moves']:>5} {str(row['completed']):>5} "
            f"{row['wall_median_ms']:8.1f} {row['wall_max_ms']:8.1f} {row['cpu_median_ms']:7.1f} "
            f"{row['nodes']:7d} {row['generated']:6d} {row['depth']:5d} {row['baseline_ms']:7.1f} "
            f"{row['baseline_nodes']:10d} {row['speedup']:5.2f}  best {row['best']}"
        )
    print(
        json.dumps({"budget_ms": DEFAULT_BUDGET_MS, "repeats": args.repeats, "positions": summary})
    )


if __name__ == "__main__":
    main()
