"""The heuristics over real HTTP: unseen block, breakdown, exchange, budget fields."""

from __future__ import annotations

import httpx

from tests.heuristic_boards import EMPTY_ROW, board_with

BOARD = board_with([(7, 4, "across", "STONE"), (3, 8, "down", "QUOTE")])


def post(url: str, body: dict) -> dict:
    r = httpx.post(url + "/scrabble-api", json=body, timeout=60)
    assert r.status_code == 200, r.text
    return r.json()


def test_unseen_block_is_always_there(gateway_url):
    body = post(gateway_url, {"board": [EMPTY_ROW] * 15, "rack": "AEINRST", "limit": 3})
    unseen = body["unseen"]
    assert unseen["count"] == 93 and sum(unseen["tiles"].values()) == 93
    assert unseen["tiles"]["?"] == 2 and unseen["tiles"]["E"] == 11
    probs = unseen["p_at_least_one"]
    assert set(probs) == {"7"}  # the top move (a bingo) draws 7 too
    # P(at least one Z in 7 draws from 93) = 7/93
    assert abs(probs["7"]["Z"] - 7 / 93) < 1e-6
    assert "heuristics" not in body and "heuristics" not in body["moves"][0]
    assert body["timing"]["heuristics_ms"] == 0.0


def test_heuristic_breakdown_and_exchange(gateway_url):
    body = post(
        gateway_url,
        {"board": BOARD, "rack": "GS?VWKI", "limit": 5, "heuristics": True, "rank_by": "equity"},
    )
    summary = body["heuristics"]
    assert summary["rank_by"] == "equity" and summary["evaluated"] >= 1
    assert summary["exchange"] is not None and "?" in summary["exchange"]["keep"]
    assert body["timing"]["heuristics_ms"] > 0
    equities = []
    for m in body["moves"]:
        h = m["heuristics"]
        terms = {t["name"]: t["points"] for t in h["terms"]}
        assert list(terms) == ["score", "leave", "endgame", "premium_waste", "prospect"]
        assert abs(h["equity"] - sum(terms.values())) < 1e-6 and terms["score"] == m["score"]
        assert terms["premium_waste"] < 0  # every play costs at least its tiles
        equities.append(h["equity"])
    evaluated = [
        e for m, e in zip(body["moves"], equities, strict=True) if m["heuristics"]["evaluated"]
    ]
    assert evaluated == sorted(evaluated, reverse=True)
    assert "?" in body["moves"][0]["leave"]  # equity keeps the blank
    top_draw = body["moves"][0]["tiles_placed"]
    assert str(top_draw) in body["unseen"]["p_at_least_one"]


def test_adversarial_threats_are_the_same_in_every_process(gateway_url, trie):
    """Seeded: the gateway's process and this one (another hash seed, another
    start-up) give the same breakdowns."""
    from scrabble.equity.evaluate import evaluate
    from scrabble.equity.options import EquityOptions
    from scrabble.notation import breakdown_json
    from scrabble.position import make_position

    req = {
        "board": BOARD,
        "rack": "AEIRSTV",
        "limit": 3,
        "heuristics": True,
        "adversarial": True,
        "risk": "averse",
        "rank_by": "equity",
        "budget_ms": 5000,
    }
    a = post(gateway_url, req)
    position = make_position(BOARD, "AEIRSTV")
    here = evaluate(
        position,
        trie.generate(position),
        trie,
        EquityOptions(adversarial=True, risk="averse", budget_ms=5000),
        limit=3,
    )
    assert [m["heuristics"] for m in a["moves"]] == [
        breakdown_json(here.breakdowns[i]) for i in here.order.tolist()
    ]
    adv = a["moves"][0]["heuristics"]["adversarial"]
    assert adv["cvar10"] >= adv["expected_best_reply"] > 0
    assert len(adv["threats"]) <= 3
    assert all(0 < t["probability"] <= 1 for t in adv["threats"])
    assert a["heuristics"]["adversarial"] and a["heuristics"]["risk"] == "averse"


def test_bad_heuristic_options_are_named(gateway_url):
    r = httpx.post(
        gateway_url + "/scrabble-api",
        timeout=30,
        json={"board": BOARD, "rack": "AB", "rank_by": "luck"},
    )
    assert r.status_code == 422 and any(d["field"] == "rank_by" for d in r.json()["detail"])
    r = httpx.post(
        gateway_url + "/scrabble-api",
        timeout=30,
        json={"board": BOARD, "rack": "AB", "upcoming": "A1"},
    )
    assert r.status_code == 422 and any(d["field"] == "upcoming" for d in r.json()["detail"])


def test_response_with_heuristics_matches_its_model(gateway_url):
    from gateway.schemas import MoveResponse

    body = post(
        gateway_url,
        {"board": BOARD, "rack": "AEIRSTV", "limit": 5, "heuristics": True, "adversarial": True},
    )
    MoveResponse.model_validate(body)


def test_visible_upcoming_tiles_make_prospects_certain(gateway_url):
    board = board_with([(7, 6, "across", "CAT")])
    body = post(
        gateway_url,
        {
            "board": board,
            "rack": "QI",
            "limit": 5,
            "heuristics": True,
            "rank_by": "equity",
            "upcoming": "SSE",
        },
    )
    evaluated = [m["heuristics"] for m in body["moves"] if m["heuristics"]["evaluated"]]
    assert evaluated
    # every draw is a known tile, so each prospect needs nothing more
    assert all(
        h["prospect_move"]["probability"] == 1.0 for h in evaluated if h.get("prospect_move")
    )
