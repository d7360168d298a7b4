#!/usr/bin/env python3
"""Compile every Numba function once, so Numba's on-disk cache is warm.

On a fresh clone the first compile takes a minute or so; done here, once, the
test processes and the services started afterwards load machine code from the
cache in about a second instead of each compiling it again at the same time.

Numba checks a cached function against its own source file only: a cached
caller keeps the machine code of a callee in another module after that module
changes (and then may fail oddly or run the old code). So when any engine
source changed since the last warm-up, every cache entry is dropped first.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
STAMP = ROOT / "scrabble" / "__pycache__" / "numba-sources.sha256"


def drop_stale_caches() -> bool:
    """Remove Numba's cache files if any source under scrabble/ changed since
    the stamp was written; returns whether it did."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "scrabble").rglob("*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    current = digest.hexdigest()
    if STAMP.is_file() and STAMP.read_text().strip() == current:
        return False
    for cached in (ROOT / "scrabble").rglob("__pycache__/*.nb[ic]"):
        cached.unlink(missing_ok=True)
    STAMP.parent.mkdir(exist_ok=True)
    STAMP.write_text(current + "\n")
    return True


from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.warmup import warm_gateway  # noqa: E402
from scrabble.wordgame.warmup import warm_wordgame  # noqa: E402
from worker.app import _warm_numba  # noqa: E402


def main() -> int:
    started = time.perf_counter()
    if drop_stale_caches():
        print("numba: sources changed, cache dropped", file=sys.stderr)
    warm_gateway(Lexicon.load())
    _warm_numba()
    warm_wordgame()  # the WordGame kernels and the players' compiled lexicon
    print(f"numba cache warm ({time.perf_counter() - started:.1f}s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
