#!/usr/bin/env python3
"""Build <name>.sqlite from a word list (one word a line), in the word list's
own directory unless --dir names another.

    python scripts/build_lexicon.py lexicon/sowpods.txt [--name NAME] [--dir DIR] [--force]

(scripts/setup and the Docker lexicon service build lexicon/*.txt this way;
for your own list, `scrabble lexicon build WORDS.txt --name NAME` writes into
LEXICON_DIR, where the gateway looks.) Rebuilds only when the word list
changed (its sha256 differs from the database's meta) or the database is
damaged (SQLite's quick_check, or meta counts that do not match the rows);
removes temporary files of builds that died. Exits 2 with the offending line
on a bad word list.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.lexicon.store import build  # noqa: E402
from scrabble.lexicon.wordlist import WordListError  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("source", type=Path, help="word list, one word a line")
    parser.add_argument("--name", help="lexicon name (default: the file's stem, lower case)")
    parser.add_argument("--dir", type=Path, help="where to write it (default: beside the list)")
    parser.add_argument("--force", action="store_true", help="rebuild even if current")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    target = args.dir or args.source.parent
    try:
        info, built = build(args.source, args.name, force=args.force, directory=target,
                            verbose=True)  # fmt: skip
    except (WordListError, OSError, sqlite3.Error) as exc:
        print(f"build_lexicon: {exc}", file=sys.stderr)
        return 2
    verb = "built" if built else "up to date:"
    print(
        f"{verb} {target / (info.name + '.sqlite')} ({info.words} words, "
        f"{info.signatures} signatures, {time.perf_counter() - started:.1f}s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
