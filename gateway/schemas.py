"""The public API's request and response models: the single source of truth
for validation, error messages and the OpenAPI page."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from scrabble import cgp as cgp_format
from scrabble.position import PositionError, check_tile_supply, parse_board, parse_rack
from scrabble.rules import STANDARD

EngineName = Literal["trie", "sqlite-hash", "memory-hash", "compact-numba", "prime-product"]
MAX_LIMIT = 10000


class MoveRequest(BaseModel):
    """A position (``board`` + ``rack``, or ``cgp``) and what to return."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "board": ["..............."] * 15, "rack": "AEINRS?", "limit": 20, "engine": "trie"}]})

    board: list[str] | None = Field(
        None, description="15 rows of 15 cells: '.' empty, A-Z a tile, a-z a blank as that "
        "letter. Row 0 is the top row.")
    rack: str | None = Field(None, description="1-7 tiles, A-Z and ? for a blank.")
    cgp: str | None = Field(None, description="The position as a CGP string instead of "
                            "board and rack, e.g. '15/15/.../15 AEINRST/ 0/0 0 lex sowpods;'.",
                            max_length=2000)
    limit: int = Field(20, ge=1, le=MAX_LIMIT, description="How many moves to return.")
    engine: EngineName = Field("trie", description="How candidate words are found.")
    adversarial: bool = Field(False, description="Add the opponent's replies (risk).")
    heuristics: bool = Field(False, description="Add the equity breakdown of each move.")
    _cgp: cgp_format.CGP | None = PrivateAttr(None)

    @property
    def parsed_cgp(self) -> cgp_format.CGP | None:
        return self._cgp

    @field_validator("board")
    @classmethod
    def _board_shape(cls, rows: list[str] | None) -> list[str] | None:
        if rows is not None:
            try:
                parse_board(rows)
            except PositionError as exc:
                raise ValueError(exc.message) from None
        return rows

    @field_validator("rack")
    @classmethod
    def _rack_tiles(cls, rack: str | None) -> str | None:
        if rack is not None:
            try:
                parse_rack(rack)
            except PositionError as exc:
                raise ValueError(exc.message) from None
        return rack

    @model_validator(mode="after")
    def _position(self) -> MoveRequest:
        if self.cgp is not None:
            if self.board is not None or self.rack is not None:
                raise ValueError("cgp: give either cgp or board and rack, not both")
            try:
                parsed = cgp_format.parse(self.cgp)
                parse_board(parsed.rows, field="cgp")
                parse_rack(parsed.rack, field="cgp")
            except PositionError as exc:
                raise ValueError(f"cgp: {exc.message}") from None
            self._cgp = parsed
            self.board, self.rack = parsed.rows, parsed.rack
        if self.board is None:
            raise ValueError("board: is required (or give the position as cgp)")
        if self.rack is None:
            raise ValueError("rack: is required (or give the position as cgp)")
        try:
            check_tile_supply(parse_board(self.board), parse_rack(self.rack), STANDARD)
        except PositionError as exc:
            raise ValueError(f"{exc.field}: {exc.message}") from None
        return self


class Tile(BaseModel):
    row: int
    col: int
    letter: str = Field(description="Upper case; lower case when a blank.")
    blank: bool


class MoveOut(BaseModel):
    rank: int
    row: int = Field(description="0-based row of the main word's first letter.")
    col: int = Field(description="0-based column of the main word's first letter.")
    direction: Literal["across", "down"]
    coordinate: str = Field(description="'8H' across (row first), 'H8' down (column first).")
    word: str = Field(description="The whole main word; letters played as blanks lower case.")
    notation: str = Field(description="Coordinate and word, board letters in parentheses.")
    score: int
    bingo: bool
    tiles_placed: int
    leave: str = Field(description="The rack left after the move.")
    tiles: list[Tile]


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


class MoveResponse(BaseModel):
    lexicon: LexiconOut
    engine: EngineName
    cgp: str = Field(description="The position, normalised, in CGP.")
    timing: Timing
    stats: dict[str, int | float | bool]
    total_moves: int
    moves: list[MoveOut]


class ErrorItem(BaseModel):
    field: str
    message: str


class ErrorResponse(BaseModel):
    error: str
    detail: list[ErrorItem] = []
