"""The lexicons a service serves: every store built under the lexicon directory.

A store is ``<dir>/<name>.sqlite`` (``scrabble lexicon build``); its name is the
one in its meta table, looked up case-insensitively, so a CGP's ``lex CSW21;``
finds a store built with ``--name csw21``. ``LEXICONS`` (comma separated)
narrows the set; ``LEXICON_DEFAULT`` names the one used when a request names
none (else ``sowpods`` when served, else the first by name).

Each lexicon is loaded on first use (``lexicon``/``engines``) or all at once
by ``load`` (a service's start-up), which also records what loading cost: the
load time, and (``Served.memory``) the bytes its structures hold. The catalog sits
above the engine registry (it hands out one ``EngineSet`` per lexicon), so
only services and the command line import it.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scrabble.engines.compact.client import WorkerClient
from scrabble.engines.registry import EngineSet
from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.store import (
    FORMAT_VERSION,
    LexiconInfo,
    lexicon_dir,
    read_info,
)

DEFAULT_NAME = "sowpods"


class UnknownLexicon(LookupError):
    """A name no store here has; the message lists what is served."""

    def __init__(self, name: str, served: list[str]) -> None:
        self.name = name
        self.served = served
        super().__init__(
            f"lexicon {name!r} is not served here; served: {', '.join(served)} "
            "(add a word list with `scrabble lexicon build WORDS.txt --name NAME` and restart)"
        )


class LexiconChoiceError(ValueError):
    """A request's lexicon cannot be served: unknown, or two names that
    disagree. ``field`` is the part of the request that named it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


class NoLexicons(FileNotFoundError):
    """The lexicon directory holds no store to serve."""


def footprint(root: object) -> int:
    """Bytes held by ``root`` and everything it references, each object once:
    array buffers, and the Python objects of the word lists and dicts (fast
    paths for containers of strings, which hold most of a lexicon's objects)."""
    seen: set[int] = set()
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        if isinstance(obj, np.ndarray):
            # a view counts its base array once; an array that owns its buffer
            # (or holds Numba's or a bytes object's) counts its bytes
            if isinstance(obj.base, np.ndarray):
                stack.append(obj.base)
            else:
                total += obj.nbytes
            continue
        total += sys.getsizeof(obj)
        if isinstance(obj, (str, bytes, int, float, bool)) or obj is None:
            continue
        if isinstance(obj, dict):
            keys, values = list(obj), list(obj.values())
            for items in (keys, values):
                if items and all(isinstance(x, (str, bytes)) for x in items[:64]):
                    total += sum(map(sys.getsizeof, items))  # strings: no recursion
                else:
                    stack.extend(items)
        elif isinstance(obj, (list, tuple, set, frozenset)):
            items = list(obj)
            if items and all(isinstance(x, (str, bytes)) for x in items[:64]):
                total += sum(map(sys.getsizeof, items))
            else:
                stack.extend(items)
        elif hasattr(obj, "__dict__"):
            stack.append(vars(obj))
    return total


def resident_bytes() -> int | None:
    """This process's resident set size (Linux /proc; None elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


@dataclass
class Served:
    """One store and, once loaded, its lexicon, engines and what they cost."""

    info: LexiconInfo
    path: Path
    lexicon: Lexicon | None = None
    engines: EngineSet | None = None
    load_ms: float = 0.0
    _footprint: tuple[tuple[str, ...], int] | None = None  # (engines built, bytes)

    def memory(self) -> dict[str, object]:
        """What the lexicon holds in memory: its word list, trie, leave and
        anagram tables and every engine built for it so far (counted again
        when another engine's tables get built)."""
        lexicon, engines = self.lexicon, self.engines
        if lexicon is None or engines is None:
            return {"loaded": False}
        built = tuple(sorted(engines.local))
        if self._footprint is None or self._footprint[0] != built:
            self._footprint = (built, footprint(engines))
        return {
            "loaded": True,
            "bytes": self._footprint[1],
            "engines_built": list(built),
            "trie_bytes": lexicon.trie.nbytes,
            "signature_table_bytes": engines.static.signatures.nbytes,
            "load_ms": round(self.load_ms, 1),
        }


@dataclass
class Catalog:
    directory: Path
    served: dict[str, Served]  # by lower-case name, sorted
    default: str
    worker: WorkerClient | None = None
    skipped: dict[str, str] = field(default_factory=dict)  # file -> why it is not served

    @classmethod
    def open(
        cls,
        directory: Path | None = None,
        worker: WorkerClient | None = None,
        names: list[str] | None = None,
        default: str | None = None,
    ) -> Catalog:
        """Discover the stores of ``directory`` (default: the configured one);
        ``names`` and ``default`` default to ``LEXICONS`` and ``LEXICON_DEFAULT``."""
        where = directory if directory is not None else lexicon_dir()
        if names is None and os.environ.get("LEXICONS"):
            names = [n.strip() for n in os.environ["LEXICONS"].split(",") if n.strip()]
        wanted = {n.lower() for n in names} if names else None
        served: dict[str, Served] = {}
        skipped: dict[str, str] = {}
        for path in sorted(where.glob("*.sqlite")) if where.is_dir() else []:
            try:
                info = read_info(path)
            except (sqlite3.Error, KeyError, ValueError) as exc:
                skipped[path.name] = f"not a lexicon store ({exc})"
                continue
            if info.format_version != FORMAT_VERSION:
                skipped[path.name] = (
                    f"store format {info.format_version}, this engine reads {FORMAT_VERSION}: "
                    "rebuild it with `scrabble lexicon build`"
                )
                continue
            key = info.name.lower()
            if wanted is not None and key not in wanted:
                continue
            if key in served:
                skipped[path.name] = f"a second store named {info.name!r}"
                continue
            served[key] = Served(info=info, path=path)
        if wanted is not None and (absent := sorted(wanted - set(served))):
            raise NoLexicons(
                f"LEXICONS names {', '.join(absent)}, which {where} does not hold "
                f"(it holds: {', '.join(served) or 'nothing'})"
            )
        if not served:
            raise NoLexicons(
                f"no lexicon store in {where}: build one with `scrabble lexicon build "
                "WORDS.txt --name NAME` (or set LEXICON_DIR to where the stores are)"
            )
        catalog = cls(where, dict(sorted(served.items())), "", worker, skipped)
        chosen = default or os.environ.get("LEXICON_DEFAULT")
        if chosen:
            catalog.default = catalog.resolve(chosen)
        else:
            catalog.default = DEFAULT_NAME if DEFAULT_NAME in served else next(iter(served))
        return catalog

    @property
    def names(self) -> list[str]:
        return [entry.info.name for entry in self.served.values()]

    def resolve(self, name: str | None) -> str:
        """The served key for ``name`` (any case); the default for None."""
        if name is None:
            return self.default
        key = name.strip().lower()
        if key not in self.served:
            raise UnknownLexicon(name, self.names)
        return key

    def choose(
        self, requested: str | None, recorded: str | None, recorded_field: str = "cgp"
    ) -> str:
        """The lexicon a request names: its own choice (``requested``, the
        ``lexicon`` field), or the one its position or record names
        (``recorded``: a CGP's lex, a GCG's #lexicon); both given must agree."""
        if requested is not None and recorded is not None:
            if requested.strip().lower() != recorded.strip().lower():
                raise LexiconChoiceError(
                    "lexicon",
                    f"{requested!r} disagrees with the {recorded_field}'s lexicon {recorded!r}",
                )
        name, field = (
            (requested, "lexicon") if requested is not None else (recorded, recorded_field)
        )
        try:
            return self.resolve(name)
        except UnknownLexicon as exc:
            raise LexiconChoiceError(field, str(exc)) from None

    def entry(self, name: str | None = None, prepare: bool = False) -> Served:
        """The lexicon's entry, loaded on first use; ``prepare`` also builds
        every in-process engine's tables and the static equity's leave and
        anagram tables (``EngineSet.prepare``), else they come on first use."""
        entry = self.served[self.resolve(name)]
        if entry.lexicon is None:
            started = time.perf_counter()
            entry.lexicon = Lexicon.load(entry.path)
            entry.engines = EngineSet(entry.lexicon, self.worker)
            if prepare:
                entry.engines.prepare()  # the span engines' tables and the static equity
            entry.load_ms = (time.perf_counter() - started) * 1000
        return entry

    def lexicon(self, name: str | None = None) -> Lexicon:
        lexicon = self.entry(name).lexicon
        assert lexicon is not None
        return lexicon

    def engines(self, name: str | None = None) -> EngineSet:
        engines = self.entry(name).engines
        assert engines is not None
        return engines

    def load(self, prepare_default: bool = False) -> None:
        """Every served lexicon now, the default first (with every engine's
        tables when ``prepare_default``; the others' span-engine tables are
        built on first use: about 0.5 s each, and memory few requests need)."""
        self.entry(self.default, prepare_default)
        for key in self.served:
            self.entry(key)

    def infos(self) -> list[LexiconInfo]:
        return [entry.info for entry in self.served.values()]
