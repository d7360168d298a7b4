#!/usr/bin/env python3
"""The WordGame planner's time a case: ``same_rows`` against the loop it replaced.

Each seeded case (the contract's generator) is played twice in this process,
interleaved, by the default planner at fixed effort (the same decisions on
both paths, so the same games): once as it is, once with ``same_rows`` (the
plays found again on the lines a play changes) swapped for the loop over every
row found that it replaced. Printed per case: the two times and the score
(which must agree), then the median time of each path, the median of the
per-case ratios, and one JSON line last.

    .venv/bin/python scripts/bench_wordgame.py [--seeds 501-508] [--share 0.3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.wordgame import cases  # noqa: E402
from scrabble.wordgame.lexicons import PlayerLexicon, load_lexicon  # noqa: E402
from scrabble.wordgame.players import prospect  # noqa: E402
from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer  # noqa: E402
from scrabble.wordgame.referee import Referee  # noqa: E402
from scrabble.wordgame.rows import Rows, need_counts, placement, same_rows  # noqa: E402


def same_rows_loop(found: Rows, rows: Rows, among: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The baseline: every row found compared, in Python, with the rows among."""
    if not len(among):
        return among, np.zeros((0, 26), dtype=np.int64)
    keys = {placement(rows, r) for r in among.tolist()}
    idx = np.array([r for r in range(len(found)) if placement(found, r) in keys], dtype=np.int64)
    return idx, need_counts(found)[idx]


def play(
    case: cases.Case, lexicon: PlayerLexicon, share: float, finder: Callable[..., object]
) -> tuple[float, int]:
    """(seconds, score) of one fixed-effort game with ``finder`` as same_rows."""
    setattr(prospect, "same_rows", finder)  # noqa: B010 (the name the player calls)
    referee = Referee(case, lexicon.contains)
    player = PlannerPlayer(lexicon, True, PlannerConfig(fixed_share=share))
    player.start(referee.setup())
    started = time.perf_counter()
    while not referee.over:
        referee.apply(player.act(referee.turn(0)))
    return time.perf_counter() - started, referee.outcome().score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="501-508")
    parser.add_argument("--share", type=float, default=0.3)
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split("-"))
    lexicon = load_lexicon("enable")
    probabilities = cases.letter_probabilities(lexicon.words)
    warm = cases.generate(first, probabilities)
    play(warm, lexicon, 0.05, same_rows)  # compile and load caches
    rows: list[dict[str, float]] = []
    for seed in range(first, last + 1):
        case = cases.generate(seed, probabilities)
        old_s, old_score = play(case, lexicon, args.share, same_rows_loop)
        new_s, new_score = play(case, lexicon, args.share, same_rows)
        if old_score != new_score:
            raise SystemExit(f"seed {seed}: scores differ ({old_score} against {new_score})")
        rows.append({"seed": seed, "n": case.n, "t": case.t, "loop_s": old_s, "now_s": new_s})
        print(
            f"seed {seed} n={case.n:2d} t={case.t} score {new_score:6d}  "
            f"loop {old_s:6.2f} s  now {new_s:6.2f} s  x{new_s / old_s:.3f}",
            flush=True,
        )
    setattr(prospect, "same_rows", same_rows)  # noqa: B010
    loop_median = statistics.median(r["loop_s"] for r in rows)
    now_median = statistics.median(r["now_s"] for r in rows)
    ratio = statistics.median(r["now_s"] / r["loop_s"] for r in rows)
    print(
        f"median a case: loop {loop_median:.2f} s, now {now_median:.2f} s; "
        f"median ratio x{ratio:.3f}"
    )
    print(
        json.dumps(
            {
                "cases": len(rows),
                "loop_median_s": round(loop_median, 3),
                "now_median_s": round(now_median, 3),
                "median_ratio": round(ratio, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
