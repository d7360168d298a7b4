#!/usr/bin/env python3
"""Make an exhaustive leave table from generations of static self-play.

    .venv/bin/python scripts/leavegen.py --lexicon sowpods --generations 10 \\
        --games-per-generation 100000 --seed 1

Generation 1 plays with the linear model (scrabble/equity/leave.py), each
later one with the table the one before made. Per generation: every turn taken
with a full rack and tiles in the bag records the rack and the best move's
equity; each leave of 1..6 tiles is valued as the mean best equity of the
racks containing it minus the mean over all racks, blended toward the previous
table when seen fewer than --smooth-count times (docs/leaves.md). Games run on
--jobs processes; the table is a fixed function of the settings (not of
--jobs). A checkpoint is written after every generation: stop at any time and
continue with the same command plus --resume (--generations may grow).

Writes --out (default scrabble/data/leaves/<lexicon>.leaves) with its
provenance and prints its sha256 (record it in docs/leaves.md).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from scrabble.equity import leavegen  # noqa: E402
from scrabble.equity.leave_average import AVERAGINGS  # noqa: E402
from scrabble.equity.leave_table import LeaveTable, table_path  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.lexicon.store import default_db_path  # noqa: E402
from scrabble.tiles import rack_counts  # noqa: E402

SAMPLES = ("?", "S", "E", "Z", "X", "Q", "U", "QU", "UU", "VV", "ERS", "??", "AEINST", "IIUUV")


def code_version() -> tuple[str, bool]:
    """The commit the code is at, and whether tracked code differs from it."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()

    commit = git("rev-parse", "HEAD") or "unknown"
    dirty = bool(
        git(
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            "scrabble",
            "scripts",
            "pyproject.toml",
            ":!scrabble/data",
        )
    )
    return commit, dirty


def command_of(args: argparse.Namespace) -> str:
    return (
        f"scripts/leavegen.py --lexicon {args.lexicon} --generations {args.generations} "
        f"--games-per-generation {args.games_per_generation} --seed {args.seed} "
        f"--averaging {args.averaging} --smooth-count {args.smooth_count}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default="sowpods", help="a built lexicon's name")
    ap.add_argument("--generations", type=int, default=10)
    ap.add_argument("--games-per-generation", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--averaging", choices=AVERAGINGS, default="turn")
    ap.add_argument(
        "--smooth-count",
        type=int,
        default=50,
        help="leaves seen fewer times are blended toward the previous table",
    )
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--chunk", type=int, default=25, help="games per task")
    ap.add_argument("--out", type=Path, help="table file (default: the package's)")
    ap.add_argument("--checkpoint", type=Path, help="default: .leavegen/<lexicon>-seed<seed>.npz")
    ap.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    if args.generations < 1 or args.games_per_generation < 1 or args.smooth_count < 0:
        ap.error("--generations and --games-per-generation must be >= 1, --smooth-count >= 0")
    db = default_db_path(args.lexicon)
    if not db.exists():
        ap.error(f"--lexicon: {db} is missing: build it with scripts/build_lexicon.py")
    out = args.out or table_path(args.lexicon)
    checkpoint = args.checkpoint or ROOT / ".leavegen" / f"{args.lexicon}-seed{args.seed}.npz"
    commit, dirty = code_version()
    if dirty:
        print(
            "warning: tracked code differs from the commit; this table's provenance will "
            "not reproduce",
            file=sys.stderr,
        )
    settings = leavegen.settings_for(
        Lexicon.load(db), args.games_per_generation, args.seed, args.averaging, args.smooth_count
    )
    try:
        state = leavegen.run(
            settings,
            args.generations,
            checkpoint,
            resume=args.resume,
            jobs=args.jobs,
            chunk=args.chunk,
            progress=not args.no_progress,
            log=lambda line: print(line, flush=True),
        )
    except (FileExistsError, ValueError) as exc:
        print(f"leavegen: {exc}", file=sys.stderr)
        return 2
    table = LeaveTable(
        index=state.table.index,
        values=state.table.values,
        rack_size=state.table.rack_size,
        provenance=leavegen.provenance(state, command_of(args), commit, dirty),
    )
    sha = table.save(out)
    print(f"wrote {out} ({out.stat().st_size} bytes), sha256 {sha}")
    print(
        f"games {state.generations_done * args.games_per_generation}, "
        f"generations {state.generations_done}, checkpoint {checkpoint}"
    )
    print(
        "values (points): "
        + ", ".join(f"{leave} {table.value(rack_counts(leave)) / 1000:+.2f}" for leave in SAMPLES)
    )
    spread = np.percentile(table.values, [1, 50, 99]) / 1000
    print(f"value percentiles 1/50/99: {spread[0]:+.1f} {spread[1]:+.1f} {spread[2]:+.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
