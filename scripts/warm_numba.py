#!/usr/bin/env python3
"""Compile every Numba function once, so Numba's on-disk cache is warm.

On a fresh clone the first compile takes a minute or so; done here, once, the
test processes and the services started afterwards load machine code from the
cache in about a second instead of each compiling it again at the same time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.heuristics.equity import Options, evaluate  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.movegen import ENGINES, generate  # noqa: E402
from scrabble.position import make_position  # noqa: E402
from worker.app import _warm_numba  # noqa: E402

POSITIONS = [
    (["." * 15] * 15, "AEINRST"),
    (["." * 15] * 7 + ["....QUIET......"] + ["." * 15] * 7, "SORE??"),
]


def main() -> int:
    started = time.perf_counter()
    lexicon = Lexicon.load()
    for rows, rack in POSITIONS:
        position = make_position(rows, rack)
        for engine in ENGINES:
            if engine != "compact-numba":  # the worker's side is warmed below
                moves = generate(position, lexicon, engine)
        evaluate(position, moves, lexicon, Options(adversarial=True))
    _warm_numba()
    print(f"numba cache warm ({time.perf_counter() - started:.1f}s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
