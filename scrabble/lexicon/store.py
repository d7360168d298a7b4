"""The SQLite lexicon store: the durable source of truth for every engine.

Schema (format version 1):
  signatures(signature BLOB PRIMARY KEY, words TEXT NOT NULL) WITHOUT ROWID
      -- words: the anagrams of that signature, sorted, space separated
  meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)
      -- name, words, signatures, sha256 (of the word list file), format_version
A build writes a temporary file beside the target and renames it into place,
so an interrupted or failed build leaves the previous database untouched; the
next build removes the temporary files of builds that died.

A store is trusted only when it is sound (``damage``): SQLite's quick_check
passes and the meta table's counts match the rows. Intact meta over corrupt
pages was reported "up to date" and failed later with a raw traceback. Setup
and both services' start-up (``ensure_sound``) rebuild a damaged store from
the word list beside it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from contextlib import closing
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


class LexiconDamaged(RuntimeError):
    """The store is damaged and cannot be rebuilt here; the message says why."""


def damage(db_path: Path) -> str | None:
    """Why the store at ``db_path`` cannot be trusted, or None when it is sound:
    PRAGMA quick_check (every page, B-tree and record format; 43 ms for
    SOWPODS) and the meta table's word and signature counts against the rows
    (one scan, 90 ms)."""
    try:
        with closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as con:
            check = [row[0] for row in con.execute("PRAGMA quick_check").fetchall()]
            if check != ["ok"]:
                return f"SQLite's quick_check found: {'; '.join(map(str, check[:3]))}"
            meta = dict(con.execute("SELECT key, value FROM meta"))
            rows, words = con.execute(
                "SELECT count(*), coalesce(sum(length(words) - "
                "length(replace(words, ' ', '')) + 1), 0) FROM signatures"
            ).fetchone()
    except sqlite3.Error as exc:
        return f"cannot be read ({exc})"
    try:
        want = (int(meta["signatures"]), int(meta["words"]))
    except (KeyError, ValueError) as exc:
        return f"its meta table is incomplete ({exc!r})"
    if want != (rows, words):
        return (
            f"its meta table says {want[0]} signatures and {want[1]} words, "
            f"its rows hold {rows} and {words}"
        )
    return None


def is_current(db_path: Path, word_list_sha256: str) -> bool:
    """True when db_path exists, is sound, and was built from a list with this sha256."""
    if not db_path.exists():
        return False
    try:
        info = read_info(db_path)
    except (sqlite3.Error, KeyError, ValueError):
        return False
    if info.sha256 != word_list_sha256 or info.format_version != FORMAT_VERSION:
        return False
    return damage(db_path) is None


def remove_stale_temporaries(db_path: Path, older_than_s: float = 3600.0) -> list[Path]:
    """Delete ``<name>.sqlite.tmp<pid>`` files whose build died: its process is
    gone, or the file is older than ``older_than_s`` (the pid was reused)."""
    removed = []
    for tmp in db_path.parent.glob(f"{db_path.name}.tmp*"):
        pid = tmp.name.rsplit(".tmp", 1)[1]
        try:
            age = time.time() - tmp.stat().st_mtime
        except FileNotFoundError:
            continue
        if pid.isdigit() and int(pid) != os.getpid() and _alive(int(pid)) and age < older_than_s:
            continue  # a build in progress
        tmp.unlink(missing_ok=True)
        removed.append(tmp)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's
    return True


def group_by_signature(words: list[str]) -> dict[bytes, list[str]]:
    groups: dict[bytes, list[str]] = defaultdict(list)
    for word in words:
        groups[signature_of(word)].append(word)
    return groups


def write_database(
    word_list: WordList, db_path: Path, progress: Callable[[int, int], None] | None = None
) -> LexiconInfo:
    groups = group_by_signature(word_list.words)
    remove_stale_temporaries(db_path)
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


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def build(
    source: Path,
    name: str | None = None,
    force: bool = False,
    directory: Path | None = None,
    verbose: bool = False,
    notice: Callable[[str], None] = _stderr,
) -> tuple[LexiconInfo, bool]:
    """Build <directory>/<name>.sqlite (default: beside the word list) from a
    word list unless it is already current (built from this list, and sound).

    Returns the database's info and whether a build happened; ``notice`` hears
    why a present store was rebuilt, and with ``verbose`` each step (reading,
    grouping, writing with a bar on a terminal), so a large list never looks
    stuck.
    """
    name = (name or source.stem).lower()
    check_name(name)
    target = directory if directory is not None else source.parent
    db_path = target / f"{name}.sqlite"
    for tmp in remove_stale_temporaries(db_path):
        notice(f"removed {tmp.name}, left by a build that did not finish")
    if verbose:
        notice(f"lexicon {name}: reading {source}")
    word_list = read_word_list(source, name)
    if not force and is_current(db_path, word_list.sha256):
        return read_info(db_path), False
    if db_path.exists() and not force:
        why = damage(db_path)
        if why is not None:
            notice(f"{db_path} is damaged: {why}; rebuilding it from {source.name}")
    if verbose:
        notice(
            f"lexicon {name}: {len(word_list.words)} words; grouping anagrams, writing {db_path}"
        )
    target.mkdir(parents=True, exist_ok=True)
    return write_database(word_list, db_path, progress=_terminal_progress), True


def ensure_sound(db_path: Path, notice: Callable[[str], None] = _stderr) -> str | None:
    """A service's start-up check: None when the store is sound; else rebuild
    it from the word list beside it (``<name>.txt``) and say why. Raises
    ``LexiconDamaged`` when that is not possible (no list, read-only)."""
    if not db_path.exists():
        return None  # the caller reports a missing store in its own words
    why = damage(db_path)
    if why is None:
        return None
    source = db_path.with_suffix(".txt")
    if not source.is_file():
        raise LexiconDamaged(f"{db_path} is damaged ({why}) and {source} is missing")
    notice(f"{db_path} is damaged: {why}; rebuilding it from {source.name}")
    try:
        write_database(read_word_list(source, db_path.stem), db_path)
    except (OSError, sqlite3.Error, ValueError) as exc:
        raise LexiconDamaged(f"{db_path} is damaged ({why}); rebuilding failed: {exc}") from exc
    return why


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
