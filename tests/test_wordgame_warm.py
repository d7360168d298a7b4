"""A player process that is set up but finds its kernels cold (the checkout moved
or copied, sources edited, another Numba) would compile for half a minute inside
a case's 10 s and score 0. It answers that case with the stand-in, warms the
kernels beside it, and the next case gets the real player."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scrabble import compiled
from scrabble.wordgame import cases
from scrabble.wordgame.players.registry import make_player
from scrabble.wordgame.protocol import play_subprocess
from scrabble.wordgame.referee import play_in_process
from scrabble.wordgame.warmup import PART

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.usefixtures("warm_player")  # a whole cache to copy
PLANNER = [
    sys.executable,
    str(ROOT / "scripts" / "wordgame.py"),
    "play",
    "--player=planner",
    "--fixed-effort",
    "--set=fixed_share=0.3",
]


def test_play_with_cold_kernels_answers_with_the_standin_and_warms_them_beside_it(
    tmp_path, monkeypatch, enable
):
    # This checkout's compiled kernels without the mark their warm-up writes once it
    # has run every player: the state of a cache a warm-up has not finished in.
    keyed = compiled.cache_directory()
    cache = tmp_path / "cache" / keyed.name
    shutil.copytree(keyed, cache, ignore=shutil.ignore_patterns("warm-*"))
    monkeypatch.setenv("SCRABBLE_NUMBA_CACHE_BASE", str(cache.parent))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    case = cases.generate(2, cases.letter_probabilities(enable.words))

    stderr = tmp_path / "stderr"
    with stderr.open("wb") as sink:
        first = play_subprocess(case, PLANNER, enable.contains, stderr=sink, cwd=str(ROOT))
    assert first.failure is None, first.failure  # a legal game in time, not a 0
    assert first.score > 0 and first.plays
    assert "this case is played by the stand-in" in stderr.read_text()

    deadline = time.monotonic() + 300  # the warm-up is niced; the tests load both cores
    while not compiled.is_warm(cache, PART) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert compiled.is_warm(cache, PART), (ROOT / ".setup.log").read_text()[-2000:]

    with stderr.open("wb") as sink:
        second = play_subprocess(
            case, PLANNER, enable.contains, time_limit_ms=60_000, stderr=sink, cwd=str(ROOT)
        )
    assert "stand-in" not in stderr.read_text()
    here = play_in_process(
        case,
        make_player("planner", enable, True, {"fixed_share": "0.3"}),
        enable.contains,
        time_limit_ms=float("inf"),
    )
    # the real player's game, decision for decision
    assert second.failure is None and second.score == here.score
    assert [(p.row, p.col, p.horizontal, p.word) for p in second.plays] == [
        (p.row, p.col, p.horizontal, p.word) for p in here.plays
    ]
    assert second.discards == here.discards


def test_run_with_cold_kernels_compiles_them_before_the_first_case(tmp_path, monkeypatch, enable):
    # ``run`` times each case as a referee would: kernels not marked warm for
    # this checkout are compiled (here: loaded from the copy) before any clock
    # starts, and the mark is written, so the next run goes straight to the cases
    keyed = compiled.cache_directory()
    cache = tmp_path / "cache" / keyed.name
    shutil.copytree(keyed, cache, ignore=shutil.ignore_patterns("warm-*"))
    monkeypatch.setenv("SCRABBLE_NUMBA_CACHE_BASE", str(cache.parent))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    case_file = tmp_path / "cases.jsonl"
    case_file.write_text(
        cases.generate(3, cases.letter_probabilities(enable.words)).to_json() + "\n"
    )
    command = [sys.executable, str(ROOT / "scripts" / "wordgame.py"), "run", "--cases",
               str(case_file), "--baseline", "none"]  # fmt: skip

    first = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=os.environ)
    assert first.returncode == 0, first.stderr
    assert "compiling them first, outside every case's clock" in first.stderr
    assert compiled.is_warm(cache, PART)
    assert json.loads(first.stdout.splitlines()[-1])["failures"] == 0

    second = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=os.environ)
    assert second.returncode == 0, second.stderr
    assert "compiling" not in second.stderr
    assert json.loads(second.stdout.splitlines()[-1])["failures"] == 0
