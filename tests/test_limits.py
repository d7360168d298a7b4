"""Limits and timeouts on real sockets (issue 9, rows 4, 5 and 9): a gateway
started with tight limits, spoken to byte by byte over loopback."""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tooling.golden import golden_positions
from tooling.services import free_port, start_service

EMPTY = ["." * 15] * 15
TIGHT = {
    "GATEWAY_MAX_HEADER_BYTES": "8192",
    "GATEWAY_REQUEST_TIMEOUT": "1",
    "GATEWAY_KEEPALIVE_TIMEOUT": "1",
    "GATEWAY_MAX_CONNECTIONS": "16",
    "GATEWAY_SEND_TIMEOUT": "1",
}
WAIT = 6.0  # seconds a test waits for the server to act on a 1 s limit


@pytest.fixture(scope="module")
def tight() -> Iterator[tuple[int, int]]:
    """(port, pid) of a gateway with tight limits."""
    port = free_port()
    proc = start_service("scrabble.gateway.app:app", port, env=TIGHT)
    try:
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def connect(port: int, rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", port))
    sock.settimeout(WAIT)
    return sock


def read_all(sock: socket.socket) -> tuple[bytes, str]:
    """Everything until the server closes: (bytes, how it ended)."""
    out = bytearray()
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except ConnectionResetError:
        return bytes(out), "reset"
    except TimeoutError:
        return bytes(out), "still open"
    return bytes(out), "closed"


def status_and_body(raw: bytes) -> tuple[int, dict]:
    head, _, body = raw.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body)


def request_bytes(body: dict, extra: bytes = b"") -> bytes:
    payload = json.dumps(body).encode()
    return (
        b"POST /scrabble-api HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n"
        + extra
        + b"content-length: "
        + str(len(payload)).encode()
        + b"\r\n\r\n"
        + payload
    )


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


# (id, bytes sent, status, field) for requests refused before the app runs
REFUSED = [
    ("header-over-cap", b"GET /health HTTP/1.1\r\nhost: t\r\nx-big: " + b"a" * 20000 + b"\r\n\r\n",
     431, "headers"),
    ("many-headers", b"GET /health HTTP/1.1\r\n" + b"x-h: 12345678\r\n" * 1000 + b"\r\n",
     431, "headers"),
    ("url-over-cap", b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nhost: t\r\n\r\n", 431, "headers"),
    ("headers-never-end", b"POST /scrabble-api HTTP/1.1\r\nhost: t\r\ncontent-length: 10\r\n",
     408, "request"),
    ("body-never-ends", b"POST /scrabble-api HTTP/1.1\r\nhost: t\r\ncontent-length: 100\r\n\r\n{",
     408, "request"),
    ("nothing-sent", b"", 408, "request"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("sent", "status", "field"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED]
)
def test_refused_before_the_app_in_the_one_shape(tight, sent, status, field):
    port, _ = tight
    with connect(port) as sock:
        sock.sendall(sent)
        raw, ended = read_all(sock)
    assert ended == "closed", (ended, raw[:200])
    got, body = status_and_body(raw)
    assert got == status
    assert set(body) == {"error", "detail"} and body["detail"][0]["field"] == field
    assert b"access-control-allow-origin: *" in raw.lower()


def test_a_huge_header_is_not_read_to_its_end(tight):
    """32 MB of one header: the server stops reading it (the sender is cut
    off) and keeps serving others meanwhile."""
    port, _ = tight
    outcome: dict[str, object] = {}

    def flood() -> None:
        with connect(port) as sock:
            try:
                sock.sendall(b"GET / HTTP/1.1\r\nx-big: " + b"b" * (32 << 20))
                outcome["sent"] = "all"
            except OSError as exc:
                outcome["sent"] = type(exc).__name__

    sender = threading.Thread(target=flood)
    sender.start()
    ok = httpx.post(
        f"http://127.0.0.1:{port}/scrabble-api", json={"board": EMPTY, "rack": "QI"}, timeout=30
    )
    sender.join(timeout=30)
    assert ok.status_code == 200
    assert not sender.is_alive() and outcome["sent"] in ("BrokenPipeError", "ConnectionResetError")


def test_idle_keep_alive_connections_are_closed(tight):
    port, _ = tight
    with connect(port) as sock:
        sock.sendall(request_bytes({"board": EMPTY, "rack": "QI", "limit": 1}))
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        rest, ended = read_all(sock)
    assert ended == "closed" and time.monotonic() - started < WAIT - 1


def test_connections_over_the_cap_get_503_then_service_resumes(tight):
    port, _ = tight
    idle = [connect(port) for _ in range(20)]
    try:
        with connect(port) as sock:
            sock.sendall(request_bytes({"board": EMPTY, "rack": "QI"}))
            raw, _ = read_all(sock)
        status, body = status_and_body(raw)
        assert status == 503 and body["detail"][0]["field"] == "request"
        assert b"retry-after: 1" in raw.lower()
    finally:
        for sock in idle:
            sock.close()
    deadline = time.monotonic() + WAIT
    while True:  # the server notices the closed sockets on its next loop turn
        r = httpx.post(f"http://127.0.0.1:{port}/scrabble-api", json={"board": EMPTY, "rack": "QI"})
        if r.status_code == 200 or time.monotonic() > deadline:
            break
    assert r.status_code == 200


def wait_until_answered(port: int) -> None:
    """Poll the gateway until no compute process is busy or has a queue."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        lanes = httpx.get(f"http://127.0.0.1:{port}/health", timeout=30).json()["processes"]
        if all(lane["busy"] == 0 and lane["queued"] == 0 for lane in lanes.values()):
            return
        time.sleep(0.1)
    raise AssertionError("the gateway did not finish its work")


def test_callers_that_do_not_read_are_dropped_and_their_memory_freed(tight):
    """Row 9: six callers ask for 10,000 moves of a two-blank position (4 MB
    of JSON each, more than the kernel's socket buffers take) and read
    nothing; after the send timeout the server has dropped them, and its
    memory is back."""
    port, pid = tight
    g27 = next(g for g in golden_positions() if g["id"] == "g27")
    body = {"board": g27["board"], "rack": "??AEIRS", "limit": 10000}
    r = httpx.post(f"http://127.0.0.1:{port}/scrabble-api", json=body, timeout=30)
    size = len(r.content)
    assert size > 4_000_000
    before = rss_mb(pid)
    socks = [connect(port, rcvbuf=4096) for _ in range(6)]
    try:
        for sock in socks:
            sock.sendall(request_bytes(body))
        wait_until_answered(port)
        time.sleep(3.0)  # the behaviour under test: callers that read nothing for 3 s
        after = rss_mb(pid)
        for sock in socks:
            data, ended = read_all(sock)
            assert ended in ("reset", "closed") and len(data) < size, (ended, len(data))
    finally:
        for sock in socks:
            sock.close()
    assert after - before < 50, (before, after)


def test_worker_cache_is_bounded_in_bytes():
    """Row 9: 60 two-blank positions (about 180 KB of words each) through a
    worker whose cache may hold 2 MiB: the cache stays within it, and so
    does the process (the old entry-count cap let them all stay)."""
    boards = [g["board"] for g in golden_positions() if g["board"][7] != "." * 15][:6]
    racks = ["".join(c) + "??" for c in itertools.combinations("AEIRSTN", 5)][:10]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_service("scrabble.worker.app:app", port, env={"WORKER_CACHE_BYTES": str(2 << 20)})
    try:
        before = rss_mb(proc.pid)
        for board, rack in itertools.product(boards, racks):
            r = httpx.post(url + "/candidates", json={"board": board, "rack": rack}, timeout=30)
            assert r.status_code == 200
        health = httpx.get(url + "/health").json()
        after = rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert 0 < health["cache_bytes"] <= 2 << 20
    assert after - before < 30, (before, after)
