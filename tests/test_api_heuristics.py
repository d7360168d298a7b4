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
        assert list(terms) == ["score", "leave", "endgame", "opening", "premium_waste", "prospect"]
        assert abs(h["equity"] - sum(terms.values())) < 1e-6 and terms["score"] == m["score"]
        if m["kind"] == "play":
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
    from scrabble.equity.static import StaticEquity

    here = evaluate(
        position,
        trie.generate(position),
        trie,
        StaticEquity.for_lexicon(trie.lexicon),
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
    from scrabble.gateway.schemas import MoveResponse

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


def test_exchanges_and_pass_are_ranked_with_the_placements(gateway_url):
    # a hopeless rack: throwing tiles back beats every play
    body = post(gateway_url, {"board": BOARD, "rack": "UUUVVWW", "limit": 300,
                              "rank_by": "equity", "heuristics": True})  # fmt: skip
    kinds = [m["kind"] for m in body["moves"]]
    assert kinds[0] == "exchange" and "play" in kinds
    top = body["moves"][0]
    thrown = top["exchanged"]
    assert top["notation"] == "-" + thrown and top["score"] == 0 and top["tiles"] == []
    assert sorted(thrown + top["leave"]) == sorted("UUUVVWW")
    equities = [m["heuristics"]["equity"] for m in body["moves"]]
    evaluated = [m["heuristics"]["evaluated"] for m in body["moves"]]
    # the evaluated block (prospects computed) comes first, each block by equity
    block = evaluated.index(False) if False in evaluated else len(evaluated)
    assert all(evaluated[:block]) and not any(evaluated[block:])
    assert equities[:block] == sorted(equities[:block], reverse=True)
    assert equities[block:] == sorted(equities[block:], reverse=True)
    names = {t["name"] for m in body["moves"][block:] for t in m["heuristics"]["terms"]}
    assert "prospect" in {t["name"] for t in top["heuristics"]["terms"]}
    assert body["heuristics"]["exchange"]["throw"] == thrown
    assert names  # the rest carry the cheap terms
    # score ranking lists placements only, as before
    plain = post(gateway_url, {"board": BOARD, "rack": "UUUVVWW", "limit": 5})
    assert all("kind" not in m for m in plain["moves"])


def test_a_known_opponent_rack_counts_as_seen_and_an_empty_bag_draws_nothing(gateway_url):
    cgp = (
        "4RUMMAGED2C/7A6A/2H1G2T6V/2O1O2I6E/2WAB2PREBENDS/2ER3O3n3/2SI6COW2/3L2HUE2KANE/"
        "3LI3FILII2/J1TANGENT2T1Z1/A2TA5FA1OP/R2EN5Ok1OU/VILDE5YEX1D/I3R6SUQS/E13Y INR/OT "
        "440/448 0 lex sowpods;"
    )
    # a budget a loaded CI machine cannot miss (the default's 300 ms suffice
    # on an idle one: scripts/bench_endgame.py); the test is about the values
    body = post(gateway_url, {"cgp": cgp, "limit": 5, "rank_by": "equity", "budget_ms": 8000})
    unseen = body["unseen"]
    assert unseen["bag_empty"] and unseen["bag"] == 0 and unseen["opponent_rack_known"]
    assert unseen["count"] == 0 and unseen["tiles"] == {}  # the O and T are seen
    assert all(p == 0.0 for draws in unseen["p_at_least_one"].values() for p in draws.values())
    # the exact search of the rest of the game ranks the going-out 2K RIN first:
    # 8, then the opponent's O and T count for us and against them (+12 in all)
    search = body["heuristics"]["endgame_search"]
    assert search["completed"] and search["principal_variation"][0] == "2K RIN"
    first = body["moves"][0]
    assert first["notation"] == "2K RIN" and first["heuristics"]["equity"] == 12.0
    terms = {t["name"]: t["points"] for t in first["heuristics"]["terms"]}
    assert terms["endgame"] == 4.0 and terms["leave"] == 0.0 and terms["score"] == 8.0
    assert "prospect" not in terms  # an exact value needs no estimate
    equities = [m["heuristics"]["equity"] for m in body["moves"]]
    assert equities == sorted(equities, reverse=True)


def test_equity_requests_are_answered_by_the_best_n_search(gateway_url):
    """rank_by=equity on the trie engine: the best-N search answers (nothing
    counted, ``stats.best_n``), with the same ranked list, terms and all, as
    the whole list gives (``count_moves``), whose count is the score request's."""
    mid = board_with([(7, 3, "across", "QUARTZ"), (2, 11, "down", "JOKERS")])
    for board, rack in [(BOARD, "AEINRS?"), (mid, "??EIRST"), ([EMPTY_ROW] * 15, "AEIOUVX")]:
        ask = {"board": board, "rack": rack, "limit": 25, "rank_by": "equity", "budget_ms": 10000}
        fast = post(gateway_url, ask)
        whole = post(gateway_url, {**ask, "count_moves": True})
        counted = post(gateway_url, {"board": board, "rack": rack, "limit": 1})
        assert fast["total_moves"] is None and fast["stats"]["best_n"] is True
        assert fast["stats"]["placements_evaluated"] <= counted["total_moves"]
        if rack.startswith("??"):  # the bounds skip most of a two-blank rack's placements
            assert fast["stats"]["placements_evaluated"] < counted["total_moves"] // 4
        assert whole["total_moves"] == counted["total_moves"] and "best_n" not in whole["stats"]
        for entry in fast["moves"] + whole["moves"]:
            entry["heuristics"].pop("evaluated")
        assert fast["moves"] == whole["moves"] and len(fast["moves"]) == 25
        assert fast["heuristics"]["exchange"] == whole["heuristics"]["exchange"]


def test_prospects_only_on_request(gateway_url):
    """Equity ranks without the prospect term (at 10,000 pairs it cost 2.0 pp,
    docs/selfplay.md); ``heuristics`` adds it for the best few."""
    ask = {"board": BOARD, "rack": "AEINRS?", "limit": 5, "rank_by": "equity"}
    plain = post(gateway_url, ask)
    asked = post(gateway_url, {**ask, "heuristics": True, "budget_ms": 10000})
    names = [[t["name"] for t in m["heuristics"]["terms"]] for m in plain["moves"]]
    assert all("prospect" not in n for n in names) and plain["heuristics"]["evaluated"] == 0
    assert "prospect" in [t["name"] for t in asked["moves"][0]["heuristics"]["terms"]]
    assert asked["heuristics"]["evaluated"] >= 1
