"""The in-process referee: it holds the case (and so the queue) and hands the
player only what the contract lets it see.

The player gets a ``GameSetup`` once and a ``TurnView`` each turn: plain
frozen values (the hand, the next X tiles, elapsed time, score, tiles left),
built fresh from the referee's state, holding no reference to the case or its
tile string. Each reply is parsed and judged here (``judge.judge_play``), never
by the move generator.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import Protocol

import numpy as np

from scrabble.rules import STANDARD_VALUES
from scrabble.tiles import ALPHABET
from scrabble.wordgame.actions import ActionError, Discard, Play, Stop, parse_action
from scrabble.wordgame.cases import Case
from scrabble.wordgame.judge import EMPTY, WORD_MULT, IllegalPlay, judge_play
from scrabble.wordgame.rules import TIME_LIMIT_MS


@dataclass(frozen=True)
class GameSetup:
    """What the player learns at the start (the protocol's start block)."""

    n: int
    t: int
    x: int
    d: int
    premiums: tuple[str, ...]
    letter_values: tuple[int, ...]  # A..Z
    probabilities: tuple[float, ...]  # A..Z
    lexicon: str


@dataclass(frozen=True)
class TurnView:
    """What the player sees before each turn (the protocol's turn line)."""

    elapsed_ms: int
    score: int
    queue_left: int  # tiles not yet drawn, the visible ones included
    hand: str
    visible: str


class Player(Protocol):
    def start(self, setup: GameSetup) -> None: ...

    def act(self, turn: TurnView) -> str: ...


# a play whose new tiles cover word multipliers of this product or more is a
# big play: on the dense maps such plays make most of the points (29th round)
BIG_PRODUCT = 27


@dataclass(frozen=True)
class PlayRecord:
    row: int
    col: int
    horizontal: bool
    word: str
    score: int
    tiles: int
    multipliers: int = 0  # word-multiplier squares under its new tiles
    product: int = 1  # their product

    @property
    def big(self) -> bool:
        """Its new tiles cover word multipliers of ``BIG_PRODUCT`` or more."""
        return self.product >= BIG_PRODUCT


@dataclass
class Outcome:
    """A finished case: the final score and what happened."""

    case_id: str
    score: int  # final, clamped at 0; 0 on failure
    raw_score: int  # plays minus discard costs before the clamp
    plays: list[PlayRecord] = field(default_factory=list)
    discards: int = 0
    discarded_tiles: int = 0
    board_tiles: int = 0
    squares: int = 0
    word_multipliers: int = 0  # word-multiplier squares on the premium map
    elapsed_ms: float = 0.0
    failure: str | None = None
    board: list[str] = field(default_factory=list)  # the final board, N rows of A-Z and '.'

    @property
    def fill(self) -> float:
        return self.board_tiles / self.squares if self.squares else 0.0

    @property
    def best_play(self) -> int:
        return max((p.score for p in self.plays), default=0)

    @property
    def big_plays(self) -> int:
        """Plays whose new tiles cover word multipliers of ``BIG_PRODUCT`` or more."""
        return sum(1 for p in self.plays if p.big)

    @property
    def big_points(self) -> int:
        """The points of the big plays."""
        return sum(p.score for p in self.plays if p.big)

    @property
    def play_points(self) -> int:
        return sum(p.score for p in self.plays)

    @property
    def word_squares(self) -> tuple[int, int, int]:
        """Of the map's word-multiplier squares: those under big plays, under
        smaller plays, and never covered."""
        big = sum(p.multipliers for p in self.plays if p.big)
        other = sum(p.multipliers for p in self.plays if not p.big)
        return big, other, self.word_multipliers - big - other

    @property
    def top3_share(self) -> float:
        points = sorted((p.score for p in self.plays), reverse=True)
        total = sum(points)
        return sum(points[:3]) / total if total else 0.0


class Referee:
    def __init__(
        self,
        case: Case,
        is_word: Callable[[str], bool],
        board: Sequence[str] | None = None,
        more_tiles: str = "",
    ) -> None:
        """``board``: letters on the board before the first turn (N rows, ``.``
        empty), an experiment's start (``run --pre``); the contract's game
        starts empty. ``more_tiles``: letters queued after the case's N^2, an
        experiment's longer game (``run --more-tiles``); the contract has none."""
        if any(ch not in ALPHABET for ch in more_tiles):
            raise ValueError("more tiles are letters A-Z")
        self._case = case
        self._tiles = case.tiles + more_tiles
        self._is_word = is_word
        self._values = dict(STANDARD_VALUES)
        n = case.n
        self._board = [[EMPTY] * n for _ in range(n)]
        if board is not None:
            if len(board) != n or any(
                len(row) != n or any(ch != EMPTY and ch not in ALPHABET for ch in row)
                for row in board
            ):
                raise ValueError(f"a starting board is {n} rows of {n} letters A-Z or '.'")
            self._board = [list(row) for row in board]
        self._hand: list[str] = list(case.tiles[: case.t])
        self._next = len(self._hand)
        self._score = 0
        self._outcome = Outcome(
            case_id=case.id,
            score=0,
            raw_score=0,
            squares=n * n,
            word_multipliers=sum(ch in WORD_MULT for row in case.premiums for ch in row),
        )
        self.over = False

    # -- what the player sees --------------------------------------------
    def setup(self) -> GameSetup:
        case = self._case
        return GameSetup(
            n=case.n,
            t=case.t,
            x=case.x,
            d=case.d,
            premiums=tuple(case.premiums),
            letter_values=tuple(self._values[ch] for ch in ALPHABET),
            probabilities=tuple(case.probabilities[ch] for ch in ALPHABET),
            lexicon=case.lexicon,
        )

    def turn(self, elapsed_ms: float) -> TurnView:
        tiles = self._tiles
        visible = tiles[self._next : self._next + self._case.x]
        return TurnView(
            elapsed_ms=int(elapsed_ms),
            score=self._score,
            queue_left=len(tiles) - self._next,
            hand="".join(self._hand),
            visible=visible,
        )

    @property
    def board_rows(self) -> list[str]:
        return ["".join(row) for row in self._board]

    # -- the game ----------------------------------------------------------
    def apply(self, reply: str) -> None:
        """Apply one reply; an unparsable or illegal one ends the case with 0."""
        if self.over:
            raise RuntimeError("the case is over")
        try:
            action = parse_action(reply)
        except ActionError as exc:
            self.fail(str(exc))
            return
        if isinstance(action, Stop):
            self._finish()
        elif isinstance(action, Discard):
            self._discard(action)
        else:
            self._play(action)

    def _play(self, play: Play) -> None:
        try:
            judged = judge_play(
                self._board,
                self._case.premiums,
                self._values,
                play,
                Counter(self._hand),
                self._is_word,
            )
        except IllegalPlay as exc:
            self.fail(f"illegal play {play.line()}: {exc}")
            return
        factors = [WORD_MULT.get(self._case.premiums[r][c], 1) for r, c, _ in judged.tiles]
        for r, c, letter in judged.tiles:
            self._board[r][c] = letter
            self._hand.remove(letter)
        self._score += judged.score
        self._outcome.plays.append(
            PlayRecord(
                play.row,
                play.col,
                play.horizontal,
                play.word,
                judged.score,
                len(judged.tiles),
                sum(1 for f in factors if f > 1),
                prod(factors),
            )
        )
        self._outcome.board_tiles += len(judged.tiles)
        self._refill()

    def _discard(self, discard: Discard) -> None:
        short = Counter(discard.letters) - Counter(self._hand)
        if short:
            self.fail(
                f"illegal discard {discard.letters}: the hand lacks "
                f"{''.join(sorted(short.elements()))}"
            )
            return
        for letter in discard.letters:
            self._hand.remove(letter)
        self._score -= self._case.d
        self._outcome.discards += 1
        self._outcome.discarded_tiles += len(discard.letters)
        self._refill()

    def _refill(self) -> None:
        tiles = self._tiles
        take = min(self._case.t - len(self._hand), len(tiles) - self._next)
        self._hand.extend(tiles[self._next : self._next + take])
        self._next += take
        if not self._hand:
            self._finish()

    def _finish(self) -> None:
        self.over = True
        self._outcome.raw_score = self._score
        self._outcome.score = max(0, self._score)
        self._outcome.board = self.board_rows

    def fail(self, reason: str) -> None:
        """End the case with 0 (illegal or unparsable reply, time, crash)."""
        self.over = True
        self._outcome.raw_score = self._score
        self._outcome.score = 0
        self._outcome.board = self.board_rows
        self._outcome.failure = reason

    @property
    def failure(self) -> str | None:
        """Why the case ended with 0, once it has (None while it runs and
        after a normal end)."""
        return self._outcome.failure

    def outcome(self) -> Outcome:
        if not self.over:
            raise RuntimeError("the case is not over")
        return self._outcome


def board_codes(board: Sequence[str]) -> np.ndarray:
    """Board rows as a player's cells (row-major uint8, 0 empty, 1-26 A-Z): the one
    conversion for a starting board (``run --pre``) and the API's state."""
    return np.array(
        [0 if ch == EMPTY else ord(ch) - 64 for row in board for ch in row], dtype=np.uint8
    )


def play_in_process(
    case: Case,
    player: Player,
    is_word: Callable[[str], bool],
    time_limit_ms: float = TIME_LIMIT_MS,
    board: Sequence[str] | None = None,
    more_tiles: str = "",
) -> Outcome:
    """Run one case with a player object in this process. The player's time
    is the wall time of its ``start`` and ``act`` calls; past the limit the
    case scores 0 (a call cannot be interrupted here, so it is judged when it
    returns). ``board``: letters placed before the first turn, given to the
    referee and (``set_board``) to the player. ``more_tiles``: letters queued
    after the case's (an experiment's longer game)."""
    referee = Referee(case, is_word, board, more_tiles)
    started = time.perf_counter()
    player.start(referee.setup())
    if board is not None:
        set_board = getattr(player, "set_board", None)
        if set_board is None:
            raise TypeError("a starting board needs a player with set_board")
        set_board(board_codes(board))
    elapsed = (time.perf_counter() - started) * 1000
    while not referee.over:
        view = referee.turn(elapsed)
        started = time.perf_counter()
        try:
            reply = player.act(view)
        except Exception as exc:  # a crash ends the case with 0, as over the protocol
            referee.fail(f"player crashed: {exc!r}")
            break
        elapsed += (time.perf_counter() - started) * 1000
        if elapsed > time_limit_ms:
            referee.fail(f"time limit: {elapsed:.0f} ms > {time_limit_ms:.0f} ms")
            break
        referee.apply(reply)
    outcome = referee.outcome()
    outcome.elapsed_ms = elapsed
    return outcome
