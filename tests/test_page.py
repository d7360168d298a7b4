"""The page at / and the docs at /docs, driven in a real headless Chromium
(Debian's /usr/bin/chromium through Playwright) against a real gateway process
on loopback, with every request to another host aborted and recorded."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from scrabble import cgp as cgp_format
from scrabble.rules import STANDARD
from tests.browser import Opener, is_loopback, screenshot

README_CGP = "15/15/15/15/15/15/15/3FRANC7/15/15/15/15/15/15/15 CDGILOS/AEEIMTW 0/28 0 lex sowpods;"


def test_the_network_guard_tells_loopback_from_other_hosts() -> None:
    assert is_loopback("http://127.0.0.1:8000/static/page.js")
    assert is_loopback("http://[::1]:8000/docs") and is_loopback("http://localhost/x")
    assert not is_loopback("https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css")
    assert not is_loopback("https://fastapi.tiangolo.com/img/favicon.png")
    assert not is_loopback("http://10.0.0.1/") and not is_loopback("http://128.0.0.1/")


def open_page(visit: Opener, url: str, width: int = 1280) -> Any:
    page = visit(width=width).page
    page.goto(url + "/")
    # (a locator wait: wait_for_function's string would be eval, which the page's CSP refuses)
    page.locator("#lexicon option").first.wait_for(state="attached")
    return page


def cell(page: Any, row: int, col: int) -> Any:
    return page.locator(f'.cell[data-row="{row}"][data-col="{col}"]')


def cell_text(page: Any, row: int, col: int) -> str:
    return (
        cell(page, row, col).locator(".letter").all_inner_texts()[0]
        if cell(page, row, col).locator(".letter").count()
        else ""
    )


def tab_to(page: Any, selector: str, presses: int = 20) -> None:
    """Tab (the keyboard only) until the element matching selector has focus."""
    for _ in range(presses):
        if page.evaluate(f"document.activeElement.matches({json.dumps(selector)})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def find_moves(page: Any, action: Callable[[], None]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run the action that asks for moves; the request body and the answer."""
    with page.expect_response(
        lambda r: r.url.endswith("/scrabble-api") and r.request.method == "POST"
    ) as info:
        action()
    response = info.value
    return json.loads(response.request.post_data), response.json()


def shows(text: str, points: float) -> bool:
    """The page shows points to one decimal (JavaScript rounds ties away from zero)."""
    return abs(float(text) - points) <= 0.05 + 1e-9


def premium_map(page: Any) -> list[str]:
    drawn = page.eval_on_selector_all(".cell", "cells => cells.map(c => c.dataset.premium || '.')")
    return ["".join(drawn[row * 15 : (row + 1) * 15]) for row in range(15)]


def test_type_a_position_find_moves_and_preview_one(visit: Opener, gateway_url: str) -> None:
    page = open_page(visit, gateway_url)
    assert premium_map(page) == list(STANDARD.premiums)
    # screen readers hear each premium square's name (the legend of /rules)
    assert cell(page, 0, 0).get_attribute("aria-label") == "A1: empty, triple word"
    assert cell(page, 0, 3).get_attribute("aria-label") == "D1: empty, double letter"
    assert cell(page, 0, 1).get_attribute("aria-label") == "B1: empty"

    # keyboard only: Tab onto the board (the cursor starts on the centre square)
    tab_to(page, ".cell")
    assert (
        page.evaluate(
            "document.activeElement.dataset.row + ',' + document.activeElement.dataset.col"
        )
        == "7,7"
    )
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    page.keyboard.type("franc")  # steps across: 8D..8H
    rows = ["." * 15] * 7 + ["...FRANC......."] + ["." * 15] * 7
    assert [cell_text(page, 7, col) for col in range(3, 8)] == list("FRANC")
    # the page's CGP is the library's CGP of the same position
    assert page.input_value("#cgp") == cgp_format.format_cgp(rows, "", "sowpods")

    # Space turns typing down; Shift+letter and ? then a letter are blanks
    page.keyboard.press("Space")
    assert page.inner_text("#direction") == "Typing down"
    for _ in range(3):
        page.keyboard.press("ArrowUp")  # from I8 up to I5
    page.keyboard.press("Shift+Q")
    page.keyboard.type("?")
    page.keyboard.type("i")
    assert (cell_text(page, 4, 8), cell_text(page, 5, 8)) == ("q", "i")
    assert "blank" in (cell(page, 4, 8).get_attribute("class") or "")
    assert "blank as q" in (cell(page, 4, 8).get_attribute("aria-label") or "")
    # Backspace clears the last tile typed and steps back; Delete clears in place
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    assert (cell_text(page, 4, 8), cell_text(page, 5, 8)) == ("", "")
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowLeft")  # H8, the C
    page.keyboard.press("Delete")
    assert cell_text(page, 7, 7) == ""
    page.keyboard.press("Space")
    page.keyboard.type("c")
    assert cell_text(page, 7, 7) == "C"
    assert page.input_value("#cgp") == cgp_format.format_cgp(rows, "", "sowpods")

    tab_to(page, "#rack")
    page.keyboard.type("cdgilos")
    body, answer = find_moves(page, lambda: page.keyboard.press("Enter"))
    assert body["board"] == rows and body["rack"] == "CDGILOS"
    assert body["rank_by"] == "score" and body["heuristics"] is True
    moves = answer["moves"]
    assert len(moves) > 1
    options = page.locator("#moves [role=option]")
    options.nth(len(moves) - 1).wait_for()
    assert options.count() == len(moves)
    shown = page.locator("#moves .notation").all_inner_texts()
    assert shown == [m["notation"] for m in moves]
    assert page.input_value("#cgp") == answer["cgp"]  # the page's CGP is the API's
    assert f"{answer['total_moves']} moves found" in page.inner_text("#status")

    # the move list by keyboard: the first move is selected, Down selects the second
    tab_to(page, "#moves")
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("#move-1", "aria-selected") == "true"
    assert page.get_attribute("#moves", "aria-activedescendant") == "move-1"
    move = moves[1]
    previewed = {}
    for square in page.locator(".cell.preview").all():
        previewed[
            (int(square.get_attribute("data-row")), int(square.get_attribute("data-col")))
        ] = square.locator(".letter").inner_text()
    assert previewed == {(t["row"], t["col"]): t["letter"] for t in move["tiles"]}
    # the board's own tiles are still there beside the preview
    assert [cell_text(page, 7, col) for col in range(3, 8)] == list("FRANC")

    # its equity terms, one bar each, in the answer's order, the total last
    terms = {t["name"]: t["points"] for t in move["heuristics"]["terms"]}
    terms["equity"] = move["heuristics"]["equity"]
    drawn_terms = page.eval_on_selector_all(
        "#terms tr[data-term]",
        "rows => rows.map(r => [r.dataset.term, r.querySelector('.num').textContent])",
    )
    assert [name for name, _ in drawn_terms] == list(terms)
    assert page.locator(".bar.negative").count() == sum(v < 0 for v in terms.values())
    for name, text in drawn_terms:
        assert shows(text, terms[name])

    # unseen tiles with their odds of coming in the next 7 draws
    unseen = answer["unseen"]
    assert page.locator("#unseen tbody tr").count() == len(unseen["tiles"])
    p_e = unseen["p_at_least_one"]["7"]["E"]
    e_row = page.locator('#unseen tr[data-tile="E"] td').all_inner_texts()
    assert e_row[0] == str(unseen["tiles"]["E"]) and f"{100 * p_e:.1f} %" in e_row
    exchange = answer["heuristics"]["exchange"]
    assert f"throw {exchange['throw']}" in page.inner_text("#exchange")

    page.keyboard.press("ArrowUp")
    assert page.get_attribute("#move-0", "aria-selected") == "true"
    assert page.locator(".cell.preview").count() == len(moves[0]["tiles"])
    screenshot(page, "page.png")


def test_paste_a_cgp_rank_by_equity(visit: Opener, gateway_url: str) -> None:
    page = open_page(visit, gateway_url)
    page.check("input[name=rank][value=equity]")
    page.fill("#cgp", README_CGP)
    body, answer = find_moves(page, lambda: page.click("#cgp-load"))
    assert body["rank_by"] == "equity" and body["rack"] == "CDGILOS"
    assert body["board"][7] == "...FRANC......."
    assert page.input_value("#cgp") == README_CGP  # opponent rack and scores kept from the paste
    assert page.input_value("#rack") == "CDGILOS"
    assert [cell_text(page, 7, col) for col in range(3, 8)] == list("FRANC")
    page.locator("#move-0").wait_for()
    status = page.inner_text("#status")
    # the best-N search answered: nothing counted, and the page does not say "null"
    assert answer["total_moves"] is None and "The best moves found" in status
    assert "ranked by equity" in status and "null" not in status
    equities = [m["heuristics"]["equity"] for m in answer["moves"]]
    shown = page.locator("#moves .move span:last-child").all_inner_texts()
    assert len(shown) == len(equities)
    assert all(shows(text, e) for text, e in zip(shown, equities, strict=True))
    page.fill("#cgp", "")  # Copy takes the position, not the field's last text
    page.click("#cgp-copy")
    page.locator("#status", has_text="CGP copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == README_CGP


def test_a_bad_cgp_is_refused_before_it_is_sent(visit: Opener, gateway_url: str) -> None:
    page = open_page(visit, gateway_url)
    page.fill("#cgp", "15/15 ABC")
    page.click("#cgp-load")
    assert "board has 2 rows, expected 15" in page.inner_text("#error")
    assert page.get_attribute("#cgp", "aria-invalid") == "true"


def test_an_invalid_rack_shows_the_apis_message(visit: Opener, gateway_url: str) -> None:
    page = open_page(visit, gateway_url)
    page.fill("#rack", "AB1")
    _, answer = find_moves(page, lambda: page.click("#find"))
    detail = answer["detail"]
    assert detail[0]["field"] == "rack"
    error = page.locator("#error")
    error.wait_for()
    assert error.get_attribute("role") == "alert"
    assert f"rack: {detail[0]['message']}" in error.inner_text()
    assert page.get_attribute("#rack", "aria-invalid") == "true"
    assert page.locator("#moves [role=option]").count() == 0


def test_phone_width_has_no_horizontal_overflow(visit: Opener, gateway_url: str) -> None:
    page = open_page(visit, gateway_url, width=360)
    page.fill("#cgp", README_CGP)
    find_moves(page, lambda: page.click("#cgp-load"))
    page.locator("#move-0").wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"page is {width} px wide at a 360 px viewport"
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 360
    assert board["width"] >= 300  # the board scales to the screen, not a fixed size
    font = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.cell.tile .letter')).fontSize)"
    )
    assert font >= 11
    screenshot(page, "page-phone.png")


def test_api_docs_render_offline(visit: Opener, gateway_url: str) -> None:
    page = visit().page
    page.goto(gateway_url + "/docs")
    # operations drawn: Swagger UI's script ran and read /openapi.json
    page.locator(".swagger-ui .opblock-summary-path").first.wait_for()
    assert "/scrabble-api" in page.inner_text("body")
    sources = page.eval_on_selector_all(
        "script[src], link[href]", "nodes => nodes.map(n => n.src || n.href)"
    )
    assert sources and all(is_loopback(src) for src in sources)
    # closing the visit asserts no request to another host was attempted
    # (ReDoc is off: its bundle fetched its logo from its CDN when this test tried it)
    assert page.goto(gateway_url + "/redoc").status == 404


def test_breakdown_as_a_list_and_exchange_moves(visit: Opener, gateway_url: str) -> None:
    # Exchanges become entries of the ranked list (issue 10); the real answer,
    # with one inserted, shows how the page draws them.
    page = open_page(visit, gateway_url)

    def reshape(route: Any) -> None:
        response = route.fetch()
        answer = response.json()
        answer["moves"].insert(
            1,
            {
                "rank": 2,
                "notation": "-CDGILO",
                "score": 0,
                "leave": "S",
                "tiles": [],
                "heuristics": {
                    "equity": 9.6,
                    "terms": [{"name": "leave", "points": 9.6}],
                    "evaluated": True,
                },
            },
        )
        route.fulfill(response=response, json=answer)

    page.route("**/scrabble-api", reshape)
    page.fill("#cgp", README_CGP)
    _, answer = find_moves(page, lambda: page.click("#cgp-load"))
    page.locator("#move-1").wait_for()
    assert page.inner_text("#move-1 .notation") == "exchange CDGILO"
    terms = page.eval_on_selector_all(
        "#terms tr[data-term]",
        "rows => rows.map(r => [r.dataset.term, r.querySelector('.num').textContent])",
    )
    first = answer["moves"][0]["heuristics"]["terms"]
    assert [name for name, _ in terms] == [t["name"] for t in first] + ["equity"]
    assert all(shows(text, t["points"]) for (_, text), t in zip(terms, first, strict=False))
    # premium waste (and risk, when asked) come below zero
    assert page.locator(".bar.negative").count() == sum(t["points"] < 0 for t in first)
    page.focus("#moves")
    page.keyboard.press("ArrowDown")
    assert page.locator(".cell.preview").count() == 0  # an exchange puts nothing on the board
    assert page.eval_on_selector_all(
        "#terms tr[data-term]", "rows => rows.map(r => r.dataset.term)"
    ) == ["leave", "equity"]
