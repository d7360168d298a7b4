"""The run summaries: ratios, the relative score, and `compare` over what a
real `run` printed."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from scrabble.wordgame import summary
from scrabble.wordgame.cases import ALPHABET, generate, read_cases

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
    assert odd.returncode == 2 and "pairs" in odd.stderr


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


def sized_line(case_id: str, n: int, t: int, score: int) -> str:
    return case_line(case_id, score).replace("n=12 t=7", f"n={n} t={t}")


def test_compare_by_class_gives_each_class_its_own_paired_figures(tmp_path):
    # (case, N, T, A's score, B's score): T 5 / N 10-12 doubles, T 9 / N 19-20 halves once
    games = [
        ("wg-0001", 10, 5, 100, 200),
        ("wg-0002", 12, 5, 100, 200),
        ("wg-0003", 20, 9, 400, 200),
        ("wg-0004", 19, 9, 800, 800),
    ]
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("\n".join(sized_line(i, n, t, score) for i, n, t, score, _ in games))
    b.write_text("\n".join(sized_line(i, n, t, score) for i, n, t, _, score in games))
    for by, low, high in (("t", "t 5", "t 9"), ("n", "n 10-12", "n 19-20")):
        out = subprocess.run(
            [*SCRIPT, "compare", str(a), str(b), "--by", by],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        assert out[0].startswith(f"cases 4  changed 3  B/A geomean {(2 * 2 * 0.5) ** 0.25:.4f}")
        assert out[1] == f"{low}: cases 2  changed 2  B/A geomean 2.0000 (95% CI 2.0000-2.0000)"
        assert out[2].startswith(f"{high}: cases 2  changed 1  B/A geomean {0.5**0.5:.4f}")
        assert len(out) == 3
    by_share = subprocess.run(
        [*SCRIPT, "compare", str(a), str(b), "--by", "share"], capture_output=True, text=True
    )
    assert by_share.returncode == 2 and "--cases" in by_share.stderr
    assert "geomean" not in by_share.stdout  # refused before any figure


def by_share(a: Path, b: Path, cases: Path) -> list[str]:
    """What ``compare A B --by share --cases CASES`` prints, line by line."""
    return subprocess.run(
        [*SCRIPT, "compare", str(a), str(b), "--by", "share", "--cases", str(cases)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()


def test_compare_by_share_reads_the_case_files(tmp_path):
    cases = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", "4-7", "--out", str(cases)], check=True, capture_output=True
    )
    shares = {case.id: case.word_share for case in read_cases(cases)}
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("\n".join(case_line(case_id, 100) for case_id in shares))
    b.write_text("\n".join(case_line(case_id, 300) for case_id in shares))
    out = by_share(a, b, cases)
    counted = 0
    for line in out[1:]:
        band, rest = line.split(": ")
        low, high = (float(x) for x in band.removeprefix("share ").split("-"))
        members = [i for i, share in shares.items() if low <= share < high]
        assert rest.startswith(f"cases {len(members)}  changed {len(members)}  B/A geomean 3.0000")
        counted += len(members)
    assert counted == len(shares) == 4
    b.write_text("\n".join([b.read_text(), case_line("wg-0099", 300)]))  # in no case file
    a.write_text("\n".join([a.read_text(), case_line("wg-0099", 100)]))
    out = by_share(a, b, cases)
    assert out[0].startswith("cases 5  ") and out[-1].startswith("1 cases in no case file")
    missing = subprocess.run(
        [*SCRIPT, "compare", str(a), str(b), "--by", "share", "--cases", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
    )
    assert missing.returncode != 0 and "no case file" in missing.stderr


def test_word_share_counts_the_word_multipliers_of_a_hand_made_map():
    case = generate(1, {letter: 1 / 26 for letter in ALPHABET})
    rows = ["." * 10] * 10
    rows[0] = "D.T.d.t..D"  # three word multipliers; the letter ones do not count
    rows[9] = "T........t"
    board = replace(case, n=10, premiums=tuple(rows), tiles=case.tiles[:100])
    assert board.word_share == pytest.approx(4 / 100)
    assert summary.share_class(board.word_share) == "0.00-0.05"
    assert summary.share_class(0.05) == "0.05-0.10"
    assert summary.share_class(0.15) == "0.15-0.20"
    assert summary.share_class(0.149) == "0.10-0.15"
    assert [summary.size_class("n", n) for n in (10, 12, 13, 18, 19, 20)] == [
        "10-12",
        "10-12",
        "13-15",
        "16-18",
        "19-20",
        "19-20",
    ]
    assert summary.size_class("d", 0) == "0"
