"""Judging moves and games: ``POST /score`` (is this move legal, what does it
score, where does it rank) and ``POST /gcg/analyze`` (a GCG record reviewed
turn by turn). The work is ``scrabble.judge`` and ``scrabble.review``; the
handlers are plain functions, so FastAPI runs them off the event loop."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from scrabble import cgp as cgp_format
from scrabble import gcg
from scrabble.gateway.lexicons import choice_refused, choose_engines
from scrabble.gateway.record_schemas import (
    AnalyzeRequest,
    AnalyzeResponse,
    ScoreRequest,
    ScoreResponse,
)
from scrabble.http_errors import field_error
from scrabble.lexicon.catalog import Catalog, LexiconChoiceError
from scrabble.notation import appraisal_json, review_json
from scrabble.review import appraise, review

MAX_TURNS = 120  # a real game has 20-40; this bounds the work one request asks for

router = APIRouter()


def _json(body: dict[str, Any]) -> Response:
    return Response(content=orjson.dumps(body), media_type="application/json")


@router.post(
    "/score",
    response_model=ScoreResponse,
    summary="Is a move legal, what does it score, where does it rank",
    tags=["records"],
)
def score(body: ScoreRequest, request: Request) -> Response:
    catalog: Catalog = request.app.state.catalog
    parsed = body.parsed_cgp
    try:
        engines = choose_engines(
            catalog, body.lexicon, parsed.opcodes.get("lex") if parsed else None
        )
    except LexiconChoiceError as exc:
        return choice_refused(exc)
    position = body.position
    appraisal = appraise(position, engines, body.parsed_move)
    name = engines.lexicon.info.name
    normalised = cgp_format.format_cgp(
        position.rows(),
        position.rack_string(),
        name,
        opponent_rack=parsed.opponent_rack if parsed else "",
        scores=parsed.scores if parsed else (0, 0),
        zero_turns=parsed.zero_turns if parsed else 0,
    )
    answer = {
        "lexicon": engines.lexicon.info.as_dict(),
        "cgp": normalised,
        "move": body.move,
        **appraisal_json(appraisal),
    }
    return _json(answer)


@router.post(
    "/gcg/analyze",
    response_model=AnalyzeResponse,
    summary="A GCG game record reviewed turn by turn",
    tags=["records"],
)
def analyze(body: AnalyzeRequest, request: Request) -> Response:
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
        engines = choose_engines(catalog, body.lexicon, record.lexicon, "gcg")
    except LexiconChoiceError as exc:
        return choice_refused(exc)
    try:
        reviewed = review(record, engines)
    except gcg.GCGError as exc:
        return JSONResponse(status_code=422, content=field_error("gcg", str(exc)))
    answer = review_json(reviewed)
    answer["lexicon"] = engines.lexicon.info.as_dict()
    return _json(answer)
