"""A word judge: is a word in the lexicon, and which words are its anagrams.

The anagrams come from the lexicon's signature table (the one the static
equity kernel already holds: one probe, no extra memory).
"""

from __future__ import annotations

from dataclasses import dataclass

from scrabble.lexicon.loaded import Lexicon, signature_table
from scrabble.lexicon.signature import MAX_COUNT, signature_of
from scrabble.lexicon.table import keys_from_blobs
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


def judge_word(lexicon: Lexicon, text: str) -> Judgement:
    word = check_word(text)
    table = signature_table(lexicon)
    rows, _ = table.lookup(keys_from_blobs(signature_of(word), 1))
    anagrams = sorted(table.words_of(rows)) if int(rows[0]) >= 0 else []
    return Judgement(word=word, valid=lexicon.contains(word), anagrams=anagrams)
