"""A word judge: is a word in the lexicon, and which words are its anagrams.

One look-up in the SQLite store: the row of the word's signature holds every
word with its letters, so it answers both questions without loading the
lexicon (the gateway's accepting process answers it that way).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from scrabble.lexicon.signature import MAX_COUNT, signature_of
from scrabble.lexicon.wordlist import MAX_WORD_LENGTH


class WordError(ValueError):
    """Text that cannot be a word of any lexicon (the message says why)."""


@dataclass(frozen=True)
class Judgement:
    word: str  # upper case
    valid: bool
    anagrams: list[str]  # the lexicon's words with the same letters, the word included


def check_word(text: str) -> str:
    """The word in upper case, or a ``WordError`` naming the problem."""
    if not text:
        raise WordError("is empty; give the letters of a word (A-Z)")
    if len(text) > MAX_WORD_LENGTH:
        raise WordError(f"has {len(text)} letters, at most {MAX_WORD_LENGTH}")
    if not (text.isascii() and text.isalpha()):
        bad = next(ch for ch in text if not (ch.isascii() and ch.isalpha()))
        raise WordError(f"{bad!r} is not a letter (A-Z)")
    word = text.upper()
    if max(word.count(ch) for ch in set(word)) > MAX_COUNT:
        raise WordError(f"has a letter more than {MAX_COUNT} times")
    return word


def judge_word(db_path: Path, text: str) -> Judgement:
    """``text`` judged by the store at ``db_path``."""
    word = check_word(text)
    with closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as con:
        row = con.execute(
            "SELECT words FROM signatures WHERE signature = ?", (signature_of(word),)
        ).fetchone()
    anagrams = sorted(row[0].split(" ")) if row else []
    return Judgement(word=word, valid=word in anagrams, anagrams=anagrams)
