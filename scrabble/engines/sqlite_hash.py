"""``sqlite-hash``: the span signatures looked up in the SQLite store itself,
by primary key, a batch of signatures per query so the cost is the B-tree
searches rather than one statement per signature."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import numpy.typing as npt

from scrabble.lexicon.signature import SIGNATURE_BYTES
from scrabble.lexicon.table import blobs_from_keys

BATCH = 900  # under SQLite's historic 999 bound parameters per statement


class SqliteHash:
    def __init__(self, db_path: Path) -> None:
        if not Path(db_path).is_file():
            raise FileNotFoundError(f"{db_path}: sqlite-hash needs the lexicon's SQLite file")
        self.db_path = Path(db_path)

    def lookup(self, queries: npt.NDArray[np.uint64]) -> tuple[list[str], dict[str, int]]:
        raw = blobs_from_keys(queries).tobytes()
        sigs = [raw[i : i + SIGNATURE_BYTES] for i in range(0, len(raw), SIGNATURE_BYTES)]
        words: list[str] = []
        hits = 0
        statements = 0
        # a connection per request: requests run on worker threads and a
        # sqlite3 connection belongs to the thread that opened it
        con = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            for start in range(0, len(sigs), BATCH):
                chunk = sigs[start : start + BATCH]
                marks = ",".join("?" * len(chunk))
                rows = con.execute(
                    f"SELECT words FROM signatures WHERE signature IN ({marks})", chunk
                ).fetchall()
                statements += 1
                hits += len(rows)
                for (found,) in rows:
                    words.extend(found.split(" "))
        finally:
            con.close()
        return words, {"lookups": len(sigs), "hits": hits, "sqlite_queries": statements}
