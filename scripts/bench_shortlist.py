#!/usr/bin/env python3
"""An equity request's move work: the whole list against the best-N shortlist.

For each self-played position (the seeded corpus, 0-2 blanks) both paths of
``gateway.analysis`` run in this process, interleaved: every placement
generated and ranked by ``equity.evaluate`` (``count_moves``), or the
shortlist (``equity.shortlist``) ranked by the same function. Prospects are
off, so the figure is the part the shortlist changes (the prospects of the
best 4 cost the same on both paths). Printed per blank count: median and p90
ms of each path, their ratio, and one JSON line last.

    .venv/bin/python scripts/bench_shortlist.py [--positions 240] [--limit 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.engines.trie_engine import TrieEngine  # noqa: E402
from scrabble.equity.evaluate import evaluate  # noqa: E402
from scrabble.equity.options import EquityOptions  # noqa: E402
from scrabble.equity.shortlist import applies, shortlist  # noqa: E402
from scrabble.equity.static import StaticEquity  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.tiles import BLANK  # noqa: E402
from tooling.corpus import self_play_positions  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=240)
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    lexicon = Lexicon.load()
    trie = TrieEngine(lexicon)
    static = StaticEquity.for_lexicon(lexicon)
    options = EquityOptions(prospects=False, budget_ms=1e9)
    samples = self_play_positions(lexicon, count=args.positions, seed=args.seed)
    positions = [s.position for s in samples if applies(s.position, options)]
    times: dict[int, dict[str, list[float]]] = {}
    for position in positions[:3]:  # compile and warm both paths
        evaluate(position, trie.generate(position), trie, static, options, limit=args.limit)
        found = shortlist(position, static, lexicon.trie, options, args.limit)
        evaluate(position, found.moves, trie, static, options, limit=args.limit)
    for position in positions:
        blanks = int(position.rack[BLANK])
        row = times.setdefault(blanks, {"whole": [], "shortlist": []})
        t = time.perf_counter()
        evaluate(position, trie.generate(position), trie, static, options, limit=args.limit)
        row["whole"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        found = shortlist(position, static, lexicon.trie, options, args.limit)
        evaluate(position, found.moves, trie, static, options, limit=args.limit)
        row["shortlist"].append((time.perf_counter() - t) * 1000)
    out: dict[str, dict[str, float]] = {}
    for blanks in sorted(times):
        row = times[blanks]
        whole = statistics.median(row["whole"])
        short = statistics.median(row["shortlist"])
        p90 = {k: sorted(v)[int(0.9 * (len(v) - 1))] for k, v in row.items()}
        out[str(blanks)] = {"positions": len(row["whole"]), "whole_ms": round(whole, 3),
                            "shortlist_ms": round(short, 3), "ratio": round(whole / short, 2),
                            "whole_p90_ms": round(p90["whole"], 3),
                            "shortlist_p90_ms": round(p90["shortlist"], 3)}  # fmt: skip
        print(f"{blanks} blank(s), {len(row['whole'])} positions: whole list {whole:.3f} ms "
              f"(p90 {p90['whole']:.3f}), shortlist {short:.3f} ms (p90 {p90['shortlist']:.3f}): "
              f"x{whole / short:.2f}")  # fmt: skip
    print(json.dumps(out))


if __name__ == "__main__":
    main()
