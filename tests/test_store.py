"""The SQLite lexicon store: real files, built and rebuilt as an operator would."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scrabble.lexicon.signature import pack, signature_of, unpack
from scrabble.lexicon.store import build, default_db_path, read_info
from scrabble.lexicon.wordlist import WordListError
from tooling.services import ROOT


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_sowpods_database_identity():
    info = read_info(default_db_path())
    assert (info.name, info.words, info.signatures) == ("sowpods", 267751, 237739)
    with sqlite3.connect(default_db_path()) as con:
        sql = con.execute("SELECT sql FROM sqlite_master WHERE name='signatures'").fetchone()[0]
        assert "WITHOUT ROWID" in sql
        words = (
            con.execute("SELECT words FROM signatures WHERE signature=?", (signature_of("LISTEN"),))
            .fetchone()[0]
            .split()
        )
    assert {"LISTEN", "SILENT", "ENLIST", "TINSEL", "INLETS"} <= set(words)


def test_signature_round_trip():
    sig = signature_of("MISSISSIPPI")
    assert len(sig) == 13
    counts = unpack(sig)
    assert counts[ord("S") - 65] == 4 and counts[ord("I") - 65] == 4
    assert pack(counts) == sig
    assert signature_of("LISTEN") == signature_of("silent")


def test_build_groups_anagrams_and_skips_when_current(tmp_path):
    source = write(tmp_path, "mini.txt", "listen\nSILENT\nTINSEL\ncat\nact\ndog\n")
    info, built = build(source)
    assert built and (info.words, info.signatures) == (6, 3)
    again, built_again = build(source)
    assert not built_again and again == info
    source.write_text("listen\nsilent\ncat\n")
    changed, rebuilt = build(source)
    assert rebuilt and (changed.words, changed.signatures) == (3, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cat\ndo g\n", "line 2"),
        ("cat\nca7\n", "line 2"),
        ("cat\n" + "a" * 16 + "\n", "more than 15 times"),
        ("cat\n" + "ab" * 17 + "\n", "34 letters"),
        ("", "empty"),
        ("\n\n", "empty"),
        ("cat\ncaf\xe9\n", "line 2"),
    ],
)
def test_bad_word_list_is_refused_and_writes_nothing(tmp_path, text, message):
    source = tmp_path / "bad.txt"
    source.write_bytes(text.encode("latin-1"))
    with pytest.raises(WordListError, match=message):
        build(source)
    assert not (tmp_path / "bad.sqlite").exists()
    assert list(tmp_path.iterdir()) == [source]


def test_failed_rebuild_keeps_the_old_database(tmp_path):
    source = write(tmp_path, "keep.txt", "cat\nact\n")
    build(source)
    db = tmp_path / "keep.sqlite"
    before = db.read_bytes()
    source.write_text("cat\n1nvalid\n")
    with pytest.raises(WordListError):
        build(source)
    assert db.read_bytes() == before
    assert read_info(db).words == 2


def test_build_command_reports_the_line(tmp_path):
    source = write(tmp_path, "cli.txt", "good\nba d\n")
    result = subprocess.run(
        [sys.executable, "scripts/build_lexicon.py", str(source)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert "line 2" in result.stderr
    ok = write(tmp_path, "cli2.txt", "good\nbad\n")
    result = subprocess.run(
        [sys.executable, "scripts/build_lexicon.py", str(ok), "--name", "other"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert read_info(tmp_path / "other.sqlite").name == "other"


def test_words_longer_than_a_standard_line_are_kept(tmp_path):
    # ENABLE holds 28-letter words: stored and found in the trie, never placed on 15x15
    source = write(tmp_path, "long.txt", "cat\nethylenediaminetetraacetates\n")
    info, _ = build(source)
    assert info.words == 2
    from scrabble.lexicon.loaded import Lexicon

    lexicon = Lexicon.load(tmp_path / "long.sqlite")
    assert lexicon.contains("ETHYLENEDIAMINETETRAACETATES") and lexicon.contains("CAT")
    assert not lexicon.contains("ETHYLENEDIAMINETETRAACETATE")
