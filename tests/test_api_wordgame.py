"""POST /wordgame/turn over real HTTP against the real gateway process, and the
work a compute process does for it on seeded odd states."""

from __future__ import annotations

import copy
import random
import time

import httpx
import orjson
import pytest

from scrabble.gateway.wordgame import TurnRequest
from scrabble.gateway.wordgame_work import TurnTask, turn_answer
from scrabble.wordgame import cases
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.players.registry import make_player
from scrabble.wordgame.referee import Referee

SEED = 2  # a 10 x 10 case


@pytest.fixture(scope="module")
def played():
    """A case some greedy turns in: the referee and the state a player sees."""
    enable = load_lexicon("enable")
    case = cases.generate(SEED, cases.letter_probabilities(enable.words))
    ref = Referee(case, enable.contains)
    player = make_player("greedy", enable)
    player.start(ref.setup())
    for _ in range(4):
        ref.apply(player.act(ref.turn(0)))
    view = ref.turn(0)
    body = {
        "premiums": list(case.premiums),
        "board": ref.board_rows,
        "hand": view.hand,
        "hand_size": case.t,
        "visible": view.visible,
        "discard_cost": case.d,
        "tiles_left": view.queue_left,
        "score": view.score,
        "lexicon": "enable",
        "elapsed_ms": 0,
    }
    return ref, body


def _fork(ref: Referee) -> Referee:
    probe = copy.copy(ref)
    probe._board = [row[:] for row in ref._board]
    probe._hand = list(ref._hand)
    probe._outcome = copy.deepcopy(ref._outcome)
    return probe


def post(url: str, body: dict) -> httpx.Response:
    return httpx.post(url + "/wordgame/turn", json=body, timeout=120)


@pytest.mark.parametrize("player", ["planner", "prospect", "greedy"])
def test_recommended_action_is_legal_and_its_terms_add_up(gateway_url, played, player):
    ref, body = played
    r = post(gateway_url, {**body, "player": player, "alternatives": 3})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["player"] == player and out["action"]["type"] in ("play", "discard", "stop")
    assert abs(sum(out["terms"].values()) - out["value"]) < 0.01
    assert len(out["alternatives"]) <= 3
    assert all(a["value"] <= out["value"] + 1e-6 for a in out["alternatives"])
    for alt in [out, *out["alternatives"]]:
        # every action offered is one the referee accepts on this state
        probe = _fork(ref)
        probe.apply(alt["action"]["line"])
        assert not probe.over or probe.outcome().failure is None
    if out["action"]["type"] == "play":
        a = out["action"]
        assert a["line"] == f"PLAY {a['row']} {a['col']} {a['direction']} {a['word']}"


def test_same_state_same_answer(gateway_url, played):
    _, body = played
    first, second = post(gateway_url, body).json(), post(gateway_url, body).json()
    first.pop("timing_ms")
    second.pop("timing_ms")
    assert first == second


def test_empty_board_first_move(gateway_url, played):
    _, body = played
    empty = {
        **body,
        "board": ["." * 10] * 10,
        "hand": "AEINRST",
        "hand_size": 7,
        "tiles_left": 93,
        "player": "prospect",
    }
    out = post(gateway_url, empty).json()
    assert out["action"]["type"] in ("play", "discard")
    assert "score" in out["terms"] or "discard_cost" in out["terms"] or out["terms"]


@pytest.mark.parametrize(
    "change,field",
    [
        ({"premiums": ["..x......."] + ["." * 10] * 9}, "premiums"),
        ({"premiums": ["." * 10] * 9}, "premiums"),
        ({"board": ["." * 10] * 11}, "board"),
        ({"board": ["." * 9] * 10}, "board"),
        ({"board": ["a" + "." * 9] + ["." * 10] * 9}, "board"),
        ({"hand": "abc"}, "hand"),
        ({"hand": ""}, "hand"),
        ({"hand": "ABCDEFGHIJ"}, "hand"),
        ({"visible": "ABCDEF"}, "visible"),
        ({"discard_cost": 6}, "discard_cost"),
        ({"visible": "AB", "tiles_left": 1}, "tiles_left"),
        ({"tiles_left": 101}, "tiles_left"),
        ({"hand_size": 4}, "hand_size"),
        ({"elapsed_ms": -1}, "elapsed_ms"),
        ({"lexicon": "nope"}, "lexicon"),
        ({"lexicon": "../etc"}, "lexicon"),
        ({"player": "oracle"}, "player"),
        ({"alternatives": False}, "alternatives"),  # strict: a boolean is not a count
        ({"score": "10"}, "score"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_input_names_the_field(gateway_url, played, change, field):
    _, body = played
    r = post(gateway_url, {**body, **change})
    assert r.status_code == 422, r.text
    assert [d["field"] for d in r.json()["detail"]] == [field]


def test_malformed_json_is_400(gateway_url):
    r = httpx.post(
        gateway_url + "/wordgame/turn",
        content=b"{nope",
        timeout=30,
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and r.json()["detail"][0]["field"] == "body"


def test_any_served_lexicon_and_an_unknown_one_gets_the_list(gateway_url, played):
    _, body = played
    r = post(gateway_url, {**body, "lexicon": "sowpods", "player": "greedy"})
    assert r.status_code == 200, r.text
    assert r.json()["lexicon"] == "sowpods"
    refused = post(gateway_url, {**body, "lexicon": "nope"})
    message = refused.json()["detail"][0]["message"]
    assert refused.status_code == 422 and "enable" in message and "sowpods" in message


def test_a_free_discard_is_worth_zero_not_minus_zero(gateway_url, played):
    # QQQZZ makes no word on an empty board, so greedy discards; at D = 0 its
    # value was -D = -0.0, written as "-0.0" in the JSON
    _, body = played
    empty = ["." * len(row) for row in body["board"]]
    state = {**body, "board": empty, "hand": "QQQZZ", "discard_cost": 0, "player": "greedy"}
    r = post(gateway_url, state)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["action"]["type"] == "discard"
    assert "-0.0" not in r.text
    assert out["value"] == 0 and str(out["value"]) == "0.0"


def test_any_valid_state_gets_an_answer_not_a_server_error(enable):
    """Seeded odd states the validation lets through (random letters that spell
    nothing, crowded and almost full boards, words laid anywhere, hands of one
    tile, no tiles left): every player answers 200 with a protocol line."""
    rng = random.Random(7)
    for _ in range(30):
        n = rng.randint(10, 20)
        premiums = ["".join(rng.choice(".....dtDT") for _ in range(n)) for _ in range(n)]
        fill = rng.choice([0.0, 0.2, 0.7, 0.97])
        grid = [
            [chr(65 + rng.randrange(26)) if rng.random() < fill else "." for _ in range(n)]
            for _ in range(n)
        ]
        for _ in range(rng.randint(0, 6)):  # real words, across or down
            word = rng.choice(enable.words)
            if len(word) <= n:
                r, c = rng.randrange(n), rng.randrange(n - len(word) + 1)
                for k, letter in enumerate(word):
                    if rng.random() < 0.5:
                        grid[r][c + k] = letter
                    else:
                        grid[c + k][r] = letter
        t = rng.randint(5, 9)
        visible = "".join(rng.choice("AEIOUSTQZ") for _ in range(rng.randint(0, 5)))
        body = TurnRequest.model_validate(
            {
                "premiums": premiums,
                "board": ["".join(row) for row in grid],
                "hand": "".join(
                    rng.choice("AEIOUSTRNLBCDGKQXZJ") for _ in range(rng.randint(1, t))
                ),
                "hand_size": t,
                "visible": visible,
                "discard_cost": rng.randint(0, 5),
                "tiles_left": rng.randint(len(visible), n * n),
                "player": rng.choice(["greedy", "prospect", "planner"]),
            }
        )
        status, out = turn_answer(enable, TurnTask(body, "enable", time.perf_counter()))
        assert status == 200, out
        assert orjson.loads(out)["action"]["line"].split()[0] in ("PLAY", "DISCARD", "STOP")


def test_the_planners_target_is_a_window_of_empty_squares_on_the_board(gateway_url, played):
    ref, body = played
    out = post(gateway_url, {**body, "player": "planner"}).json()
    target = out["target"]
    assert target is not None and target["direction"] in ("H", "V")
    down = target["direction"] == "V"
    window = [
        (target["row"] + (k if down else 0), target["col"] + (0 if down else k))
        for k in range(target["length"])
    ]
    board = body["board"]
    empty = [(r, c) for r, c in window if board[r][c] == "."]
    assert [tuple(sq) for sq in target["squares"]] == empty
    assert len(empty) == body["hand_size"]  # a slot: the whole hand fills it
    assert any(board[r][c] != "." for r, c in window)  # through a board tile
    product = 1
    for r, c in empty:
        product *= {"D": 2, "T": 3}.get(body["premiums"][r][c], 1)
    assert target["word_multiplier"] == product
    for player in ("greedy", "prospect"):
        assert post(gateway_url, {**body, "player": player}).json()["target"] is None
