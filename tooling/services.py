"""Real service processes on loopback, for tests and benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# the services as ./scripts/serve runs them: python -m <service>, with its limits
SERVICES = {
    "scrabble.gateway.app:app": "scrabble.gateway",
    "scrabble.worker.app:app": "scrabble.worker",
}


def service_command(app: str, port: int) -> list[str]:
    if app in SERVICES:
        return [sys.executable, "-m", SERVICES[app], "--host", "127.0.0.1", "--port", str(port)]
    return [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port)]


def start_service(
    app: str, port: int, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start a real service process on loopback and wait until /health says 200."""
    proc = subprocess.Popen(
        service_command(app, port),
        cwd=ROOT,
        env={"LOG_LEVEL": "warning", **os.environ, **(env or {})},
    )
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
