"""The lexicon catalog (every store of a directory), the word judge and
where stores are found; strict CGP."""

from __future__ import annotations

import pytest

from scrabble import cgp
from scrabble.lexicon.anagram import WordError, judge_word
from scrabble.lexicon.catalog import Catalog, NoLexicons, UnknownLexicon
from scrabble.lexicon.store import build, lexicon_dir
from scrabble.position import PositionError


@pytest.fixture()
def two_stores(tmp_path):
    """Two small stores built as a user would, and a file that is not one."""
    (tmp_path / "csw.txt").write_text("qi\nza\nzas\nlisten\nsilent\ntinsel\n")
    (tmp_path / "other.txt").write_text("cat\nact\n")
    build(tmp_path / "csw.txt", "CSW21")
    build(tmp_path / "other.txt", "twl")
    (tmp_path / "junk.sqlite").write_bytes(b"not sqlite")
    return tmp_path


def test_every_store_of_the_directory_is_served(two_stores):
    catalog = Catalog.open(two_stores, names=None, default=None)
    assert catalog.names == ["csw21", "twl"]
    assert "junk.sqlite" in catalog.skipped
    assert catalog.default == "csw21"  # no sowpods here: the first by name
    # names are case-insensitive: a CGP's lex CSW21 finds the store csw21
    assert catalog.lexicon("CSW21").contains("ZAS")
    assert not catalog.lexicon("twl").contains("ZAS")
    with pytest.raises(UnknownLexicon, match="'NWL20' is not served here; served: csw21, twl"):
        catalog.resolve("NWL20")
    memory = catalog.served["csw21"].memory()
    assert memory["loaded"] and memory["bytes"] > memory["trie_bytes"] > 0
    assert catalog.served["twl"].memory()["loaded"]  # loaded above
    assert Catalog.open(two_stores, default="TWL").default == "twl"
    assert Catalog.open(two_stores, names=["twl"]).names == ["twl"]
    with pytest.raises(NoLexicons, match="LEXICONS names nwl"):
        Catalog.open(two_stores, names=["nwl"])


def test_an_empty_directory_says_what_to_run(tmp_path):
    with pytest.raises(NoLexicons, match="scrabble lexicon build WORDS.txt --name NAME"):
        Catalog.open(tmp_path)


def test_the_lexicon_directory_comes_from_configuration(monkeypatch, tmp_path):
    monkeypatch.setenv("LEXICON_DIR", str(tmp_path / "mine"))
    assert lexicon_dir() == tmp_path / "mine"
    monkeypatch.delenv("LEXICON_DIR")
    assert lexicon_dir().name == "lexicon"  # a checkout: its lexicon/ folder


def test_store_names_are_checked(tmp_path):
    (tmp_path / "w.txt").write_text("qi\n")
    with pytest.raises(ValueError, match="lower-case letters, digits"):
        build(tmp_path / "w.txt", "my words")


def test_word_judge(lexicon):
    store = lexicon.db_path
    listen = judge_word(store, "listen")
    assert listen.valid and listen.word == "LISTEN"
    assert {"ENLIST", "INLETS", "LISTEN", "SILENT", "TINSEL"} <= set(listen.anagrams)
    teh = judge_word(store, "TEH")
    assert not teh.valid and "THE" in teh.anagrams and "TEH" not in teh.anagrams
    assert judge_word(store, "QZXV").anagrams == []
    for bad, words in (("", "empty"), ("QI1", "'1'"), ("A" * 40, "at most 32")):
        with pytest.raises(WordError, match=words):
            judge_word(store, bad)


EMPTY_BOARD = "15/" * 14 + "15"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f"{EMPTY_BOARD} AEI NRS/ 0/0 0", "a rack is written without spaces"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 bb 35;", "opcode bb '35' asks for a bingo bonus"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 ld french;", "letter distribution this engine"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 bdn SuperCrosswordGame;", "asks for a board"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 etl 1;", "an exchange limit"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 mcnz 4;", "a zero-turn limit"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 foo 3;", "unknown opcode 'foo'"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 lex sowpods", "ends with ';'"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 lex a; lex b;", "given twice"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 lex two words;", "one lexicon name"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 cr sometimes;", "a challenge rule"),
        (f"{EMPTY_BOARD} AEINRS/ 0/0 0 bb fifty;", "a whole number"),
        (f"{EMPTY_BOARD} A/B/C 0/0 0", "two players"),
    ],
)
def test_strict_cgp(text, words):
    with pytest.raises(PositionError, match=words):
        cgp.parse(text)


def test_cgp_opcodes_naming_what_we_play_are_accepted():
    text = (
        f"{EMPTY_BOARD} AEINRS/ 0/0 0 lex CSW21; ld english; bdn CrosswordGame; bb 50; "
        "etl 7; mcnz 6; cr 5pt; gid abc123; lm 8H QI; tmr 60000/-2500; ti 3000; to 60000;"
    )
    parsed = cgp.parse(text)
    assert parsed.opcodes["lex"] == "CSW21" and parsed.opcodes["lm"] == "8H QI"
    assert len(parsed.opcodes) == 12
