"""GCG game records: John Chew's format, as Quackle, Woogles, Macondo and
MAGPIE read and write it (poslfit.com/scrabble/gcg).

Pragma lines ``#keyword arguments`` carry the game's metadata (``#player1``
and ``#player2``: nickname and full name; ``#lexicon``; ``#note`` attached to
the event before it; any other is kept as it is). Event lines, each ending in
the player's cumulative score::

    >nick: RACK 8D WORD +score total     a play ('.' a tile already on the board)
    >nick: RACK - +0 total               a pass (or a lost challenge)
    >nick: RACK -ABC +0 total            an exchange
    >nick: RACK -- -score total          the previous play withdrawn (a phony)
    >nick: RACK (challenge) +5 total     a challenge bonus
    >nick: (RACK) +score total           the opponent's tiles, to the player who went out
    >nick: RACK (RACK) -score total      a player's own tiles, when nobody went out
    >nick: RACK (time) -score total      a time penalty

Parsing is strict: every line must be one of these and every total must
follow from the player's previous one; an error names the line.

Scores follow the tournament convention GCG files use: the player who goes
out adds twice the value of the opponent's rack, the opponent keeps their
score. ``scrabble.game`` scores the end the standard way (the opponent loses
the value, the player gains it once): the spread is the same, each final
total is that value higher here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from scrabble.game import Game
from scrabble.notation import gcg_word, parse_coordinate
from scrabble.position import Position, PositionError, check_tile_supply
from scrabble.rules import STANDARD, Rules
from scrabble.tiles import (
    ACROSS,
    BLANK,
    BLANK_FLAG,
    EMPTY,
    LETTER_MASK,
    rack_counts,
    rack_string,
)

PLAY = "play"
PASS = "pass"
EXCHANGE = "exchange"
WITHDRAWN = "withdrawn"  # '--': the previous play taken back
CHALLENGE_BONUS = "challenge_bonus"
OUT_BONUS = "out_bonus"  # '(RACK) +N': the opponent's tiles
RACK_PENALTY = "rack_penalty"  # 'RACK (RACK) -N': one's own tiles
TIME_PENALTY = "time_penalty"
TURNS = (PLAY, PASS, EXCHANGE)  # the events that are a player's turn
MAX_LINES = 2000
MAX_LINE = 500


class GCGError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Player:
    nickname: str
    name: str


@dataclass(frozen=True)
class Event:
    player: int  # 0 or 1
    kind: str
    rack: str  # as recorded (may be partial or empty)
    score: int  # signed: the change this event made to the player's score
    total: int  # the player's score after it
    position: str = ""  # a play's coordinate ('8D', 'H4')
    word: str = ""  # a play's tiles, '.' for a tile already on the board
    exchanged: str = ""  # an exchange's tiles (empty when only the count is known)
    exchanged_count: int = 0
    note: str = ""
    line: int = 0  # where it was read (0: built, not read)


@dataclass(frozen=True)
class GameRecord:
    players: tuple[Player, Player]
    events: tuple[Event, ...]
    lexicon: str | None = None
    pragmata: tuple[tuple[str, str], ...] = ()  # the others, in order: (keyword, arguments)
    note: str = ""  # notes before the first event

    def final_scores(self) -> tuple[int, int]:
        totals = [0, 0]
        for event in self.events:
            totals[event.player] = event.total
        return totals[0], totals[1]


# -- reading ---------------------------------------------------------------

_RACK = r"[A-Z?]*"
_NUMBER = r"\d{1,5}"
_EVENT_BODIES = [
    (PLAY, re.compile(rf"({_RACK})\s+(\w{{2,3}})\s+([A-Za-z.]+)\s+\+({_NUMBER})\s+(-?{_NUMBER})(?:\s.*)?")),  # noqa: E501
    (PASS, re.compile(rf"({_RACK})\s+-\s+\+0\s+(-?{_NUMBER})")),
    (WITHDRAWN, re.compile(rf"({_RACK})\s+--\s+-({_NUMBER})\s+(-?{_NUMBER})")),
    (EXCHANGE, re.compile(rf"({_RACK})\s+-([A-Z?]+|\d)\s+\+0\s+(-?{_NUMBER})")),
    (CHALLENGE_BONUS, re.compile(rf"({_RACK})\s*\(challenge\)\s+\+({_NUMBER})\s+(-?{_NUMBER})")),
    (TIME_PENALTY, re.compile(rf"({_RACK})\s*\(time\)\s+-({_NUMBER})\s+(-?{_NUMBER})")),
    (OUT_BONUS, re.compile(rf"\(({_RACK})\)\s+\+({_NUMBER})\s+(-?{_NUMBER})")),
    (RACK_PENALTY, re.compile(rf"({_RACK})\s+\(({_RACK})\)\s+-({_NUMBER})\s+(-?{_NUMBER})")),
]  # fmt: skip
_EVENT = re.compile(r">\s*([^\s:]+)\s*:\s*(.*)")


def decode(raw: bytes) -> str:
    """A GCG file's text: UTF-8 when it says so or is valid UTF-8, else
    ISO 8859-1 (the format's default)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def parse(text: str) -> GameRecord:
    lines = re.split(r"\r\n|\r|\n", text)
    if len(lines) > MAX_LINES:
        raise GCGError(MAX_LINES + 1, f"a record has at most {MAX_LINES} lines")
    players: list[Player | None] = [None, None]
    lexicon: str | None = None
    pragmata: list[tuple[str, str]] = []
    events: list[Event] = []
    game_note: list[str] = []
    totals = [0, 0]
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if len(line) > MAX_LINE:
            raise GCGError(number, f"is {len(line)} characters long, at most {MAX_LINE}")
        if line.startswith("#"):
            keyword, _, args = line[1:].partition(" ")
            args = args.strip()
            if keyword in ("player1", "player2"):
                if events:
                    raise GCGError(number, f"#{keyword} comes after the first move")
                nick, _, name = args.partition(" ")
                if not nick:
                    raise GCGError(number, f"#{keyword} needs a nickname (and a full name)")
                players[int(keyword[-1]) - 1] = Player(nick, name.strip() or nick)
            elif keyword == "lexicon":
                if not args:
                    raise GCGError(number, "#lexicon needs a name")
                lexicon = args
            elif keyword == "note":
                if events:
                    last = events[-1]
                    joined = f"{last.note}\n{args}" if last.note else args
                    events[-1] = replace(last, note=joined)
                else:
                    game_note.append(args)
            elif keyword == "character-encoding":
                if number != 1:
                    raise GCGError(number, "#character-encoding must be the first line")
                if args.lower().replace("-", "") not in ("utf8", "iso88591", "latin1"):
                    raise GCGError(
                        number, f"character encoding {args!r} is not UTF-8 or ISO-8859-1"
                    )
            elif not re.fullmatch(r"[a-z][a-z0-9-]*", keyword):
                raise GCGError(number, f"{line[:30]!r} is not a pragma ('#keyword arguments')")
            else:
                pragmata.append((keyword, args))
            continue
        if not line.startswith(">"):
            raise GCGError(number, f"{line[:30]!r} is neither a pragma ('#') nor an event ('>')")
        if players[0] is None or players[1] is None:
            raise GCGError(number, "an event before #player1 and #player2 name both players")
        event = _event(number, line, (players[0], players[1]))
        if event.kind == WITHDRAWN:
            before = events[-1] if events else None
            if before is None or before.kind != PLAY or before.player != event.player:
                raise GCGError(
                    number, "'--' takes back the play just before it, by the same player"
                )
            if -event.score != before.score:
                raise GCGError(
                    number, f"'--' takes back {-event.score} points, the play scored {before.score}"
                )
        expected = totals[event.player] + event.score
        if event.total != expected:
            raise GCGError(
                number,
                f"total {event.total} does not follow: {totals[event.player]} "
                f"{'+' if event.score >= 0 else '-'} {abs(event.score)} = {expected}",
            )
        totals[event.player] = event.total
        events.append(event)
    if players[0] is None or players[1] is None:
        raise GCGError(len(lines), "the record does not name both players (#player1, #player2)")
    if players[0].nickname == players[1].nickname:
        raise GCGError(1, f"both players have the nickname {players[0].nickname!r}")
    return GameRecord(
        players=(players[0], players[1]),
        events=tuple(events),
        lexicon=lexicon,
        pragmata=tuple(pragmata),
        note="\n".join(game_note),
    )


def _event(number: int, line: str, players: tuple[Player, Player]) -> Event:
    head = _EVENT.fullmatch(line)
    if head is None:
        raise GCGError(number, "an event is '>nickname: ...'")
    nick, body = head.group(1), head.group(2).strip()
    who = [p.nickname for p in players]
    if nick not in who:
        raise GCGError(number, f"{nick!r} is neither player ({who[0]}, {who[1]})")
    player = who.index(nick)
    for kind, pattern in _EVENT_BODIES:
        match = pattern.fullmatch(body)
        if match is None:
            continue
        g = match.groups()
        if kind == PLAY:
            try:
                row, col, _ = parse_coordinate(g[1])
            except ValueError as exc:
                raise GCGError(number, str(exc)) from None
            return Event(player, PLAY, g[0], int(g[3]), int(g[4]), position=g[1].upper(),
                         word=g[2], line=number)  # fmt: skip
        if kind == PASS:
            return Event(player, PASS, g[0], 0, int(g[1]), line=number)
        if kind == EXCHANGE:
            tiles, count = (g[1], len(g[1])) if not g[1].isdigit() else ("", int(g[1]))
            return Event(player, EXCHANGE, g[0], 0, int(g[2]), exchanged=tiles,
                         exchanged_count=count, line=number)  # fmt: skip
        if kind == WITHDRAWN:
            return Event(player, WITHDRAWN, g[0], -int(g[1]), int(g[2]), line=number)
        if kind == CHALLENGE_BONUS:
            return Event(player, CHALLENGE_BONUS, g[0], int(g[1]), int(g[2]), line=number)
        if kind == TIME_PENALTY:
            return Event(player, TIME_PENALTY, g[0], -int(g[1]), int(g[2]), line=number)
        if kind == OUT_BONUS:
            return Event(player, OUT_BONUS, g[0], int(g[1]), int(g[2]), line=number)
        if g[0] != g[1]:
            raise GCGError(number, f"a rack penalty repeats the rack: {g[0]} ({g[0]})")
        return Event(player, RACK_PENALTY, g[0], -int(g[2]), int(g[3]), line=number)
    raise GCGError(
        number,
        f"{body[:40]!r} is not a GCG event: 'RACK 8D WORD +score total', 'RACK - +0 total', "
        "'RACK -ABC +0 total', 'RACK -- -score total', '(RACK) +score total', ...",
    )


# -- writing ---------------------------------------------------------------


def _event_line(event: Event, nick: str) -> str:
    body = {
        PLAY: lambda e: f"{e.rack} {e.position} {e.word} +{e.score} {e.total}",
        PASS: lambda e: f"{e.rack} - +0 {e.total}",
        EXCHANGE: lambda e: f"{e.rack} -{e.exchanged or e.exchanged_count} +0 {e.total}",
        WITHDRAWN: lambda e: f"{e.rack} -- -{-e.score} {e.total}",
        CHALLENGE_BONUS: lambda e: f"{e.rack} (challenge) +{e.score} {e.total}",
        TIME_PENALTY: lambda e: f"{e.rack} (time) -{-e.score} {e.total}",
        OUT_BONUS: lambda e: f"({e.rack}) +{e.score} {e.total}",
        RACK_PENALTY: lambda e: f"{e.rack} ({e.rack}) -{-e.score} {e.total}",
    }[event.kind](event)
    return f">{nick}: {body}"


def format_gcg(record: GameRecord) -> str:
    names = [record.players[0].nickname, record.players[1].nickname]
    lines = []
    text_bits = [p.name for p in record.players] + [record.note] + [e.note for e in record.events]
    if not all(bit.isascii() for bit in text_bits):
        lines.append("#character-encoding UTF-8")
    for i, player in enumerate(record.players, start=1):
        lines.append(f"#player{i} {player.nickname} {player.name}")
    if record.lexicon:
        lines.append(f"#lexicon {record.lexicon}")
    lines.extend(f"#{keyword} {args}".rstrip() for keyword, args in record.pragmata)
    lines.extend(f"#note {line}" for line in record.note.splitlines())
    for event in record.events:
        lines.append(_event_line(event, names[event.player]))
        lines.extend(f"#note {line}" for line in event.note.splitlines())
    return "\n".join(lines) + "\n"


# -- replaying ---------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """The game just before ``event``: the board and both scores."""

    event: Event
    index: int  # into record.events
    board: npt.NDArray[np.uint8]
    scores: tuple[int, int]
    zero_turns: int  # consecutive scoreless turns before it
    placed: tuple[tuple[int, int, int], ...] = field(default=())  # a play's (row, col, code)


def play_tiles(
    board: npt.NDArray[np.uint8], position: str, word: str, rules: Rules = STANDARD
) -> list[tuple[int, int, int]]:
    """The tiles a recorded play puts on ``board``: (row, col, cell code). A
    '.' or a letter on an occupied square is a tile already there (it must
    match); ValueError when the play does not fit."""
    n = rules.size
    row, col, direction = parse_coordinate(position)
    dr, dc = (0, 1) if direction == ACROSS else (1, 0)
    tiles = []
    for k, letter in enumerate(word):
        r, c = row + k * dr, col + k * dc
        if not (0 <= r < n and 0 <= c < n):
            raise ValueError(f"{position} {word} runs off the board")
        held = int(board[r * n + c])
        if letter == ".":
            if held == EMPTY:
                raise ValueError(f"{position} {word}: '.' at an empty square")
            continue
        if held != EMPTY:
            if held & LETTER_MASK != ord(letter.upper()) - 64:
                raise ValueError(
                    f"{position} {word}: {letter} is played on a square holding a tile"
                )
            continue
        tiles.append((r, c, (ord(letter.upper()) - 64) | (BLANK_FLAG if letter.islower() else 0)))
    if not tiles:
        raise ValueError(f"{position} {word} places no tile")
    return tiles


def _check_rack(board: npt.NDArray[np.uint8], rack: str,
                placed: list[tuple[int, int, int]], rules: Rules) -> None:  # fmt: skip
    """A recorded rack holds the tiles its play places (when it is recorded)
    and fits the tile set with the board."""
    if len(rack) > rules.rack_size:
        raise ValueError(f"rack {rack} has {len(rack)} tiles, at most {rules.rack_size}")
    if not rack:
        return
    counts = rack_counts(rack).astype(np.int32)
    for _, _, code in placed:
        counts[BLANK if code & BLANK_FLAG else (code & LETTER_MASK) - 1] -= 1
    if (counts < 0).any():
        raise ValueError(f"the play places tiles the rack {rack} does not hold")
    check_tile_supply(board, rack_counts(rack), rules)


def replay(record: GameRecord, rules: Rules = STANDARD) -> Iterator[Snapshot]:
    """Every event with the game just before it; plays go on the board as
    recorded (a phony stays until a '--' line takes it back). A GCGError names
    the line of a play that does not fit the board or a rack that the tile
    set cannot hold."""
    n = rules.size
    board = np.zeros(n * n, dtype=np.uint8)
    scores = [0, 0]
    zero_turns = 0
    last_play: list[tuple[int, int, int]] = []
    for index, event in enumerate(record.events):
        placed: list[tuple[int, int, int]] = []
        if event.kind == PLAY:
            try:
                placed = play_tiles(board, event.position, event.word, rules)
                _check_rack(board, event.rack, placed, rules)
            except (ValueError, PositionError) as exc:
                raise GCGError(event.line, str(exc)) from None
        yield Snapshot(event, index, board.copy(), (scores[0], scores[1]), zero_turns,
                       tuple(placed))  # fmt: skip
        if event.kind == PLAY:
            for r, c, code in placed:
                board[r * n + c] = code
            last_play = placed
        elif event.kind == WITHDRAWN:
            for r, c, _ in last_play:
                board[r * n + c] = EMPTY
            last_play = []
        if event.kind in TURNS or event.kind == WITHDRAWN:
            zero_turns = 0 if event.kind == PLAY and event.score > 0 else zero_turns + 1
            if event.kind == WITHDRAWN:
                zero_turns = 1  # the phony's turn scored nothing after all
        scores[event.player] = event.total


def board_rows(board: npt.NDArray[np.uint8], rules: Rules = STANDARD) -> list[str]:
    return Position(board=board, rack=np.zeros(27, dtype=np.uint8), rules=rules).rows()


# -- from a self-played game -------------------------------------------------


def record_of(game: Game, names: tuple[str, str] = ("p1", "p2"),
              lexicon: str | None = None, title: str = "") -> GameRecord:  # fmt: skip
    """The GCG record of a ``scrabble.game.Game`` (with its end, once over)."""
    events: list[Event] = []
    for turn in game.history:
        if turn.kind == "play":
            position, word = gcg_word(turn.notation)
            events.append(Event(turn.player, PLAY, turn.rack, turn.score, turn.total,
                                position=position, word=word))  # fmt: skip
        elif turn.kind == "exchange":
            thrown = turn.notation
            events.append(Event(turn.player, EXCHANGE, turn.rack, 0, turn.total,
                                exchanged=thrown, exchanged_count=len(thrown)))  # fmt: skip
        else:
            events.append(Event(turn.player, PASS, turn.rack, 0, turn.total))
    if game.over:
        totals = [game.scores[p] - game.adjustments[p] for p in (0, 1)]
        racks = [rack_string(game.racks[p]) for p in (0, 1)]
        values = [game.rack_value(p) for p in (0, 1)]
        if game.out_player is not None:
            out = game.out_player
            totals[out] += 2 * values[1 - out]
            events.append(Event(out, OUT_BONUS, racks[1 - out], 2 * values[1 - out], totals[out]))
        else:
            for p in (game.to_move, 1 - game.to_move):
                totals[p] -= values[p]
                events.append(Event(p, RACK_PENALTY, racks[p], -values[p], totals[p]))
    pragmata = (("title", title),) if title else ()
    return GameRecord(
        players=(Player(names[0], names[0]), Player(names[1], names[1])),
        events=tuple(events),
        lexicon=lexicon,
        pragmata=pragmata,
    )
