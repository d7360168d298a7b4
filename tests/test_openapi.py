"""The OpenAPI schema states the real constraints, and a bounded, seeded
schemathesis run against the real gateway and worker finds no server error
and no answer outside the schema (issue 9, row 11)."""

from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tooling.services import free_port, running, start_service

# checks: no 5xx, documented statuses, content types and bodies, and every
# request the schema forbids refused (the schema is not looser than the server)
CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance,negative_data_rejection"
)
EXAMPLES_PER_OPERATION = 300


@pytest.fixture(scope="module")
def pair() -> Iterator[str]:
    """A gateway with a running worker (compact-numba answers, not 503)."""
    with running("scrabble.worker.app:app") as worker:
        port = free_port()
        gateway = start_service("scrabble.gateway.app:app", port, env={"WORKER_URL": worker})
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            gateway.terminate()
            gateway.wait(timeout=30)


def test_schema_states_the_real_constraints(gateway_url):
    spec = httpx.get(gateway_url + "/openapi.json").json()
    request = spec["components"]["schemas"]["MoveRequest"]
    props = request["properties"]
    board = props["board"]["anyOf"][0]
    assert (board["minItems"], board["maxItems"]) == (15, 15)
    assert board["items"]["pattern"] == "^[.A-Za-z]{15}$"
    assert props["rack"]["anyOf"][0]["pattern"] == "^[A-Z?]{1,7}$"
    assert props["cgp"]["anyOf"][0]["maxLength"] == 2000
    assert props["limit"] == {**props["limit"], "type": "integer", "minimum": 1, "maximum": 10000}
    assert props["heuristics"]["type"] == "boolean"
    assert [set(branch["required"]) for branch in request["oneOf"]] == [{"cgp"}, {"board", "rack"}]
    assert request["additionalProperties"] is False
    errors = spec["paths"]["/scrabble-api"]["post"]["responses"]
    for status in ("400", "413", "422", "503"):
        ref = errors[status]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ErrorResponse"), status


# (cgp, the grammar says) -- the validator must agree: tested over HTTP below
GRAMMAR = [
    ("15/" * 14 + "15 AEINRST/ 0/0 0 lex sowpods;", True),
    ("15/" * 14 + "15 AEINRST", True),
    ("15/" * 14 + "15 AEINRST/EEE 10/-5", True),
    ("15/" * 14 + "15 AEINRST/ 0/0 0 lex sowpods", False),  # opcode without ';'
    ("15/" * 14 + "15 aeinrst/ 0/0 0", False),
    ("15/" * 14 + "15 AEINRST/ 0/0 0 lm 8H QI; lex sowpods;", True),
    ("15/" * 14 + "15 AEINRST/ 0/0 0 note two words; lex sowpods;", False),  # not a CGP opcode
    ("15/" * 14 + "15 AEI NRST/ 0/0 0", False),  # a rack holds no space
    ("15/" * 14 + "15 AEINRST/ 123456/0 0", False),
]


@pytest.mark.parametrize(("cgp", "valid"), GRAMMAR)
def test_cgp_pattern_and_validator_agree(gateway_url, cgp, valid):
    spec = httpx.get(gateway_url + "/openapi.json").json()
    pattern = spec["components"]["schemas"]["MoveRequest"]["properties"]["cgp"]["anyOf"][0]
    assert bool(re.search(pattern["pattern"], cgp)) == valid
    r = httpx.post(gateway_url + "/scrabble-api", json={"cgp": cgp, "limit": 1}, timeout=30)
    assert (r.status_code == 200) == valid, r.text[:300]


def test_schemathesis_finds_no_server_error_and_no_schema_violation(pair, tmp_path: Path):
    har = tmp_path / "run.har"
    # a body over the gateway's size limit is refused with 413 before it is
    # read: a rejection too, which schemathesis does not count by default
    (tmp_path / "schemathesis.toml").write_text(
        "[checks.negative_data_rejection]\n"
        'expected-statuses = ["400", "404", "405", "413", "415", "422", "431"]\n'
    )
    run = subprocess.run(
        [
            str(Path(sys.executable).with_name("schemathesis")),
            "run",
            pair + "/openapi.json",
            "--max-examples",
            str(EXAMPLES_PER_OPERATION),
            "--generation-deterministic",  # the same cases every run
            "--checks",
            CHECKS,
            "--workers",
            "1",
            "--request-timeout",
            "60",
            "--report",
            "har",
            "--report-har-path",
            str(har),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,  # its cache directory (.schemathesis) goes there, not in the tree
    )
    # the report with long lines (generated bodies) cut, so each failure's
    # operation and check stay readable
    report = "\n".join(line[:300] for line in run.stdout.splitlines())
    assert run.returncode == 0, report[report.find("FAILURES") :][:6000] + run.stderr[-2000:]
    entries = json.loads(har.read_text())["log"]["entries"]
    statuses = collections.Counter(
        e["response"]["status"] for e in entries if e["request"]["url"].endswith("/scrabble-api")
    )
    assert not [s for s in statuses if s >= 500], statuses
    # the constraints in the schema let the generator reach the engines
    assert statuses[200] >= 50, statuses
