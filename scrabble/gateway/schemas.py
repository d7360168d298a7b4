"""The public API's request and response models: the single source of truth
for validation, error messages and the OpenAPI page."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PrivateAttr,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from scrabble import cgp as cgp_format
from scrabble.engines.registry import DEFAULT_ENGINE, ENGINE_NAMES
from scrabble.equity.options import RANK_BY, RISK_MODES
from scrabble.equity.terms import TERMS
from scrabble.notation import DIRECTION_NAMES
from scrabble.position import Position, PositionError, make_position, parse_rack
from scrabble.rules import STANDARD

EngineName = Literal[ENGINE_NAMES]  # type: ignore[valid-type]
RankBy = Literal[RANK_BY]  # type: ignore[valid-type]
RiskMode = Literal[RISK_MODES]  # type: ignore[valid-type]
TermName = Literal[tuple(t.name for t in TERMS)]  # type: ignore[valid-type]
DirectionName = Literal[DIRECTION_NAMES]  # type: ignore[valid-type]
MAX_LIMIT = 10000
T = TypeVar("T")

# The constraints the validators below enforce, stated in the OpenAPI schema
# too, so that schema-driven clients and fuzzers know them (tile supply, row
# widths in CGP and the like are beyond JSON Schema: the validators name them).
N = STANDARD.size
RACK_PATTERN = rf"^[A-Z?]{{1,{STANDARD.rack_size}}}$"
UPCOMING_PATTERN = rf"^[A-Z?]{{0,{STANDARD.rack_size}}}$"
ROW_PATTERN = rf"^[.A-Za-z]{{{N}}}$"
# CGP: <rows> <rack>[/<opponent>] [<score>/<score> [<zero turns>]] [<opcode> <args>;]...
# Written without nested ambiguous repeats, so Python's backtracking matcher
# is linear on any input; the parser checks each row's width.
CGP_GRAMMAR = (
    rf"\s*[0-9A-Za-z]+(?:/[0-9A-Za-z]+){{{N - 1}}}"
    rf"[ ]+[A-Z?]{{1,{STANDARD.rack_size}}}(?:/[A-Z?]{{0,{STANDARD.rack_size}}})?"
    r"(?:[ ]+-?[0-9]{1,5}/-?[0-9]{1,5}(?:[ ]+[0-9]{1,2})?)?"
    # the CGP spec's opcodes only (issue 12: an unknown one is refused)
    rf"(?:[ ]+(?:{'|'.join(cgp_format.OPCODES)})(?:[ ]+[^\s;]+)*;)*\s*"
)
CGP_PATTERN = f"^{CGP_GRAMMAR}$"
_CGP = re.compile(CGP_GRAMMAR)
BOARD_SCHEMA = {
    "anyOf": [
        {
            "type": "array",
            "minItems": N,
            "maxItems": N,
            "items": {"type": "string", "pattern": ROW_PATTERN, "minLength": N, "maxLength": N},
        },
        {"type": "null"},
    ]
}


def _nullable_string(**constraints: object) -> WithJsonSchema:
    return WithJsonSchema({"anyOf": [{"type": "string", **constraints}, {"type": "null"}]})


# cgp xor board + rack (null counts as absent)
ONE_POSITION = [
    {
        "title": "a CGP string",
        "required": ["cgp"],
        "properties": {
            "cgp": {"type": "string"},
            "board": {"type": "null"},
            "rack": {"type": "null"},
        },
    },
    {
        "title": "board and rack",
        "required": ["board", "rack"],
        "properties": {
            "board": {"type": "array"},
            "rack": {"type": "string"},
            "cgp": {"type": "null"},
        },
    },
]
EMPTY_ROWS: list[JsonValue] = ["." * N] * N
MIDGAME_ROWS: list[JsonValue] = [
    "...FRANC" + "." * (N - 8) if row == 7 else "." * N for row in range(N)
]
ONE_POSITION_SCHEMA: list[JsonValue] = ONE_POSITION  # type: ignore[assignment]


def _checked(parse: Callable[[T], object], value: T | None) -> T | None:
    """Run a position parser for its checks; its message becomes pydantic's."""
    if value is not None:
        try:
            parse(value)
        except PositionError as exc:
            raise ValueError(exc.message) from None
    return value


def read_position(
    cgp: str | None, board: list[str] | None, rack: str | None
) -> tuple[Position, cgp_format.CGP | None]:
    """The one conversion of a request's position (``cgp``, or ``board`` +
    ``rack``) into a ``Position``; a ValueError naming the field otherwise."""
    if cgp is not None:
        if board is not None or rack is not None:
            raise ValueError("cgp: give either cgp or board and rack, not both")
        try:
            parsed = cgp_format.parse(cgp)
            position = make_position(
                parsed.rows, parsed.rack, STANDARD, opponent=parsed.opponent_rack
            )
        except PositionError as exc:
            # the opponent's rack is named: it is echoed back once checked
            named = f"{exc.field}: " if exc.field == "opponent rack" else ""
            raise ValueError(f"cgp: {named}{exc.message}") from None
        if not _CGP.fullmatch(cgp):  # what the parser tolerates beyond the grammar
            raise ValueError(
                "cgp: is not in CGP form: '<rows> <rack>/<opponent> "
                "[<score>/<score> [<zero turns>]] [<opcode> <args>;]...'"
            )
        return position, parsed
    if board is None:
        raise ValueError("board: is required (or give the position as cgp)")
    if rack is None:
        raise ValueError("rack: is required (or give the position as cgp)")
    try:
        return make_position(board, rack, STANDARD), None
    except PositionError as exc:
        raise ValueError(f"{exc.field}: {exc.message}") from None


class MoveRequest(BaseModel):
    """A position (``board`` + ``rack``, or ``cgp``) and what to return."""

    # strict: "20", true and 1e2 are not numbers, "yes" and 1 are not booleans
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "oneOf": ONE_POSITION_SCHEMA,
            "examples": [
                {"board": EMPTY_ROWS, "rack": "AEINRS?", "limit": 20, "engine": "trie"},
                {"cgp": "15/15/15/15/15/15/15/3FRANC7/15/15/15/15/15/15/15 CDGILOS/AEEIMTW "
                 "0/28 0 lex sowpods;", "limit": 5},
                {"board": MIDGAME_ROWS, "rack": "EIOSTU?", "limit": 10, "heuristics": True},
                {"board": MIDGAME_ROWS, "rack": "DEGILOS", "limit": 3, "adversarial": True,
                 "rank_by": "equity", "risk": "averse"},
                {"board": MIDGAME_ROWS, "rack": "AEINRST", "engine": "memory-hash"},
            ],
        },
    )  # fmt: skip

    board: Annotated[list[str] | None, WithJsonSchema(BOARD_SCHEMA)] = Field(
        None,
        description="15 rows of 15 cells: '.' empty, A-Z a tile, a-z a blank as that "
        "letter. Row 0 is the top row.",
    )
    rack: Annotated[str | None, _nullable_string(pattern=RACK_PATTERN)] = Field(
        None, description="1-7 tiles, A-Z and ? for a blank."
    )
    cgp: Annotated[str | None, _nullable_string(pattern=CGP_PATTERN, maxLength=2000)] = Field(
        None,
        description="The position as a CGP string instead of "
        "board and rack, e.g. '15/15/.../15 AEINRST/ 0/0 0 lex sowpods;'.",
        max_length=2000,
    )
    lexicon: str | None = Field(  # issue 12: several lexicons served
        None,
        max_length=40,
        description="The lexicon (any case), one of GET /lexicons; default: the CGP's lex "
        "opcode, else the gateway's default.",
    )
    limit: int = Field(20, ge=1, le=MAX_LIMIT, description="How many moves to return.")
    engine: EngineName = Field(DEFAULT_ENGINE, description="How candidate words are found.")
    adversarial: bool = Field(False, description="Add the opponent's replies (risk).")
    heuristics: bool = Field(
        False,
        description="Add the equity breakdown of each move, with the prospect term for the "
        "best few (not in the equity otherwise: it measured -2.0 pp in self-play).",
    )
    rank_by: RankBy = Field(
        "score",
        description="Order moves by score, or by equity (score + leave + endgame and "
        "opening adjustments - premium waste; + prospect with heuristics, - risk with "
        "adversarial).",
    )
    count_moves: bool = Field(
        False,
        description="With rank_by=equity: generate and count every legal placement "
        "(total_moves). Without it the trie engine's best-N search answers, which skips "
        "placements that cannot rank and so does not count them (total_moves null; "
        "the moves and their order are the same).",
    )
    risk: RiskMode = Field(
        "neutral",
        description="averse: rank by equity minus a penalty on the CVaR 10% tail "
        "of the opponent's best reply (needs adversarial).",
    )
    budget_ms: float = Field(
        300.0,
        ge=1,
        le=10000,
        description="Time budget for prospects "
        "and risk; as many top moves as it allows are evaluated.",
    )
    upcoming: Annotated[str | None, _nullable_string(pattern=UPCOMING_PATTERN)] = Field(
        None, description="Visible upcoming tiles (A-Z, ?), counted as certain draws by prospects."
    )
    _cgp: cgp_format.CGP | None = PrivateAttr(None)
    _position: Position | None = PrivateAttr(None)

    @property
    def parsed_cgp(self) -> cgp_format.CGP | None:
        return self._cgp

    @property
    def position(self) -> Position:
        """The validated position (set by the model validator)."""
        assert self._position is not None
        return self._position

    @field_validator("upcoming")
    @classmethod
    def _upcoming_tiles(cls, tiles: str | None) -> str | None:
        return _checked(lambda t: parse_rack(t, field="upcoming"), tiles or None)

    @model_validator(mode="after")
    def _build_position(self) -> MoveRequest:
        # the arrays the engines take, built once here and kept for the handler
        self._position, self._cgp = read_position(self.cgp, self.board, self.rack)
        if self._cgp is not None:
            self.board, self.rack = self._cgp.rows, self._cgp.rack
        return self


class Tile(BaseModel):
    row: int
    col: int
    letter: str = Field(description="Upper case; lower case when a blank.")
    blank: bool


class Threat(BaseModel):
    notation: str
    score: int
    probability: float = Field(description="P(the opponent's 7 tiles allow this reply).")


class Adversarial(BaseModel):
    expected_best_reply: float = Field(
        description="Mean of the opponent's best reply score "
        "over seeded sampled racks (not a sum over replies)."
    )
    variance: float
    cvar10: float = Field(description="Mean best reply over the worst 10% of racks.")
    threats: list[Threat] = Field(
        description="Top three replies touching this move, by score x probability."
    )


class ProspectMove(BaseModel):
    notation: str
    score: int
    need: str = Field(description="Tiles still to draw for it.")
    probability: float


class EquityTerm(BaseModel):
    name: TermName  # type: ignore[valid-type]
    points: float = Field(description="Signed contribution to equity (waste, risk negative).")


class MoveHeuristics(BaseModel):
    equity: float = Field(description="The sum of the terms' points.")
    terms: list[EquityTerm] = Field(description="The equity terms computed for this move.")
    evaluated: bool = Field(
        description="False: prospect and risk were not computed "
        "(outside max_moves or the time budget)."
    )
    prospect_move: ProspectMove | None = None
    adversarial: Adversarial | None = None


class MoveOut(BaseModel):
    rank: int
    kind: Literal["play", "exchange", "pass"] = Field(
        "play",
        description="Exchanges and pass are ranked with the placements when the list is "
        "evaluated (heuristics, adversarial or rank_by=equity).",
    )
    row: int | None = Field(None, description="0-based row of the main word's first letter.")
    col: int | None = Field(None, description="0-based column of the main word's first letter.")
    direction: DirectionName | None = None
    coordinate: str | None = Field(
        None, description="'8H' across (row first), 'H8' down (column first)."
    )
    word: str | None = Field(
        None, description="The whole main word; letters played as blanks lower case."
    )
    notation: str = Field(
        description="Coordinate and word, board letters in parentheses; '-ABC' an exchange of "
        "ABC, '-' a pass."
    )
    exchanged: str | None = Field(None, description="An exchange's tiles thrown back.")
    score: int
    bingo: bool
    tiles_placed: int
    leave: str = Field(description="The rack left after the move.")
    tiles: list[Tile]
    heuristics: MoveHeuristics | None = Field(
        None,
        description="Equity breakdown in points (with heuristics, adversarial or rank_by=equity).",
    )


class LexiconOut(BaseModel):
    name: str
    words: int
    signatures: int
    sha256: str


class Timing(BaseModel):
    total_ms: float
    parse_ms: float
    movegen_ms: float
    rank_ms: float
    heuristics_ms: float = 0.0


class Unseen(BaseModel):
    count: int
    bag: int = Field(description="Tiles left to draw.")
    bag_empty: bool
    opponent_rack_known: bool = Field(description="The CGP gave the opponent's rack: seen.")
    tiles: dict[str, int] = Field(
        description="Tile set minus board minus rack (minus the opponent's rack when known)."
    )
    p_at_least_one: dict[str, dict[str, float]] = Field(
        description="Per draw count (7 and the top move's draw): P(at least one of the tile), "
        "hypergeometric."
    )


class ExchangeOut(BaseModel):
    throw: str
    keep: str
    score: int
    leave: float
    prospect: float = 0.0
    equity: float = Field(description="leave + prospect (an exchange scores 0).")


class EndgameSearchOut(BaseModel):
    completed: bool = Field(description="Every value exact (else the time budget cut it).")
    nodes: int
    depth: int
    elapsed_ms: float
    principal_variation: list[str]


class HeuristicsSummary(BaseModel):
    rank_by: str
    risk: str
    adversarial: bool
    budget_ms: float
    max_moves: int
    evaluated: int = Field(description="Moves whose prospect (and risk) were computed.")
    candidates: int
    budget_cut: bool = Field(description="True when the time budget stopped the evaluation.")
    elapsed_ms: float
    exchange: ExchangeOut | None = Field(description="The best exchange (bag >= 7).")
    endgame_search: EndgameSearchOut | None = Field(
        None, description="Bag empty: the exact search of the rest of the game."
    )


class MoveResponse(BaseModel):
    lexicon: LexiconOut
    engine: EngineName
    cgp: str = Field(description="The position, normalised, in CGP.")
    timing: Timing
    stats: dict[str, int | float | bool]
    total_moves: int | None = Field(
        description="Every legal placement; null when the best-N search answered "
        "(rank_by=equity, engine trie, count_moves false), which does not count them."
    )
    unseen: Unseen
    moves: list[MoveOut]
    heuristics: HeuristicsSummary | None = None


class ErrorItem(BaseModel):
    field: str
    message: str


class ErrorResponse(BaseModel):
    error: str
    detail: list[ErrorItem] = []
