"""Loading a lexicon by name, once per process.

``load_lexicon`` gives the full lexicon (its words, its trie), for the referee,
the cases and the gateway; it is the one small function a gateway-wide
lexicon registry can replace. ``load_compiled`` gives a player what it needs
(the trie and the words by length) from ``lexicon/<name>.wordgame.npz``, a
build output made from the database on first use and remade when the word
list changes: about 20 ms instead of about 0.5 s, which counts against a
case's 10 s.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.store import LexiconInfo, lexicon_dir, read_info
from scrabble.lexicon.trie import Trie
from scrabble.wordgame.trie_walk import contains
from scrabble.wordgame.wordbank import WordBank, build_bank

DEFAULT = "enable"
COMPILED_VERSION = 1


def lexicon_path(name: str) -> Path:
    if not name.isidentifier():
        raise FileNotFoundError(f"no lexicon named {name!r}")
    return lexicon_dir() / f"{name.lower()}.sqlite"


def player_lexicon_name(name: str) -> str:
    """The built lexicon a referee's start block means, for a player process.

    The referee names the word list; another tester may spell it as its file
    (``enable1.txt``, ``ENABLE1``) rather than as our store (``enable``). A
    player that crashes on the name scores 0 on every case, so the name is
    taken leniently: lower case, without directory or extension, then without
    a trailing version number; a name still unknown falls back to the default
    (the contract's lexicon), and the caller says so on stderr."""
    stem = name.strip().replace("\\", "/").rsplit("/", 1)[-1].lower()
    stem = stem.split(".", 1)[0]
    for candidate in (stem, stem.rstrip("0123456789")):
        if candidate.isidentifier() and lexicon_path(candidate).is_file():
            return candidate
    return DEFAULT


@cache
def load_lexicon(name: str = DEFAULT) -> Lexicon:
    """The built lexicon ``lexicon/<name>.sqlite``; FileNotFoundError if it is not built."""
    return Lexicon.load(lexicon_path(name))


@dataclass(frozen=True)
class CompiledLexicon:
    """The part of a lexicon a player uses: no word list, the words by length."""

    info: LexiconInfo
    trie: Trie
    bank: WordBank
    load_ms: float
    words: list[str] = field(default_factory=list)

    def contains(self, word: str) -> bool:
        codes = np.frombuffer(word.upper().encode("ascii"), dtype=np.uint8) - 65
        return bool(contains(self.trie.mask, self.trie.first, codes.astype(np.uint8)))


PlayerLexicon = Lexicon | CompiledLexicon  # what a player may be given


@cache
def load_compiled(name: str = DEFAULT) -> CompiledLexicon:
    started = time.perf_counter()
    db = lexicon_path(name)
    info = read_info(db)
    path = db.with_name(f"{db.stem}.wordgame.npz")
    if path.exists():
        try:
            with np.load(path) as data:
                if str(data["sha256"]) == info.sha256 and int(data["version"]) == COMPILED_VERSION:
                    return CompiledLexicon(
                        info,
                        Trie(mask=data["mask"], first=data["first"]),
                        WordBank(data["matrix"].astype(np.int64), data["lengths"], data["offsets"]),
                        (time.perf_counter() - started) * 1000,
                    )
        except (OSError, KeyError, ValueError):
            pass
    full = load_lexicon(name)
    bank = build_bank(full.words)
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}.npz")
    try:
        np.savez(
            tmp,
            sha256=np.str_(info.sha256),
            version=np.int64(COMPILED_VERSION),
            mask=full.trie.mask,
            first=full.trie.first,
            matrix=bank.matrix.astype(np.uint8),
            lengths=bank.lengths,
            offsets=bank.offsets,
        )
        os.replace(tmp, path)
    except OSError:  # a read-only checkout: built again next time (half a second)
        tmp.unlink(missing_ok=True)
    return CompiledLexicon(info, full.trie, bank, (time.perf_counter() - started) * 1000)
