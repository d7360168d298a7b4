"""The web page at ``/`` (a board editor and move explorer, files in
``scrabble/gateway/static/``) and the JSON index that ``/`` used to answer, now at ``/api``."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent / "static"


def add_page(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/api", summary="What this gateway serves")
    async def index() -> dict[str, str]:
        return {
            "service": "scrabble engine gateway",
            "page": "/",
            "api": "POST /scrabble-api",
            "docs": "/docs",
            "openapi": "/openapi.json",
            "health": "/health",
        }
