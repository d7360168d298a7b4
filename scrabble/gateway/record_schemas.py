"""The models of the lexicon, move-judging and game-record endpoints (issue
12): ``GET /lexicons``, ``GET /lexicons/{name}/words/{word}``, ``POST /score``,
``POST /gcg/analyze``. Kept apart from ``schemas.py`` (the move list's models);
the position fields read the same way as there."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from scrabble import cgp as cgp_format
from scrabble.gateway.schemas import read_position
from scrabble.notation import MoveText, NotationError, parse_move
from scrabble.position import Position

LEXICON_NAME = Field(
    None,
    max_length=40,
    description="The lexicon to judge by (any case), one of GET /lexicons; default: the "
    "CGP's lex opcode, else the gateway's default lexicon.",
)


class LexiconEntry(BaseModel):
    name: str
    words: int
    signatures: int
    sha256: str = Field(description="Of the word list the store was built from.")


class WordAnswer(BaseModel):
    lexicon: str
    word: str = Field(description="Upper case.")
    valid: bool
    anagrams: list[str] = Field(
        description="Every word of the lexicon with the same letters (the word itself "
        "included when it is valid), sorted."
    )


class PositionInput(BaseModel):
    """A position as ``board`` + ``rack`` or as ``cgp``, parsed once."""

    model_config = ConfigDict(extra="forbid", strict=True)  # as MoveRequest

    board: list[str] | None = Field(
        None, description="15 rows of 15 cells: '.' empty, A-Z a tile, a-z a blank."
    )
    rack: str | None = Field(None, description="1-7 tiles, A-Z and ? for a blank.")
    cgp: str | None = Field(None, max_length=2000, description="The position as CGP instead.")
    lexicon: str | None = LEXICON_NAME
    _cgp: cgp_format.CGP | None = PrivateAttr(None)
    _position: Position | None = PrivateAttr(None)

    @property
    def position(self) -> Position:
        assert self._position is not None
        return self._position

    @property
    def parsed_cgp(self) -> cgp_format.CGP | None:
        return self._cgp

    @model_validator(mode="after")
    def _build_position(self) -> PositionInput:
        self._position, self._cgp = read_position(self.cgp, self.board, self.rack)
        return self


class ScoreRequest(PositionInput):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "cgp": "15/15/15/15/15/15/15/3FRANC7/15/15/15/15/15/15/15 CDGILOS/ 0/0 0 "
                    "lex sowpods;",
                    "move": "G2 SCOLDI(N)G",
                }
            ]
        },
    )
    move: str = Field(
        max_length=64,
        description="Standard notation: '8H QI' (row first: across), 'G2 SCOLDI(N)G' "
        "(column first: down; board letters in parentheses, or '.' as GCG writes them; "
        "a blank in lower case), '-ABC' an exchange, '-' a pass.",
    )
    _move: MoveText | None = PrivateAttr(None)

    @property
    def parsed_move(self) -> MoveText:
        assert self._move is not None
        return self._move

    @model_validator(mode="after")
    def _parse_move(self) -> ScoreRequest:
        try:
            self._move = parse_move(self.move)
        except NotationError as exc:
            raise ValueError(f"move: {exc}") from None
        return self


class FormedWord(BaseModel):
    word: str = Field(description="Blanks in lower case.")
    coordinate: str
    main: bool
    valid: bool


class ActionSummary(BaseModel):
    notation: str
    score: int
    equity: float
    leave: str


class Judged(BaseModel):
    """A move judged: legal or why not, its score, its rank and equity."""

    kind: Literal["play", "exchange", "pass"]
    legal: bool
    rule: str | None = Field(
        description="The rule a refused move breaks: off_board, occupied, not_on_board, "
        "no_tiles, word_continues, not_on_rack, start_square, not_connected, too_short, "
        "not_a_word, cross_word, bag_too_small."
    )
    reason: str | None = Field(description="The same, in words.")
    notation: str | None = Field(description="The move as the engine writes it (legal moves).")
    score: int | None = Field(
        description="Points; a refused placement's too once its tiles fit the board and rack "
        "(what a phony would score)."
    )
    words: list[FormedWord] = Field(description="The words a placement forms, main word first.")
    rank: int | None = Field(description="1 = the best of every legal action by equity.")
    equity: float | None = Field(
        description="Score + leave + endgame + opening + premium waste, in points: the terms "
        "every action is valued by (prospect and risk are left out so all compare alike)."
    )
    actions: int = Field(description="Legal actions: placements, exchanges and pass.")
    best: ActionSummary
    equity_lost: float | None = Field(description="The best action's equity minus this move's.")


class ScoreResponse(Judged):
    lexicon: LexiconEntry
    cgp: str = Field(description="The position, normalised, in CGP.")
    move: str = Field(description="As given.")


class AnalyzeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gcg: str = Field(
        max_length=60_000,
        description="A GCG game record (#player1, #player2, optional #lexicon, event lines).",
    )
    lexicon: str | None = Field(
        None,
        max_length=40,
        description="The lexicon to judge by; default: the record's #lexicon, else the "
        "gateway's default.",
    )


class TurnAnalysis(BaseModel):
    number: int
    line: int = Field(description="The record's line.")
    player: str
    rack: str
    played: str = Field(description="The move as recorded ('8D CRAAlED', '-ABC', '-').")
    recorded_score: int
    total: int
    rack_complete: bool = Field(
        description="False: the record names fewer tiles than a full rack; the best move is "
        "among the known tiles' moves."
    )
    withdrawn: bool = Field(description="A '--' line took the play back (a phony).")
    skipped: str | None = Field(description="Why the turn was not judged, when it was not.")
    kind: Literal["play", "exchange", "pass"] | None = None
    legal: bool | None = None
    rule: str | None = None
    reason: str | None = None
    notation: str | None = None
    score: int | None = None
    words: list[FormedWord] = []
    rank: int | None = None
    equity: float | None = None
    actions: int | None = None
    best: ActionSummary | None = None
    equity_lost: float | None = None


class PlayerAnalysis(BaseModel):
    nickname: str
    name: str
    turns: int
    reviewed: int
    best_moves: int = Field(description="Turns whose move was the best by equity.")
    equity_lost: float = Field(description="Over the legal judged moves, in points.")
    illegal: int
    final_score: int


class AnalyzeResponse(BaseModel):
    lexicon: LexiconEntry
    players: list[PlayerAnalysis]
    turns: list[TurnAnalysis]
