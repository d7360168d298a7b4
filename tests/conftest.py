from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from scrabble.lexicon.loaded import Lexicon

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"  # a copy of the shared golden set (tests/golden/README.md)


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    """The real SOWPODS lexicon, loaded once per test process."""
    return Lexicon.load()


def golden_cases() -> list[tuple[dict, dict]]:
    positions = [json.loads(line) for line in (GOLDEN / "positions.jsonl").open()]
    with gzip.open(GOLDEN / "moves.jsonl.gz", "rt") as fh:
        moves = [json.loads(line) for line in fh]
    return list(zip(positions, moves, strict=True))


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_service(app: str, port: int, env: dict[str, str] | None = None):
    """Start a real uvicorn process on loopback and wait until /health says 200."""
    import os
    import subprocess
    import sys
    import time

    import httpx

    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning"],
        cwd=ROOT, env={**os.environ, **(env or {})})
    deadline = time.monotonic() + 300  # a cold Numba cache compiles first
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{app} exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"{app} did not become healthy")


@contextmanager
def running(app: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """A real service process for the duration of the block; yields its URL."""
    port = free_port()
    proc = start_service(app, port, env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def gateway_url():
    """The real gateway in its own process, over HTTP on loopback."""
    with running("gateway.app:app") as url:
        yield url
