"""POST /wordgame/turn: the WordGame player's recommended action for a visible
state (the variant's rules are in docs/wordgame.md).

The state is what a WordGame player sees (premium rows, its board, hand,
visible tiles, D, tiles left, score, elapsed time) and the lexicon; the answer
is the action the chosen player would send (a play with its coordinate and
word, the tiles to discard, or stop), its value in named terms (points), and
the next best alternatives. The player decides with a fixed effort, not by the
clock, so the same state always gets the same answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, cast

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from scrabble.gateway.dispatch import run_work
from scrabble.gateway.lexicons import choice_refused
from scrabble.gateway.wordgame_work import TurnTask
from scrabble.lexicon.catalog import Catalog, LexiconChoiceError
from scrabble.wordgame.players.registry import DEFAULT
from scrabble.wordgame.rules import MAX_HAND, MAX_SIZE, MAX_VISIBLE, MIN_HAND, MIN_SIZE

if TYPE_CHECKING:
    from scrabble.gateway.compute import Work

router = APIRouter()
PlayerName = Literal["greedy", "prospect", "planner"]


def _tiles(value: str, least: int, most: int) -> str:
    if not least <= len(value) <= most:
        raise ValueError(f"must hold {least} to {most} tiles, got {len(value)}")
    bad = [ch for ch in value if not "A" <= ch <= "Z"]
    if bad:
        raise ValueError(f"{bad[0]!r} is not a tile (upper-case A-Z)")
    return value


class TurnRequest(BaseModel):
    # strict, as MoveRequest: true is not a count and "7" is not a number
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "premiums": [
                        "..d.T.....",
                        ".D....t...",
                        "....T....d",
                        "..........",
                        "...D...T..",
                        "t.........",
                        "....d..D..",
                        "..T.......",
                        ".......t..",
                        "D....T....",
                    ],
                    "board": [".........."] * 10,
                    "hand": "AEINRST",
                    "hand_size": 7,
                    "visible": "EO",
                    "discard_cost": 2,
                    "tiles_left": 93,
                    "score": 0,
                    "lexicon": "enable",
                    "elapsed_ms": 0,
                }
            ]
        },
    )

    premiums: list[str] = Field(
        min_length=MIN_SIZE,
        max_length=MAX_SIZE,
        description=(
            "N rows of N squares (10 <= N <= 20): '.' none, d/t double/triple letter, D/T "
            "double/triple word."
        ),
    )
    board: list[str] = Field(
        min_length=MIN_SIZE,
        max_length=MAX_SIZE,
        description=("N rows of N: '.' empty, A-Z a tile (the board as the player tracks it)."),
    )
    hand: str = Field(max_length=MAX_HAND, description="The hand: 1-9 tiles A-Z.")
    hand_size: int | None = Field(
        None,
        ge=MIN_HAND,
        le=MAX_HAND,
        description=("T, the game's hand size (5-9); default the hand's length, at least 5."),
    )
    visible: str = Field("", max_length=MAX_VISIBLE, description="The next 0-5 tiles, A-Z.")
    discard_cost: int = Field(ge=0, le=5, description="D, the points a discard costs.")
    tiles_left: int = Field(
        ge=0,
        le=MAX_SIZE * MAX_SIZE,
        description=("Tiles not yet drawn, the visible ones included."),
    )
    score: int = Field(0, ge=-100_000, le=10_000_000)
    lexicon: str = Field("enable", max_length=40, pattern=r"^[a-z][a-z0-9_]*$")
    elapsed_ms: int = Field(0, ge=0, le=10_000, description="The player's time used so far.")
    player: PlayerName = Field(
        cast(PlayerName, DEFAULT), description="Which player decides (default: the strongest)."
    )
    alternatives: int = Field(5, ge=0, le=20, description="How many next best actions.")

    @field_validator("premiums")
    @classmethod
    def _premium_rows(cls, rows: list[str]) -> list[str]:
        n = len(rows)
        for r, row in enumerate(rows):
            if len(row) != n:
                raise ValueError(f"row {r} has {len(row)} squares, expected {n}")
            bad = [ch for ch in row if ch not in ".dtDT"]
            if bad:
                raise ValueError(f"row {r}: {bad[0]!r} is not one of '.dtDT'")
        return rows

    @field_validator("board")
    @classmethod
    def _board_rows(cls, rows: list[str]) -> list[str]:
        for r, row in enumerate(rows):
            if len(row) > MAX_SIZE:
                raise ValueError(f"row {r} has {len(row)} squares, at most {MAX_SIZE}")
            bad = [ch for ch in row if ch != "." and not "A" <= ch <= "Z"]
            if bad:
                raise ValueError(f"row {r}: {bad[0]!r} is not '.' or A-Z")
        return rows

    @field_validator("hand")
    @classmethod
    def _hand_tiles(cls, value: str) -> str:
        return _tiles(value, 1, MAX_HAND)

    @field_validator("visible")
    @classmethod
    def _visible_tiles(cls, value: str) -> str:
        return _tiles(value, 0, MAX_VISIBLE)

    @model_validator(mode="after")
    def _consistent(self) -> TurnRequest:
        n = len(self.premiums)
        if len(self.board) != n or any(len(row) != n for row in self.board):
            raise ValueError(f"board: must be {n} rows of {n} squares, like premiums")
        t = self.hand_size if self.hand_size is not None else max(MIN_HAND, len(self.hand))
        if len(self.hand) > t:
            raise ValueError(f"hand: holds {len(self.hand)} tiles, more than hand_size {t}")
        if self.tiles_left < len(self.visible):
            raise ValueError("tiles_left: is less than the number of visible tiles")
        if self.tiles_left > n * n:
            raise ValueError(f"tiles_left: is more than the {n * n} tiles of the game")
        self.hand_size = t
        return self


class ActionOut(BaseModel):
    """One action as the protocol writes it (``line``) and in parts."""

    type: Literal["play", "discard", "stop"]
    line: str = Field(description="The protocol's reply line, e.g. `PLAY 0 4 V ANESTRI`.")
    row: int | None = Field(None, description="play: the first tile's row (0-based)")
    col: int | None = Field(None, description="play: the first tile's column (0-based)")
    direction: Literal["H", "V"] | None = None
    word: str | None = Field(None, description="play: the whole main word")
    letters: str | None = Field(None, description="discard: the tiles thrown")


class AlternativeOut(BaseModel):
    action: ActionOut
    value: float
    terms: dict[str, float]


class TargetOut(BaseModel):
    """The window the planner plays toward: a slot its whole hand is to fill."""

    direction: Literal["H", "V"]
    row: int = Field(description="The window's first square (0-based), board tiles included")
    col: int
    length: int = Field(description="Its squares, the board tiles inside included")
    squares: list[tuple[int, int]] = Field(description="[row, col] of its empty squares")
    word_multiplier: int = Field(description="The product of the word multipliers on them")


class TurnResponse(BaseModel):
    player: str
    lexicon: str
    action: ActionOut
    value: float = Field(description="The action's value in points, the sum of its terms.")
    terms: dict[str, float] = Field(
        description="Named parts of the value (points; zeros left out)."
    )
    alternatives: list[AlternativeOut]
    target: TargetOut | None = Field(
        description="The planner's target after this decision (null for the other players "
        "and when it has none): the plan its term `plan` values."
    )
    timing_ms: float


@router.post(
    "/wordgame/turn",
    response_model=TurnResponse,
    summary="The WordGame player's action for a visible state",
    tags=["wordgame"],
)
async def wordgame_turn(body: TurnRequest, request: Request) -> Response:
    """Validated here; the player's search runs in a heavy compute process
    (``wordgame_work``), as every CPU-bound answer does."""
    started = time.perf_counter()
    return await run_on_lexicon(request, body.lexicon, lambda name: TurnTask(body, name, started))


async def run_on_lexicon(request: Request, lexicon: str, task: Callable[[str], Work]) -> Response:
    """The WordGame endpoints' path: the named lexicon chosen among those
    served (a 422 naming ``lexicon`` when it is not), then ``task(its key)`` run
    by a compute process."""
    catalog: Catalog = request.app.state.catalog
    try:
        name = catalog.choose(lexicon, None)
    except LexiconChoiceError as exc:
        return choice_refused(exc)
    return await run_work(request, task(name))
