"""Fill Numba's disk cache: every compiled path of both services, once.

On a fresh clone the first compile takes a minute or so; done here, once, the
test processes and the services started afterwards load machine code from the
cache in about a second instead of each compiling it again at the same time.
The cache directory is keyed on the sources (``scrabble.compiled``), so there
is never a stale one to drop.
"""

from __future__ import annotations

import sys
import time

from scrabble.compiled import guard, is_cold
from scrabble.engines.registry import EngineSet
from scrabble.equity.leavegen import warm as warm_leaves
from scrabble.gateway.warmup import warm_gateway
from scrabble.lexicon.loaded import Lexicon
from scrabble.worker.app import warm_numba as warm_worker


def main() -> int:
    started = time.perf_counter()
    directory = guard()
    if is_cold(directory):
        print(f"numba: compiling the engine for these sources into {directory} "
              "(a minute or so, once)", file=sys.stderr)  # fmt: skip
    warm_gateway(EngineSet(Lexicon.load()))
    warm_worker()
    warm_leaves()
    print(f"numba cache warm ({time.perf_counter() - started:.1f}s)", file=sys.stderr)
    return 0
