"""POST /wordgame/game over real HTTP against the real gateway process: a seeded
case replayed through the referee, checked against the referee run here."""

from __future__ import annotations

import random
import time

import httpx
import orjson
import pytest

from scrabble.gateway.wordgame_game import GameRequest
from scrabble.gateway.wordgame_replay import GameTask, game_answer, seeded_case
from scrabble.wordgame import cases
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.players.registry import make_player
from scrabble.wordgame.referee import Referee

SEED = 2  # 10 x 10, T 5, X 0, D 2


@pytest.fixture(scope="module")
def greedy_game() -> tuple[cases.Case, list[str], Referee]:
    """Greedy's whole game on the case, played here: its replies and the referee."""
    enable = load_lexicon("enable")
    case = cases.generate(SEED, cases.letter_probabilities(enable.words))
    referee = Referee(case, enable.contains)
    player = make_player("greedy", enable)
    player.start(referee.setup())
    replies = []
    while not referee.over:
        replies.append(player.act(referee.turn(0)))
        referee.apply(replies[-1])
    return case, replies, referee


def post(url: str, body: dict) -> httpx.Response:
    return httpx.post(url + "/wordgame/game", json=body, timeout=60)


def test_the_state_after_some_actions_is_the_referees(gateway_url, greedy_game):
    case, replies, _ = greedy_game
    enable = load_lexicon("enable")
    here = Referee(case, enable.contains)
    for reply in replies[:6]:
        here.apply(reply)
    r = post(gateway_url, {"seed": SEED, "actions": replies[:6]})
    assert r.status_code == 200, r.text
    out = r.json()
    view = here.turn(0)
    assert (out["n"], out["t"], out["x"], out["d"]) == (case.n, case.t, case.x, case.d)
    assert out["premiums"] == list(case.premiums)
    assert out["board"] == here.board_rows
    assert (out["hand"], out["visible"]) == (view.hand, view.visible)
    assert (out["tiles_left"], out["score"]) == (view.queue_left, view.score)
    assert out["over"] is False and out["final_score"] is None
    assert [t["line"] for t in out["turns"]] == replies[:6]
    assert sum(t["points"] for t in out["turns"]) == out["score"] == out["turns"][-1]["score"]


def test_a_whole_game_ends_with_the_referees_final_score(gateway_url, greedy_game):
    _, replies, referee = greedy_game
    out = post(gateway_url, {"seed": SEED, "actions": replies}).json()
    outcome = referee.outcome()
    assert out["over"] is True and out["final_score"] == outcome.score > 0
    assert out["hand"] == "" and out["visible"] == ""
    plays = [t["points"] for t in out["turns"] if t["line"].startswith("PLAY")]
    assert plays == [p.score for p in outcome.plays]
    discards = [t["points"] for t in out["turns"] if t["line"].startswith("DISCARD")]
    assert discards == [-2] * outcome.discards  # D = 2


def test_the_start_of_a_game_and_an_undo_are_the_list_of_actions(gateway_url, greedy_game):
    _, replies, _ = greedy_game
    start = post(gateway_url, {"seed": SEED}).json()
    assert start["turns"] == [] and start["score"] == 0 and len(start["hand"]) == 5
    assert start["board"] == ["." * 10] * 10
    one = post(gateway_url, {"seed": SEED, "actions": replies[:1]}).json()
    assert one["board"] != start["board"] or one["score"] < 0


def test_the_player_advises_on_the_state_and_the_referee_takes_the_advice(gateway_url, greedy_game):
    _, replies, _ = greedy_game
    state = post(gateway_url, {"seed": SEED, "actions": replies[:3]}).json()
    turn = {
        "premiums": state["premiums"],
        "board": state["board"],
        "hand": state["hand"],
        "hand_size": state["t"],
        "visible": state["visible"],
        "discard_cost": state["d"],
        "tiles_left": state["tiles_left"],
        "score": state["score"],
        "player": "planner",
    }
    advice = httpx.post(gateway_url + "/wordgame/turn", json=turn, timeout=120)
    assert advice.status_code == 200, advice.text
    line = advice.json()["action"]["line"]
    after = post(gateway_url, {"seed": SEED, "actions": [*replies[:3], line]})
    assert after.status_code == 200, after.text
    assert after.json()["turns"][-1]["line"] == line


@pytest.mark.parametrize(
    "bad,problem",
    [
        ("PLAY 0 0 H ZZZZZ", "illegal play PLAY 0 0 H ZZZZZ"),
        ("DISCARD QQQQQQ", "the hand lacks"),
        ("play 1 2 h at", "unparsable reply"),
        ("PLAY 01 2 H AT", "unparsable reply"),
    ],
)
def test_a_refused_action_is_a_422_naming_it(gateway_url, greedy_game, bad, problem):
    _, replies, _ = greedy_game
    r = post(gateway_url, {"seed": SEED, "actions": [*replies[:2], bad]})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert [d["field"] for d in detail] == ["actions[2]"]
    assert problem in detail[0]["message"]


def test_an_action_after_the_end_is_refused(gateway_url, greedy_game):
    _, replies, _ = greedy_game
    r = post(gateway_url, {"seed": SEED, "actions": [*replies, "STOP"]})
    assert r.status_code == 422
    assert r.json()["detail"] == [
        {"field": f"actions[{len(replies)}]", "message": r.json()["detail"][0]["message"]}
    ]
    assert "the game is over" in r.json()["detail"][0]["message"]
    stopped = post(gateway_url, {"seed": SEED, "actions": ["STOP", "STOP"]})
    assert stopped.json()["detail"][0]["field"] == "actions[1]"


@pytest.mark.parametrize(
    "body,field",
    [
        ({"seed": -1}, "seed"),
        ({"seed": 10**9 + 1}, "seed"),
        ({"seed": "2"}, "seed"),  # strict: a string is not a seed
        ({"seed": 2, "actions": ["STOP"] * 402}, "actions"),
        ({"seed": 2, "actions": ["DISCARD " + "A" * 300]}, "actions.0"),
        ({"seed": 2, "actions": "STOP"}, "actions"),
        ({"seed": 2, "lexicon": "nope"}, "lexicon"),
        ({"seed": 2, "colour": "red"}, "colour"),
        ({}, "seed"),
    ],
)
def test_bad_input_names_the_field(gateway_url, body, field):
    r = post(gateway_url, body)
    assert r.status_code == 422, r.text
    assert [d["field"] for d in r.json()["detail"]] == [field]


def test_no_action_a_client_sends_breaks_the_replay(enable):
    """Seeded junk after a few legal actions, on cases of every size: each
    answer is the state or a 422 naming the junk, never a server error."""
    rng = random.Random(11)
    answered = set()
    for _ in range(80):
        seed = rng.randint(0, 10**9)
        case = seeded_case(enable, seed)
        referee = Referee(case, enable.contains)
        player = make_player("greedy", enable)
        player.start(referee.setup())
        actions = []
        for _ in range(rng.randint(0, 4)):
            actions.append(player.act(referee.turn(0)))
            referee.apply(actions[-1])
        n = case.n
        letters = "".join(rng.choice("AEQZXS") for _ in range(rng.randint(1, 24)))
        junk = rng.choice(
            [
                f"PLAY {rng.randint(0, 40)} {rng.randint(0, 40)} {rng.choice('HV')} {letters}",
                f"PLAY {rng.randint(n - 3, n + 2)} {rng.randint(n - 3, n + 2)} V {letters[:3]}",
                f"DISCARD {letters[:12]}",
                "STOP",
                "",
                "PLAY 1 1 X AB",
                "PLAY 1 1 H " + "A" * 180,
            ]
        )
        body = GameRequest.model_validate({"seed": seed, "actions": [*actions, junk]})
        status, out = game_answer(enable, GameTask(body, "enable", time.perf_counter()))
        answered.add(status)
        assert status in (200, 422), out
        if status == 422:
            assert orjson.loads(out)["detail"][0]["field"] == f"actions[{len(actions)}]"
    assert answered == {200, 422}


def test_the_documented_example_is_a_game_the_referee_accepts(gateway_url):
    schema = httpx.get(gateway_url + "/openapi.json", timeout=30).json()
    (example,) = schema["components"]["schemas"]["GameRequest"]["examples"]
    r = post(gateway_url, example)
    assert r.status_code == 200, r.text
    assert [t["line"] for t in r.json()["turns"]] == example["actions"]
