"""Judging moves and games: ``POST /score`` (is this move legal, what does it
score, where does it rank) and ``POST /gcg/analyze`` (a GCG record reviewed
turn by turn). Here the request is validated and its lexicon chosen; the work
(``record_work``: ``scrabble.judge``, ``scrabble.review``) runs in a compute
process of the heavy lane, like an evaluated move list."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from scrabble import gcg
from scrabble.gateway.dispatch import run_work
from scrabble.gateway.lexicons import choice_refused
from scrabble.gateway.record_schemas import (
    AnalyzeRequest,
    AnalyzeResponse,
    ScoreRequest,
    ScoreResponse,
)
from scrabble.gateway.record_work import ANALYZE, SCORE, RecordTask
from scrabble.http_errors import field_error
from scrabble.lexicon.catalog import Catalog, LexiconChoiceError

MAX_TURNS = 120  # a real game has 20-40; this bounds the work one request asks for

router = APIRouter()


@router.post(
    "/score",
    response_model=ScoreResponse,
    summary="Is a move legal, what does it score, where does it rank",
    tags=["records"],
)
async def score(body: ScoreRequest, request: Request) -> Response:
    catalog: Catalog = request.app.state.catalog
    parsed = body.parsed_cgp
    try:
        name = catalog.choose(body.lexicon, parsed.opcodes.get("lex") if parsed else None)
    except LexiconChoiceError as exc:
        return choice_refused(exc)
    task = RecordTask(SCORE, name, position=body.position, move=body.parsed_move,
                      move_text=body.move, parsed_cgp=parsed)  # fmt: skip
    return await run_work(request, task)


@router.post(
    "/gcg/analyze",
    response_model=AnalyzeResponse,
    summary="A GCG game record reviewed turn by turn",
    tags=["records"],
)
async def analyze(body: AnalyzeRequest, request: Request) -> Response:
    catalog: Catalog = request.app.state.catalog
    try:
        record = gcg.parse(body.gcg)
    except gcg.GCGError as exc:
        return JSONResponse(status_code=422, content=field_error("gcg", str(exc)))
    turns = sum(event.kind in gcg.TURNS for event in record.events)
    if turns > MAX_TURNS:
        return JSONResponse(
            status_code=422,
            content=field_error("gcg", f"the record has {turns} turns, at most {MAX_TURNS}"),
        )
    try:
        name = catalog.choose(body.lexicon, record.lexicon, "gcg")
    except LexiconChoiceError as exc:
        return choice_refused(exc)
    return await run_work(request, RecordTask(ANALYZE, name, record=record))
