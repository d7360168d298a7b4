"""Compute processes behind the accepting event loop, in two lanes by
predicted cost, each process loading the lexicon once.

The accepting process parses, validates and answers HTTP; every move
generation, evaluation and JSON write runs in a child process. A request goes
to the ``quick`` lane (``GATEWAY_PROCESSES``, default one per core) when it is
predictably cheap (``lane_for``), else to the ``heavy`` lane
(``GATEWAY_HEAVY_PROCESSES``, default one per core too: in a realistic mix the
heavy requests are 15 % of the calls and three quarters of the CPU) whose
processes run at a lower CPU priority (nice ``GATEWAY_HEAVY_NICE``, 5): one
caller looping the most expensive request cannot queue cheap requests behind
it or take their core, and when the cores are otherwise idle the heavy lane
still has them all (nice only orders processes that compete). Each lane has
a bounded queue (``GATEWAY_QUEUE_LIMIT`` waiting, ``GATEWAY_QUEUE_TIMEOUT`` s
at most) and each request a bound on its computation (``GATEWAY_WORK_TIMEOUT``
s): past it the process is stopped and replaced and the caller gets 503.

A process that dies (killed, out of memory) is replaced at once, and the
request it was computing is tried once more on another process (a second
loss answers 503, the caller may retry); one that fails
while starting is retried with a growing delay. Why not a library pool:
``concurrent.futures`` marks the whole pool broken when any child dies, and
Pebble (tried) raises for every later task once an idle child is killed;
neither has lanes (``docs/service.md``).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, cast

from scrabble.gateway.analysis import MoveQuery
from scrabble.gateway.compute import REMOTE_ENGINE, Kit, Work, compute
from scrabble.gateway.record_work import RecordTask
from scrabble.gateway.wordgame_replay import GameTask
from scrabble.gateway.wordgame_work import TurnTask
from scrabble.position import Position
from scrabble.serving.memory import fix_mmap_threshold
from scrabble.tiles import BLANK

_log = logging.getLogger("gateway.lanes")
# forkserver: children fork from a clean process that has loaded the
# lexicon once (gateway/preload.py); a plain fork would copy the accepting
# process's event loop and listening socket, spawn would load it per child
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["scrabble.gateway.preload"])
QUICK, HEAVY = "quick", "heavy"
# what a quick request may ask (docs/service.md has the costs behind them)
QUICK_MAX_LIMIT = 100
PR_SET_PDEATHSIG = 1


class LaneBusy(Exception):
    """No compute process could take the request in time: 503, retry."""


class WorkFailed(Exception):
    """The process computing the request died or overran the bound: 503."""


class ProcessLost(WorkFailed):
    """The process given the request exited before answering (killed, out of
    memory), not by overrunning the bound: the request may be tried again."""


def lane_for(query: MoveQuery, position: Position) -> str:
    """The lane by predicted cost. Quick: no equity evaluation, at most
    ``QUICK_MAX_LIMIT`` moves written, and an engine that stays cheap on this
    rack (the trie with any rack: p99 20 ms with two blanks; the span engines
    without a blank; never sqlite-hash, 17 ms p99 without one)."""
    if query.wants_evaluation or query.limit > QUICK_MAX_LIMIT:
        return HEAVY
    if query.engine == "trie":
        return QUICK
    if query.engine == "sqlite-hash" or int(position.rack[BLANK]) > 0:
        return HEAVY
    return QUICK


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class LaneSettings:
    quick: int
    heavy: int
    # 5: a heavy computation keeps a quarter of a core that cheap ones also
    # want (nice 10 left it a tenth: 1.4 s of work took 14 s under load)
    heavy_nice: int = 5
    queue_limit: int = 64
    queue_timeout: float = 10.0
    work_timeout: float = 15.0
    start_timeout: float = 300.0  # a cold Numba cache compiles first

    @classmethod
    def from_env(cls) -> LaneSettings:
        env = os.environ.get
        cores = _cores()
        return cls(
            quick=int(env("GATEWAY_PROCESSES", cores)),
            heavy=int(env("GATEWAY_HEAVY_PROCESSES", cores)),
            heavy_nice=int(env("GATEWAY_HEAVY_NICE", 5)),
            queue_limit=int(env("GATEWAY_QUEUE_LIMIT", 64)),
            queue_timeout=float(env("GATEWAY_QUEUE_TIMEOUT", 10.0)),
            work_timeout=float(env("GATEWAY_WORK_TIMEOUT", 15.0)),
            start_timeout=float(env("GATEWAY_START_TIMEOUT", 300.0)),
        )


class Child:
    """The accepting process's handle on one compute process."""

    def __init__(self, lane: str, index: int) -> None:
        self.name = f"{lane}-{index}"
        self.process: Any = None  # multiprocessing's SpawnProcess
        self.link: ChildLink | None = None
        self.state = "stopped"  # starting, idle, busy, stopped
        self.future: asyncio.Future[tuple[int, bytes]] | None = None
        self.info: dict[str, Any] = {}
        self.failures = 0  # consecutive failed starts
        self.spawned = 0.0

        self.last_pid = 0

    @property
    def pid(self) -> int:
        return int(self.process.pid) if self.process is not None else self.last_pid


class Lane:
    def __init__(self, name: str, size: int, nice: int, settings: LaneSettings) -> None:
        self.name = name
        self.nice = nice
        self.settings = settings
        self.children = [Child(name, i) for i in range(size)]
        self.idle: deque[Child] = deque()
        self.waiters: deque[asyncio.Future[Child]] = deque()
        self.restarts = 0
        self.closing = False
        self.first_failure: str | None = None
        self.loop = asyncio.get_running_loop()

    # processes ---------------------------------------------------------------

    def start(self) -> None:
        for child in self.children:
            self._spawn(child)

    def _spawn(self, child: Child) -> None:
        if self.closing:
            return
        child.state = "starting"
        child.spawned = time.monotonic()
        self.loop.create_task(self._start(child))

    async def _start(self, child: Child) -> None:
        mine, theirs = _CONTEXT.Pipe(duplex=True)
        process = _CONTEXT.Process(
            target=child_main,
            args=(theirs, child.name, self.nice),
            name=f"gateway-{child.name}",
            daemon=True,
        )
        # in a thread: start() waits for the forkserver, which takes seconds
        # to load the lexicon when it is (re)started
        try:
            await self.loop.run_in_executor(None, process.start)
        except OSError as exc:
            mine.close()
            theirs.close()
            child.state = "starting"
            self._lost(child, f"could not be started ({exc})")
            return
        theirs.close()
        child.process = process
        # this end is read and written by the event loop, never blocking it
        sock = socket.socket(fileno=os.dup(mine.fileno()))
        mine.close()
        link = ChildLink(
            lambda message: self._message(child, message), lambda: self._lost(child, "exited")
        )
        child.link = link
        try:
            await self.loop.connect_accepted_socket(lambda: link, sock=sock)
        except OSError:
            sock.close()
            if child.link is link:
                self._lost(child, "could not be reached")
        if self.closing and child.link is link:
            self._lost(child, "stopped")

    def _message(self, child: Child, message: Any) -> None:
        if child.state == "starting":
            kind, info = message
            if kind != "ready":
                self.first_failure = self.first_failure or str(info)
                self._lost(child, f"failed to start: {info}")
                return
            child.info = info
            child.failures = 0
            _log.info(
                "%s compute process %d ready in %.1f s",
                child.name,
                child.pid,
                time.monotonic() - child.spawned,
            )
            self._release(child)
        elif child.state == "busy":
            future, child.future = child.future, None
            if future is not None and not future.done():
                future.set_result(message)
            self._release(child)

    def _lost(self, child: Child, why: str) -> None:
        """A child is gone (or is being stopped): fail its request, replace it."""
        if child.state == "stopped":
            return  # already handled (the link reports the close we made)
        was_ready = child.state in ("idle", "busy")
        child.state = "stopped"
        link, child.link = child.link, None
        if link is not None:
            link.close()
        code = None
        if child.process is not None:
            child.process.kill()  # harmless when it has exited already
            child.process.join(timeout=5)
            code = child.process.exitcode
            child.last_pid = child.process.pid
            child.process.close()
            child.process = None
        if child in self.idle:
            self.idle.remove(child)
        future, child.future = child.future, None
        if future is not None and not future.done():
            future.set_exception(
                ProcessLost(f"the process computing this request {why}; retry the request")
            )
        if self.closing:
            return
        self.restarts += 1
        if was_ready:
            delay = 0.0
        else:
            child.failures += 1
            delay = min(30.0, 0.5 * 2**child.failures)
        _log.warning(
            "%s compute process %d %s (exit code %s); starting another in %.1f s",
            child.name,
            child.pid,
            why,
            code,
            delay,
        )
        self.loop.call_later(delay, self._spawn, child)

    def _release(self, child: Child) -> None:
        child.state = "idle"
        while self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(child)
                return
        self.idle.append(child)

    # requests ----------------------------------------------------------------

    async def _acquire(self) -> Child:
        if self.idle:
            return self.idle.popleft()
        if len(self.waiters) >= self.settings.queue_limit:
            raise LaneBusy(
                f"{len(self.waiters)} requests are waiting for the {self.name} lane; retry shortly"
            )
        waiter: asyncio.Future[Child] = self.loop.create_future()
        self.waiters.append(waiter)
        timeout = self.settings.queue_timeout

        def expire() -> None:
            if not waiter.done():
                waiter.set_exception(
                    LaneBusy(f"no {self.name} compute process was free within {timeout:g} s")
                )

        timer = self.loop.call_later(timeout, expire)
        try:
            return await waiter
        finally:
            timer.cancel()
            if waiter in self.waiters:
                self.waiters.remove(waiter)

    async def run(self, task: Work) -> tuple[int, bytes]:
        """The task's answer. A process that exits under it (killed while
        idle, before the loop has read its end of the pipe: the race a kill
        of every process showed one CI run in a few) gets the task tried once
        more on another process, since every task is a pure computation of
        what the caller sent; a second loss, or an overrun, is the 503."""
        try:
            return await self._run_once(task)
        except ProcessLost:
            return await self._run_once(task)

    async def _run_once(self, task: Work) -> tuple[int, bytes]:
        child = await self._acquire()
        result: asyncio.Future[tuple[int, bytes]] = self.loop.create_future()
        child.state, child.future = "busy", result
        if child.link is None or not child.link.send(task):
            self._lost(child, "could not be sent the request")
            raise ProcessLost("a compute process was lost; retry the request")
        timeout = self.settings.work_timeout
        try:
            # shield: a cancelled request (shutdown) leaves the child to finish
            return await asyncio.wait_for(asyncio.shield(result), timeout)
        except TimeoutError:
            if child.future is result:
                child.future = None
                self._lost(child, f"overran the work bound of {timeout:g} s")
            raise WorkFailed(
                f"the request took longer than the work bound of {timeout:g} s"
            ) from None

    def health(self) -> dict[str, int]:
        states = [c.state for c in self.children]
        return {
            "processes": len(self.children),
            "ready": states.count("idle") + states.count("busy"),
            "busy": states.count("busy"),
            "queued": len(self.waiters),
            "restarts": self.restarts,
        }

    async def close(self, timeout: float = 5.0) -> None:
        self.closing = True
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_exception(LaneBusy("the gateway is stopping"))
        for child in self.children:
            if child.link is not None:
                child.link.send(None)  # finish and exit
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(
            c.process is not None and c.process.is_alive() for c in self.children
        ):
            await asyncio.sleep(0.05)
        for child in self.children:
            self._lost(child, "stopped")


class ChildLink(asyncio.Protocol):
    """The accepting process's end of a child's pipe, on the event loop:
    ``multiprocessing.Connection``'s framing (a 4-byte big-endian length, or
    -1 and 8 bytes, then a pickle), so the child keeps its plain blocking
    ``Connection``. A 4 MB answer arrives in many reads; each is buffered,
    never waited for."""

    def __init__(self, on_message: Callable[[Any], None], on_lost: Callable[[], None]) -> None:
        self.on_message = on_message
        self.on_lost = on_lost
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses: no isinstance
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= 4:
            (size,) = struct.unpack("!i", self.buffer[:4])
            head = 4
            if size == -1:
                if len(self.buffer) < 12:
                    return
                (size,) = struct.unpack("!Q", self.buffer[4:12])
                head = 12
            if len(self.buffer) < head + size:
                return
            payload = bytes(self.buffer[head : head + size])
            del self.buffer[: head + size]
            self.on_message(pickle.loads(payload))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed:
            self.closed = True
            self.on_lost()

    def send(self, message: object) -> bool:
        if self.transport is None or self.transport.is_closing():
            return False
        payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        size = len(payload)
        head = struct.pack("!i", size) if size <= 0x7FFFFFFF else struct.pack("!iQ", -1, size)
        self.transport.write(head + payload)
        return True

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.abort()


class Lanes:
    """Both lanes; ``run`` routes a task by ``lane_for``."""

    def __init__(self, settings: LaneSettings) -> None:
        self.settings = settings
        self.lanes = {
            QUICK: Lane(QUICK, settings.quick, 0, settings),
            HEAVY: Lane(HEAVY, settings.heavy, settings.heavy_nice, settings),
        }

    async def start(self) -> None:
        """Start every process and wait until all are ready; the first one
        that cannot start stops the gateway's start-up with its reason."""
        for lane in self.lanes.values():
            lane.start()
        deadline = time.monotonic() + self.settings.start_timeout
        while True:
            failure = next((x.first_failure for x in self.lanes.values() if x.first_failure), None)
            if failure:
                await self.close()
                raise RuntimeError(f"a compute process could not start: {failure}")
            if all(x.health()["ready"] == len(x.children) for x in self.lanes.values()):
                return
            if time.monotonic() > deadline:
                await self.close()
                raise RuntimeError("compute processes did not become ready in time")
            await asyncio.sleep(0.05)

    async def run(self, task: Work) -> tuple[int, bytes]:
        # judging a move or a game evaluates every action, a WordGame turn
        # searches for most of a second: always heavy
        if isinstance(task, (RecordTask, TurnTask)):
            lane = HEAVY
        elif isinstance(task, GameTask):  # a replay: microseconds an action
            lane = QUICK
        else:
            lane = lane_for(task.query, task.position)
        return await self.lanes[lane].run(task)

    def info(self) -> dict[str, Any]:
        """What the first ready process reported (trie size, load time)."""
        for lane in self.lanes.values():
            for child in lane.children:
                if child.info:
                    return child.info
        return {}

    def health(self) -> dict[str, dict[str, int]]:
        return {name: lane.health() for name, lane in self.lanes.items()}

    async def close(self) -> None:
        await asyncio.gather(*(lane.close() for lane in self.lanes.values()))


# the child's side ----------------------------------------------------------------


def _die_with_parent() -> None:
    """Linux: the kernel kills this process when its parent (the forkserver,
    which exits when the gateway does) dies, even by SIGKILL, so no orphan
    keeps computing or holding memory after a restart."""
    parent = os.getppid()
    name = ctypes.util.find_library("c")
    if name:
        try:
            ctypes.CDLL(name).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # it died before the line above ran
        os._exit(1)


def child_main(conn: Connection, name: str, nice: int) -> None:
    _die_with_parent()
    # the accepting process decides when to stop (after its requests are
    # answered): Ctrl-C to the terminal's process group or a SIGTERM to every
    # process must not cut a computation short
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if nice:
        os.nice(nice)
    fix_mmap_threshold()
    logging.basicConfig(format=f"gateway {name} [%(process)d] %(levelname)s %(message)s")
    started = time.perf_counter()
    from scrabble.gateway import preload  # loaded by the forkserver already: no cost here

    kit = preload.KIT
    if kit is None:
        try:
            kit = Kit.load()
        except Exception as exc:
            conn.send(("failed", f"{type(exc).__name__}: {exc}"))
            return
        gc.collect()
        gc.freeze()
    conn.send(
        ("ready", {**kit.info(), "ready_ms": round((time.perf_counter() - started) * 1000, 1)})
    )
    while True:
        try:
            task = conn.recv()
        except EOFError:  # the gateway is gone
            return
        if task is None:
            return
        conn.send(compute(kit, task))


__all__ = ["REMOTE_ENGINE", "LaneBusy", "LaneSettings", "Lanes", "WorkFailed", "lane_for"]
