"""Imported by the forkserver of the compute processes (``gateway/lanes.py``)
before it forks any: the lexicon and engines are loaded, warmed and frozen
once there, and every compute process forked from it starts in milliseconds
with them, sharing their pages copy-on-write, instead of loading its own
(about 4 s each, 14 s for three on two busy cores). A process that dies is
replaced as fast.

Loading here is safe to fork from: the forkserver is a fresh single-threaded
interpreter (no event loop, no listening socket), and no engine keeps an
SQLite connection open (sqlite-hash opens one per request).
"""

from __future__ import annotations

import gc
import time

from scrabble.gateway.compute import Kit

KIT: Kit | None = None
FAILURE = ""  # why KIT is None; each compute process then loads its own
LOAD_MS = 0.0


def _load() -> None:
    global KIT, FAILURE, LOAD_MS
    started = time.perf_counter()
    try:
        KIT = Kit.load()  # the stores of LEXICON_DIR (or LEXICON_DB alone)
    except Exception as exc:  # the forkserver must not die of it: children say why
        FAILURE = f"{type(exc).__name__}: {exc}"
        return
    gc.collect()  # what start-up built lives as long as the processes:
    gc.freeze()  # no collection walks (and so copies) the shared pages
    LOAD_MS = round((time.perf_counter() - started) * 1000, 1)


_load()
