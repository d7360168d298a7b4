"""The `scrabble` command, in-process, over real stores in a temporary
LEXICON_DIR (SOWPODS as scripts/setup built it, and a list built here)."""

from __future__ import annotations

import json
import signal

import pytest

from scrabble import gcg
from scrabble.cli import main
from scrabble.lexicon.store import lexicon_dir

FRANC = "15/15/15/15/15/15/15/3FRANC7/15/15/15/15/15/15/15 CDGILOS/AEEIMTW 0/28 0"


@pytest.fixture()
def stores(tmp_path, monkeypatch):
    where = tmp_path / "lexicons"
    where.mkdir()
    (where / "sowpods.sqlite").symlink_to(lexicon_dir() / "sowpods.sqlite")
    monkeypatch.setenv("LEXICON_DIR", str(where))
    return where


def test_lexicon_build_then_list(stores, tmp_path, capsys):
    words = tmp_path / "mine.txt"
    words.write_text("qi\nza\nzas\n")
    assert main(["lexicon", "build", str(words), "--name", "Mine"]) == 0
    out = capsys.readouterr()
    assert f"built {stores / 'mine.sqlite'} (3 words" in out.out
    assert "restart the gateway" in out.out
    assert "lexicon mine: reading" in out.err  # the build says each step
    assert main(["lexicon", "build", str(words), "--name", "mine"]) == 0
    assert "up to date:" in capsys.readouterr().out
    assert main(["lexicon", "list"]) == 0
    # main leaves the caller's SIGPIPE alone (Python's SIG_IGN): with the
    # default action a later write to a closed socket would kill this process
    assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN
    listed = capsys.readouterr().out
    assert "mine" in listed and "sowpods" in listed and "267751" in listed
    words.write_text("qi\nq1\n")
    assert main(["lexicon", "build", str(words), "--name", "bad"]) == 2
    assert "line 2" in capsys.readouterr().err


def test_moves_draws_the_board_and_the_best_moves(stores, capsys):
    assert main(["moves", FRANC + " lex sowpods;", "--limit", "3", "--rank-by", "score"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    # row 8 holds FRANC, and the best move's tiles are previewed in brackets
    assert lines[8].split()[:5] == ["8", "=", ".", ".", "F"]
    assert "[S]" in lines[2] and "[G]" in lines[9]  # G2 SCOLDI(N)G
    header = next(i for i, line in enumerate(lines) if line.startswith("rank  move"))
    assert lines[header + 2].split() == ["1", "G2", "SCOLDI(N)G", "68", "-"]
    assert main(["moves", FRANC, "--json", "--limit", "2"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["lexicon"]["name"] == "sowpods" and len(body["moves"]) == 2
    assert body["moves"][0]["heuristics"]["equity"] > 0  # ranked by equity by default


def test_score(stores, capsys):
    assert main(["score", FRANC, "G2 SCOLDI(N)G"]) == 0
    out = capsys.readouterr().out
    assert "legal: G2 SCOLDI(N)G scores 68" in out and "rank 1 of" in out
    assert main(["score", FRANC, "8D FRANCS"]) == 1  # illegal: exit 1, the reason said
    assert "not legal (occupied): D8 already holds F" in capsys.readouterr().out
    assert main(["score", FRANC, "8D"]) == 2
    assert "move:" in capsys.readouterr().err
    assert main(["score", FRANC + " lex NWL20;", "-"]) == 2
    assert "'NWL20' is not served here; served: sowpods" in capsys.readouterr().err


def test_analyze(stores, tmp_path, capsys, lexicon):
    from scrabble.engines.trie_engine import TrieEngine
    from scrabble.game import Game
    from scrabble.players import make_player

    player = make_player("score", TrieEngine(lexicon))
    game = Game.new(8)
    while not game.over:
        player(game)
    path = tmp_path / "game.gcg"
    path.write_text(gcg.format_gcg(gcg.record_of(game, ("ann", "bob"), "sowpods")))
    assert main(["analyze", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["#", "player", "rack", "played"]
    turns = lines[2 : lines.index("")]
    assert len(turns) == len(game.history)  # a row per turn
    assert [row.split()[1] for row in turns] == [("ann", "bob")[t.player] for t in game.history]
    summary = lines[lines.index("") + 1 :]
    assert summary[0].split()[:3] == ["player", "score", "turns"]
    assert main(["analyze", str(path), "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert len(body["turns"]) == len(game.history)
    path.write_text("#player1 a A\n#player2 b B\n>a: QI 8H QI +22 20\n")
    assert main(["analyze", str(path)]) == 2
    assert "line 3: total 20 does not follow" in capsys.readouterr().err


def test_no_store_says_what_to_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LEXICON_DIR", str(tmp_path / "none"))
    assert main(["moves", FRANC]) == 2
    err = capsys.readouterr().err
    assert "scrabble lexicon build WORDS.txt --name NAME" in err and str(tmp_path) in err
