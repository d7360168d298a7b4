"""Is a move legal, and if not, why: the rules checked one at a time.

The engines are the authority: a placement is legal exactly when it is among
the placements the move generator found for the position (``MoveList``). The
checks below only explain a refusal, in the order a player would look: on the
board, the squares as written, the rack, the connection, then the words. They
also score any placement whose tiles fit the board (a phony scores what it
would have), with the rules' premiums, in plain Python: a second, independent
scorer that the tests hold equal to the engines' for every legal move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import COL, DIRECTION, LENGTH, ROW, MoveList
from scrabble.notation import (
    ExchangeText,
    MoveText,
    PassText,
    PlacementText,
    coordinate,
    letter_of,
    move_at,
)
from scrabble.position import Position
from scrabble.tiles import (
    ACROSS,
    ALPHABET,
    BLANK,
    BLANK_FLAG,
    DOWN,
    EMPTY,
    LETTER_MASK,
    NEW_FLAG,
    RACK_TYPES,
    rack_string,
)

PLAY, EXCHANGE, PASS = "play", "exchange", "pass"


@dataclass(frozen=True)
class Word:
    word: str  # blanks lower case
    coordinate: str
    main: bool
    valid: bool


@dataclass(frozen=True)
class Verdict:
    kind: str  # "play" | "exchange" | "pass"
    legal: bool
    rule: str | None = None  # which rule a refused move breaks (a stable code)
    reason: str | None = None  # the same, in words
    # points, from the rules (not the engines): a placement's even when it is
    # refused, once its tiles fit the board and the rack
    score: int | None = None
    index: int | None = None  # the placement's row in the MoveList (legal plays)
    notation: str | None = None  # canonical: 'G2 SCOLDI(N)G', '-ABC', '-'
    thrown: npt.NDArray[np.int64] | None = field(default=None, repr=False)  # exchange
    words: tuple[Word, ...] = ()


def _refuse(kind: str, rule: str, reason: str, **extra: object) -> Verdict:
    return Verdict(kind=kind, legal=False, rule=rule, reason=reason, **extra)  # type: ignore[arg-type]


def _square(row: int, col: int) -> str:
    return f"{ALPHABET[col]}{row + 1}" if 0 <= col < 26 else f"?{row + 1}"


def judge(position: Position, lexicon: Lexicon, moves: MoveList, move: MoveText) -> Verdict:
    """``moves``: every placement of ``position`` (``TrieEngine.generate``)."""
    if isinstance(move, PassText):
        return Verdict(kind=PASS, legal=True, score=0, notation="-")
    if isinstance(move, ExchangeText):
        return _exchange(position, move)
    return _placement(position, lexicon, moves, move)


def _exchange(position: Position, move: ExchangeText) -> Verdict:
    thrown = np.zeros(RACK_TYPES, dtype=np.int64)
    for ch in move.tiles:
        thrown[BLANK if ch == "?" else ord(ch) - 65] += 1
    notation = f"-{rack_string(thrown)}"
    rack = position.rack.astype(np.int64)
    short = np.nonzero(thrown > rack)[0]
    if len(short):
        tile = int(short[0])
        symbol = "?" if tile == BLANK else ALPHABET[tile]
        return _refuse(
            EXCHANGE,
            "not_on_rack",
            f"tiles not on the rack: the exchange throws back {int(thrown[tile])} {symbol}, "
            f"the rack {position.rack_string()} holds {int(rack[tile])}",
            notation=notation,
        )
    rack_size = position.rules.rack_size
    if position.bag_count < rack_size:
        return _refuse(
            EXCHANGE,
            "bag_too_small",
            f"the bag holds {position.bag_count} tiles; an exchange needs at least {rack_size}",
            notation=notation,
        )
    return Verdict(kind=EXCHANGE, legal=True, score=0, notation=notation, thrown=thrown)


def _line_word(
    board: npt.NDArray[np.uint8], n: int, row: int, col: int, direction: int
) -> tuple[int, int, list[int]]:
    """The run of tiles through (row, col) along ``direction`` on ``board``:
    its first square and its cell codes."""
    dr, dc = (0, 1) if direction == ACROSS else (1, 0)
    r, c = row, col
    while 0 <= r - dr and 0 <= c - dc and board[(r - dr) * n + c - dc] != EMPTY:
        r, c = r - dr, c - dc
    start = (r, c)
    codes = []
    while r < n and c < n and board[r * n + c] != EMPTY:
        codes.append(int(board[r * n + c]))
        r, c = r + dr, c + dc
    return start[0], start[1], codes


def _text(codes: list[int]) -> str:
    return "".join(letter_of(code) for code in codes)


def _placement(
    position: Position, lexicon: Lexicon, moves: MoveList, move: PlacementText
) -> Verdict:
    rules = position.rules
    n = rules.size
    board = position.board
    squares = move.squares()
    first, last = squares[0], squares[-1]
    if not (0 <= first[0] < n and 0 <= first[1] < n and last[0] < n and last[1] < n):
        return _refuse(
            PLAY,
            "off_board",
            f"off the board: {move.coordinate} {''.join(move.letters)} runs from "
            f"{_square(*first)} to {_square(*last)}; the board is {n}x{n} "
            f"(columns A-{ALPHABET[n - 1]}, rows 1-{n})",
        )
    after = board.copy()
    new: list[tuple[int, int, int]] = []  # (row, col, cell code)
    for (row, col), letter, through in zip(squares, move.letters, move.through, strict=True):
        held = int(board[row * n + col])
        if through:
            if held == EMPTY:
                return _refuse(
                    PLAY,
                    "not_on_board",
                    f"{_square(row, col)} is empty: a letter in parentheses (or '.') "
                    "must already be on the board",
                )
            if letter != "." and letter.upper() != letter_of(held).upper():
                return _refuse(
                    PLAY,
                    "not_on_board",
                    f"{_square(row, col)} holds {letter_of(held)}, not {letter.upper()}",
                )
        elif held != EMPTY:
            return _refuse(
                PLAY,
                "occupied",
                f"{_square(row, col)} already holds {letter_of(held)}: write a board "
                f"letter in parentheses, ({letter_of(held)})",
            )
        else:
            code = (ord(letter.upper()) - 64) | (BLANK_FLAG if letter.islower() else 0)
            new.append((row, col, code))
            after[row * n + col] = code
    if not new:
        return _refuse(PLAY, "no_tiles", "places no tile: every letter is already on the board")
    dr, dc = (0, 1) if move.direction == ACROSS else (1, 0)
    for r, c in ((first[0] - dr, first[1] - dc), (last[0] + dr, last[1] + dc)):
        if 0 <= r < n and 0 <= c < n and board[r * n + c] != EMPTY:
            _, _, whole = _line_word(after, n, first[0], first[1], move.direction)
            return _refuse(
                PLAY,
                "word_continues",
                f"the word runs on into {_square(r, c)} ({letter_of(int(board[r * n + c]))}): "
                f"the whole word there is {_text(whole)}",
            )
    rack_check = _rack_check(position, new)
    if rack_check is not None:
        return rack_check
    connection = _connection_check(position, squares, move.through, new)
    if connection is not None:
        return connection
    # the main word: a single tile's is the longer way it reads (across first,
    # as the engines list it), else the written direction
    direction = move.direction
    if len(new) == 1:
        row, col, _ = new[0]
        across = _line_word(after, n, row, col, ACROSS)
        down = _line_word(after, n, row, col, DOWN)
        if len(across[2]) >= 2:
            direction = ACROSS
        elif len(down[2]) >= 2:
            direction = DOWN
        else:
            return _refuse(PLAY, "too_short", "a single tile must form a word of 2 or more letters")
    start_row, start_col, main = _line_word(after, n, new[0][0], new[0][1], direction)
    words = [Word(_text(main), coordinate(start_row, start_col, direction), True, False)]
    placed = {(row, col) for row, col, _ in new}
    for row, col, _ in new:
        cr, cc, cross = _line_word(after, n, row, col, 1 - direction)
        if len(cross) >= 2:
            words.append(Word(_text(cross), coordinate(cr, cc, 1 - direction), False, False))
    words = [Word(w.word, w.coordinate, w.main, lexicon.contains(w.word.upper())) for w in words]
    score = _score(position, after, new, direction, placed)
    codes = [
        code | (NEW_FLAG if (start_row + k * (direction == DOWN),
                             start_col + k * (direction == ACROSS)) in placed else 0)
        for k, code in enumerate(main)
    ]  # fmt: skip
    index = _find(moves, start_row, start_col, direction, codes)
    if index is not None:
        return Verdict(
            kind=PLAY,
            legal=True,
            score=score,
            index=index,
            notation=move_at(moves, index).notation,
            words=tuple(words),
        )
    extra = {"score": score, "words": tuple(words)}
    if not words[0].valid:
        return _refuse(PLAY, "not_a_word", f"not a word: {words[0].word.upper()}", **extra)
    for word in words[1:]:
        if not word.valid:
            return _refuse(
                PLAY,
                "cross_word",
                f"a cross word is not a word: {word.word.upper()} at {word.coordinate}",
                **extra,
            )
    # every rule checked here holds, yet the generator did not find it
    return _refuse(PLAY, "not_generated", "not among the moves the engine generates", **extra)


def _rack_check(position: Position, new: list[tuple[int, int, int]]) -> Verdict | None:
    need = np.zeros(RACK_TYPES, dtype=np.int64)
    for _, _, code in new:
        need[BLANK if code & BLANK_FLAG else (code & LETTER_MASK) - 1] += 1
    rack = position.rack.astype(np.int64)
    short = np.nonzero(need > rack)[0]
    if not len(short):
        return None
    tile = int(short[0])
    shown = position.rack_string()
    if tile == BLANK:
        why = (
            f"it plays {int(need[tile])} blank(s) (lower-case letters), "
            f"the rack {shown} holds {int(rack[tile])}"
        )
    else:
        letter = ALPHABET[tile]
        why = f"it places {int(need[tile])} {letter}, the rack {shown} holds {int(rack[tile])}"
        if rack[BLANK]:
            why += " (a blank is written in lower case)"
    return _refuse(PLAY, "not_on_rack", f"tiles not on the rack: {why}")


def _connection_check(
    position: Position,
    squares: list[tuple[int, int]],
    through: tuple[bool, ...],
    new: list[tuple[int, int, int]],
) -> Verdict | None:
    rules = position.rules
    n = rules.size
    board = position.board
    if position.is_empty:
        if rules.opening == "start":
            start = rules.start
            assert start is not None
            if not any((row, col) == start for row, col, _ in new):
                return _refuse(
                    PLAY,
                    "start_square",
                    f"the first move must cover the start square {_square(*start)}",
                )
        return None
    plays_through = any(through)
    if rules.connection == "through":
        if not plays_through:
            return _refuse(
                PLAY, "not_connected", "not connected: the word must use a tile on the board"
            )
        return None
    touches = plays_through or any(
        0 <= row + dr < n and 0 <= col + dc < n and board[(row + dr) * n + col + dc] != EMPTY
        for row, col, _ in new
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
    )
    if not touches:
        return _refuse(
            PLAY,
            "not_connected",
            "not connected: the move neither touches nor plays through a tile on the board",
        )
    return None


def _score(
    position: Position,
    after: npt.NDArray[np.uint8],
    new: list[tuple[int, int, int]],
    direction: int,
    placed: set[tuple[int, int]],
) -> int:
    """The placement's score, from the rules alone (premiums count under new
    tiles only; a blank is worth 0)."""
    rules = position.rules
    n = rules.size

    def value(code: int) -> int:
        return 0 if code & BLANK_FLAG else rules.letter_values[letter_of(code)]

    def word_score(row: int, col: int, along: int) -> tuple[int, int]:
        start_row, start_col, codes = _line_word(after, n, row, col, along)
        total, mult = 0, 1
        for k, code in enumerate(codes):
            r = start_row + k * (along == DOWN)
            c = start_col + k * (along == ACROSS)
            if (r, c) in placed:
                total += value(code) * int(rules.letter_mult[r * n + c])
                mult *= int(rules.word_mult[r * n + c])
            else:
                total += value(code)
        return total * mult, len(codes)

    score, _ = word_score(new[0][0], new[0][1], direction)
    for row, col, _ in new:
        cross, length = word_score(row, col, 1 - direction)
        if length >= 2:
            score += cross
    if len(new) == rules.rack_size:
        score += rules.bingo_bonus
    return score


def _find(moves: MoveList, row: int, col: int, direction: int, codes: list[int]) -> int | None:
    length = len(codes)
    if len(moves) == 0 or length > moves.words.shape[1]:
        return None
    meta = moves.meta
    same = (
        (meta[:, ROW] == row)
        & (meta[:, COL] == col)
        & (meta[:, DIRECTION] == direction)
        & (meta[:, LENGTH] == length)
    )
    candidates = np.nonzero(same)[0]
    if not len(candidates):
        return None
    want = np.array(codes, dtype=np.uint8)
    hits = candidates[(moves.words[candidates, :length] == want).all(axis=1)]
    return int(hits[0]) if len(hits) else None
