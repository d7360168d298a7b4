"""What Numba compiles, as it happens: one line per engine function on stderr.

A cold cache means a minute or more of compiling before a service answers;
without this the terminal is silent all that time. Functions loaded from the
cache are not compiled, so a warm start prints nothing. The times include the
callees compiled on the way (Numba compiles them inside their caller).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from numba.core import event


class CompileLog(event.Listener):
    def __init__(self, out: IO[str] | None = None) -> None:
        self.out = out
        self.compiled = 0
        self._started: list[float] = []

    def on_start(self, ev: Any) -> None:
        function = ev.data["dispatcher"].py_func
        if not self._started and function.__module__.startswith("scrabble"):
            # the outermost one: it may take a while, its callees come first
            print(f"numba: compiling {function.__module__}.{function.__qualname__} ...",
                  file=self.out or sys.stderr, flush=True)  # fmt: skip
        self._started.append(time.perf_counter())

    def on_end(self, ev: Any) -> None:
        elapsed = time.perf_counter() - self._started.pop() if self._started else 0.0
        function = ev.data["dispatcher"].py_func
        if not function.__module__.startswith("scrabble"):
            return  # Numba's own helpers (np.empty and the like), compiled on the way
        self.compiled += 1
        name = f"{function.__module__}.{function.__qualname__}"
        out = self.out or sys.stderr
        print(f"numba: compiled {name} ({elapsed:.1f}s; {self.compiled} so far)", file=out,
              flush=True)  # fmt: skip


_ACTIVE: list[CompileLog] = []


@contextmanager
def compile_log(out: IO[str] | None = None) -> Iterator[CompileLog]:
    """Print each function Numba compiles inside the block (once, however the
    blocks nest: an inner block shares the outer one's log)."""
    if _ACTIVE:
        yield _ACTIVE[-1]
        return
    listener = CompileLog(out)
    _ACTIVE.append(listener)
    try:
        with event.install_listener("numba:compile", listener):
            yield listener
    finally:
        _ACTIVE.pop()
