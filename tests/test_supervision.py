"""``./scripts/serve`` under a real supervisor (issue 9, row 2): the worker
and then the gateway killed with SIGKILL while a caller loops trie requests;
each is restarted, the other keeps serving, and the log says what died and
when it came back."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tooling.services import ROOT, free_port

EMPTY = ["." * 15] * 15
TRIE = {"board": EMPTY, "rack": "AEINRST", "limit": 20}
COMPACT = {**TRIE, "engine": "compact-numba"}


class Serve:
    def __init__(self) -> None:
        self.gateway = f"http://127.0.0.1:{free_port()}"
        self.worker_port = free_port()
        env = {
            **os.environ,
            "GATEWAY_PORT": self.gateway.rsplit(":", 1)[1],
            "WORKER_PORT": str(self.worker_port),
            "GATEWAY_PROCESSES": "1",  # the lanes are not under test here: a smaller gateway
        }
        env.pop("WORKER_URL", None)
        self.proc = subprocess.Popen(
            [str(ROOT / "scripts" / "serve")],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group, ended as one below
        )
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            if line.startswith("ready:"):
                self.ready.set()

    def log(self) -> str:
        return "\n".join(self.lines)

    def pid_of(self, service: str) -> int:
        """The supervised service's pid, from supervisord's own log line."""
        spawned = [x for x in self.lines if f"spawned: '{service}' with pid" in x]
        return int(spawned[-1].rsplit(" ", 1)[1])

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.reader.join(timeout=30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return int(self.proc.returncode)


@pytest.fixture(scope="module")
def serve() -> Iterator[Serve]:
    running = Serve()
    try:
        assert running.ready.wait(timeout=300), running.log()
        yield running
    finally:
        running.stop()


def wait_for(predicate, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def answers(url: str, body: dict) -> bool:
    try:
        return httpx.post(url + "/scrabble-api", json=body, timeout=10).status_code == 200
    except httpx.HTTPError:
        return False


def test_a_killed_worker_is_restarted_and_trie_requests_never_fail(serve):
    assert answers(serve.gateway, COMPACT)
    outcomes: list[str] = []
    stop = threading.Event()

    def loop_trie() -> None:
        with httpx.Client(timeout=10) as client:
            while not stop.is_set():
                try:
                    r = client.post(serve.gateway + "/scrabble-api", json=TRIE)
                    outcomes.append(str(r.status_code))
                except httpx.HTTPError as exc:
                    outcomes.append(type(exc).__name__)

    caller = threading.Thread(target=loop_trie)
    caller.start()
    try:
        wait_for(lambda: len(outcomes) > 20)
        old = serve.pid_of("worker")
        os.kill(old, signal.SIGKILL)
        wait_for(lambda: any("exited: worker (terminated by SIGKILL" in x for x in serve.lines))
        wait_for(lambda: serve.pid_of("worker") != old)
        wait_for(lambda: answers(serve.gateway, COMPACT))  # compact-numba is back
        count = len(outcomes)
        wait_for(lambda: len(outcomes) > count + 20)
    finally:
        stop.set()
        caller.join(timeout=30)
    assert set(outcomes) == {"200"}, {o: outcomes.count(o) for o in set(outcomes)}
    assert "exited: worker (terminated by SIGKILL; not expected)" in serve.log()

    def after_kill() -> str:
        return serve.log().split("exited: worker", 1)[1]

    # supervisord says RUNNING only once the new worker has lived ``startsecs``,
    # which can be after the worker already answers the 20 requests above
    wait_for(lambda: "success: worker entered RUNNING state" in after_kill())
    assert "spawned: 'worker'" in after_kill()
    assert "ready: table loaded" in after_kill()  # the worker's own word that it serves again


def test_a_killed_gateway_is_restarted_while_the_worker_serves(serve):
    worker = f"http://127.0.0.1:{serve.worker_port}"
    old = serve.pid_of("gateway")
    os.kill(old, signal.SIGKILL)
    wait_for(lambda: any("exited: gateway (terminated by SIGKILL" in x for x in serve.lines))
    assert httpx.get(worker + "/health", timeout=10).status_code == 200  # untouched
    wait_for(lambda: answers(serve.gateway, TRIE))
    assert serve.pid_of("gateway") != old
    assert "success: gateway entered RUNNING state" in serve.log().split("exited: gateway", 1)[1]


def test_serve_stops_gracefully_on_sigterm(serve):
    code = serve.stop()
    assert code == 0
    log = serve.log()
    assert "stopped: gateway (exit status 0)" in log
    assert "stopped: worker (exit status 0)" in log
