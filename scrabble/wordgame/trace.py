"""One case played turn by turn, with each decision's value in named terms.

What a bot author reads to see why a player did what it did (``scripts/
wordgame.py trace``): per turn what the player saw (tiles left, score, hand,
visible tiles), what it answered, the points it made, its time, the value it
gave the action, the value's terms, the next best alternatives, and the
planner's target slot. The player is run by the same referee as ``run``; the
recorder only reads what the player kept of its last decision
(``last_choice``, ``target``), so a traced game is the game ``run`` plays.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from scrabble.wordgame.cases import Case
from scrabble.wordgame.referee import GameSetup, Outcome, Player, TurnView, play_in_process
from scrabble.wordgame.window import Window


@dataclass(frozen=True)
class TurnRecord:
    number: int  # 1-based
    queue_left: int
    score: int  # before the action
    hand: str
    visible: str
    reply: str
    ms: float  # the player's time for the turn
    value: float | None = None  # None: the player keeps no decision
    terms: dict[str, float] = field(default_factory=dict)
    alternatives: tuple[tuple[str, float], ...] = ()
    target: str | None = None  # the planner's target slot, the one the decision served
    points: int | None = None  # the action's points (a discard's cost negative), once known


@dataclass
class Trace:
    outcome: Outcome
    turns: list[TurnRecord]
    board: list[str]  # the final board, rows of letters and '.'


class Recorder:
    """A player wrapped so that each turn is recorded; it answers exactly what
    the wrapped player answers."""

    def __init__(
        self,
        player: Player,
        premiums: tuple[str, ...],
        alternatives: int = 0,
        sink: Callable[[TurnRecord], None] | None = None,
    ) -> None:
        """``sink``: called with each turn's record as soon as it is made (its
        points not yet known), e.g. to log a game an outside referee runs."""
        self.player = player
        self.premiums = premiums
        self.alternatives = alternatives
        self.sink = sink
        self.turns: list[TurnRecord] = []

    def start(self, setup: GameSetup) -> None:
        self.player.start(setup)

    def act(self, turn: TurnView) -> str:
        started = time.perf_counter()
        reply = self.player.act(turn)
        ms = (time.perf_counter() - started) * 1000
        choice = getattr(self.player, "last_choice", None)
        target = getattr(self.player, "target", None)
        record = TurnRecord(
            number=len(self.turns) + 1,
            queue_left=turn.queue_left,
            score=turn.score,
            hand=turn.hand,
            visible=turn.visible,
            reply=reply,
            ms=ms,
            value=None if choice is None else choice.value,
            terms={} if choice is None else dict(choice.terms),
            alternatives=()
            if choice is None
            else tuple((a.line(), v) for a, v, _ in choice.alternatives[: self.alternatives]),
            target=None if target is None else Window.of_slot(target, self.premiums).label(),
        )
        self.turns.append(record)
        if self.sink is not None:
            self.sink(record)
        return reply


def trace_case(
    case: Case,
    player: Player,
    is_word: Callable[[str], bool],
    time_limit_ms: float,
    alternatives: int = 0,
) -> Trace:
    recorder = Recorder(player, case.premiums, alternatives)
    outcome = play_in_process(case, recorder, is_word, time_limit_ms)
    turns = recorder.turns
    # a turn's points: the score before the next turn (or the raw final score) less its own
    after = [t.score for t in turns[1:]] + [outcome.raw_score]
    with_points = [
        replace(t, points=later - t.score) for t, later in zip(turns, after, strict=True)
    ]
    return Trace(outcome, with_points, outcome.board)


def turn_line(record: TurnRecord) -> str:
    """One turn as a line of text; the alternatives on lines of their own."""
    terms = " ".join(f"{name}={value:.1f}" for name, value in record.terms.items() if value)
    value = "" if record.value is None else f" value={record.value:.1f}"
    points = "" if record.points is None else f" points={record.points:5d}"
    line = (
        f"{record.number:3d} left={record.queue_left:4d} score={record.score:6d} "
        f"hand={record.hand or '-':9s} visible={record.visible or '-':5s} "
        f"{record.reply:32s}{points}{value} time={record.ms / 1000:.2f}s"
    )
    if terms:
        line += f" [{terms}]"
    if record.target is not None:
        line += f" target={record.target}"
    for reply, alt_value in record.alternatives:
        line += f"\n      or {reply:32s} value={alt_value:.1f}"
    return line


def board_lines(board: list[str], premiums: tuple[str, ...]) -> list[str]:
    """The final board beside the premium map (legend ``.dtDT``), row by row."""
    width = len(board[0]) if board else 0
    head = f"    {'board':{width}s}   premiums"
    return [head] + [
        f"{r:2d}  {row}   {premium}"
        for r, (row, premium) in enumerate(zip(board, premiums, strict=True))
    ]
