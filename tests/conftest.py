from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from scrabble.lexicon.loaded import Lexicon

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT.parent / "shared" / "golden"


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    """The real SOWPODS lexicon, loaded once per test process."""
    return Lexicon.load()


def golden_cases() -> list[tuple[dict, dict]]:
    positions = [json.loads(line) for line in (GOLDEN / "positions.jsonl").open()]
    with gzip.open(GOLDEN / "moves.jsonl.gz", "rt") as fh:
        moves = [json.loads(line) for line in fh]
    return list(zip(positions, moves, strict=True))
