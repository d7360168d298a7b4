"""The CPU work of ``POST /score`` and ``POST /gcg/analyze``, as plain data in
and bytes out, run by a compute process like a move request's (``compute``).
The accepting process has parsed the position, the move or the record and
chosen the lexicon; a ``RecordTask`` carries them across the pipe."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import orjson

from scrabble import cgp as cgp_format
from scrabble import gcg
from scrabble.engines.registry import EngineSet
from scrabble.http_errors import SERVER_ERROR, field_error
from scrabble.notation import MoveText, appraisal_json, review_json
from scrabble.position import Position
from scrabble.review import appraise, review

_log = logging.getLogger("gateway.compute")
SCORE, ANALYZE = "score", "analyze"


@dataclass(frozen=True)
class RecordTask:
    kind: str  # SCORE | ANALYZE
    lexicon: str  # the served lexicon's key
    position: Position | None = None  # score
    move: MoveText | None = None  # score
    move_text: str = ""  # score: as the caller wrote it
    parsed_cgp: cgp_format.CGP | None = None  # score, when given as CGP
    record: gcg.GameRecord | None = None  # analyze


def score_answer(engines: EngineSet, task: RecordTask) -> dict[str, Any]:
    assert task.position is not None and task.move is not None
    position, parsed = task.position, task.parsed_cgp
    appraisal = appraise(position, engines, task.move)
    normalised = cgp_format.format_cgp(
        position.rows(),
        position.rack_string(),
        engines.lexicon.info.name,
        opponent_rack=parsed.opponent_rack if parsed else "",
        scores=parsed.scores if parsed else (0, 0),
        zero_turns=parsed.zero_turns if parsed else 0,
    )
    return {
        "lexicon": engines.lexicon.info.as_dict(),
        "cgp": normalised,
        "move": task.move_text,
        **appraisal_json(appraisal),
    }


def analyze_answer(engines: EngineSet, task: RecordTask) -> dict[str, Any]:
    assert task.record is not None
    answer = review_json(review(task.record, engines))
    answer["lexicon"] = engines.lexicon.info.as_dict()
    return answer


def compute_record(engines: EngineSet, task: RecordTask) -> tuple[int, bytes]:
    """(status, JSON body); never raises: a record that does not replay is a
    422 naming its line, anything else a logged 500."""
    try:
        if task.kind == SCORE:
            return 200, orjson.dumps(score_answer(engines, task))
        return 200, orjson.dumps(analyze_answer(engines, task))
    except gcg.GCGError as exc:
        return 422, orjson.dumps(field_error("gcg", str(exc)))
    except Exception:
        _log.exception("computing %s failed", task.kind)
        return 500, orjson.dumps(SERVER_ERROR)
