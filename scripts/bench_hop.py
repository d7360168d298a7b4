#!/usr/bin/env python3
"""What should cross the gateway-worker hop? Figures for the decision.

    .venv/bin/python scripts/bench_hop.py

Today the gateway sends the board and rack; the worker computes cross-check
masks from its table, spans and signatures, and the gateway computes its own
view and spans (it needs cross scores for fitting and scoring anyway) while it
waits. The alternative would be sending the gateway's masks. Printed per
golden position (best of 20 each, medians and maxima): the worker's table view,
the gateway's trie view and spans, and the bytes and JSON time the masks would
add to a request.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.board import rack_letters, table_view_arrays, trie_view  # noqa: E402
from scrabble.engines.span import plan  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.lexicon.store import default_db_path  # noqa: E402
from scrabble.lexicon.table import SignatureTable  # noqa: E402
from scrabble.position import Position, make_position  # noqa: E402
from tooling.golden import golden_positions  # noqa: E402


def best_ms(fn: Callable[[], object], repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return min(times)


def measure(position: Position, lexicon: Lexicon, table: SignatureTable) -> dict[str, float]:
    rules = position.rules
    letters = rack_letters(position.rack)
    row, col = rules.opening_square
    view = trie_view(position.board, rules, lexicon.trie)
    body = {"board": position.rows(), "rack": position.rack_string()}
    return {
        "worker: table view (ms)": best_ms(
            lambda: table_view_arrays(
                position.board, rules.size, letters, table, rules.values, row, col, False
            )
        ),
        "gateway: trie view (ms)": best_ms(lambda: trie_view(position.board, rules, lexicon.trie)),
        "gateway: spans (ms)": best_ms(lambda: plan(view, position.rack, signatures=False)),
        "request body as today (bytes)": len(orjson.dumps(body)),
        "masks added to it (bytes)": len(orjson.dumps(view.cross_mask.tolist())),
        "masks encoded + decoded (ms)": best_ms(
            lambda: orjson.loads(orjson.dumps(view.cross_mask.tolist()))
        ),
    }


def main() -> None:
    lexicon = Lexicon.load()
    table = SignatureTable.load(default_db_path())
    figures: dict[str, list[float]] = {}
    for entry in golden_positions():
        position = make_position(entry["board"], entry["rack"])
        for name, value in measure(position, lexicon, table).items():
            figures.setdefault(name, []).append(value)
    for name, values in figures.items():
        print(f"{name:>32}: median {statistics.median(values):9.3f}   max {max(values):9.3f}")
    saved = statistics.median(figures["worker: table view (ms)"])
    added = statistics.median(figures["masks encoded + decoded (ms)"])
    extra = statistics.median(figures["masks added to it (bytes)"])
    print(
        f"sending masks would save {saved:.3f} ms of worker work for {added:.3f} ms of JSON "
        f"and {extra:.0f} more bytes"
    )


if __name__ == "__main__":
    main()
