"""The players' compiled lexicon (``load_compiled``): built from the store once and
kept beside it, or, where it cannot be kept (a read-only checkout), built again."""

from __future__ import annotations

import shutil

from scrabble.wordgame.lexicons import lexicon_path
from scrabble.wordgame.lexicons import load_compiled as load_compiled_once

load_compiled = load_compiled_once.__wrapped__  # each call here reads LEXICON_DIR again


def test_the_compiled_lexicon_is_kept_beside_the_store_and_read_back(tmp_path, monkeypatch):
    shutil.copy(lexicon_path("enable"), tmp_path / "enable.sqlite")
    monkeypatch.setenv("LEXICON_DIR", str(tmp_path))
    built = load_compiled("enable")
    assert (tmp_path / "enable.wordgame.npz").is_file()
    again = load_compiled("enable")
    assert again.info.sha256 == built.info.sha256
    assert (again.trie.mask == built.trie.mask).all() and again.contains("QUIXOTIC")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enable.sqlite", "enable.wordgame.npz"]


def test_a_compiled_lexicon_that_cannot_be_kept_is_built_and_used(tmp_path, monkeypatch):
    # where the file would go something else stands (a directory here; a read-only
    # checkout in a sandbox): a player that crashed on it would score 0 on every case
    shutil.copy(lexicon_path("enable"), tmp_path / "enable.sqlite")
    (tmp_path / "enable.wordgame.npz").mkdir()
    monkeypatch.setenv("LEXICON_DIR", str(tmp_path))
    compiled = load_compiled("enable")
    assert compiled.contains("QUIXOTIC") and not compiled.contains("QUIXOTICX")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["enable.sqlite", "enable.wordgame.npz"]
