"""The lexicons the gateway serves: which stores (every one in LEXICON_DIR),
how a request picks one (``lexicon``, or the CGP's ``lex`` / the GCG's
``#lexicon``), ``GET /lexicons`` and the word judge
``GET /lexicons/{name}/words/{word}``.

The accepting process holds the catalog unloaded (names, identities, store
paths): it validates the choice and answers the word judge from the store
itself; the compute processes hold the loaded lexicons (``compute.Kit``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from scrabble.engines.compact.client import WorkerClient
from scrabble.gateway.record_schemas import LexiconEntry, WordAnswer
from scrabble.http_errors import field_error
from scrabble.lexicon.anagram import WordError, judge_word
from scrabble.lexicon.catalog import Catalog, LexiconChoiceError, UnknownLexicon
from scrabble.lexicon.store import ensure_sound, missing_store_message, read_info

router = APIRouter()
_log = logging.getLogger("gateway")


def configured_catalog(worker: WorkerClient | None = None, check: bool = False) -> Catalog:
    """Every store in LEXICON_DIR (narrowed by LEXICONS, default LEXICON_DEFAULT),
    not loaded. ``LEXICON_DB`` (one store file, as before several lexicons
    were served) serves that store alone. ``check``: rebuild a damaged store
    from the word list beside it first (``store.ensure_sound``)."""
    single = os.environ.get("LEXICON_DB")
    if single:
        path = Path(single)
        if not path.is_file():
            raise FileNotFoundError(missing_store_message(path))
        if check:
            ensure_sound(path, notice=_log.warning)
        return Catalog.open(path.parent, worker, names=[read_info(path).name])
    catalog = Catalog.open(worker=worker)
    if check:
        for entry in catalog.served.values():
            ensure_sound(entry.path, notice=_log.warning)
    return catalog


def choice_refused(exc: LexiconChoiceError) -> JSONResponse:
    """A 422 naming the field that named the lexicon (the list of those
    served is in the message)."""
    return JSONResponse(status_code=422, content=field_error(exc.field, exc.message))


def health(catalog: Catalog) -> dict[str, Any]:
    """The served stores for /health (their memory comes from the processes
    that hold them loaded)."""
    return {
        "default_lexicon": catalog.default,
        "lexicon_dir": str(catalog.directory),
        "skipped_stores": catalog.skipped,
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
)
async def word(name: str, word: str, request: Request) -> Any:
    catalog: Catalog = request.app.state.catalog
    try:
        entry = catalog.served[catalog.resolve(name)]
    except UnknownLexicon as exc:
        return JSONResponse(status_code=404, content=field_error("name", str(exc)))
    try:
        judged = judge_word(entry.path, word)
    except WordError as exc:
        return JSONResponse(status_code=422, content=field_error("word", str(exc)))
    return {
        "lexicon": entry.info.name,
        "word": judged.word,
        "valid": judged.valid,
        "anagrams": judged.anagrams,
    }
