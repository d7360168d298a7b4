"""The lexicons the gateway serves: the catalog it opens at start, how a
request picks one (``lexicon``, or the CGP's ``lex`` / the GCG's ``#lexicon``),
``GET /lexicons`` and the word judge ``GET /lexicons/{name}/words/{word}``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from scrabble.compile_log import compile_log
from scrabble.engines.compact.client import WorkerClient
from scrabble.engines.registry import EngineSet
from scrabble.gateway.record_schemas import LexiconEntry, WordAnswer
from scrabble.http_errors import field_error
from scrabble.lexicon.anagram import WordError, judge_word
from scrabble.lexicon.catalog import Catalog, LexiconChoiceError, UnknownLexicon, resident_bytes
from scrabble.lexicon.store import missing_store_message, read_info

router = APIRouter()


def open_catalog(worker: WorkerClient | None) -> Catalog:
    """Every store in LEXICON_DIR (narrowed by LEXICONS), loaded now; the
    default one with every engine's tables. ``LEXICON_DB`` (one store file,
    as before several lexicons were served) serves that store alone."""
    single = os.environ.get("LEXICON_DB")
    if single:
        path = Path(single)
        if not path.is_file():
            raise FileNotFoundError(missing_store_message(path))
        catalog = Catalog.open(path.parent, worker, names=[read_info(path).name])
    else:
        catalog = Catalog.open(worker=worker)
    with compile_log():  # a cold cache compiles the trie and table builders here
        catalog.load(prepare_default=True)
        for entry in catalog.served.values():
            assert entry.engines is not None
            _ = entry.engines.static  # every equity answer reads its leave and anagram tables
            entry.memory()  # counted now (a quarter second for SOWPODS), not in a /health call
    return catalog


def choice_refused(exc: LexiconChoiceError) -> JSONResponse:
    """A 422 naming the field that named the lexicon (the list of those
    served is in the message)."""
    return JSONResponse(status_code=422, content=field_error(exc.field, exc.message))


def choose_engines(
    catalog: Catalog, requested: str | None, recorded: str | None, recorded_field: str = "cgp"
) -> EngineSet:
    """The engines of the lexicon a request names (``Catalog.choose``)."""
    return catalog.engines(catalog.choose(requested, recorded, recorded_field))


def health(catalog: Catalog) -> dict[str, Any]:
    """Per lexicon what it holds in memory, for /health."""
    return {
        "default_lexicon": catalog.default,
        "lexicons": {entry.info.name: entry.memory() for entry in catalog.served.values()},
        "lexicon_dir": str(catalog.directory),
        "skipped_stores": catalog.skipped,
        "process_resident_bytes": resident_bytes(),
    }


@router.get(
    "/lexicons",
    response_model=list[LexiconEntry],
    summary="The lexicons this gateway serves",
    tags=["lexicons"],
)
async def lexicons(request: Request) -> list[dict[str, object]]:
    catalog: Catalog = request.app.state.catalog
    return [info.as_dict() for info in catalog.infos()]


@router.get(
    "/lexicons/{name}/words/{word}",
    response_model=WordAnswer,
    summary="Is a word valid, and its anagrams",
    tags=["lexicons"],
    responses={404: {"description": "No such lexicon"}, 422: {"description": "Not a word"}},
)
async def word(name: str, word: str, request: Request) -> Any:
    catalog: Catalog = request.app.state.catalog
    try:
        lexicon = catalog.lexicon(name)
    except UnknownLexicon as exc:
        return JSONResponse(status_code=404, content=field_error("name", str(exc)))
    try:
        judged = judge_word(lexicon, word)
    except WordError as exc:
        return JSONResponse(status_code=422, content=field_error("word", str(exc)))
    return {
        "lexicon": lexicon.info.name,
        "word": judged.word,
        "valid": judged.valid,
        "anagrams": judged.anagrams,
    }
