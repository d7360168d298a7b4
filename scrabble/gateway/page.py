"""The web pages, files in ``scrabble/gateway/static/``: ``/`` (a board editor
and move explorer) and ``/wordgame`` (a WordGame case played against the
referee, with the player's advice); and the JSON index that ``/`` used to
answer, now at ``/api``."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from scrabble.rules import PREMIUM_LEGEND, STANDARD

STATIC = Path(__file__).resolve().parent / "static"


class RulesInfo(BaseModel):
    """The board and tiles ``/scrabble-api`` plays by: what a client (the page
    among them) draws, instead of keeping its own copy."""

    name: str
    size: int = Field(description="squares a side")
    premiums: list[str] = Field(description="one string a row, in the legend's symbols")
    legend: dict[str, str]
    letter_values: dict[str, int] = Field(description="A-Z (a blank is worth 0)")
    tile_counts: dict[str, int] = Field(description="tiles of each letter in the bag")
    rack_size: int
    bingo_bonus: int = Field(description="points for playing the whole rack")
    start: list[int] | None = Field(description="[row, col] the first move must cover")


RULES = RulesInfo(
    name=STANDARD.name,
    size=STANDARD.size,
    premiums=list(STANDARD.premiums),
    legend=dict(PREMIUM_LEGEND),
    letter_values=dict(STANDARD.letter_values),
    tile_counts=dict(STANDARD.tile_counts),
    rack_size=STANDARD.rack_size,
    bingo_bonus=STANDARD.bingo_bonus,
    start=list(STANDARD.start) if STANDARD.start is not None else None,
)


def add_page(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/wordgame", include_in_schema=False)
    async def wordgame_page() -> FileResponse:
        return FileResponse(STATIC / "wordgame.html", media_type="text/html")

    @app.get("/rules", summary="The board and tiles the engine plays by")
    async def rules() -> RulesInfo:
        return RULES

    @app.get("/api", summary="What this gateway serves")
    async def index() -> dict[str, str]:
        return {
            "service": "scrabble engine gateway",
            "page": "/",
            "wordgame_page": "/wordgame",
            "wordgame": "POST /wordgame/turn, POST /wordgame/game",
            "api": "POST /scrabble-api",
            "docs": "/docs",
            "openapi": "/openapi.json",
            "health": "/health",
            "rules": "/rules",
        }
