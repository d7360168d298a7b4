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


# The opcodes of the CGP spec (macondo's cgp/README.md). Those that change
# the game (board, tile set, bonus, exchange and zero-turn limits) are read
# and refused unless they name what this engine plays; the others do not
# change which moves are legal or how they score and are checked for form.
OPCODES = ("bb", "bdn", "cr", "etl", "gid", "ld", "lex", "lm", "mcnz", "ti", "tmr", "to")
CHALLENGE_RULES = ("single", "double", "triple", "void", "5pt", "10pt")
# what the CGP calls the rules this engine plays, by Rules.name
BOARD_NAMES = {"standard": "CrosswordGame"}
DISTRIBUTIONS = {"standard": "english"}
ZERO_TURN_LIMIT = 6  # the game ends after six scoreless turns (scrabble.game)

_SCORES = re.compile(r"-?[0-9]+/-?[0-9]+")
_OPCODE = re.compile(r"\s*([^\s;]+)((?:[ \t]+[^;]*?)?)[ \t]*;")
_RACKISH = re.compile(r"[A-Za-z?]*/?[A-Za-z?]*")  # what a rack's remainder looks like
_LEXICON_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


def parse(text: str, rules: Rules = STANDARD, field_name: str = "cgp") -> CGP:
    """Strict: every field in its place, every opcode known, well formed and
    ended by ';', and refused by name when it asks for rules we do not play."""
    n = rules.size
    parts = text.strip().split(None, 2)
    if len(parts) < 2:
        raise PositionError(
            field_name, "expected '<board> <racks> [<scores> <zero turns>] [opcodes;]'"
        )
    rows = _rows(parts[0], n, field_name)
    racks = parts[1].split("/")
    if len(racks) > 2:
        raise PositionError(
            field_name, f"racks {parts[1]!r}: expected '<mover>/<opponent>' (two players)"
        )
    rack = racks[0]
    opponent = racks[1] if len(racks) == 2 else ""
    scores = (0, 0)
    zero_turns = 0
    rest = parts[2] if len(parts) == 3 else ""
    head, _, tail = rest.partition(" ")
    if head and _SCORES.fullmatch(head):
        a, b = head.split("/")
        if max(len(a.lstrip("-")), len(b.lstrip("-"))) > MAX_SCORE_DIGITS:
            raise PositionError(field_name, f"scores have at most {MAX_SCORE_DIGITS} digits each")
        scores = (int(a), int(b))
        rest = tail.strip()
        head, _, tail = rest.partition(" ")
        if _COUNT.fullmatch(head):
            if len(head) > MAX_ZERO_TURN_DIGITS:
                raise PositionError(
                    field_name,
                    f"zero-score turns have at most {MAX_ZERO_TURN_DIGITS} digits",
                )
            zero_turns = int(head)
            rest = tail.strip()
    elif head and _RACKISH.fullmatch(head) and head != head.lower():
        raise PositionError(
            field_name,
            f"{head!r} after the racks {parts[1]!r}: a rack is written without spaces "
            "(expected the scores '<score>/<score>' next)",
        )
    opcodes = _opcodes(rest, rules, field_name)
    return CGP(
        rows=rows,
        rack=rack,
        opponent_rack=opponent,
        scores=scores,
        zero_turns=zero_turns,
        opcodes=opcodes,
    )


def _rows(board_text: str, n: int, field_name: str) -> list[str]:
    row_texts = board_text.split("/")
    if len(row_texts) != n:
        raise PositionError(field_name, f"board has {len(row_texts)} rows, expected {n}")
    return [_row(r, row_text, n, field_name) for r, row_text in enumerate(row_texts)]


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


def _opcodes(text: str, rules: Rules, field_name: str) -> dict[str, str]:
    opcodes: dict[str, str] = {}
    rest = text.strip()
    while rest:
        match = _OPCODE.match(rest)
        if match is None:
            raise PositionError(
                field_name, f"{rest[:40]!r}: an operation is '<opcode> <operands>;' (ends with ';')"
            )
        name, args = match.group(1), match.group(2).strip()
        if name not in OPCODES:
            raise PositionError(
                field_name, f"unknown opcode {name!r}; the CGP opcodes are {', '.join(OPCODES)}"
            )
        if name in opcodes:
            raise PositionError(field_name, f"opcode {name!r} is given twice")
        _check_opcode(name, args, rules, field_name)
        opcodes[name] = args
        rest = rest[match.end() :].strip()
    return opcodes


def _check_opcode(name: str, args: str, rules: Rules, field_name: str) -> None:
    def bad(why: str) -> PositionError:
        return PositionError(field_name, f"opcode {name} {args!r}: {why}")

    def refused(what: str, ours: str) -> PositionError:
        return PositionError(
            field_name,
            f"opcode {name} {args!r} asks for {what} this engine does not play "
            f"(it plays {name} {ours})",
        )

    if name in ("bb", "etl", "mcnz", "ti", "to"):
        if not re.fullmatch(r"[0-9]{1,9}", args):
            raise bad("expected a whole number")
        ours = {
            "bb": rules.bingo_bonus,
            "etl": rules.rack_size,
            "mcnz": ZERO_TURN_LIMIT,
        }.get(name)
        limits = {"bb": "a bingo bonus", "etl": "an exchange limit", "mcnz": "a zero-turn limit"}
        if ours is not None and int(args) != ours:
            raise refused(limits[name], str(ours))
    elif name == "bdn" or name == "ld":
        ours_name = (BOARD_NAMES if name == "bdn" else DISTRIBUTIONS).get(rules.name)
        if not re.fullmatch(r"\S+", args):
            raise bad("expected one name")
        if ours_name is None or args.lower() != ours_name.lower():
            what = "a board" if name == "bdn" else "a letter distribution"
            raise refused(what, ours_name or "none")
    elif name == "lex":
        if not _LEXICON_NAME.fullmatch(args):
            raise bad("expected one lexicon name (letters, digits, '-', '_', '.')")
    elif name == "cr":
        if args.lower() not in CHALLENGE_RULES:
            raise bad(f"expected a challenge rule: {', '.join(CHALLENGE_RULES)}")
    elif name == "gid":
        if not re.fullmatch(r"\S{1,100}", args):
            raise bad("expected one game id without spaces")
    elif name == "tmr":
        if not re.fullmatch(r"-?[0-9]{1,12}(/-?[0-9]{1,12})*", args):
            raise bad("expected milliseconds per player, '/' between them")
    elif name == "lm" and not args:
        raise bad("expected the last move")


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
