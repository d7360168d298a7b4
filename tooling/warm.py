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
from collections.abc import Callable

from scrabble.compile_log import compile_log
from scrabble.compiled import guard, is_cold
from scrabble.engines.registry import EngineSet
from scrabble.equity.leavegen import warm as warm_leaves
from scrabble.gateway.warmup import warm_gateway
from scrabble.lexicon.loaded import Lexicon
from scrabble.wordgame.warmup import warm_wordgame
from scrabble.worker.app import warm_numba as warm_worker

STEPS: list[tuple[str, Callable[[], None]]] = [
    ("the gateway's engines and equity terms", lambda: warm_gateway(EngineSet(Lexicon.load()))),
    ("the worker's table probe", warm_worker),
    ("leave generation", warm_leaves),
    ("the WordGame kernels and the players' compiled lexicon", warm_wordgame),
]


def main() -> int:
    started = time.perf_counter()
    directory = guard()
    cold = is_cold(directory)
    if cold:
        print(f"numba: compiling the engine for these sources into {directory} "
              "(a minute or so, once; each function is listed as it is done)",
              file=sys.stderr)  # fmt: skip
    compiled = 0
    with compile_log() as log:
        for number, (what, run) in enumerate(STEPS, start=1):
            if cold:
                print(f"numba: step {number}/{len(STEPS)}: {what}", file=sys.stderr, flush=True)
            run()
        compiled = log.compiled
    how = f"{compiled} functions compiled" if compiled else "everything loaded from the cache"
    print(f"numba cache warm ({how}, {time.perf_counter() - started:.1f}s)", file=sys.stderr)
    return 0
