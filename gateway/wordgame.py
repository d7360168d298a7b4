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
from typing import Any, Literal, cast

import numpy as np
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from scrabble.http_errors import field_error
from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.store import LEXICON_DIR
from scrabble.rules import STANDARD_VALUES
from scrabble.tiles import ALPHABET
from scrabble.wordgame.actions import Discard, Play, Stop
from scrabble.wordgame.cases import letter_probabilities
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.players.choice import Action, Choice
from scrabble.wordgame.players.registry import DEFAULT, make_player
from scrabble.wordgame.referee import GameSetup, TurnView
from scrabble.wordgame.rules import MAX_HAND, MAX_SIZE, MAX_VISIBLE, MIN_HAND, MIN_SIZE

router = APIRouter()
PlayerName = Literal["greedy", "prospect", "planner"]
# share of lines and plays searched for an API answer: bounded time, fixed result
API_EFFORT = "0.3"
_PROBABILITIES: dict[str, tuple[float, ...]] = {}


def wordgame_lexicon(name: str) -> Lexicon:
    """The lexicon a request names, loaded on first use: the one place a
    gateway-wide lexicon registry plugs in."""
    return load_lexicon(name)


def _probabilities(lexicon: Lexicon) -> tuple[float, ...]:
    name = lexicon.info.name
    if name not in _PROBABILITIES:
        share = letter_probabilities(lexicon.words)
        _PROBABILITIES[name] = tuple(share[ch] for ch in ALPHABET)
    return _PROBABILITIES[name]


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


def _action_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {
            "type": "play",
            "row": action.row,
            "col": action.col,
            "direction": "H" if action.horizontal else "V",
            "word": action.word,
            "line": action.line(),
        }
    if isinstance(action, Discard):
        return {"type": "discard", "letters": action.letters, "line": action.line()}
    assert isinstance(action, Stop)
    return {"type": "stop", "line": action.line()}


def _terms(terms: dict[str, float]) -> dict[str, float]:
    return {name: round(float(v), 3) for name, v in terms.items() if v}


def _board_codes(rows: list[str]) -> np.ndarray:
    codes = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).astype(np.int16)
    return np.where(codes == ord("."), 0, codes - 64).astype(np.uint8)


@router.post("/wordgame/turn", summary="The WordGame player's action for a visible state")
def wordgame_turn(body: TurnRequest) -> JSONResponse:
    started = time.perf_counter()
    if not (LEXICON_DIR / f"{body.lexicon}.sqlite").is_file():
        return JSONResponse(
            status_code=422,
            content=field_error(
                "lexicon", f"{body.lexicon!r} is not built here (scripts/build_lexicon.py)"
            ),
        )
    lexicon = wordgame_lexicon(body.lexicon)
    setup = GameSetup(
        n=len(body.premiums),
        t=int(body.hand_size or MIN_HAND),
        x=len(body.visible),
        d=body.discard_cost,
        premiums=tuple(body.premiums),
        letter_values=tuple(STANDARD_VALUES[ch] for ch in ALPHABET),
        probabilities=_probabilities(lexicon),
        lexicon=body.lexicon,
    )
    settings = {} if body.player == "greedy" else {"fixed_share": API_EFFORT}
    player = make_player(body.player, lexicon, fixed_effort=True, settings=settings)
    player.start(setup)
    player.set_board(_board_codes(body.board))  # type: ignore[attr-defined]
    view = TurnView(
        elapsed_ms=body.elapsed_ms,
        score=body.score,
        queue_left=body.tiles_left,
        hand=body.hand,
        visible=body.visible,
    )
    choice: Choice = player.decide(view)  # type: ignore[attr-defined]
    return JSONResponse(
        content={
            "player": body.player,
            "lexicon": body.lexicon,
            "action": _action_json(choice.action),
            "value": round(float(choice.value), 3),
            "terms": _terms(choice.terms),
            "alternatives": [
                {"action": _action_json(a), "value": round(float(v), 3), "terms": _terms(t)}
                for a, v, t in choice.alternatives[: body.alternatives]
            ],
            "timing_ms": round((time.perf_counter() - started) * 1000, 1),
        }
    )
