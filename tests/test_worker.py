"""The worker as a real process over HTTP, and compact-numba through a real gateway."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrabble.engines.compact.client import WorkerClient, WorkerUnavailable
from scrabble.engines.compact.engine import CompactNumbaEngine
from scrabble.engines.registry import ENGINES
from scrabble.engines.span import plan
from scrabble.engines.span_engine import finish
from scrabble.engines.trie_engine import TrieEngine
from scrabble.position import make_position
from tooling.golden import golden_positions
from tooling.services import ROOT, free_port, running, start_service

EMPTY = ["." * 15] * 15
POSITIONS = {p["id"]: p for p in golden_positions()}
VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.text(max_size=8)
    | st.lists(st.integers(0, 3), max_size=3)
)
# rows mostly of the right length, so that some requests reach the engine
BOARDS = (
    st.lists(
        st.text(alphabet="..........ABQZ?a#", min_size=14, max_size=16), min_size=14, max_size=16
    )
    | VALUES
)
RACKS = st.text(alphabet="AEQZ??a1 ", max_size=9) | VALUES


@pytest.fixture(scope="module")
def worker_url():
    with running("scrabble.worker.app:app") as url:
        yield url


def candidates(url: str, board, rack) -> httpx.Response:
    return httpx.post(url + "/candidates", json={"board": board, "rack": rack}, timeout=30)


def sorted_rows(moves):
    return sorted(
        tuple(moves.meta[i].tolist()) + tuple(moves.words[i].tolist()) for i in range(len(moves))
    )


def test_health_reports_the_table(worker_url):
    body = httpx.get(worker_url + "/health").json()
    assert body["status"] == "ok" and body["backend"] == "numba-fnv1a"
    assert body["signatures"] == 237739
    assert body["lexicon"]["words"] == 267751
    assert 0 < body["table_bytes"] < 16 * 2**20
    assert body["capacity"] & (body["capacity"] - 1) == 0
    assert body["startup_ms"] > 0
    if body["ready_since_process_start_ms"] is not None:  # imports come on top
        assert body["ready_since_process_start_ms"] >= body["startup_ms"] - 10


@pytest.mark.parametrize("pid", ["g01", "g12", "g26", "g33"])
def test_candidates_make_exactly_the_trie_moves(worker_url, lexicon, pid):
    p = POSITIONS[pid]
    body = candidates(worker_url, p["board"], p["rack"]).json()
    position = make_position(p["board"], p["rack"])
    trie = TrieEngine(lexicon).generate(position)
    main_words = {
        "".join(chr(64 + (c & 31)) for c in trie.words[i, : trie.meta[i, 3]])
        for i in range(len(trie))
    }
    assert main_words <= set(body["words"])
    assert all(lexicon.contains(w) for w in body["words"][:2000])
    assert body["hash_hits"] <= body["hash_lookups"] <= body["signatures_built"]
    view = position.view(lexicon.trie)
    moves = finish(position, view, plan(view, position.rack, signatures=False), body["words"], {})
    assert sorted_rows(moves) == sorted_rows(trie)


def test_repeat_is_a_cache_hit(worker_url):
    first = candidates(worker_url, EMPTY, "DEQSUIR").json()
    again = candidates(worker_url, EMPTY, "DEQSUIR").json()
    assert not first["cache_hit"] and again["cache_hit"]
    assert again["words"] == first["words"]
    assert candidates(worker_url, EMPTY, "QUIRSED").json()["cache_hit"]  # same tiles


def test_blank_free_opening_looks_up_each_rack_subset_once(worker_url):
    body = candidates(worker_url, EMPTY, "AEINRST").json()
    assert body["hash_lookups"] == 120  # C(7, k) for k = 2..7: one length per k
    # the table is half empty: probe chains stay short (speed: bench_engines.py)
    assert body["hash_probes"] < 2 * body["hash_lookups"]


@pytest.mark.parametrize(
    ("board", "rack"), [(EMPTY, "AEINR??"), (POSITIONS["g33"]["board"], "AERTS??")]
)
def test_two_blanks_on_a_full_rack_expand_only_allowed_letters(worker_url, board, rack):
    body = candidates(worker_url, board, rack).json()
    assert not body["cache_hit"]
    # 5 letters and two blanks over 26 letters: at most 2^5 subsets x C(27, 2) pairs
    # per span; the de-duplication keeps the look-ups far below what was built
    assert body["hash_lookups"] <= body["signatures_built"]
    assert len(body["words"]) > 1000


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"board": EMPTY[:14], "rack": "AB"}, "board"),
        ({"board": EMPTY[:7] + ["." * 14] + EMPTY[8:], "rack": "AB"}, "board[7]"),
        ({"board": EMPTY, "rack": "ABCDEFGH"}, "rack"),
        ({"board": EMPTY, "rack": "ZZ"}, "rack"),
        ({"board": EMPTY, "rack": "ab"}, "rack"),
        ({"board": EMPTY}, "rack"),
    ],
)
def test_bad_input_is_4xx_naming_the_field(worker_url, body, field):
    r = httpx.post(worker_url + "/candidates", json=body)
    assert r.status_code == 422
    assert field in [d["field"] for d in r.json()["detail"]], r.json()


@pytest.mark.parametrize(
    ("raw", "status", "field", "message"),
    [
        (b'{"board": [', 400, "body", "malformed JSON"),
        (b"", 422, "body", "required"),
        (b'["not", "an", "object"]', 422, "body", ""),
        (b'{"board": 5, "rack": "AB"}', 422, "board", "valid"),
        (b'{"board": [], "rack": "AB", "extra": 1}', 422, "extra", "unknown field"),
    ],
)
def test_raw_bodies_get_the_gateway_s_4xx(worker_url, raw, status, field, message):
    r = httpx.post(
        worker_url + "/candidates", content=raw, headers={"content-type": "application/json"}
    )
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert any(d["field"] == field and message in d["message"] for d in detail), detail


def test_unloadable_table_keeps_health_at_503(tmp_path):
    port = free_port()
    env = {**os.environ, "LEXICON_DB": str(tmp_path / "missing.sqlite")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "scrabble.worker.app:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(url + "/health", timeout=1)
                if r.json()["status"] == "error":
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert r.status_code == 503 and "missing.sqlite" in r.json()["error"]
        assert candidates(url, EMPTY, "AB").status_code == 503
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_gateway_compact_numba_survives_the_worker_dying():
    """One worker, killed once and started once again, under one gateway."""
    worker_port = free_port()
    worker_url = f"http://127.0.0.1:{worker_port}"
    worker = start_service("scrabble.worker.app:app", worker_port)
    gateway_port = free_port()
    gateway = start_service(
        "scrabble.gateway.app:app", gateway_port, env={"WORKER_URL": worker_url}
    )
    api = f"http://127.0.0.1:{gateway_port}"
    p = POSITIONS["g29"]
    request = {"board": p["board"], "rack": p["rack"], "limit": 10000}

    def ask(engine: str) -> httpx.Response:
        return httpx.post(api + "/scrabble-api", json={**request, "engine": engine}, timeout=30)

    try:
        health = httpx.get(api + "/health").json()
        assert health["worker"]["status"] == "ok"
        via_worker = ask("compact-numba")
        assert via_worker.status_code == 200
        body = via_worker.json()
        assert body["moves"] == ask("trie").json()["moves"]
        stats = body["stats"]
        assert set(ENGINES["compact-numba"].stats) <= set(stats)
        # every engine's own figures reach the response, the same look-ups for all
        for name, spec in ENGINES.items():
            if spec.lookup is None:
                continue
            other = ask(name).json()
            assert other["moves"] == body["moves"], name
            assert set(spec.stats) <= set(other["stats"]), name
            assert other["stats"]["lookups"] == stats["lookups"], name

        worker.kill()  # mid-run, no goodbye
        worker.wait(timeout=10)
        down = ask("compact-numba")
        assert down.status_code == 503
        assert "worker" in down.json()["error"]
        assert "down" in down.json()["detail"][0]["message"]
        assert ask("memory-hash").status_code == 200  # the other engines carry on
        assert httpx.get(api + "/health").json()["worker"]["status"] == "down"

        worker = start_service("scrabble.worker.app:app", worker_port)  # same gateway, no restart
        back = ask("compact-numba")
        assert back.status_code == 200
        assert back.json()["moves"] == body["moves"]
    finally:
        for proc in (worker, gateway):
            proc.kill()
            proc.wait(timeout=10)


def test_a_worker_serving_another_lexicon_is_not_trusted(lexicon, tmp_path):
    import asyncio

    from scrabble.lexicon.store import write_database
    from scrabble.lexicon.wordlist import WordList

    tiny = tmp_path / "tiny.sqlite"
    write_database(WordList(name="tiny", words=["AA", "QI", "ZA"], sha256="0" * 64), tiny)
    position = make_position(POSITIONS["g29"]["board"], POSITIONS["g29"]["rack"])

    async def ask(url: str) -> None:
        client = WorkerClient(url)
        try:
            await CompactNumbaEngine(lexicon, client).generate(position)
        finally:
            await client.aclose()

    with running("scrabble.worker.app:app", env={"LEXICON_DB": str(tiny)}) as url:
        with pytest.raises(WorkerUnavailable, match="another lexicon"):
            asyncio.run(ask(url))


def test_client_names_why_the_worker_cannot_answer(worker_url):
    import asyncio

    board = POSITIONS["g33"]["board"]

    async def ask(client: WorkerClient, rack: str) -> dict:
        try:
            return await client.candidates(make_position(board, rack))
        finally:
            await client.aclose()

    # slow: two blanks on a midgame board take tens of ms (160k look-ups), the
    # read timeout is 1 ms; the rack is one no other test asks for (no cache hit)
    with pytest.raises(WorkerUnavailable, match="did not answer within"):
        asyncio.run(ask(WorkerClient(worker_url, read_timeout=0.001), "AEIRT??"))
    # down: nothing listens on a fresh port
    with pytest.raises(WorkerUnavailable, match="down"):
        asyncio.run(ask(WorkerClient(f"http://127.0.0.1:{free_port()}"), "AB"))
    # and a client with sane timeouts gets the answer
    body = asyncio.run(ask(WorkerClient(worker_url), "AEIRT??"))
    assert body["hash_lookups"] > 100000


def test_oversized_bodies_and_wrong_methods_are_refused(worker_url):
    big = b'{"board": ["' + b"." * 70000 + b'"], "rack": "AB"}'
    r = httpx.post(
        worker_url + "/candidates", content=big, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["detail"][0]["field"] == "body"
    assert httpx.get(worker_url + "/candidates").status_code == 405
    # and the worker is unharmed
    assert candidates(worker_url, EMPTY, "QI").status_code == 200


def test_openapi_documents_candidates_from_its_model(worker_url):
    schema = httpx.get(worker_url + "/openapi.json").json()
    body = schema["paths"]["/candidates"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["$ref"].endswith("/CandidatesRequest")
    model = schema["components"]["schemas"]["CandidatesRequest"]
    assert set(model["required"]) == {"board", "rack"}
    assert "/health" in schema["paths"]


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=st.fixed_dictionaries({}, optional={"board": BOARDS, "rack": RACKS, "extra": VALUES}))
def test_no_server_errors_from_any_json(worker_url, body):
    r = httpx.post(worker_url + "/candidates", content=json.dumps(body), timeout=60)
    assert r.status_code in (200, 422), (r.status_code, r.text[:300])
    if r.status_code == 422:
        assert all(d["field"] and d["message"] for d in r.json()["detail"])


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(raw=st.binary(max_size=300))
def test_garbage_bytes_are_4xx(worker_url, raw):
    r = httpx.post(worker_url + "/candidates", content=raw, timeout=60)
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
