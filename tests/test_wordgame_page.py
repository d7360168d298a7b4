"""The WordGame page at /wordgame, driven in a real headless Chromium against a
real gateway process on loopback (``tests/browser.py``): what it draws
and what it sends are checked against the case and the referee run here."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from scrabble.wordgame import cases
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.referee import Referee
from tests.browser import Opener, screenshot

SEED = 2  # 10 x 10, T 5, X 0, D 2


def fresh_referee() -> Referee:
    enable = load_lexicon("enable")
    return Referee(cases.generate(SEED, cases.letter_probabilities(enable.words)), enable.contains)


def answer_of(page: Any, path: str, action: Any) -> tuple[dict[str, Any], Any]:
    """Run the action that posts to the path; the request body and the response."""
    with page.expect_response(
        lambda r: r.url.endswith(path) and r.request.method == "POST"
    ) as info:
        action()
    response = info.value
    return json.loads(response.request.post_data), response


def open_game(visit: Opener, url: str, fragment: str, width: int = 1280) -> Any:
    page = visit(width=width).page
    with page.expect_response(lambda r: r.url.endswith("/wordgame/game")):
        page.goto(f"{url}/wordgame#{fragment}")
    page.locator('.cell[data-row="9"][data-col="9"]').wait_for()
    return page


def drawn_premiums(page: Any, n: int) -> list[str]:
    drawn = page.eval_on_selector_all(".cell", "cells => cells.map(c => c.dataset.premium || '.')")
    return ["".join(drawn[row * n : (row + 1) * n]) for row in range(n)]


def fact(page: Any, name: str) -> str:
    return str(page.inner_text(f'[data-fact="{name}"]'))


def test_play_the_players_advice_refuse_a_bad_action_and_undo(
    visit: Opener, gateway_url: str
) -> None:
    referee = fresh_referee()
    page = open_game(visit, gateway_url, f"seed={SEED}")
    case_premiums = list(referee.setup().premiums)
    assert page.locator(".cell").count() == 100
    assert drawn_premiums(page, 10) == case_premiums
    hand = "".join(page.locator("#hand .rack-tile .letter").all_inner_texts())
    assert hand == referee.turn(0).hand
    assert fact(page, "score") == "0" and fact(page, "tiles-left") == "95"

    # the player's advice, asked on exactly the referee's state
    sent, response = answer_of(page, "/wordgame/turn", lambda: page.click("#advise"))
    assert sent["player"] == "planner"
    assert sent["board"] == ["." * 10] * 10 and sent["hand"] == referee.turn(0).hand
    assert (sent["hand_size"], sent["discard_cost"], sent["tiles_left"]) == (5, 2, 95)
    advice = response.json()
    line = advice["action"]["line"]
    page.locator("#terms tr").first.wait_for()
    assert line in page.inner_text("#advice")
    assert page.locator("#terms tr").count() == len(advice["terms"])
    assert page.locator("#alternatives li").count() == len(advice["alternatives"])
    if advice["action"]["type"] == "play":  # its new tiles previewed on the board
        assert page.locator(".cell.preview").count() > 0
    target = advice["target"]  # the planner's window outlined, square by square
    outlined = page.eval_on_selector_all(
        ".cell.target", "cells => cells.map(c => [Number(c.dataset.row), Number(c.dataset.col)])"
    )
    assert sorted(map(tuple, outlined)) == sorted(map(tuple, target["squares"]))
    assert f"x{target['word_multiplier']}" in page.inner_text("#target")
    screenshot(page, "wordgame-advice.png")

    # played: the score is the referee's after the same line
    _, response = answer_of(page, "/wordgame/game", lambda: page.click("#take"))
    assert response.status == 200
    referee.apply(line)
    page.locator("#turns li").first.wait_for()
    assert fact(page, "score") == str(referee.turn(0).score)
    assert page.locator("#turns li").count() == 1
    assert "".join(page.locator("#hand .rack-tile .letter").all_inner_texts()) == (
        referee.turn(0).hand
    )
    shared = page.evaluate("location.hash").lstrip("#")
    assert parse_qs(shared) == {"seed": [str(SEED)], "actions": [line]}

    # another player's advice on the same state
    page.select_option("#player", "greedy")
    assert page.locator("#terms tr").count() == 0  # the planner's advice is gone
    sent, response = answer_of(page, "/wordgame/turn", lambda: page.click("#advise"))
    assert sent["player"] == "greedy" and response.json()["player"] == "greedy"
    page.locator("#terms tr").first.wait_for()
    assert page.inner_text("#advice").startswith("greedy: ")

    # a play the referee refuses: named, and nothing changes
    page.fill("#action", "play 0 0 h zzzzz")  # typed in lower case: sent upper case
    sent, response = answer_of(page, "/wordgame/game", lambda: page.click("#send"))
    assert sent["actions"] == [line, "PLAY 0 0 H ZZZZZ"] and response.status == 422
    page.locator("#error").wait_for()
    assert "actions[1]" in page.inner_text("#error")
    assert page.get_attribute("#action", "aria-invalid") == "true"
    assert page.locator("#turns li").count() == 1
    assert fact(page, "score") == str(referee.turn(0).score)

    # undo: back to the start
    sent, _ = answer_of(page, "/wordgame/game", lambda: page.click("#undo"))
    assert sent["actions"] == []
    page.locator("#turns li").first.wait_for(state="detached")
    assert fact(page, "score") == "0"
    assert page.locator(".cell.tile").count() == 0

    # the address holds the game: opened again, it is replayed to the same state
    again = open_game(visit, gateway_url, shared)
    again.locator("#turns li").first.wait_for()
    assert fact(again, "score") == str(referee.turn(0).score)
    assert again.locator(".cell.tile").count() == sum(
        ch != "." for row in referee.board_rows for ch in row
    )


def test_a_seed_starts_a_new_case_and_a_phone_gets_no_overflow(
    visit: Opener, gateway_url: str
) -> None:
    page = open_game(visit, gateway_url, f"seed={SEED}", width=360)
    enable = load_lexicon("enable")
    other = cases.generate(3, cases.letter_probabilities(enable.words))
    page.fill("#seed", "3")
    _, response = answer_of(page, "/wordgame/game", lambda: page.click("#start"))
    assert response.status == 200
    last = other.n - 1
    page.locator(f'.cell[data-row="{last}"][data-col="{last}"]').wait_for()
    assert page.locator(".cell").count() == other.n**2
    assert drawn_premiums(page, other.n) == list(other.premiums)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"page is {width} px wide at a 360 px viewport"
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 360
    page.click('.cell[data-row="4"][data-col="2"]')
    assert page.input_value("#action") == "PLAY 4 2 H "
    page.click('.cell[data-row="4"][data-col="2"]')  # again: down
    assert page.input_value("#action") == "PLAY 4 2 V "
    screenshot(page, "wordgame-phone.png")
