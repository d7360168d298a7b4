#!/usr/bin/env python3
"""Load on the real services over loopback, bounded in count and time.

    python scripts/bench_load.py [--seconds 5] [--skip-drills]

For each gateway layout, the single-process one (GATEWAY_PROCESSES=0: all
work on the accepting event loop, as before issue 9) as the baseline and the
default one (compute processes in a quick and a heavy lane), in the same run:

- throughput and p50/p95/p99 latency at concurrency 1, 8 and 32 with a
  realistic mix: 80 % trie limit=20, 10 % heuristics, 5 % adversarial, 5 %
  compact-numba, over the 40 golden positions;
- a cheap request (trie, limit=20, mid-game) timed back to back while one
  client loops the most expensive valid request (two blanks on a mid-game
  board, limit 10000, heuristics, adversarial, rank_by equity, risk averse,
  budget_ms 10000, padded to 64 KiB);
- RSS and PSS of every process (gateway, forkserver, compute processes,
  worker) before and after, and after 50 callers that read nothing.

Then two drills: SIGTERM to the default gateway under load at concurrency 32
(resets counted), and ``./scripts/serve`` with its worker killed (SIGKILL)
while one client loops trie requests (refused or failed ones counted; seconds until
compact-numba answers again). Every phase stops by itself: a time bound
(--seconds) and a request bound (--max-requests) per measurement.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tooling.golden import golden_positions  # noqa: E402
from tooling.services import free_port, start_service  # noqa: E402

POSITIONS = golden_positions()
MIDGAME = [p for p in POSITIONS if any(row != "." * 15 for row in p["board"])]
G27 = next(p for p in POSITIONS if p["id"] == "g27")
EXPENSIVE = {
    "board": G27["board"],
    "rack": "??AEIRS",
    "limit": 10000,
    "heuristics": True,
    "adversarial": True,
    "rank_by": "equity",
    "risk": "averse",
    "budget_ms": 10000,
}
MAX_BODY = 64 * 1024


def request_bytes(body: dict[str, Any], pad_to: int = 0) -> bytes:
    payload = json.dumps(body).encode()
    if pad_to:  # whitespace is valid JSON: the largest body the gateway takes
        payload += b" " * (pad_to - len(payload))
    return (
        b"POST /scrabble-api HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\n"
        b"content-length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload
    )


def mix(seed: int, count: int) -> list[bytes]:
    """The realistic mix, seeded: mostly cheap trie requests."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        p = POSITIONS[int(rng.integers(len(POSITIONS)))]
        body: dict[str, Any] = {"board": p["board"], "rack": p["rack"], "limit": 20}
        kind = rng.random()
        if kind < 0.10:
            body["heuristics"] = True
        elif kind < 0.15:
            body.update(adversarial=True, limit=10)
        elif kind < 0.20:
            body["engine"] = "compact-numba"
        out.append(request_bytes(body))
    return out


CHEAP = [request_bytes({"board": p["board"], "rack": p["rack"], "limit": 20}) for p in MIDGAME]


class Connection:
    """A keep-alive HTTP/1.1 connection: send one request, read one answer."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def ask(self, raw: bytes) -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(raw)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        close = False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
            elif name.lower() == b"connection" and b"close" in value.lower():
                close = True
        await self.reader.readexactly(length)
        if close:
            self.close()
        return status

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def count(self, what: str) -> None:
        self.statuses[what] = self.statuses.get(what, 0) + 1

    def line(self, label: str) -> str:
        ms = np.array(self.latencies) * 1000 if self.latencies else np.zeros(1)
        rate = len(self.latencies) / self.seconds if self.seconds else 0.0
        p50, p95, p99 = np.percentile(ms, [50, 95, 99])
        return (
            f"{label:<34} {rate:8.1f} req/s  p50 {p50:7.1f}  p95 {p95:7.1f}  p99 {p99:7.1f}"
            f"  max {ms.max():7.1f} ms  n={len(self.latencies)} {self.statuses}"
        )


async def load(port: int, concurrency: int, bodies: list[bytes], seconds: float, cap: int) -> Run:
    run = Run()
    deadline = time.perf_counter() + seconds
    sent = 0

    async def client(index: int) -> None:
        nonlocal sent
        conn = Connection(port)
        i = index
        try:
            while time.perf_counter() < deadline and sent < cap:
                sent += 1
                t = time.perf_counter()
                try:
                    status = await conn.ask(bodies[i % len(bodies)])
                except (OSError, asyncio.IncompleteReadError) as exc:
                    run.count(type(exc).__name__)
                    conn.close()
                    continue
                run.latencies.append(time.perf_counter() - t)
                run.count(str(status))
                i += concurrency
        finally:
            conn.close()

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(concurrency)))
    run.seconds = time.perf_counter() - started
    return run


async def cheap_beside_expensive(port: int, seconds: float, cap: int) -> tuple[Run, int]:
    """Cheap requests back to back while one client loops the expensive one."""
    stop = asyncio.Event()
    expensive_done = 0

    async def expensive_loop() -> None:
        nonlocal expensive_done
        conn = Connection(port)
        raw = request_bytes(EXPENSIVE, pad_to=MAX_BODY)
        while not stop.is_set():
            await conn.ask(raw)
            expensive_done += 1
        conn.close()

    looping = asyncio.create_task(expensive_loop())
    await asyncio.sleep(0.5)  # the expensive request is under way
    run = await load(port, 1, CHEAP, seconds, cap)
    stop.set()
    await looping
    return run, expensive_done


def tree(pid: int) -> list[int]:
    out = [pid]
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as fh:
            for child in fh.read().split():
                out.extend(tree(int(child)))
    return out


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of the processes so far."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def memory(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MB."""
    rss = pss = 0.0
    with open(f"/proc/{pid}/smaps_rollup") as fh:
        for line in fh:
            if line.startswith("Rss:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("Pss:"):
                pss = int(line.split()[1]) / 1024
    return rss, pss


def role(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline") as fh:
        cmd = fh.read().replace("\0", " ")
    if "resource_tracker" in cmd:
        return "resource tracker"
    if "forkserver" in cmd:
        with open(f"/proc/{pid}/status") as fh:
            parent = next(int(x.split()[1]) for x in fh if x.startswith("PPid:"))
        with open(f"/proc/{parent}/cmdline") as fh:
            return "compute process" if "forkserver" in fh.read() else "forkserver"
    return "worker" if "-m scrabble.worker" in cmd else "gateway"


def memory_report(pids: list[int]) -> Memory:
    out = {}
    for pid in pids:
        try:
            out[pid] = (role(pid), *memory(pid))
        except OSError:
            pass
    return out


Memory = dict[int, tuple[str, float, float]]


def print_memory(label: str, before: Memory, after: Memory) -> None:
    print(f"  memory {label} (MB, RSS / PSS):")
    for pid, (name, rss, pss) in after.items():
        was = before.get(pid)
        grown = f"  (+{rss - was[1]:.0f} RSS)" if was else "  (new)"
        print(f"    {name:<17} pid {pid:<7} {rss:6.0f} / {pss:6.0f}{grown}")
    total = sum(v[2] for v in after.values())
    print(f"    total PSS {total:.0f}")


async def slow_readers(port: int, count: int, hold: float) -> None:
    """``count`` callers ask for 10,000 moves and read nothing for ``hold`` s."""
    raw = request_bytes({"board": G27["board"], "rack": "??AEIRS", "limit": 10000})
    socks = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=4096)
        writer.transport.set_write_buffer_limits(0)
        writer.write(raw)
        socks.append(writer)
    await asyncio.sleep(hold)
    for writer in socks:
        writer.transport.abort()


@dataclass
class Layout:
    name: str
    env: dict[str, str]
    port: int = 0
    proc: subprocess.Popen[bytes] | None = None
    runs: dict[Any, list[Run]] = field(default_factory=dict)
    memory: list[tuple[str, Memory]] = field(default_factory=list)
    cpu_ms: dict[Any, list[float]] = field(default_factory=dict)  # per request

    def start(self, worker_url: str) -> None:
        self.port = free_port()
        self.proc = start_service(
            "scrabble.gateway.app:app", self.port, {"WORKER_URL": worker_url, **self.env}
        )

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=60)

    def snapshot(self, label: str) -> None:
        assert self.proc is not None
        self.memory.append((label, memory_report(tree(self.proc.pid))))

    def rate(self, key: Any) -> float:
        return float(np.median([len(r.latencies) / r.seconds for r in self.runs[key]]))

    def pooled(self, key: Any) -> Run:
        runs = self.runs[key]
        out = Run(seconds=sum(r.seconds for r in runs))
        for r in runs:
            out.latencies += r.latencies
            for status, n in r.statuses.items():
                out.statuses[status] = out.statuses.get(status, 0) + n
        return out


def measure(layouts: list[Layout], args: argparse.Namespace) -> None:
    """Each measurement alternates the layouts round by round (ABAB...), so
    the load other programs put on the machine weighs on both alike."""
    for layout in layouts:
        layout.snapshot("at start")
    for key in (1, 8, 32, "cheap"):
        for round_ in range(args.rounds):
            for layout in layouts:
                if key == "cheap":
                    run, done = asyncio.run(
                        cheap_beside_expensive(layout.port, args.seconds * 2, args.max_requests)
                    )
                    run.statuses["expensive done"] = done
                else:
                    assert isinstance(key, int) and layout.proc is not None
                    bodies = mix(key * 100 + round_, 2000)
                    pids = tree(layout.proc.pid)
                    cpu = cpu_seconds(pids)
                    run = asyncio.run(
                        load(layout.port, key, bodies, args.seconds, args.max_requests)
                    )
                    spent = cpu_seconds(pids) - cpu
                    layout.cpu_ms.setdefault(key, []).append(1000 * spent / len(run.latencies))
                layout.runs.setdefault(key, []).append(run)
    for layout in layouts:
        layout.snapshot("after the load")
        asyncio.run(slow_readers(layout.port, 50, hold=args.send_timeout + 2))
        layout.snapshot("after 50 callers that read nothing, past the send timeout")
    for layout in layouts:
        print(f"\n== {layout.name} ({', '.join(f'{k}={v}' for k, v in layout.env.items())})")
        print(f"  (rates: median of {args.rounds} rounds; latencies pooled)")
        for key in (1, 8, 32):
            run = layout.pooled(key)
            print(
                "  "
                + run.line(f"mix, concurrency {key}").replace(
                    f"{len(run.latencies) / run.seconds:8.1f} req/s",
                    f"{layout.rate(key):8.1f} req/s",
                )
            )
        print("  " + layout.pooled("cheap").line("cheap beside the expensive loop"))
        per_request = ", ".join(f"{np.median(layout.cpu_ms[k]):.1f}" for k in (1, 8, 32))
        print(f"  CPU ms per request of the mix, all its processes, at 1 / 8 / 32: {per_request}")
        previous: Memory = {}
        for label, snapshot in layout.memory:
            print_memory(label, previous, snapshot)
            previous = snapshot


def sigterm_drill(port: int, proc: subprocess.Popen[bytes], seconds: float) -> None:
    """SIGTERM while 32 clients loop; what each client saw."""
    outcomes: dict[str, int] = {}

    async def main() -> None:
        stop_at = time.perf_counter() + seconds + 30

        async def client(index: int) -> None:
            conn = Connection(port)
            while time.perf_counter() < stop_at:
                try:
                    status = await conn.ask(CHEAP[index % len(CHEAP)])
                    outcomes[str(status)] = outcomes.get(str(status), 0) + 1
                except ConnectionRefusedError:
                    outcomes["refused (new connection)"] = (
                        outcomes.get("refused (new connection)", 0) + 1
                    )
                    return
                except (OSError, asyncio.IncompleteReadError) as exc:
                    key = f"reset or cut: {type(exc).__name__}"
                    outcomes[key] = outcomes.get(key, 0) + 1
                    conn.close()

        clients = [asyncio.create_task(client(i)) for i in range(32)]
        await asyncio.sleep(seconds)
        proc.send_signal(signal.SIGTERM)
        await asyncio.gather(*clients)

    started = time.perf_counter()
    asyncio.run(main())
    code = proc.wait(timeout=60)
    drain = time.perf_counter() - started - seconds
    print(f"\n== SIGTERM under load, concurrency 32: exit {code}, {drain:.1f} s after the signal")
    print(f"  outcomes: {outcomes}")


def supervision_drill(seconds: float) -> None:
    """./scripts/serve; the worker killed while trie requests loop."""
    gateway_port, worker_port = free_port(), free_port()
    env = {**os.environ, "GATEWAY_PORT": str(gateway_port), "WORKER_PORT": str(worker_port)}
    env.pop("WORKER_URL", None)
    serve = subprocess.Popen(
        [str(ROOT / "scripts" / "serve")], cwd=ROOT, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert serve.stdout is not None
        for line in serve.stdout:
            lines.append(line.rstrip())
            if line.startswith("ready:"):
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        if not ready.wait(300):
            raise RuntimeError("serve did not become ready:\n" + "\n".join(lines[-20:]))
        compact = request_bytes(
            {"board": G27["board"], "rack": G27["rack"], "engine": "compact-numba"}
        )

        async def main() -> tuple[Run, float]:
            stop = asyncio.Event()
            trie = Run()

            async def loop_trie() -> None:
                conn = Connection(gateway_port)
                while not stop.is_set():
                    t = time.perf_counter()
                    try:
                        status = await conn.ask(CHEAP[len(trie.latencies) % len(CHEAP)])
                        trie.count(str(status))
                        trie.latencies.append(time.perf_counter() - t)
                    except (OSError, asyncio.IncompleteReadError) as exc:
                        trie.count(type(exc).__name__)
                        conn.close()

            loops = [asyncio.create_task(loop_trie())]
            await asyncio.sleep(1.0)
            worker = int(
                [x for x in lines if "spawned: 'worker' with pid" in x][-1].rsplit(" ", 1)[1]
            )
            killed = time.perf_counter()
            os.kill(worker, signal.SIGKILL)
            back = float("nan")
            probe = Connection(gateway_port)
            while time.perf_counter() - killed < 60:
                if await probe.ask(compact) == 200 and time.perf_counter() - killed > 0.05:
                    back = time.perf_counter() - killed
                    break
                await asyncio.sleep(0.05)
            probe.close()
            await asyncio.sleep(seconds)
            stop.set()
            await asyncio.gather(*loops)
            return trie, back

        trie, back = asyncio.run(main())
        print(
            "\n== ./scripts/serve, worker killed with SIGKILL while one client loops trie requests"
        )
        print("  " + trie.line("trie requests meanwhile"))
        print(f"  compact-numba answered 200 again {back:.2f} s after the kill")
        print(
            "  supervisord: "
            + " | ".join(
                x.split(" ", 2)[2]
                for x in lines
                if "worker" in x and ("exited:" in x or "spawned:" in x or "success:" in x)
            )[-400:]
        )
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the layouts")
    parser.add_argument("--max-requests", type=int, default=20000, help="per measurement")
    parser.add_argument("--send-timeout", type=float, default=3.0)
    parser.add_argument("--skip-drills", action="store_true")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.1f} (other programs on this machine)")
    worker_port = free_port()
    worker = start_service("scrabble.worker.app:app", worker_port)
    worker_url = f"http://127.0.0.1:{worker_port}"
    timeouts = {"GATEWAY_SEND_TIMEOUT": str(args.send_timeout)}
    single = Layout("single process (baseline)", {"GATEWAY_PROCESSES": "0", **timeouts})
    lanes = Layout("compute processes in lanes (default)", timeouts)
    try:
        print(f"worker: {memory(worker.pid)[0]:.0f} MB RSS at start")
        for layout in (single, lanes):
            layout.start(worker_url)
        measure([single, lanes], args)
        print("\n== lanes against the single process, same run")
        for key in (1, 8, 32):
            print(f"  throughput at concurrency {key}: x{lanes.rate(key) / single.rate(key):.2f}")
        single_cpu, lanes_cpu = (float(np.median(x.cpu_ms[8])) for x in (single, lanes))
        print(
            f"  CPU per request at concurrency 8: {single_cpu:.1f} -> {lanes_cpu:.1f} ms; so on "
            f"two otherwise idle cores the lanes can serve x{2 * single_cpu / lanes_cpu:.2f} "
            "what one process can (which uses one core at most)"
        )
        a99, b99 = (
            np.percentile(np.array(x.pooled("cheap").latencies) * 1000, 99) for x in (single, lanes)
        )
        print(f"  cheap p99 beside the expensive loop: {a99:.1f} -> {b99:.1f} ms")
        print(f"  worker: {memory(worker.pid)[0]:.0f} MB RSS at the end")
        single.stop()
        if not args.skip_drills:
            assert lanes.proc is not None
            sigterm_drill(lanes.port, lanes.proc, seconds=2.0)
            supervision_drill(seconds=2.0)
        print(f"\nload average after: {os.getloadavg()[0]:.1f}")
    finally:
        single.stop()
        lanes.stop()
        worker.terminate()
        worker.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
