"""The line protocol between a referee and a player process (both sides).

Start block: ``WORDGAME 1``, ``N T X D``, N premium rows, 26 letter values,
26 letter probabilities, the lexicon name. Then before each turn one line
``<elapsed_ms> <score> <queue_left> <hand> <visible>`` (``-`` for an empty
string) and the player answers one action line (``actions``); at the end the
referee writes ``END <score>`` and closes the pipe.

The player's time is the wall time from each turn line to its reply, summed;
the first turn line follows the start block at once, so start-up counts. Past
the limit, on an unparsable or illegal reply, a crash or output not asked for,
the case scores 0.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import IO, BinaryIO

from scrabble.wordgame.cases import Case
from scrabble.wordgame.referee import GameSetup, Outcome, Player, Referee, TurnView
from scrabble.wordgame.rules import (
    MAX_HAND,
    MAX_SIZE,
    MIN_HAND,
    MIN_SIZE,
    TIME_LIMIT_MS,
    wordgame_rules,
)

MAGIC = "WORDGAME 1"
MAX_LINE = 200  # longer than any legal reply


class ProtocolError(ValueError):
    pass


def _decimal(p: float) -> str:
    text = repr(float(p))
    return text if "e" not in text else f"{p:.12f}".rstrip("0")


def start_block(setup: GameSetup) -> str:
    lines = [
        MAGIC,
        f"{setup.n} {setup.t} {setup.x} {setup.d}",
        *setup.premiums,
        " ".join(str(v) for v in setup.letter_values),
        " ".join(_decimal(p) for p in setup.probabilities),
        setup.lexicon,
    ]
    return "\n".join(lines) + "\n"


def turn_line(view: TurnView) -> str:
    return (
        f"{view.elapsed_ms} {view.score} {view.queue_left} {view.hand or '-'} "
        f"{view.visible or '-'}\n"
    )


def parse_start_block(read_line: Callable[[], str]) -> GameSetup:
    """The start block; ``ProtocolError`` naming the line that is wrong (the
    sizes are checked before the premium rows are read)."""
    if read_line().strip() != MAGIC:
        raise ProtocolError(f"expected {MAGIC!r}")
    sizes = read_line().split()
    try:
        n, t, x, d = (int(v) for v in sizes)
    except ValueError:
        raise ProtocolError(f"expected 'N T X D', got {' '.join(sizes)!r}") from None
    # only what the player cannot play is refused: its buffers are sized for
    # N <= 20 and T <= 9; more visible tiles or a dearer discard than the
    # contract's are played as sent (a referee's other ranges should not score 0)
    if not (MIN_SIZE <= n <= MAX_SIZE and MIN_HAND <= t <= MAX_HAND and x >= 0 and d >= 0):
        raise ProtocolError(f"N T X D out of range: {n} {t} {x} {d}")
    premiums = tuple(read_line().strip() for _ in range(n))
    try:
        wordgame_rules(n, premiums, t)
        values = tuple(int(v) for v in read_line().split())
        probabilities = tuple(float(v) for v in read_line().split())
    except ValueError as exc:
        raise ProtocolError(f"start block: {exc}") from None
    lexicon = read_line().strip()
    if len(values) != 26 or len(probabilities) != 26:
        raise ProtocolError("expected 26 letter values and 26 probabilities")
    return GameSetup(
        n=n,
        t=t,
        x=x,
        d=d,
        premiums=premiums,
        letter_values=values,
        probabilities=probabilities,
        lexicon=lexicon,
    )


def parse_turn_line(line: str) -> TurnView:
    """A turn line, read as leniently as its meaning allows: another referee
    may report the time with a fraction, write letters in lower case, or leave
    an empty hand or row of visible tiles out at the end instead of ``-``; a
    player that stops on that scores 0 for a detail of spelling."""
    fields = line.split()
    if not 3 <= len(fields) <= 5:
        raise ProtocolError(
            f"turn line has {len(fields)} fields, expected 5 "
            "(an empty hand or visible row may be left out at the end)"
        )
    elapsed, score, left, hand, visible = (fields + ["-", "-"])[:5]
    try:
        numbers = (round(float(elapsed)), round(float(score)), round(float(left)))
    except ValueError as exc:
        raise ProtocolError(f"turn line {line.strip()!r}: {exc}") from None
    hand, visible = ("" if s == "-" else s.upper() for s in (hand, visible))
    letters = hand + visible
    if letters and not (letters.isascii() and letters.isalpha()):
        raise ProtocolError(f"turn line {line.strip()!r}: letters expected")
    return TurnView(
        elapsed_ms=numbers[0], score=numbers[1], queue_left=numbers[2], hand=hand, visible=visible
    )


# -- the player's side ------------------------------------------------------
def serve(
    make_player: Callable[[GameSetup], Player],
    stdin: BinaryIO,
    stdout: BinaryIO,
    started: float | None = None,
) -> int:
    """Play one case over the protocol; returns the final score from ``END``.

    The player is shown the larger of the elapsed time the referee reports and
    the time this process has measured itself: its set-up (from ``started``, a
    ``perf_counter`` reading, by default the call) and every turn from line to
    reply. A referee that reports no time, or counts less than the contract
    says, still gets a player that keeps to the limit."""
    own_ms = 0.0
    mark = time.perf_counter() if started is None else started

    def read_line() -> str:
        line = stdin.readline()
        if not line:
            raise EOFError("the referee closed the pipe")
        # another tester's spelling: a byte-order mark before the first line,
        # or a stray non-ASCII byte, must not crash the player (0 points)
        return line.decode("utf-8", errors="replace").lstrip("\ufeff")

    setup = parse_start_block(read_line)
    player = make_player(setup)
    player.start(setup)
    own_ms += (time.perf_counter() - mark) * 1000
    while True:
        try:
            line = read_line()
        except EOFError:
            return 0  # the referee stopped the game (time, an illegal reply)
        fields = line.split()
        if not fields:
            continue  # a blank line between turns carries nothing; reading it as a turn crashed
        if fields[0].upper() == "END":
            try:
                return round(float(fields[1])) if len(fields) > 1 else 0
            except ValueError:
                return 0  # the game is over whatever the referee wrote after END
        mark = time.perf_counter()
        view = parse_turn_line(line)
        if own_ms > view.elapsed_ms:
            view = replace(view, elapsed_ms=int(own_ms))
        reply = player.act(view)
        stdout.write(reply.encode("ascii") + b"\n")
        stdout.flush()
        own_ms += (time.perf_counter() - mark) * 1000


# -- the referee's side -----------------------------------------------------
class _Lines:
    """Lines from a pipe with a deadline per read."""

    def __init__(self, pipe: IO[bytes]) -> None:
        self._fd = pipe.fileno()
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._fd, selectors.EVENT_READ)
        self._buffer = b""
        self.closed = False

    def pending(self) -> bool:
        """Output is waiting that no turn asked for."""
        return bool(self._buffer) or (not self.closed and bool(self._selector.select(0)))

    def read_line(self, timeout_s: float) -> str | None:
        """A line (without its newline), or None on timeout; raises EOFError."""
        deadline = time.perf_counter() + timeout_s
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                raise ProtocolError("reply line too long")
            left = deadline - time.perf_counter()
            if left <= 0 or not self._selector.select(left):
                return None
            chunk = os.read(self._fd, 4096)
            if not chunk:
                self.closed = True
                raise EOFError("the player closed its output")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("ascii", errors="replace").rstrip("\r")

    def close(self) -> None:
        self._selector.close()


def play_subprocess(
    case: Case,
    command: Sequence[str],
    is_word: Callable[[str], bool],
    time_limit_ms: float = TIME_LIMIT_MS,
    stderr: int | IO[bytes] | None = subprocess.DEVNULL,
    cwd: str | None = None,
) -> Outcome:
    """Run one case against a player process speaking the protocol."""
    referee = Referee(case, is_word)
    proc = subprocess.Popen(
        list(command),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        bufsize=0,
        cwd=cwd,
    )
    assert proc.stdin is not None and proc.stdout is not None
    lines = _Lines(proc.stdout)
    elapsed = 0.0
    try:
        proc.stdin.write(start_block(referee.setup()).encode("ascii"))
        while not referee.over:
            if lines.pending():
                referee.fail("output not asked for")
                break
            sent = time.perf_counter()
            proc.stdin.write(turn_line(referee.turn(elapsed)).encode("ascii"))
            try:
                reply = lines.read_line(max(0.0, (time_limit_ms - elapsed) / 1000))
            except (EOFError, ProtocolError) as exc:
                referee.fail(f"player: {exc}")
                break
            elapsed += (time.perf_counter() - sent) * 1000
            if reply is None or elapsed > time_limit_ms:
                referee.fail(f"time limit: over {time_limit_ms:.0f} ms")
                break
            referee.apply(reply)
        outcome = referee.outcome()
        try:
            proc.stdin.write(f"END {outcome.score}\n".encode("ascii"))
        except BrokenPipeError:
            pass
    except BrokenPipeError:
        referee.fail("player closed its input")
        outcome = referee.outcome()
    finally:
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        lines.close()
        proc.stdout.close()
    outcome.elapsed_ms = elapsed
    return outcome
