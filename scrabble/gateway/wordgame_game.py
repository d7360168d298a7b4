"""POST /wordgame/game: a WordGame case played by whoever calls, judged by the
referee (the page at ``/wordgame`` plays through it).

The client sends the case's seed and every action so far; the answer is what
a player sees next (board, hand, visible tiles, tiles left, score) and each
action's points, or a 422 naming the first action the referee refuses. The
replay runs in a compute process (``wordgame_replay``), where the lexicons are.
"""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from scrabble.gateway.wordgame import run_on_lexicon
from scrabble.gateway.wordgame_replay import GameTask
from scrabble.wordgame.rules import MAX_SIZE

router = APIRouter()
MAX_ACTIONS = MAX_SIZE * MAX_SIZE + 1  # every action but STOP takes a tile from the hand
MAX_SEED = 10**9
ActionLine = Annotated[str, Field(max_length=200)]  # the protocol's longest reply line


class GameRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [{"seed": 1006, "actions": ["PLAY 0 5 V PILAU", "DISCARD HII"]}]
        },
    )

    seed: int = Field(ge=0, le=MAX_SEED, description="The case: the contract's generator's seed.")
    actions: list[ActionLine] = Field(
        default_factory=list,
        max_length=MAX_ACTIONS,
        description=(
            "Every action so far, as the protocol's reply lines: `PLAY <row> <col> <H|V> "
            "<WORD>`, `DISCARD <LETTERS>` or `STOP`."
        ),
    )
    lexicon: str = Field("enable", max_length=40, pattern=r"^[a-z][a-z0-9_]*$")


class TurnResult(BaseModel):
    line: str
    points: int = Field(description="The play's score, or minus D for a discard.")
    score: int = Field(description="The running score after it.")


class GameResponse(BaseModel):
    seed: int
    id: str
    lexicon: str
    n: int
    t: int
    x: int
    d: int
    premiums: list[str]
    board: list[str] = Field(description="N rows: '.' empty, A-Z a tile.")
    hand: str = Field(description="The hand in draw order (empty once the game is over).")
    visible: str = Field(description="The next X tiles of the queue.")
    tiles_left: int = Field(description="Tiles not yet drawn, the visible ones included.")
    score: int = Field(description="The running score (may be negative).")
    over: bool
    final_score: int | None = Field(description="Once over: the score, clamped at 0.")
    turns: list[TurnResult]
    timing_ms: float


@router.post(
    "/wordgame/game",
    response_model=GameResponse,
    summary="A WordGame case after the actions so far, judged by the referee",
    tags=["wordgame"],
)
async def wordgame_game(body: GameRequest, request: Request) -> Response:
    started = time.perf_counter()
    return await run_on_lexicon(request, body.lexicon, lambda name: GameTask(body, name, started))
