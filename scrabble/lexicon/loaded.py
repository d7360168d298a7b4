"""A lexicon loaded for play: its identity, its words and its trie."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from scrabble.lexicon.store import (
    LexiconInfo,
    default_db_path,
    group_by_signature,
    load_rows,
    load_words,
    missing_store_message,
    read_info,
)
from scrabble.lexicon.table import SignatureTable
from scrabble.lexicon.trie import Trie, build_trie


@dataclass(frozen=True)
class Lexicon:
    info: LexiconInfo
    db_path: Path
    words: list[str]
    trie: Trie
    load_ms: float

    @classmethod
    def load(cls, db_path: Path | None = None) -> Lexicon:
        started = time.perf_counter()
        path = Path(db_path) if db_path else default_db_path()
        if not path.exists():
            raise FileNotFoundError(missing_store_message(path))
        info = read_info(path)
        words = load_words(path)
        trie = build_trie(words)
        return cls(
            info=info,
            db_path=path,
            words=words,
            trie=trie,
            load_ms=(time.perf_counter() - started) * 1000,
        )

    @classmethod
    def from_words(cls, words: list[str], name: str = "custom") -> Lexicon:
        """An in-memory lexicon (tests with small dictionaries)."""
        words = sorted({w.upper() for w in words})
        info = LexiconInfo(name=name, words=len(words), signatures=0, sha256="", format_version=0)
        return cls(info=info, db_path=Path(), words=words, trie=build_trie(words), load_ms=0.0)

    def rows(self) -> list[tuple[bytes, str]]:
        """(signature, words) rows: from the SQLite store, or grouped from the
        word list when there is none (small test lexicons)."""
        if self.db_path.is_file():
            return load_rows(self.db_path)
        groups = group_by_signature(self.words)
        return sorted((sig, " ".join(sorted(ws))) for sig, ws in groups.items())

    def contains(self, word: str) -> bool:
        return self.trie.contains(word)


_SIGNATURES: dict[int, tuple[Lexicon, SignatureTable]] = {}


def signature_table(lexicon: Lexicon) -> SignatureTable:
    """The lexicon's compact signature table (from its SQLite store, or grouped
    from its words), built once per lexicon."""
    entry = _SIGNATURES.get(id(lexicon))
    if entry is None or entry[0] is not lexicon:
        if lexicon.db_path.is_file():
            table = SignatureTable.load(lexicon.db_path)
        else:
            table = SignatureTable.from_rows(lexicon.rows())
        entry = (lexicon, table)
        _SIGNATURES[id(lexicon)] = entry
    return entry[1]
