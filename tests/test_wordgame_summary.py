"""The run summaries: ratios, the relative score, and `compare` over what a
real `run` printed."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from scrabble.wordgame import summary

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = [sys.executable, str(ROOT / "scripts" / "wordgame.py")]


def test_ratios_count_a_zero_as_one_point_and_the_relative_score_is_per_case():
    assert summary.ratios([0, 300], [200, 100]) == [1 / 200, 3.0]
    assert summary.geometric_mean([2.0, 8.0]) == pytest.approx(4.0)
    mine, theirs = summary.relative_scores([50, 300, 0], [100, 100, 0])
    assert mine == pytest.approx(100 * (0.5 + 1.0) / 3)
    assert theirs == pytest.approx(100 * (1.0 + 1 / 3) / 3)


def case_line(case_id: str, score: int) -> str:
    return (
        f"{case_id} n=12 t=7 x=2 d=1 score={score:6d} plays= 40 discards=  3 fill=0.70 "
        f"best=  300 top3=0.40 time= 1.00s"
    )


def test_compare_pools_pairs_of_runs_case_by_case(tmp_path):
    a1, b1, a2, b2 = (tmp_path / name for name in ("a1", "b1", "a2", "b2"))
    a1.write_text("\n".join([case_line("wg-0001", 100), case_line("wg-0002", 400), "summary"]))
    b1.write_text("\n".join([case_line("wg-0002", 400), case_line("wg-0001", 300)]))
    a2.write_text("\n".join([case_line("wg-0001", 50), case_line("wg-0009", 10)]))  # 9: only here
    b2.write_text(case_line("wg-0001", 0))  # a failed case: 1 point
    out = subprocess.run(
        [*SCRIPT, "compare", str(a1), str(b1), str(a2), str(b2)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ratio = (3.0 * 1.0 * (1 / 50)) ** (1 / 3)
    assert f"cases 3  changed 2  B/A geomean {ratio:.4f}" in out
    odd = subprocess.run([*SCRIPT, "compare", str(a1)], capture_output=True, text=True)
    assert odd.returncode != 0 and "pairs" in odd.stderr


def test_case_scores_read_what_run_prints(tmp_path):
    cases = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", "2-3", "--out", str(cases)], check=True, capture_output=True
    )
    run = subprocess.run(
        [*SCRIPT, "run", "--cases", str(cases), "--player", "greedy", "--baseline", "none"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    (tmp_path / "run.txt").write_text(run)
    scores = summary.case_scores(tmp_path / "run.txt")
    report = json.loads(run.strip().splitlines()[-1])
    assert sorted(scores) == ["wg-0002", "wg-0003"]
    assert math.isclose(sum(scores.values()) / 2, report["mean_score"], abs_tol=0.05)
