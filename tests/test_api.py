"""The public API over real HTTP: a real uvicorn gateway on loopback."""

from __future__ import annotations

import gzip
import json

import httpx
import pytest

from tooling.golden import GOLDEN, golden_positions

EMPTY = ["." * 15] * 15


def post(url: str, body, path: str = "/scrabble-api", **kw) -> httpx.Response:
    if isinstance(body, (dict, list)):
        return httpx.post(url + path, json=body, timeout=30, **kw)
    return httpx.post(url + path, content=body, timeout=30, **kw)


def test_health(gateway_url):
    r = httpx.get(gateway_url + "/health")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok"
    assert body["lexicon"]["name"] == "sowpods"
    assert body["lexicon"]["words"] == 267751
    assert body["lexicon"]["signatures"] == 237739


def test_opening_response_shape(gateway_url):
    r = post(gateway_url, {"board": EMPTY, "rack": "AEINRST", "limit": 5})
    assert r.status_code == 200
    body = r.json()
    assert body["engine"] == "trie"
    assert body["total_moves"] == 2916
    assert body["cgp"] == "15/" * 14 + "15 AEINRST/ 0/0 0 lex sowpods;"
    assert set(body["timing"]) >= {"total_ms", "movegen_ms", "parse_ms", "rank_ms"}
    assert body["stats"]["anchors"] == 2
    moves = body["moves"]
    assert len(moves) == 5
    assert [m["rank"] for m in moves] == [1, 2, 3, 4, 5]
    best = moves[0]
    assert best["score"] == 66 and best["bingo"] and best["leave"] == ""
    assert best["direction"] == "across" and best["row"] == 7
    assert best["coordinate"] == f"8{'ABCDEFGHIJKLMNO'[best['col']]}"
    assert len(best["tiles"]) == 7
    assert all(t["row"] == 7 for t in best["tiles"])
    assert [m["score"] for m in moves] == sorted((m["score"] for m in moves), reverse=True)


def test_php_alias_and_cgp_input(gateway_url):
    position = golden_positions()[0]
    by_board = post(
        gateway_url, {"board": position["board"], "rack": position["rack"], "limit": 10000}
    ).json()
    by_cgp = post(
        gateway_url, {"cgp": position["cgp"], "limit": 10000}, path="/pages/scrabble-api.php"
    ).json()
    assert by_board["moves"] == by_cgp["moves"]
    assert by_cgp["cgp"].startswith("15/" * 14 + "15 GIIMNOW/EEIRRUX 0/0 0")


def test_all_moves_of_a_golden_position_over_http(gateway_url):
    with gzip.open(GOLDEN / "moves.jsonl.gz", "rt") as fh:
        lines = [json.loads(line) for _, line in zip(range(6), fh, strict=False)]
    position = golden_positions()[5]
    expected = lines[5]
    body = post(
        gateway_url, {"board": position["board"], "rack": position["rack"], "limit": 10000}
    ).json()
    assert body["total_moves"] == expected["n_moves"]
    got = {
        (
            m["row"],
            m["col"],
            "H" if m["direction"] == "across" else "V",
            m["word"],
            "".join(t["letter"] for t in m["tiles"]),
            m["score"],
        )
        for m in body["moves"]
    }
    want = {
        (m["row"], m["col"], m["dir"], m["word"], m["tiles"], m["score"]) for m in expected["moves"]
    }
    assert got == want


def test_notation_marks_board_letters(gateway_url):
    board = list(EMPTY)
    board[7] = "...FRANC......."
    body = post(gateway_url, {"board": board, "rack": "CDGILOS", "limit": 10000}).json()
    scolding = [m for m in body["moves"] if m["notation"] == "G2 SCOLDI(N)G"]
    assert scolding and scolding[0]["score"] == 68 and scolding[0]["leave"] == ""


def test_order_is_deterministic(gateway_url):
    a = post(gateway_url, {"board": EMPTY, "rack": "EEGIJO?", "limit": 300}).json()
    b = post(gateway_url, {"board": EMPTY, "rack": "EEGIJO?", "limit": 300}).json()
    assert a["moves"] == b["moves"]


BAD_INPUTS = [
    ({"board": EMPTY[:14], "rack": "AB"}, 422, "board", "15 rows"),
    ({"board": EMPTY[:3] + ["." * 14] + EMPTY[4:], "rack": "AB"}, 422, "board", "row 3 has 14"),
    ({"board": EMPTY[:2] + ["..#" + "." * 12] + EMPTY[3:], "rack": "AB"}, 422, "board", "'#'"),
    ({"board": EMPTY, "rack": ""}, 422, "rack", "empty"),
    ({"board": EMPTY, "rack": "ABCDEFGH"}, 422, "rack", "8 tiles"),
    ({"board": EMPTY, "rack": "AB1"}, 422, "rack", "'1'"),
    ({"board": ["ZZ" + "." * 13] + EMPTY[1:], "rack": "Z"}, 422, "rack", "3 Z tiles"),
    ({"board": EMPTY, "rack": "???"}, 422, "rack", "3 blanks"),
    ({"board": EMPTY, "rack": "AB", "engine": "magic"}, 422, "engine", "magic"),
    ({"board": EMPTY, "rack": "AB", "limit": 0}, 422, "limit", "greater than"),
    ({"board": EMPTY, "rack": "AB", "limit": 10001}, 422, "limit", "less than"),
    ({"board": EMPTY}, 422, "rack", "required"),
    ({"rack": "AB"}, 422, "board", "required"),
    ({"board": EMPTY, "rack": "AB", "colour": "red"}, 422, "colour", "unknown field"),
    ({"cgp": "15/15 AB/ 0/0 0"}, 422, "cgp", "2 rows"),
    ({"cgp": "15/" * 14 + "15 AB/ 0/0 0 lex NWL20;"}, 422, "cgp", "NWL20"),
    ('{"board": [', 400, "body", "malformed JSON"),
    ("[1, 2]", 422, "body", "dictionary"),
]


@pytest.mark.parametrize(("body", "status", "field", "words"), BAD_INPUTS)
def test_bad_input_names_field_and_problem(gateway_url, body, status, field, words):
    r = post(gateway_url, body)
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    # a row's problem names the row: board[3]
    assert any(
        (d["field"] == field or d["field"].startswith(field + "[")) and words in d["message"]
        for d in detail
    ), detail


def test_huge_body_is_refused(gateway_url):
    r = post(gateway_url, '{"rack": "' + "A" * 200_000 + '"}')
    assert r.status_code == 413
    assert r.json()["detail"][0]["field"] == "body"


def test_plain_curl_form_content_type_is_read_as_json(gateway_url):
    r = post(
        gateway_url,
        json.dumps({"board": EMPTY, "rack": "QI"}),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 200
    assert r.json()["moves"][0]["word"] == "QI"


def test_openapi_docs(gateway_url):
    assert httpx.get(gateway_url + "/docs").status_code == 200
    spec = httpx.get(gateway_url + "/openapi.json").json()
    assert "/scrabble-api" in spec["paths"]


def test_response_matches_its_documented_model(gateway_url):
    from scrabble.gateway.schemas import MoveResponse

    r = post(gateway_url, {"board": EMPTY, "rack": "AEINRS?", "limit": 50})
    MoveResponse.model_validate(r.json())  # raises if the shape drifts from the model


def test_cors_preflight_for_browser_front_ends(gateway_url):
    r = httpx.options(
        gateway_url + "/scrabble-api",
        headers={
            "origin": "https://example.org",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        },
    )
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] in ("*", "https://example.org")


def test_api_index_points_to_the_api(gateway_url):
    body = httpx.get(gateway_url + "/api").json()
    assert body["docs"] == "/docs" and "/scrabble-api" in body["api"] and body["page"] == "/"


def test_root_is_the_page(gateway_url):
    # the page itself is driven in a real browser by tests/test_page.py
    r = httpx.get(gateway_url + "/")
    assert r.headers["content-type"].startswith("text/html")
    assert 'src="static/page.js"' in r.text
    assert httpx.get(gateway_url + "/static/page.js").status_code == 200


def test_the_rules_served_are_the_rules_moves_are_scored_by(gateway_url):
    """GET /rules (what the page draws) against /scrabble-api's scores: every
    opening move of a rack, scored here from the published premiums, letter
    values and bingo bonus alone, gets the engine's score."""
    rules = httpx.get(gateway_url + "/rules").json()
    assert rules["size"] == len(rules["premiums"]) == 15
    assert set(rules["legend"]) >= {ch for row in rules["premiums"] for ch in row}
    r = httpx.post(
        gateway_url + "/scrabble-api",
        json={"board": ["." * 15] * 15, "rack": "QUIZ?ES", "limit": 400},
    )
    moves = r.json()["moves"]
    assert len(moves) >= 100
    start = tuple(rules["start"])
    for move in moves:
        assert start in {(t["row"], t["col"]) for t in move["tiles"]}
        total, word_mult = 0, 1
        for tile in move["tiles"]:
            square = rules["premiums"][tile["row"]][tile["col"]]
            value = 0 if tile["blank"] else rules["letter_values"][tile["letter"].upper()]
            total += value * {"t": 3, "d": 2}.get(square, 1)
            word_mult *= {"T": 3, "D": 2, "*": 2}.get(square, 1)
        bonus = rules["bingo_bonus"] if len(move["tiles"]) == rules["rack_size"] else 0
        assert move["score"] == total * word_mult + bonus, move["notation"]
