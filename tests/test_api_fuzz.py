"""Nothing a caller sends makes the gateway answer 5xx (real HTTP, seeded)."""

from __future__ import annotations

import json

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROW = st.text(alphabet=".ABCXYZaqz?#é 1", min_size=0, max_size=17)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
BODIES = st.fixed_dictionaries(
    {},
    optional={
        "board": st.lists(ROW, min_size=0, max_size=16) | VALUES,
        "rack": st.text(alphabet="AEQZ?a1 ", max_size=9) | VALUES,
        "cgp": st.text(alphabet="0123456789/ ABZ?;lex", max_size=60) | VALUES,
        "limit": st.integers(-5, 20000) | VALUES,
        "engine": st.sampled_from(["trie", "memory-hash", "sqlite-hash", "prime-product", "x"])
        | VALUES,
        "heuristics": VALUES,
        "adversarial": VALUES,
    },
)


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(body=BODIES)
def test_no_server_errors(gateway_url, body):
    r = httpx.post(gateway_url + "/scrabble-api", content=json.dumps(body), timeout=60)
    assert r.status_code < 500 or r.status_code in (501, 503), (r.status_code, r.text[:300])
    if r.status_code >= 400:
        detail = r.json()["detail"]
        assert detail and all(d["field"] and d["message"] for d in detail)


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(raw=st.binary(max_size=300))
def test_garbage_bytes_are_4xx(gateway_url, raw):
    r = httpx.post(gateway_url + "/scrabble-api", content=raw, timeout=60)
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
