"""The SQLite lexicon store: the durable source of truth for every engine.

Schema (format version 1):
  signatures(signature BLOB PRIMARY KEY, words TEXT NOT NULL) WITHOUT ROWID
      -- words: the anagrams of that signature, sorted, space separated
  meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)
      -- name, words, signatures, sha256 (of the word list file), format_version
A build writes a temporary file beside the target and renames it into place,
so an interrupted or failed build leaves the previous database untouched.
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scrabble.lexicon.signature import signature_of
from scrabble.lexicon.wordlist import WordList, WordListError, read_word_list

FORMAT_VERSION = 1
# Where stores live: LEXICON_DIR when set; else a checkout's lexicon/ folder
# (scripts/setup builds there); else the user's data directory (an installed
# package has no checkout). ``lexicon_dir`` resolves it.
CHECKOUT_LEXICON_DIR = Path(__file__).resolve().parents[2] / "lexicon"


@dataclass(frozen=True)
class LexiconInfo:
    name: str
    words: int
    signatures: int
    sha256: str
    format_version: int

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "words": self.words,
            "signatures": self.signatures,
            "sha256": self.sha256,
        }


def read_info(db_path: Path) -> LexiconInfo:
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as con:
        meta = dict(con.execute("SELECT key, value FROM meta"))
    return LexiconInfo(
        name=meta["name"],
        words=int(meta["words"]),
        signatures=int(meta["signatures"]),
        sha256=meta["sha256"],
        format_version=int(meta["format_version"]),
    )


def is_current(db_path: Path, word_list_sha256: str) -> bool:
    """True when db_path exists and was built from a list with this sha256."""
    if not db_path.exists():
        return False
    try:
        info = read_info(db_path)
    except (sqlite3.Error, KeyError, ValueError):
        return False
    return info.sha256 == word_list_sha256 and info.format_version == FORMAT_VERSION


def group_by_signature(words: list[str]) -> dict[bytes, list[str]]:
    groups: dict[bytes, list[str]] = defaultdict(list)
    for word in words:
        groups[signature_of(word)].append(word)
    return groups


def write_database(
    word_list: WordList, db_path: Path, progress: Callable[[int, int], None] | None = None
) -> LexiconInfo:
    groups = group_by_signature(word_list.words)
    tmp = db_path.with_name(f"{db_path.name}.tmp{os.getpid()}")
    tmp.unlink(missing_ok=True)
    try:
        con = sqlite3.connect(tmp)
        try:
            con.execute("PRAGMA journal_mode=OFF")
            con.execute("PRAGMA synchronous=OFF")
            con.execute(
                "CREATE TABLE signatures (signature BLOB PRIMARY KEY, "
                "words TEXT NOT NULL) WITHOUT ROWID"
            )
            con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            items = sorted(groups.items())
            batch = 20000
            for start in range(0, len(items), batch):
                chunk = items[start : start + batch]
                con.executemany(
                    "INSERT INTO signatures VALUES (?, ?)",
                    ((sig, " ".join(ws)) for sig, ws in chunk),
                )
                if progress:
                    progress(start + len(chunk), len(items))
            info = LexiconInfo(
                name=word_list.name,
                words=len(word_list.words),
                signatures=len(groups),
                sha256=word_list.sha256,
                format_version=FORMAT_VERSION,
            )
            con.executemany(
                "INSERT INTO meta VALUES (?, ?)",
                [
                    ("name", info.name),
                    ("words", str(info.words)),
                    ("signatures", str(info.signatures)),
                    ("sha256", info.sha256),
                    ("format_version", str(FORMAT_VERSION)),
                ],
            )
            con.commit()
        finally:
            con.close()
        os.replace(tmp, db_path)
    finally:
        tmp.unlink(missing_ok=True)
    return info


def _terminal_progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r  signatures [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build(
    source: Path,
    name: str | None = None,
    force: bool = False,
    directory: Path | None = None,
    verbose: bool = False,
) -> tuple[LexiconInfo, bool]:
    """Build <directory>/<name>.sqlite (default: beside the word list) from a
    word list unless it is already current.

    Returns the database's info and whether a build happened. ``verbose``
    says each step on stderr (reading, grouping, writing with a bar on a
    terminal), so a build of a large list never looks stuck.
    """
    name = (name or source.stem).lower()
    check_name(name)
    target = directory if directory is not None else source.parent
    db_path = target / f"{name}.sqlite"
    if verbose:
        _say(f"lexicon {name}: reading {source}")
    word_list = read_word_list(source, name)
    if not force and is_current(db_path, word_list.sha256):
        return read_info(db_path), False
    if verbose:
        _say(f"lexicon {name}: {len(word_list.words)} words; grouping anagrams, writing {db_path}")
    target.mkdir(parents=True, exist_ok=True)
    progress = _terminal_progress if verbose else None
    return write_database(word_list, db_path, progress=progress), True


def load_rows(db_path: Path) -> list[tuple[bytes, str]]:
    """Every (signature, words) row, for the in-memory tables."""
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as con:
        return con.execute("SELECT signature, words FROM signatures").fetchall()


def load_words(db_path: Path) -> list[str]:
    words: list[str] = []
    for _, ws in load_rows(db_path):
        words.extend(ws.split(" "))
    words.sort()
    return words


_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


def check_name(name: str) -> None:
    """A lexicon name is a file name and a URL segment: lower-case letters,
    digits, '-' and '_', at most 40 characters."""
    if not _NAME.fullmatch(name):
        raise WordListError(
            f"lexicon name {name!r}: use 1-40 lower-case letters, digits, '-' or '_' "
            "(e.g. csw21, nwl2023)"
        )


def lexicon_dir() -> Path:
    """The directory the lexicon stores are read from and built into."""
    configured = os.environ.get("LEXICON_DIR")
    if configured:
        return Path(configured)
    if (CHECKOUT_LEXICON_DIR.parent / "pyproject.toml").is_file() and CHECKOUT_LEXICON_DIR.is_dir():
        return CHECKOUT_LEXICON_DIR
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "scrabble-engine" / "lexicons"


def default_db_path(name: str = "sowpods") -> Path:
    return lexicon_dir() / f"{name}.sqlite"


def missing_store_message(path: Path) -> str:
    """What to run when a store is missing (the error every loader raises)."""
    return (
        f"no lexicon store at {path}: build it with `scrabble lexicon build WORDS.txt "
        f"--name {path.stem}` (stores are read from LEXICON_DIR, now {path.parent})"
    )
