"""CGP, the crossword-game position format MAGPIE, Macondo and Quackle read.

    <rows separated by '/', digits = runs of empty squares> <rack>/<rack>
    <score>/<score> <consecutive zero-score turns> [<opcode> <args>;]...

Lower-case letters on the board are blanks; '?' in a rack is a blank.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scrabble.position import PositionError
from scrabble.rules import STANDARD, Rules

# ASCII digits only: r"\d" and str.isdigit() also take '²' or Arabic-Indic
# digits, which int() then refuses or reads.
_ROW_TOKEN = re.compile(r"[0-9]+|[A-Za-z]|.")
_SCORES = re.compile(r"-?[0-9]+/-?[0-9]+")
_COUNT = re.compile(r"[0-9]+")
MAX_SCORE_DIGITS = 5
MAX_ZERO_TURN_DIGITS = 2


@dataclass(frozen=True)
class CGP:
    rows: list[str]
    rack: str
    opponent_rack: str = ""
    scores: tuple[int, int] = (0, 0)
    zero_turns: int = 0
    opcodes: dict[str, str] = field(default_factory=dict)


def parse(text: str, rules: Rules = STANDARD, field_name: str = "cgp") -> CGP:
    n = rules.size
    parts = text.strip().split(None, 4)
    if len(parts) < 2:
        raise PositionError(
            field_name, "expected '<board> <racks> [<scores> <zero turns>] [opcodes;]'"
        )
    board_text = parts[0]
    row_texts = board_text.split("/")
    if len(row_texts) != n:
        raise PositionError(field_name, f"board has {len(row_texts)} rows, expected {n}")
    rows = [_row(r, row_text, n, field_name) for r, row_text in enumerate(row_texts)]
    racks = parts[1].split("/")
    if len(racks) > 2:
        raise PositionError(field_name, f"racks {parts[1]!r}: expected '<mover>/<opponent>'")
    rack = racks[0]
    opponent = racks[1] if len(racks) == 2 else ""
    scores = (0, 0)
    zero_turns = 0
    opcodes: dict[str, str] = {}
    rest = parts[2:]
    if rest and _SCORES.fullmatch(rest[0]):
        a, b = rest[0].split("/")
        if max(len(a.lstrip("-")), len(b.lstrip("-"))) > MAX_SCORE_DIGITS:
            raise PositionError(field_name, f"scores have at most {MAX_SCORE_DIGITS} digits each")
        scores = (int(a), int(b))
        rest = rest[1:]
        if rest and _COUNT.fullmatch(rest[0]):
            if len(rest[0]) > MAX_ZERO_TURN_DIGITS:
                raise PositionError(
                    field_name,
                    f"zero-score turns have at most {MAX_ZERO_TURN_DIGITS} digits",
                )
            zero_turns = int(rest[0])
            rest = rest[1:]
    tail = " ".join(rest).strip()
    if tail:
        for op in tail.split(";"):
            op = op.strip()
            if not op:
                continue
            name, _, args = op.partition(" ")
            opcodes[name] = args.strip()
    return CGP(
        rows=rows,
        rack=rack,
        opponent_rack=opponent,
        scores=scores,
        zero_turns=zero_turns,
        opcodes=opcodes,
    )


def _row(r: int, text: str, n: int, field_name: str) -> str:
    """One row's cells, each run's length checked against what is left of the
    row before any string is built: "1000000000" is refused, not allocated."""
    cells = []
    width = 0
    for token in _ROW_TOKEN.findall(text):
        if token.isascii() and token.isdigit():  # not "²": isdigit() alone takes it
            # more digits than the row is wide can never fit: not converted at all
            run = int(token) if len(token) <= len(str(n)) else n + 1
            if width + run > n:
                raise PositionError(field_name, f"row {r} has more than {n} cells")
            cells.append("." * run)
            width += run
        elif token.isascii() and token.isalpha():
            if width + 1 > n:
                raise PositionError(field_name, f"row {r} has more than {n} cells")
            cells.append(token)
            width += 1
        else:
            raise PositionError(
                field_name, f"row {r}: {token!r} is not a letter or a count of empty squares"
            )
    if width != n:
        raise PositionError(field_name, f"row {r} has {width} cells, expected {n}")
    return "".join(cells)


def board_text(rows: list[str]) -> str:
    out = []
    for row in rows:
        parts = []
        run = 0
        for ch in row:
            if ch == ".":
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append(ch)
        if run:
            parts.append(str(run))
        out.append("".join(parts))
    return "/".join(out)


def canonical_rack(rack: str) -> str:
    return "".join(sorted(ch for ch in rack if ch != "?")) + "?" * rack.count("?")


def format_cgp(
    rows: list[str],
    rack: str,
    lexicon: str,
    opponent_rack: str = "",
    scores: tuple[int, int] = (0, 0),
    zero_turns: int = 0,
) -> str:
    return (
        f"{board_text(rows)} {canonical_rack(rack)}/{canonical_rack(opponent_rack)} "
        f"{scores[0]}/{scores[1]} {zero_turns} lex {lexicon};"
    )
