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

_ROW_TOKEN = re.compile(r"\d+|[A-Za-z]|.")


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
    rows = []
    for r, row_text in enumerate(row_texts):
        cells = []
        for token in _ROW_TOKEN.findall(row_text):
            if token.isdigit():
                cells.append("." * int(token))
            elif token.isascii() and token.isalpha():
                cells.append(token)
            else:
                raise PositionError(
                    field_name, f"row {r}: {token!r} is not a letter or a count of empty squares"
                )
        row = "".join(cells)
        if len(row) != n:
            raise PositionError(field_name, f"row {r} has {len(row)} cells, expected {n}")
        rows.append(row)
    racks = parts[1].split("/")
    if len(racks) > 2:
        raise PositionError(field_name, f"racks {parts[1]!r}: expected '<mover>/<opponent>'")
    rack = racks[0]
    opponent = racks[1] if len(racks) == 2 else ""
    scores = (0, 0)
    zero_turns = 0
    opcodes: dict[str, str] = {}
    rest = parts[2:]
    if rest and re.fullmatch(r"-?\d+/-?\d+", rest[0]):
        a, b = rest[0].split("/")
        scores = (int(a), int(b))
        rest = rest[1:]
        if rest and rest[0].isdigit():
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
