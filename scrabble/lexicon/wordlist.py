"""Reading and validating a word list (one word a line)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from scrabble.lexicon.signature import MAX_COUNT

# Longest word a list may hold: the longest board line any rules allow (the
# WordGame goes to 20) with room to spare; ENABLE's longest word has 28.
MAX_WORD_LENGTH = 32


class WordListError(ValueError):
    """A word list that cannot be built, with the line that is wrong."""


@dataclass(frozen=True)
class WordList:
    name: str
    words: list[str]  # upper case, sorted, distinct
    sha256: str


def read_word_list(path: Path, name: str | None = None) -> WordList:
    raw = path.read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError as exc:
        bad_line = raw[: exc.start].count(b"\n") + 1
        raise WordListError(f"{path}: line {bad_line}: non-ASCII byte") from None
    words: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        word = line.strip()
        if not word:
            continue  # blank lines (a trailing newline, CRLF leftovers) carry no word
        if not word.isalpha():
            raise WordListError(f"{path}: line {number}: {word!r} has characters other than A-Z")
        if len(word) > MAX_WORD_LENGTH:
            raise WordListError(
                f"{path}: line {number}: {word!r} has {len(word)} letters "
                f"(at most {MAX_WORD_LENGTH})"
            )
        if max(word.upper().count(ch) for ch in set(word.upper())) > MAX_COUNT:
            raise WordListError(
                f"{path}: line {number}: {word!r} has a letter more than "
                f"{MAX_COUNT} times (a signature holds at most {MAX_COUNT})"
            )
        words.add(word.upper())
    if not words:
        raise WordListError(f"{path}: the word list is empty")
    return WordList(name=name or path.stem, words=sorted(words), sha256=sha)
