"""The way out of the engine: moves as notation and as JSON-ready objects.

This is the one place where a direction becomes "across"/"down" (or the golden
files' "H"/"V"), a cell code a letter, and a move the standard notation:
``8H`` across (row first), ``H8`` down (column first), letters already on the
board in parentheses (``8D ST(A)INER``), blanks in lower case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from scrabble.equity.actions import EXCHANGE
from scrabble.equity.draw import p_at_least_one
from scrabble.equity.millipoints import to_points
from scrabble.moves import PLACED, MoveList, leave_of
from scrabble.tiles import (
    ACROSS,
    ALPHABET,
    BLANK_FLAG,
    DOWN,
    LETTER_MASK,
    NEW_FLAG,
    RACK_SYMBOLS,
    RACK_TYPES,
    rack_string,
)

if TYPE_CHECKING:  # annotations only: the equity modules use this one's move text
    from scrabble.equity.evaluate import Breakdown, Evaluation
    from scrabble.position import Position
    from scrabble.review import Appraisal, GameReview

DIRECTION_NAMES = ("across", "down")
GOLDEN_DIRECTIONS = ("H", "V")

# code & (LETTER_MASK | BLANK_FLAG) -> the letter as shown: upper case, lower for a blank
_LETTERS = ["?"] * 64
for _i, _ch in enumerate(ALPHABET):
    _LETTERS[_i + 1] = _ch
    _LETTERS[_i + 1 + BLANK_FLAG] = _ch.lower()


def letter_of(code: int) -> str:
    return _LETTERS[code & (LETTER_MASK | BLANK_FLAG)]


def coordinate(row: int, col: int, direction: int) -> str:
    """Standard notation: '8H' across (row first), 'H8' down (column first)."""
    return f"{row + 1}{ALPHABET[col]}" if direction == ACROSS else f"{ALPHABET[col]}{row + 1}"


@dataclass(frozen=True)
class Move:
    row: int
    col: int
    direction: int
    word: str  # the whole main word, blanks lower case
    tiles: tuple[tuple[int, int, str], ...]  # (row, col, letter) placed by this move
    score: int
    notation: str

    @property
    def direction_name(self) -> str:
        return DIRECTION_NAMES[self.direction]

    @property
    def coordinate(self) -> str:
        return coordinate(self.row, self.col, self.direction)

    @property
    def tiles_string(self) -> str:
        return "".join(letter for _, _, letter in self.tiles)

    def golden_key(self) -> tuple[int, int, str, str, str, int]:
        """Identity as the golden files compare it."""
        return (
            self.row,
            self.col,
            GOLDEN_DIRECTIONS[self.direction],
            self.word,
            self.tiles_string,
            self.score,
        )


def move_at(moves: MoveList, i: int) -> Move:
    # Plain Python ints from here on: per-element numpy scalars cost ~1 us each.
    row, col, direction, length, _, score = moves.meta[i].tolist()
    codes = moves.words[i, :length].tolist()
    letters = [_LETTERS[code & (LETTER_MASK | BLANK_FLAG)] for code in codes]
    tiles = []
    notation = []
    in_paren = False
    for k, code in enumerate(codes):
        ch = letters[k]
        if code & NEW_FLAG:
            tiles.append((row, col + k, ch) if direction == ACROSS else (row + k, col, ch))
            if in_paren:
                notation.append(")")
                in_paren = False
        elif not in_paren:
            notation.append("(")
            in_paren = True
        notation.append(ch)
    if in_paren:
        notation.append(")")
    coord = coordinate(row, col, direction)
    return Move(
        row=row,
        col=col,
        direction=direction,
        word="".join(letters),
        tiles=tuple(tiles),
        score=score,
        notation=f"{coord} {''.join(notation)}",
    )


def move_json(
    moves: MoveList, i: int, rank: int, rack: npt.NDArray[np.integer], rack_size: int
) -> dict[str, Any]:
    """One entry of the API's ranked move list."""
    move = move_at(moves, i)
    placed = len(move.tiles)
    return {
        "rank": rank,
        "row": move.row,
        "col": move.col,
        "direction": move.direction_name,
        "coordinate": move.coordinate,
        "word": move.word,
        "notation": move.notation,
        "score": move.score,
        "bingo": placed == rack_size,
        "tiles_placed": placed,
        "leave": rack_string(leave_of(rack, moves, i)),
        "tiles": [
            {"row": r, "col": c, "letter": ch, "blank": ch.islower()} for r, c, ch in move.tiles
        ],
    }


# -- equity and odds (the figures leave the engine here, millipoints -> points)


def unseen_json(position: Position, moves: MoveList, order: npt.NDArray[np.intp]) -> dict[str, Any]:
    """Unseen tiles and P(at least one) for a full rack's draw and for the top
    move's draw (hypergeometric, from the bag: a known opponent rack is seen);
    all 0 once the bag is empty."""
    pool = position.unseen()
    bag = position.bag_count
    draws = [min(position.rules.rack_size, bag)]
    if len(order) and int(order[0]) < len(moves):
        draws.append(min(int(moves.meta[int(order[0]), PLACED]), bag))
    total = int(pool.sum())
    present = [i for i in range(RACK_TYPES) if pool[i] > 0]
    probs = {
        str(d): {RACK_SYMBOLS[i]: round(p_at_least_one(total, int(pool[i]), d), 6) for i in present}
        for d in sorted({d for d in draws if d > 0}, reverse=True)
    }
    if bag == 0:  # nothing can be drawn: the unseen tiles are the opponent's
        probs = {str(position.rules.rack_size): {RACK_SYMBOLS[i]: 0.0 for i in present}}
    return {
        "count": total,
        "bag": bag,
        "bag_empty": bag == 0,
        "opponent_rack_known": position.opponent is not None,
        "tiles": {RACK_SYMBOLS[i]: int(pool[i]) for i in present},
        "p_at_least_one": probs,
    }


def breakdown_json(breakdown: Breakdown) -> dict[str, Any]:
    """A move's equity as the list of its terms (each signed, in points, summing
    to ``equity``), with what the expensive terms found."""
    out: dict[str, Any] = {
        "equity": to_points(breakdown.equity),
        "terms": [{"name": name, "points": to_points(v)} for name, v in breakdown.terms.items()],
        "evaluated": breakdown.evaluated,
    }
    found = breakdown.prospect
    if found is not None:
        out["prospect_move"] = {
            "notation": found.notation,
            "score": found.score,
            "need": found.need,
            "probability": found.probability,
        }
    risk = breakdown.risk
    if risk is not None:
        out["adversarial"] = {
            "expected_best_reply": to_points(risk.expected),
            "variance": risk.variance,
            "cvar10": to_points(risk.cvar10),
            "threats": [
                {"notation": t.notation, "score": t.score, "probability": t.probability}
                for t in risk.threats
            ],
        }
    return out


def action_json(evaluation: Evaluation, i: int, rank: int, position: Position) -> dict[str, Any]:
    """One entry of the ranked list: a placement (``move_json``), an exchange
    (notation ``-`` and the tiles thrown, as GCG, MAGPIE and Quackle write it)
    or a pass (``-``)."""
    actions = evaluation.actions
    if i < actions.placements:
        out = move_json(actions.moves, i, rank, position.rack, position.rules.rack_size)
        out["kind"] = "play"
    else:
        exchange = actions.kind(i) == EXCHANGE
        thrown = actions.thrown(i) if exchange else ""
        out = {
            "rank": rank,
            "kind": "exchange" if exchange else "pass",
            "notation": f"-{thrown}",
            "exchanged": thrown,
            "score": 0,
            "bingo": False,
            "tiles_placed": 0,
            "leave": rack_string(actions.kept[i]),
            "tiles": [],
        }
    out["heuristics"] = breakdown_json(evaluation.breakdowns[i])
    return out


def evaluation_json(evaluation: Evaluation) -> dict[str, Any]:
    """The top-level ``heuristics`` object: settings, how far the budget went,
    the best exchange (also ranked in the list)."""
    opts = evaluation.options
    exchange = evaluation.exchange
    summary = None
    if exchange is not None:
        actions = evaluation.actions
        summary = {
            "throw": actions.thrown(exchange.index),
            "keep": rack_string(actions.kept[exchange.index]),
            "score": 0,
            "leave": to_points(exchange.terms.get("leave", 0)),
            "prospect": to_points(exchange.terms.get("prospect", 0)),
            "equity": to_points(exchange.equity),
        }
    return {
        "rank_by": opts.rank_by,
        "risk": opts.risk,
        "adversarial": opts.adversarial,
        "budget_ms": opts.budget_ms,
        "max_moves": opts.max_moves,
        "evaluated": evaluation.evaluated,
        "candidates": evaluation.candidates,
        "budget_cut": evaluation.budget_cut,
        "elapsed_ms": round(evaluation.elapsed_ms, 3),
        "exchange": summary,
        "endgame_search": None
        if evaluation.search is None
        else {
            "completed": evaluation.search.completed,
            "nodes": evaluation.search.nodes,
            "depth": evaluation.search.depth,
            "elapsed_ms": round(evaluation.search.elapsed_ms, 3),
            "principal_variation": list(evaluation.search.pv),
        },
    }


# -- the way in: standard notation parsed (GCG's '.' for a board tile too) ---


class NotationError(ValueError):
    """Text that is not a move in standard notation (the message says why)."""


@dataclass(frozen=True)
class PlacementText:
    """A placement as written: where, which way, and per square the letter
    (lower case a blank) and whether it is a tile already on the board
    (written in parentheses, or '.' when the letter is not given)."""

    row: int
    col: int
    direction: int
    letters: tuple[str, ...]  # '.' for a board tile written as '.'
    through: tuple[bool, ...]

    @property
    def coordinate(self) -> str:
        return coordinate(self.row, self.col, self.direction)

    def squares(self) -> list[tuple[int, int]]:
        if self.direction == ACROSS:
            return [(self.row, self.col + k) for k in range(len(self.letters))]
        return [(self.row + k, self.col) for k in range(len(self.letters))]


@dataclass(frozen=True)
class ExchangeText:
    tiles: str  # A-Z and '?', as written


@dataclass(frozen=True)
class PassText:
    pass


MoveText = PlacementText | ExchangeText | PassText

_ACROSS_COORD = re.compile(r"(\d{1,2})([A-Za-z])")
_DOWN_COORD = re.compile(r"([A-Za-z])(\d{1,2})")
_WORD_TOKEN = re.compile(r"\(([A-Za-z]+)\)|([A-Za-z])|(\.)|(.)")
MAX_NOTATION = 64


def parse_coordinate(text: str) -> tuple[int, int, int]:
    """'8H' -> (7, 7, ACROSS), 'H8' -> (7, 7, DOWN); rows and columns past the
    board are returned as they are (the judge says "off the board")."""
    across = _ACROSS_COORD.fullmatch(text)
    if across:
        return int(across.group(1)) - 1, ord(across.group(2).upper()) - 65, ACROSS
    down = _DOWN_COORD.fullmatch(text)
    if down:
        return int(down.group(2)) - 1, ord(down.group(1).upper()) - 65, DOWN
    raise NotationError(
        f"{text!r} is not a coordinate: '8H' (row, then column: across) or 'H8' (down)"
    )


def parse_move(text: str) -> MoveText:
    """``"8H QI"``, ``"G2 SCOLDI(N)G"`` (or GCG's ``"G2 SCOLDI.G"``), ``"8D sT(A)INER"``
    (lower case: a blank), ``"-ABC?"`` an exchange, ``"-"`` a pass."""
    if len(text) > MAX_NOTATION:
        raise NotationError(f"is {len(text)} characters long, at most {MAX_NOTATION}")
    move = text.strip()
    if move == "-":
        return PassText()
    if move.startswith("-"):
        tiles = move[1:]
        if tiles.isdigit():
            raise NotationError(f"{move!r}: name the tiles exchanged ('-ABC'), not their count")
        if not tiles or any(not ("A" <= ch <= "Z" or ch == "?") for ch in tiles):
            raise NotationError(
                f"{move!r}: an exchange is '-' and the tiles thrown back (A-Z, ? a blank)"
            )
        return ExchangeText(tiles)
    parts = move.split()
    if len(parts) != 2:
        raise NotationError(
            f"{move!r}: expected '<coordinate> <word>' ('8H QI', 'G2 SCOLDI(N)G'), "
            "'-ABC' (exchange) or '-' (pass)"
        )
    row, col, direction = parse_coordinate(parts[0])
    letters: list[str] = []
    through: list[bool] = []
    for group, letter, dot, other in _WORD_TOKEN.findall(parts[1]):
        if group:
            letters.extend(group)
            through.extend([True] * len(group))
        elif letter:
            letters.append(letter)
            through.append(False)
        elif dot:
            letters.append(".")
            through.append(True)
        else:
            raise NotationError(
                f"{parts[1]!r}: {other!r} is not a letter, '(' board letters ')' or '.'"
            )
    return PlacementText(row, col, direction, tuple(letters), tuple(through))


def gcg_word(notation: str) -> tuple[str, str]:
    """A placement's notation ('G2 SCOLDI(N)G') as GCG writes it: the
    coordinate and the word with '.' for each tile already on the board."""
    coord, word = notation.split(" ", 1)
    out = []
    inside = False
    for ch in word:
        if ch == "(":
            inside = True
        elif ch == ")":
            inside = False
        else:
            out.append("." if inside else ch)
    return coord, "".join(out)


# -- appraisals and game reviews (scrabble.review) ----------------------------


def _action_summary(appraisal: Appraisal, i: int) -> dict[str, Any]:
    evaluation = appraisal.evaluation
    shown = action_json(evaluation, i, 0, appraisal.position)
    return {
        "notation": shown["notation"],
        "score": shown["score"],
        "equity": to_points(evaluation.breakdowns[i].equity),
        "leave": shown["leave"],
    }


def appraisal_json(appraisal: Appraisal) -> dict[str, Any]:
    """A move judged and ranked: legality (and why not), score, rank and
    equity among every legal action, the best action and the equity given away."""
    verdict = appraisal.verdict
    lost = appraisal.equity_lost
    return {
        "kind": verdict.kind,
        "legal": verdict.legal,
        "rule": verdict.rule,
        "reason": verdict.reason,
        "notation": verdict.notation,
        "score": verdict.score,
        "words": [
            {"word": w.word, "coordinate": w.coordinate, "main": w.main, "valid": w.valid}
            for w in verdict.words
        ],
        "rank": appraisal.rank,
        "equity": None if appraisal.equity is None else to_points(appraisal.equity),
        "actions": appraisal.legal_actions,
        "best": _action_summary(appraisal, appraisal.best),
        "equity_lost": None if lost is None else to_points(lost),
    }


def review_json(review: GameReview) -> dict[str, Any]:
    """A game reviewed turn by turn, and per player the totals."""
    nicks = [p.nickname for p in review.record.players]
    turns = []
    for turn in review.turns:
        event = turn.event
        if event.kind == "play":
            played = f"{event.position} {event.word}"
        elif event.kind == "exchange":
            played = f"-{event.exchanged or event.exchanged_count}"
        else:
            played = "-"
        out: dict[str, Any] = {
            "number": turn.number,
            "line": event.line,
            "player": nicks[event.player],
            "rack": event.rack,
            "played": played,
            "recorded_score": event.score,
            "total": event.total,
            "rack_complete": turn.rack_complete,
            "withdrawn": turn.withdrawn,
            "skipped": turn.skipped or None,
        }
        if turn.appraisal is not None:
            out.update(appraisal_json(turn.appraisal))
        turns.append(out)
    players = [
        {
            "nickname": s.player.nickname,
            "name": s.player.name,
            "turns": s.turns,
            "reviewed": s.reviewed,
            "best_moves": s.best,
            "equity_lost": to_points(s.equity_lost),
            "illegal": s.illegal,
            "final_score": s.final_score,
        }
        for s in review.players
    ]
    return {"lexicon": review.lexicon, "players": players, "turns": turns}
