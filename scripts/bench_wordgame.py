#!/usr/bin/env python3
"""The WordGame planner's time a case, against a baseline of the code it replaced.

Each seeded case (the contract's generator) is played twice in this process,
interleaved, by the default planner at fixed effort (the same decisions on
both paths, so the same games): once as it is, once with one part swapped for
what it replaced (``--baseline``):

* ``letter-loop``: the prospect search's trie walk finding each child's letter
  by shifting its bit down one place at a time, as it did before
  ``lowest_letter`` (the kernel built from today's source with that line put
  back, so the two differ in nothing else);
* ``same-rows-loop``: ``same_rows`` (the plays found again on the lines a play
  changes) as the loop over every row found that it replaced;
* ``no-floor``: the plays searched again on the board after them keeping
  every row and walking every word, as before the search took a ``floor``
  (the other lines' best, which only a row scoring more can change);
* ``keep-every-row``: the turn's first search keeping every prospect, as
  before it took ``keep_best`` (the rows the player keeps, the best by value);
* ``every-row``: both, the search as it was before the thirty-first round;
* ``every-value``: every row valued against every hand the player reads
  (each leave's, each discard's keep, the setups' and the table's best, the
  best on the lines a play changes), as before the thirty-second round's
  walks valued only the rows that can reach the best.

Printed per case: the two times and the score (which must agree), then the
median time of each path, the median of the per-case ratios, and one JSON line
last.

    .venv/bin/python scripts/bench_wordgame.py [--baseline letter-loop] [--seeds 501-508]
        [--share 0.3]
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.wordgame import cases, kit, row_value, value  # noqa: E402
from scrabble.wordgame import search as search_module  # noqa: E402
from scrabble.wordgame.lexicons import PlayerLexicon, load_lexicon  # noqa: E402
from scrabble.wordgame.players import prospect  # noqa: E402
from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer  # noqa: E402
from scrabble.wordgame.referee import Referee  # noqa: E402
from scrabble.wordgame.rows import Rows, need_counts, placement  # noqa: E402


def same_rows_loop(found: Rows, rows: Rows, among: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The baseline: every row found compared, in Python, with the rows among."""
    if not len(among):
        return among, np.zeros((0, 26), dtype=np.int64)
    keys = {placement(rows, r) for r in among.tolist()}
    idx = np.array([r for r in range(len(found)) if placement(found, r) in keys], dtype=np.int64)
    return idx, need_counts(found)[idx]


def search_with_letter_loop() -> Callable[..., Any]:
    """Today's search kernel with the child's letter found by a shift loop."""
    source = inspect.getsource(search_module.search.py_func)
    now = re.search(r"^( *)lt = np\.int64\(lowest_letter\(low\)\)\n", source, re.M)
    if now is None:
        raise SystemExit("search: the line this baseline replaces is gone")
    pad = now.group(1)
    loop = f"{pad}lt = np.int64(0)\n{pad}while (low >> lt) != 1:\n{pad}    lt += 1\n"
    source = source.replace(now.group(0), loop)
    source = source[source.index("def search(") :]  # without the caching decorator
    namespace = dict(vars(search_module))
    exec(compile(source, "<search with a letter loop>", "exec"), namespace)
    return njit(namespace["search"])  # type: ignore[no-any-return]


def search_without(*limits: str) -> Callable[..., Any]:
    """Today's search kernel asked for every row, whatever the caller's
    ``limits`` (``floor``, ``keep_best``)."""
    kernel = search_module.search
    names = list(inspect.signature(kernel.py_func).parameters)
    places = [names.index(name) for name in limits]

    def unlimited(*args: Any) -> Any:
        given = list(args)
        for at in places:
            given[at] = 0
        return kernel(*given)

    return unlimited


def play_values_every_leave(
    tiles: Any, leave_idx: Any, haves: Any, lvals: np.ndarray, order: Any, upper: Any,
    rows: Rows, pre: Any, table3: Any, probs: Any, unknown: int, *rest: Any,
) -> Any:  # fmt: skip
    """The baseline: every leave's value of every row before the walks (the
    columns still unknown; the player values the plays made now first)."""
    missing = np.isnan(lvals[0]) if len(lvals) else np.zeros(0, dtype=np.bool_)
    if missing.any():
        every = row_value.row_values(haves, rows, table3, probs, unknown)
        lvals[:, missing] = every[:, missing]
    return value.play_values(
        tiles, leave_idx, haves, lvals, order, upper, rows, pre, table3, probs, unknown, *rest
    )


def best_of_every_value(
    haves: np.ndarray, rows: Rows, order: Any, upper: Any, excluded: np.ndarray,
    table3: Any, probs: Any, unknown: int, at_least: float = 0.0,
) -> np.ndarray:  # fmt: skip
    """The baseline: every row valued, the excluded zeroed, the maximum."""
    every = row_value.row_values(haves, rows, table3, probs, unknown)
    every[:, excluded] = 0.0
    best = every.max(axis=1) if every.shape[1] else np.zeros(len(haves))
    return np.maximum(best, at_least)


def top_of_every_value(
    have: np.ndarray, rows: Rows, count: int, table3: Any, probs: Any, unknown: int
) -> np.ndarray:
    """The baseline: every row valued, then sorted."""
    every = row_value.row_values(have[None, :], rows, table3, probs, unknown)[0]
    return np.argsort(-every, kind="stable")[:count]


Swap = tuple[Any, str, Callable[..., Any]]


@contextmanager
def swapped(swaps: list[Swap]) -> Iterator[None]:
    """Each ``module.name`` (the names the player calls) replaced for the
    duration."""
    kept = [getattr(module, name) for module, name, _ in swaps]
    for module, name, baseline in swaps:
        setattr(module, name, baseline)
    try:
        yield
    finally:
        for (module, name, _), old in zip(swaps, kept, strict=True):
            setattr(module, name, old)


BASELINES: dict[str, Callable[[], list[Swap]]] = {
    "letter-loop": lambda: [(kit, "search", search_with_letter_loop())],
    "same-rows-loop": lambda: [(prospect, "same_rows", same_rows_loop)],
    "no-floor": lambda: [(kit, "search", search_without("floor"))],
    "keep-every-row": lambda: [(kit, "search", search_without("keep_best"))],
    "every-row": lambda: [(kit, "search", search_without("floor", "keep_best"))],
    "every-value": lambda: [
        (prospect, "play_values", play_values_every_leave),
        (prospect, "best_row_values", best_of_every_value),
        (prospect, "top_rows", top_of_every_value),
    ],
}


def play(case: cases.Case, lexicon: PlayerLexicon, share: float) -> tuple[float, int]:
    """(seconds, score) of one fixed-effort game."""
    referee = Referee(case, lexicon.contains)
    player = PlannerPlayer(lexicon, True, PlannerConfig(fixed_share=share))
    player.start(referee.setup())
    started = time.perf_counter()
    while not referee.over:
        referee.apply(player.act(referee.turn(0)))
    return time.perf_counter() - started, referee.outcome().score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", choices=sorted(BASELINES), default="letter-loop")
    parser.add_argument("--seeds", default="501-508")
    parser.add_argument("--share", type=float, default=0.3)
    args = parser.parse_args()
    first, last = (int(x) for x in args.seeds.split("-"))
    swaps = BASELINES[args.baseline]()
    lexicon = load_lexicon("enable")
    probabilities = cases.letter_probabilities(lexicon.words)
    warm = cases.generate(first, probabilities)
    play(warm, lexicon, 0.05)  # compile and load caches, both paths
    with swapped(swaps):
        play(warm, lexicon, 0.05)
    rows: list[dict[str, float]] = []
    for seed in range(first, last + 1):
        case = cases.generate(seed, probabilities)
        with swapped(swaps):
            old_s, old_score = play(case, lexicon, args.share)
        new_s, new_score = play(case, lexicon, args.share)
        if old_score != new_score:
            raise SystemExit(f"seed {seed}: scores differ ({old_score} against {new_score})")
        rows.append({"seed": seed, "n": case.n, "t": case.t, "base_s": old_s, "now_s": new_s})
        print(
            f"seed {seed} n={case.n:2d} t={case.t} score {new_score:6d}  "
            f"{args.baseline} {old_s:6.2f} s  now {new_s:6.2f} s  x{new_s / old_s:.3f}",
            flush=True,
        )
    base_median = statistics.median(r["base_s"] for r in rows)
    now_median = statistics.median(r["now_s"] for r in rows)
    ratio = statistics.median(r["now_s"] / r["base_s"] for r in rows)
    print(
        f"median a case: {args.baseline} {base_median:.2f} s, now {now_median:.2f} s; "
        f"median ratio x{ratio:.3f}"
    )
    print(
        json.dumps(
            {
                "baseline": args.baseline,
                "cases": len(rows),
                "baseline_median_s": round(base_median, 3),
                "now_median_s": round(now_median, 3),
                "median_ratio": round(ratio, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
