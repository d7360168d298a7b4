"""The golden set: 40 positions and their complete move lists from an
independent reference engine (``tests/golden/README.md``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


def golden_positions() -> list[dict[str, Any]]:
    with (GOLDEN / "positions.jsonl").open() as fh:
        return [json.loads(line) for line in fh]


def golden_cases() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(position, expected moves) pairs, in file order."""
    with gzip.open(GOLDEN / "moves.jsonl.gz", "rt") as fh:
        moves = [json.loads(line) for line in fh]
    return list(zip(golden_positions(), moves, strict=True))
