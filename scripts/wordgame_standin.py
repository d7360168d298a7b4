#!/usr/bin/env python3
"""A WordGame player in the standard library alone, for a bare clone.

A referee may run ``scripts/wordgame.py play`` on a clone where nothing is set
up yet. The set-up (a virtual environment, NumPy and Numba, the lexicon stores,
the compiled kernels) takes minutes, and a case whose clock runs out scores 0,
which costs a geometric mean far more than a weak game does. So while the
set-up runs in the background, ``play`` answers with this player: it reads the
word list (``lexicon/<name>.txt``), finds plays by looking up the hand's
sub-multisets, with at most one board letter, among the words' sorted letters,
and makes the highest-scoring play it finds in its time; with none it discards
the whole hand while the queue has tiles, else stops (the ``greedy`` policy,
with a smaller search). It speaks the contract's protocol as leniently as the
real player does. Nothing here imports the project's packages: they need NumPy.
"""

from __future__ import annotations

import io
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAGIC = "WORDGAME 1"
DEFAULT_LEXICON = "enable"
LETTER_MULT = {"d": 2, "t": 3}
WORD_MULT = {"D": 2, "T": 3}
BUDGET_MS = 7000.0  # of the 10 s a case: the set-up runs beside us
TURN_CAP_MS = 80.0  # one turn's search at the most
EMPTY = ""

Play = tuple[int, int, bool, str, int]  # row, col, across, word, score


def lexicon_file(name: str) -> Path:
    """The word list a referee's lexicon name means, read as the real player
    reads it: lower case, without directory, extension or a trailing version."""
    stem = name.strip().replace("\\", "/").rsplit("/", 1)[-1].lower().split(".", 1)[0]
    for candidate in (stem, stem.rstrip("0123456789")):
        path = ROOT / "lexicon" / f"{candidate}.txt"
        if candidate.isidentifier() and path.is_file():
            return path
    return ROOT / "lexicon" / f"{DEFAULT_LEXICON}.txt"


class Words:
    """The word list by its sorted letters (an anagram key)."""

    def __init__(self, path: Path, longest: int) -> None:
        self.words: set[str] = set()
        self.by_key: dict[str, list[str]] = defaultdict(list)
        with open(path) as f:
            for line in f:
                word = line.strip().upper()
                if 2 <= len(word) <= longest and word.isalpha():
                    self.words.add(word)
                    self.by_key["".join(sorted(word))].append(word)


class Standin:
    def __init__(self, lines: Iterator[str]) -> None:
        if next(lines).strip() != MAGIC:
            raise SystemExit(f"wordgame standin: expected {MAGIC!r}")
        self.n, self.t, _visible, _discard_cost = (int(v) for v in next(lines).split())
        self.premiums = [next(lines).strip() for _ in range(self.n)]
        values = [int(v) for v in next(lines).split()]
        next(lines)  # the probabilities: this player does not weigh draws
        self.values = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", values, strict=True))
        self.lexicon = Words(lexicon_file(next(lines)), self.n)
        self.board = [[EMPTY] * self.n for _ in range(self.n)]
        self.empty = True

    # -- the board -------------------------------------------------------------
    def at(self, row: int, col: int) -> str:
        if 0 <= row < self.n and 0 <= col < self.n:
            return self.board[row][col]
        return EMPTY

    def place(self, play: Play) -> None:
        row, col, across, word, _ = play
        for k, letter in enumerate(word):
            r, c = (row, col + k) if across else (row + k, col)
            self.board[r][c] = letter
        self.empty = False

    def cross_word(self, row: int, col: int, letter: str, across: bool) -> tuple[str, int]:
        """The word a new tile at (row, col) forms across the play's direction,
        and its score ('' if the tile stands alone that way)."""
        dr, dc = (1, 0) if across else (0, 1)
        r, c = row, col
        while self.at(r - dr, c - dc):
            r, c = r - dr, c - dc
        word, total = "", 0
        while True:
            here = letter if (r, c) == (row, col) else self.at(r, c)
            if not here:
                break
            word += here
            total += self.values[here] * (
                LETTER_MULT.get(self.premiums[r][c], 1) if (r, c) == (row, col) else 1
            )
            r, c = r + dr, c + dc
        if len(word) < 2:
            return "", 0
        return word, total * WORD_MULT.get(self.premiums[row][col], 1)

    def judge(self, row: int, col: int, across: bool, word: str, hand: Counter[str]) -> int:
        """The play's score, or -1 if it breaks a rule."""
        dr, dc = (0, 1) if across else (1, 0)
        end_r, end_c = row + dr * len(word), col + dc * len(word)
        if not (0 <= row and 0 <= col and end_r - dr < self.n and end_c - dc < self.n):
            return -1
        if self.at(row - dr, col - dc) or self.at(end_r, end_c):
            return -1  # the word must be the whole run
        used: Counter[str] = Counter()
        main, mult, crosses, through = 0, 1, 0, False
        for k, letter in enumerate(word):
            r, c = row + dr * k, col + dc * k
            board = self.board[r][c]
            if board:
                if board != letter:
                    return -1
                main += self.values[letter]
                through = True
                continue
            used[letter] += 1
            premium = self.premiums[r][c]
            main += self.values[letter] * LETTER_MULT.get(premium, 1)
            mult *= WORD_MULT.get(premium, 1)
            cross, score = self.cross_word(r, c, letter, across)
            if cross:
                if cross not in self.lexicon.words:
                    return -1
                crosses += score
        if not used or used - hand or (not through and not self.empty):
            return -1
        return main * mult + crosses

    # -- the search ------------------------------------------------------------
    def keys(self, hand: str, extra: str = "") -> Iterator[str]:
        """Anagram keys of the hand's sub-multisets (with ``extra`` added),
        longest first: the search may run out of time, and long words score."""
        seen: set[str] = set()
        letters = sorted(hand)
        for size in range(len(letters), 0, -1):
            for subset in combinations(letters, size):
                key = "".join(sorted((*subset, *extra)))
                if key not in seen and len(key) >= 2:
                    seen.add(key)
                    yield key

    def best_play(self, hand: str, deadline: float) -> Play | None:
        held = Counter(hand)
        best: Play | None = None
        if self.empty:
            for key in self.keys(hand):
                for word in self.lexicon.by_key.get(key, ()):
                    for across in (True, False):
                        for line in range(self.n):
                            for start in range(self.n - len(word) + 1):
                                row, col = (line, start) if across else (start, line)
                                score = self.judge(row, col, across, word, held)
                                if score > 0 and (best is None or score > best[4]):
                                    best = (row, col, across, word, score)
                    if time.perf_counter() > deadline:
                        return best
            return best
        anchors = [(r, c) for r in range(self.n) for c in range(self.n) if self.board[r][c]]
        # lines rich in word multipliers first: the time may not cover every anchor
        anchors.sort(key=lambda sq: -self.heat(*sq))
        candidates: dict[str, list[str]] = {}
        for row, col in anchors:
            letter = self.board[row][col]
            if letter not in candidates:
                candidates[letter] = [
                    w for key in self.keys(hand, letter) for w in self.lexicon.by_key.get(key, ())
                ]
            for i, word in enumerate(candidates[letter]):
                if i % 64 == 63 and time.perf_counter() > deadline:
                    return best
                for k, here in enumerate(word):
                    if here != letter:
                        continue
                    for across in (True, False):
                        r, c = (row, col - k) if across else (row - k, col)
                        score = self.judge(r, c, across, word, held)
                        if score > 0 and (best is None or score > best[4]):
                            best = (r, c, across, word, score)
            if time.perf_counter() > deadline:
                break
        return best

    def heat(self, row: int, col: int) -> int:
        line = self.premiums[row] + "".join(self.premiums[r][col] for r in range(self.n))
        return line.count("T") * 3 + line.count("D") * 2

    def act(self, elapsed_ms: float, queue_left: int, hand: str) -> str:
        left_ms = BUDGET_MS - elapsed_ms
        turns = max(1.0, (queue_left + len(hand)) / max(1.0, self.t / 2))
        turn_ms = max(5.0, min(TURN_CAP_MS, left_ms / turns))
        play = self.best_play(hand, time.perf_counter() + turn_ms / 1000) if hand else None
        if play is not None:
            self.place(play)
            row, col, across, word, _ = play
            return f"PLAY {row} {col} {'H' if across else 'V'} {word}"
        if queue_left > 0 and hand:
            return f"DISCARD {hand}"
        return "STOP"


def turn_fields(line: str) -> tuple[float, int, str]:
    """(elapsed ms, tiles left, hand) from a turn line, read leniently."""
    fields = (line.split() + ["-", "-"])[:5]
    hand = "" if fields[3] == "-" else fields[3].upper()
    return float(fields[0]), round(float(fields[2])), hand


def main() -> int:
    started = time.perf_counter()
    # another tester's spelling (a byte-order mark, a stray byte, blank lines
    # between turns, `end`) must not crash the player: that case would score 0
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    stdin = (line.lstrip("\ufeff") for line in sys.stdin)
    player = Standin(stdin)
    own_ms = (time.perf_counter() - started) * 1000
    for line in stdin:
        fields = line.split()
        if not fields:
            continue
        if fields[0].upper() == "END":
            return 0
        mark = time.perf_counter()
        elapsed, queue_left, hand = turn_fields(line)
        reply = player.act(max(elapsed, own_ms), queue_left, hand)
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
        own_ms += (time.perf_counter() - mark) * 1000
    return 0


if __name__ == "__main__":
    sys.exit(main())
