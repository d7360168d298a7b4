"""Hostile requests against the real gateway over loopback (issue 9's table).

Each case is one row: what is sent, the status, the field the answer names and
words its message holds. Every answer, whatever went wrong, is the one error
shape ``{error, detail: [{field, message}]}`` and carries CORS headers.
"""

from __future__ import annotations

import json

import httpx
import pytest

from tooling.services import running

EMPTY = ["." * 15] * 15
ORIGIN = {"origin": "https://example.org"}
CGP_TAIL = " AEINRST/ 0/0 0"


def cgp_with_first_row(row: str) -> str:
    return row + "/15" * 14 + CGP_TAIL


def deep(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


# (id, method, path, body bytes or JSON value, extra headers, status, field, words)
CASES = [
    # row 1: a run of empty squares is checked against the row before it is built
    ("cgp-billion-run", "POST", "/scrabble-api", {"cgp": cgp_with_first_row("1000000000")},
     {}, 422, "cgp", "row 0 has more than 15 cells"),
    ("cgp-20-digit-run", "POST", "/scrabble-api", {"cgp": cgp_with_first_row("9" * 20)},
     {}, 422, "cgp", "row 0 has more than 15 cells"),
    ("cgp-run-after-letters", "POST", "/scrabble-api", {"cgp": cgp_with_first_row("AB99")},
     {}, 422, "cgp", "row 0 has more than 15 cells"),
    ("cgp-issue-repro", "POST", "/scrabble-api",
     {"cgp": "1000000000/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0"},
     {}, 422, "cgp", "more than 15 cells"),
    # row 10: a non-ASCII digit is named as what it is, not as int()'s complaint
    ("cgp-superscript-two", "POST", "/scrabble-api", {"cgp": cgp_with_first_row("1²")},
     {}, 422, "cgp", "'²' is not a letter"),
    ("cgp-huge-scores", "POST", "/scrabble-api",
     {"cgp": "15/" * 14 + "15 AB/ " + "9" * 30 + "/0 0"}, {}, 422, "cgp", "scores"),
    # row 13: the opponent's rack is validated like the mover's
    ("cgp-opponent-markup", "POST", "/scrabble-api",
     {"cgp": "15/" * 14 + "15 AEINRST/<img_src=x_onerror=alert(1)> 0/0 0"},
     {}, 422, "cgp", "opponent rack"),
    ("cgp-opponent-too-long", "POST", "/scrabble-api",
     {"cgp": "15/" * 14 + "15 AEINRST/ABCDEFGH 0/0 0"}, {}, 422, "cgp", "opponent rack"),
    ("cgp-opponent-supply", "POST", "/scrabble-api",
     {"cgp": "Z14/" + "15/" * 13 + "15 AEINRST/Z 0/0 0"}, {}, 422, "cgp", "2 Z tiles"),
    # row 14: no coercion of strings, booleans or floats
    ("limit-as-string", "POST", "/scrabble-api", {"board": EMPTY, "rack": "AB", "limit": "20"},
     {}, 422, "limit", "valid integer"),
    ("limit-as-true", "POST", "/scrabble-api", {"board": EMPTY, "rack": "AB", "limit": True},
     {}, 422, "limit", "valid integer"),
    ("limit-as-float", "POST", "/scrabble-api", b'{"board": ' + json.dumps(EMPTY).encode()
     + b', "rack": "AB", "limit": 1e2}', {}, 422, "limit", "valid integer"),
    ("heuristics-yes", "POST", "/scrabble-api",
     {"board": EMPTY, "rack": "AB", "heuristics": "yes"}, {}, 422, "heuristics", "valid boolean"),
    ("adversarial-one", "POST", "/scrabble-api",
     {"board": EMPTY, "rack": "AB", "adversarial": 1}, {}, 422, "adversarial", "valid boolean"),
    ("budget-as-string", "POST", "/scrabble-api",
     {"board": EMPTY, "rack": "AB", "budget_ms": "300"}, {}, 422, "budget_ms", "valid number"),
    # row 14: UTF-16 and UTF-32 are refused the same way by both services
    ("utf16-bom", "POST", "/scrabble-api",
     json.dumps({"board": EMPTY, "rack": "QI"}).encode("utf-16"), {}, 400, "body", "UTF-8"),
    ("utf16-no-bom", "POST", "/scrabble-api",
     json.dumps({"board": EMPTY, "rack": "QI"}).encode("utf-16-le"), {}, 400, "body", "UTF-8"),
    ("utf32", "POST", "/scrabble-api",
     json.dumps({"board": EMPTY, "rack": "QI"}).encode("utf-32"), {}, 400, "body", "UTF-8"),
    # row 8: every error in the one shape
    ("invalid-utf8", "POST", "/scrabble-api", b'{"rack": "\xff\xfe"}', {}, 400, "body", "UTF-8"),
    ("deep-nesting", "POST", "/scrabble-api", deep(5000), {}, 400, "body", "nested"),
    ("not-found", "GET", "/no-such-page", None, {}, 404, "path", "/no-such-page"),
    ("static-not-found", "GET", "/static/nothing.js", None, {}, 404, "path", "nothing.js"),
    ("wrong-method", "GET", "/scrabble-api", None, {}, 405, "method", "POST"),
    ("wrong-method-put", "PUT", "/scrabble-api", {}, {}, 405, "method", "POST"),
    ("chunked-too-large", "POST", "/scrabble-api", "chunked", {}, 413, "body", "65536 bytes"),
    ("length-too-large", "POST", "/scrabble-api", b" " * 70000, {}, 413, "body", "65536 bytes"),
]  # fmt: skip


def _content(body: object) -> bytes | object:
    if body == "chunked":  # a generator makes httpx send Transfer-Encoding: chunked
        return (b"{" + b" " * 1000 for _ in range(80))
    return body


@pytest.mark.parametrize(
    ("method", "path", "body", "headers", "status", "field", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_hostile_request_gets_a_clear_answer_in_the_one_shape(
    gateway_url, method, path, body, headers, status, field, words
):
    kw: dict[str, object] = {"headers": {**ORIGIN, **headers}, "timeout": 30}
    if isinstance(body, (dict, list)):
        kw["json"] = body
    elif body is not None:
        kw["content"] = _content(body)
    r = httpx.request(method, gateway_url + path, **kw)  # type: ignore[arg-type]
    assert r.status_code == status, r.text[:500]
    assert r.headers["content-type"].startswith("application/json")
    assert r.headers.get("access-control-allow-origin") in ("*", ORIGIN["origin"])
    answer = r.json()
    assert set(answer) == {"error", "detail"}, answer
    assert isinstance(answer["error"], str) and answer["error"]
    assert any(d["field"] == field and words in d["message"] for d in answer["detail"]), answer
    assert all(set(d) == {"field", "message"} for d in answer["detail"])


def test_a_valid_opponent_rack_is_echoed_in_canonical_form(gateway_url):
    body = {"cgp": "15/" * 14 + "15 AEINRST/TSRNIEA 0/0 0", "limit": 1}
    r = httpx.post(gateway_url + "/scrabble-api", json=body, timeout=30)
    assert r.status_code == 200, r.text
    assert r.json()["cgp"].startswith("15/" * 14 + "15 AEINRST/AEINRST 0/0 0")


def test_a_utf8_bom_is_read_like_plain_utf8(gateway_url):
    raw = b"\xef\xbb\xbf" + json.dumps({"board": EMPTY, "rack": "QI"}).encode()
    r = httpx.post(gateway_url + "/scrabble-api", content=raw, timeout=30)
    assert r.status_code == 200, r.text
    assert r.json()["moves"][0]["word"] == "QI"


def test_health_and_errors_never_show_the_workers_address(gateway_url):
    # the session gateway's worker is not running: compact-numba answers 503
    body = {"board": EMPTY, "rack": "QI", "engine": "compact-numba"}
    down = httpx.post(gateway_url + "/scrabble-api", json=body, timeout=30)
    assert down.status_code == 503
    health = httpx.get(gateway_url + "/health", timeout=30)
    for text in (down.text, health.text):
        assert "127.0.0.1" not in text and "8001" not in text and "http://" not in text, text
    assert down.json()["detail"][0]["field"] == "engine"
    assert health.json()["worker"]["status"] == "down"


@pytest.fixture(scope="module")
def worker_url():
    with running("scrabble.worker.app:app") as url:
        yield url


QI = {"board": EMPTY, "rack": "QI"}
# (id, body bytes, status both services give)
ENCODINGS = [
    ("utf8", json.dumps(QI).encode(), 200),
    ("utf8-bom", b"\xef\xbb\xbf" + json.dumps(QI).encode(), 200),
    ("utf16-bom", json.dumps(QI).encode("utf-16"), 400),
    ("utf16-be", json.dumps(QI).encode("utf-16-be"), 400),
    ("utf32", json.dumps(QI).encode("utf-32"), 400),
    (
        "latin1",
        json.dumps({"board": EMPTY, "rack": "é"}, ensure_ascii=False).encode("latin-1"),
        400,
    ),
    ("deep", deep(100), 400),
]


@pytest.mark.parametrize(
    ("raw", "status"), [c[1:] for c in ENCODINGS], ids=[c[0] for c in ENCODINGS]
)
def test_gateway_and_worker_read_bodies_alike(gateway_url, worker_url, raw, status):
    public = httpx.post(gateway_url + "/scrabble-api", content=raw, timeout=30)
    internal = httpx.post(worker_url + "/candidates", content=raw, timeout=30)
    assert public.status_code == internal.status_code == status, (public.text, internal.text)
    if status != 200:
        assert public.json()["detail"] == internal.json()["detail"]


def test_worker_errors_are_in_the_one_shape(worker_url):
    for method, path, status in (("GET", "/nothing", 404), ("GET", "/candidates", 405)):
        r = httpx.request(method, worker_url + path)
        assert r.status_code == status
        assert set(r.json()) == {"error", "detail"} and r.json()["detail"][0]["field"]
