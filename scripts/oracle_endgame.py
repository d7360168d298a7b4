#!/usr/bin/env python3
"""Check every root value of MAGPIE's endgame of issue 10 (INR against OT)
against the brute-force minimax of ``tests/endgame_oracle.py``: slow (the
plays keeping one tile take about 30-60 s each, the pass longer), so it is a
script, run once, and ``docs/endgame.md`` records its result.

    .venv/bin/python scripts/oracle_endgame.py

Prints each move's search value, the oracle's, and the time it took.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scrabble import cgp  # noqa: E402
from scrabble.equity.endgame import solve  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.position import make_position, parse_rack  # noqa: E402
from tests.endgame_oracle import root_values  # noqa: E402
from tests.test_endgame import MAGPIE_CGP  # noqa: E402


def main() -> None:
    lexicon = Lexicon.load()
    parsed = cgp.parse(MAGPIE_CGP)
    position = make_position(parsed.rows, parsed.rack)
    result = solve(position, parsed.opponent_rack, lexicon, budget_ms=60_000)
    opponent = parse_rack(parsed.opponent_rack)
    started = time.time()
    wrong = 0
    for move in result.moves:
        t = time.time()
        expected = root_values(position, opponent, lexicon, only={move.index})[move.index]
        wrong += expected != move.value
        print(
            f"{move.notation:16} search {move.value:+4d} oracle {expected:+4d} "
            f"{'ok' if expected == move.value else 'DIFFERENT'} {time.time() - t:6.1f} s",
            flush=True,
        )
    print(f"{len(result.moves)} moves, {wrong} different, {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
