"""Several lexicons, the word judge, POST /score and POST /gcg/analyze over
real HTTP: one real gateway serving three stores at once (SOWPODS and ENABLE
as built by scripts/setup, and a tiny store named csw21 built here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from scrabble import gcg
from scrabble.engines.trie_engine import TrieEngine
from scrabble.game import Game
from scrabble.lexicon.store import build, lexicon_dir
from scrabble.players import make_player
from tooling.services import running

EMPTY_CGP = "15/" * 14 + "15"
FRANC = "15/15/15/15/15/15/15/3FRANC7/15/15/15/15/15/15/15"
# words of the tiny csw21 store: only these are valid in it
CSW21_WORDS = ["QI", "ZA", "ZAS", "AX", "XI", "OX", "CODLINGS", "SCOLDING", "FRANC"]


@pytest.fixture(scope="module")
def url(tmp_path_factory) -> Iterator[str]:
    stores = tmp_path_factory.mktemp("lexicons")
    for name in ("sowpods", "enable"):
        (stores / f"{name}.sqlite").symlink_to(lexicon_dir() / f"{name}.sqlite")
    words = tmp_path_factory.mktemp("words") / "csw.txt"
    words.write_text("\n".join(CSW21_WORDS) + "\n")
    build(words, "csw21", directory=stores)
    with running("scrabble.gateway.app:app", env={"LEXICON_DIR": str(stores)}) as gateway:
        yield gateway


def post(url: str, path: str, body: dict) -> httpx.Response:
    return httpx.post(url + path, json=body, timeout=60)


def detail(response: httpx.Response, field: str) -> str:
    items = response.json()["detail"]
    return " ".join(d["message"] for d in items if d["field"] == field)


def test_every_store_is_listed_with_its_identity(url):
    listed = httpx.get(url + "/lexicons").json()
    assert [entry["name"] for entry in listed] == ["csw21", "enable", "sowpods"]
    by_name = {entry["name"]: entry for entry in listed}
    assert (by_name["sowpods"]["words"], by_name["sowpods"]["signatures"]) == (267751, 237739)
    assert by_name["enable"]["words"] == 172823
    assert by_name["csw21"]["words"] == len(CSW21_WORDS)
    assert all(len(entry["sha256"]) == 64 for entry in listed)


def test_health_reports_memory_per_lexicon(url):
    body = httpx.get(url + "/health").json()
    assert body["default_lexicon"] == "sowpods"
    memory = body["lexicons"]
    assert set(memory) == {"csw21", "enable", "sowpods"}
    # every lexicon is loaded at start; SOWPODS, the default, with every engine
    assert all(m["loaded"] for m in memory.values())
    assert memory["sowpods"]["bytes"] > memory["enable"]["bytes"] > memory["csw21"]["bytes"]
    assert memory["sowpods"]["trie_bytes"] == 4714520  # its trie's two arrays, exactly
    assert "memory-hash" in memory["sowpods"]["engines_built"]


def test_a_request_picks_its_lexicon(url):
    # 'ZAS' is a word in csw21 and sowpods, 'QI' not in ENABLE
    rack = {"board": ["." * 15] * 15, "rack": "QIZAS", "limit": 10000}
    words = {}
    for name in ("sowpods", "enable", "csw21"):
        body = post(url, "/scrabble-api", {**rack, "lexicon": name.upper()}).json()
        assert body["lexicon"]["name"] == name
        words[name] = {m["word"] for m in body["moves"]}
    assert "QI" in words["sowpods"] and "QI" not in words["enable"]
    assert words["csw21"] <= {"QI", "ZA", "ZAS"} and "ZAS" in words["csw21"]


def test_a_cgp_names_its_lexicon(url):
    # a CGP as MAGPIE or Woogles writes it: answered from the store of that name
    cgp = f"{FRANC} CDGILOS/ 0/0 0 lex CSW21;"
    body = post(url, "/scrabble-api", {"cgp": cgp, "limit": 5}).json()
    assert body["lexicon"]["name"] == "csw21"
    assert {m["word"] for m in body["moves"]} <= {"SCOLDING", "CODLINGS", "FRANC"}
    assert body["cgp"].endswith("lex csw21;")
    # a lexicon no store has: refused with the list of those served
    refused = post(url, "/scrabble-api", {"cgp": f"{FRANC} CDGILOS/ 0/0 0 lex NWL20;"})
    assert refused.status_code == 422
    assert "'NWL20' is not served here; served: csw21, enable, sowpods" in detail(refused, "cgp")
    clash = post(url, "/scrabble-api", {"cgp": cgp, "lexicon": "enable"})
    assert clash.status_code == 422 and "disagrees" in detail(clash, "lexicon")
    unknown = post(url, "/scrabble-api", {"board": ["." * 15] * 15, "rack": "A", "lexicon": "x"})
    assert unknown.status_code == 422 and "served: csw21" in detail(unknown, "lexicon")


def test_word_judge(url):
    listen = httpx.get(url + "/lexicons/enable/words/listen").json()
    assert listen["valid"] and listen["word"] == "LISTEN" and listen["lexicon"] == "enable"
    assert {"ENLIST", "INLETS", "SILENT", "TINSEL"} <= set(listen["anagrams"])
    qi = httpx.get(url + "/lexicons/ENABLE/words/QI").json()
    assert not qi["valid"] and qi["anagrams"] == []
    assert httpx.get(url + "/lexicons/sowpods/words/qi").json()["valid"]
    bad = httpx.get(url + "/lexicons/sowpods/words/q1")
    assert bad.status_code == 422 and "'1' is not a letter" in detail(bad, "word")
    missing = httpx.get(url + "/lexicons/nwl20/words/qi")
    assert missing.status_code == 404 and "served: csw21, enable, sowpods" in detail(
        missing, "name"
    )


def test_score_a_legal_play(url):
    body = post(url, "/score", {"cgp": f"{FRANC} CDGILOS/ 0/0 0", "move": "G2 SCOLDI(N)G"})
    answer = body.json()
    assert answer["legal"] and answer["kind"] == "play" and answer["rule"] is None
    assert answer["score"] == 68 and answer["rank"] == 1 and answer["equity_lost"] == 0
    assert answer["best"]["notation"] == "G2 SCOLDI(N)G"
    assert answer["words"] == [
        {"word": "SCOLDING", "coordinate": "G2", "main": True, "valid": True}
    ]
    # GCG's '.' for the board tile reads the same
    dotted = post(url, "/score", {"cgp": f"{FRANC} CDGILOS/ 0/0 0", "move": "g2 SCOLDI.G"}).json()
    assert dotted["notation"] == "G2 SCOLDI(N)G" and dotted["rank"] == 1
    # a worse play: ranked lower, the equity it gives away is the difference
    worse = post(url, "/score", {"cgp": f"{FRANC} CDGILOS/ 0/0 0", "move": "8D (FRANC)S"}).json()
    assert worse["legal"] and worse["score"] == 11 and worse["rank"] > 1
    assert worse["equity_lost"] == pytest.approx(answer["equity"] - worse["equity"], abs=1e-3)
    assert worse["actions"] == answer["actions"] > 500


def test_score_board_and_rack_exchange_and_pass(url):
    board = {"board": ["." * 15] * 15, "rack": "AEINRST"}
    play = post(url, "/score", {**board, "move": "8D NASTIER"}).json()
    # N on the double letter at D8, the start square doubles the word, 50 for the bingo
    assert play["legal"] and play["score"] == (2 + 6) * 2 + 50 and play["notation"] == "8D NASTIER"
    swap = post(url, "/score", {**board, "move": "-AE"}).json()
    assert swap["legal"] and swap["kind"] == "exchange" and swap["score"] == 0
    assert swap["rank"] > play["rank"]
    passed = post(url, "/score", {**board, "move": "-"}).json()
    assert passed["legal"] and passed["kind"] == "pass" and passed["rank"] == passed["actions"]


@pytest.mark.parametrize(
    ("move", "rule", "words"),
    [
        ("8D NASTIRE", "not_a_word", "not a word: NASTIRE"),
        ("8D QI", "not_on_rack", "places 1 Q"),
        ("8A NASTIER", "start_square", "start square H8"),
        ("8J NASTIER", "off_board", "off the board"),
        ("-QZ", "not_on_rack", "1 Q"),
    ],
)
def test_score_illegal_plays_say_why(url, move, rule, words):
    answer = post(url, "/score", {"board": ["." * 15] * 15, "rack": "AEINRST", "move": move})
    body = answer.json()
    assert answer.status_code == 200 and not body["legal"]
    assert body["rule"] == rule and words in body["reason"], body
    assert body["rank"] is None and body["best"]["score"] >= 64


def test_score_cross_word_and_bad_input(url):
    cgp = (
        f"{EMPTY_CGP.replace('15/15/15/15/15/15/15/15', '15/15/15/15/15/15/15/7QI6', 1)} AX/ 0/0 0"
    )
    crossed = post(url, "/score", {"cgp": cgp, "move": "9G AX"}).json()
    assert crossed["rule"] == "cross_word" and "QX at H8" in crossed["reason"]
    assert crossed["score"] is not None  # what it would have scored
    for body, field, words in (
        ({"cgp": cgp, "move": "9G"}, "move", "expected '<coordinate> <word>'"),
        ({"cgp": cgp}, "move", "Field required"),
        ({"cgp": cgp, "move": "9G AX", "rack": "AX"}, "cgp", "not both"),
        ({"cgp": f"{EMPTY_CGP} AEI NRS/ 0/0 0", "move": "-"}, "cgp", "without spaces"),
        ({"cgp": f"{EMPTY_CGP} A/ 0/0 0 ld french;", "move": "-"}, "cgp", "ld 'french'"),
        ({"cgp": f"{EMPTY_CGP} A/ 0/0 0 lex NWL20;", "move": "-"}, "cgp", "served: csw21"),
    ):
        answer = post(url, "/score", body)
        assert answer.status_code == 422, answer.text
        assert words in detail(answer, field), answer.json()


def test_strict_cgp_on_the_move_list(url):
    for cgp, words in (
        (f"{EMPTY_CGP} AEI NRS/ 0/0 0", "without spaces"),
        (f"{EMPTY_CGP} AEINRST/ 0/0 0 bb 35;", "bingo bonus"),
        (f"{EMPTY_CGP} AEINRST/ 0/0 0 bdn SuperCrosswordGame;", "asks for a board"),
        (f"{EMPTY_CGP} AEINRST/ 0/0 0 zz 1;", "unknown opcode 'zz'"),
        (f"{EMPTY_CGP} AEINRST/ 0/0 0 lex sowpods", "ends with ';'"),
    ):
        answer = post(url, "/scrabble-api", {"cgp": cgp})
        assert answer.status_code == 422 and words in detail(answer, "cgp"), answer.text


@pytest.fixture(scope="module")
def played(lexicon) -> Game:
    player = make_player("static", TrieEngine(lexicon))
    game = Game.new(31)
    while not game.over:
        player(game)
    return game


def test_analyze_a_self_played_game(url, played):
    record = gcg.format_gcg(gcg.record_of(played, ("ann", "bob"), "sowpods"))
    answer = post(url, "/gcg/analyze", {"gcg": record})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["lexicon"]["name"] == "sowpods"
    turns = body["turns"]
    assert len(turns) == len(played.history)
    for turn, move in zip(turns, played.history, strict=True):
        assert turn["player"] == ("ann", "bob")[move.player] and turn["legal"]
        assert turn["recorded_score"] == move.score
        if move.kind == "play":
            assert turn["notation"] == move.notation and turn["score"] == move.score
        assert turn["equity_lost"] >= 0
        assert turn["rank"] > 1 or turn["equity_lost"] == 0
    for summary in body["players"]:
        mine = [t for t in turns if t["player"] == summary["nickname"]]
        assert summary["turns"] == summary["reviewed"] == len(mine)
        assert summary["best_moves"] == sum(t["rank"] == 1 for t in mine)
        assert summary["equity_lost"] == pytest.approx(sum(t["equity_lost"] for t in mine), 1e-6)
        assert summary["illegal"] == 0
    # a static-equity player mostly plays what these terms rank best
    assert sum(s["best_moves"] for s in body["players"]) > len(turns) // 2


PHONY = """#player1 ann Ann
#player2 bob Bob
#lexicon ENABLE
>ann: AEINRST 8D NASTIER +66 66
>bob: AIQRTUZ E7 Z. +11 11
>bob: AIQRTUZ -- -11 0
>ann: ABCDEFG - +0 66
>bob: AIQRTUZ -QZ +0 0
"""


def test_analyze_a_record_with_a_phony(url):
    body = post(url, "/gcg/analyze", {"gcg": PHONY}).json()
    assert body["lexicon"]["name"] == "enable"  # the record's #lexicon, any case
    first, phony, passed, swap = body["turns"]
    assert first["rank"] is not None and first["notation"] == "8D NASTIER"
    assert not phony["legal"] and phony["withdrawn"] and phony["rule"] == "not_a_word"
    assert phony["equity_lost"] is None and phony["line"] == 5
    assert passed["kind"] == "pass" and swap["kind"] == "exchange" and swap["legal"]
    bob = body["players"][1]
    assert bob["illegal"] == 1 and bob["reviewed"] == 2
    assert phony["score"] == 11 and "not a word: ZA" in phony["reason"]
    # the same record judged by SOWPODS, where ZA is a word
    sowpods = post(url, "/gcg/analyze", {"gcg": PHONY.replace("ENABLE", "sowpods")}).json()
    assert sowpods["turns"][1]["legal"]


def test_analyze_refuses_bad_records_by_line(url):
    bad = PHONY.replace("+11 11", "+11 12")
    answer = post(url, "/gcg/analyze", {"gcg": bad})
    assert answer.status_code == 422 and "line 5: total 12 does not follow" in detail(answer, "gcg")
    unknown = post(url, "/gcg/analyze", {"gcg": PHONY.replace("ENABLE", "TWL06")})
    assert unknown.status_code == 422 and "served: csw21" in detail(unknown, "gcg")
    long_game = "#player1 a A\n#player2 b B\n" + ">a: A - +0 0\n>b: B - +0 0\n" * 61
    too_long = post(url, "/gcg/analyze", {"gcg": long_game})
    assert too_long.status_code == 422 and "at most 120" in detail(too_long, "gcg")


def test_selfplay_writes_records_the_gateway_reads(url, tmp_path: Path):
    import subprocess
    import sys

    from tooling.services import ROOT

    out = tmp_path / "games"
    done = subprocess.run(
        [sys.executable, "scripts/selfplay.py", "--a", "static", "--b", "score",
         "--pairs", "1", "--workers", "1", "--gcg", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    files = sorted(out.glob("*.gcg"))
    assert [f.name for f in files] == ["game-1000000-a.gcg", "game-1000000-b.gcg"]
    first = gcg.parse(files[0].read_text())
    assert [p.nickname for p in first.players] == ["A_static", "B_score"]
    body = post(url, "/gcg/analyze", {"gcg": files[1].read_text()}).json()
    assert body["players"][0]["nickname"] == "B_score"  # B moves first in the -b game
    assert all(turn["legal"] for turn in body["turns"])
