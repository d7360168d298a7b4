"""The premium map's best windows packed apart (``capacity``), on hand-made maps."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scrabble.wordgame.capacity import (
    packed_products,
    preplaced_board,
    preplaced_window,
    preplaced_windows,
)

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = [sys.executable, str(ROOT / "scripts" / "wordgame.py")]
BLANK = "." * 10


def test_pre_placed_letters_let_a_hand_reach_spread_multipliers() -> None:
    # every other square of row 0 a triple word: a hand of 5 reaches 3 of them in
    # 6 squares (one letter pre-placed), 4 in 8, all 5 in 10
    premiums = ["T.T.T.T.T.", *[BLANK] * 9]
    assert packed_products(premiums, 5, 1, limit=1) == [27]
    assert packed_products(premiums, 5, 3, limit=1) == [81]
    assert packed_products(premiums, 5, 5, limit=1) == [243]


def test_windows_are_packed_apart_best_first() -> None:
    # three triple-word runs, rows 0, 1 and 5: row 1's touches row 0's, so only
    # two of them are packed, and every later window is plain
    run = "TTTTTT...."
    premiums = [run, run, BLANK, BLANK, BLANK, run, *[BLANK] * 4]
    products = packed_products(premiums, 5, 1)
    assert products[:2] == [243, 243]
    assert set(products[2:]) == {1}
    assert 2 < len(products) <= 8


def test_a_window_longer_than_the_board_gives_nothing() -> None:
    assert packed_products([BLANK] * 10, 9, 2) == []


def run_windows(cases: Path, pre: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SCRIPT, "windows", "--cases", str(cases), "--pre", pre], capture_output=True, text=True
    )


def written_cases(tmp_path: Path, seeds: str) -> Path:
    cases = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", seeds, "--out", str(cases)], check=True, capture_output=True
    )
    return cases


def test_the_windows_command_reads_real_cases(tmp_path: Path) -> None:
    done = run_windows(written_cases(tmp_path, "5-8"), "1,3")
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert len(out) == 2
    # one letter pre-placed against itself is the identity
    assert out[0].startswith("k=1: 4 boards;")
    assert "median 1.00 (quartiles 1.00-1.00), geomean 1.000" in out[0]
    assert out[1].startswith("k=3: 4 boards;")


def test_the_windows_command_takes_one_board_and_refuses_bad_counts(tmp_path: Path) -> None:
    cases = written_cases(tmp_path, "5")
    one = run_windows(cases, "1")
    # quartiles need two boards: one board is reported as it is, not a traceback
    assert one.returncode == 0, one.stderr
    assert "1.00 (one board)" in one.stdout
    for bad in ("2,x", "0", "3,10", ""):
        refused = run_windows(cases, bad)
        assert refused.returncode == 2
        assert "argument --pre: expected counts 1-9" in refused.stderr


def test_preplaced_window_takes_the_best_window_and_the_most_shared_letters() -> None:
    # row 2 holds D D D at columns 1, 3, 5 and T at 6: a hand of 4 with 2 letters
    # pre-placed (6 squares) reaches D . D . D T at columns 1-6, product 24, its
    # plain squares 2 and 4 pre-placed
    premiums = [BLANK, BLANK, ".D.D.DT...", *[BLANK] * 7]
    words = ["BANANA", "CANAPE", "XYZZYX", "PANAMA", "SHORT", "BENDER"]
    window = preplaced_window(premiums, 4, 2, words)
    assert window is not None
    assert window.product == 24 and window.squares == ((2, 2), (2, 4))
    # positions 1 and 3 of the 6-letter words: AA (banana, canape, panama) three times
    assert window.letters == "AA" and window.family == 3
    board = window.board(10)
    assert board[2] == "..A.A....." and all(row == BLANK for i, row in enumerate(board) if i != 2)
    assert preplaced_window(premiums, 9, 2, words) is None  # 11 squares on a board of 10
    assert preplaced_window(premiums, 4, 2, ["SHORT"]) is None  # no word of 6 letters


def test_run_pre_plays_a_case_from_the_preplaced_board(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", "8", "--out", str(cases)], check=True, capture_output=True
    )
    run = [*SCRIPT, "run", "--cases", str(cases), "--player", "greedy", "--baseline", "none"]
    out = subprocess.run([*run, "--pre", "2"], capture_output=True, text=True, check=True)
    line = out.stdout.splitlines()[0]
    assert " pre=" in line and "FAILED" not in line and " score=     0" not in line
    plain = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    assert " pre=" not in plain.splitlines()[0]
    refused = subprocess.run([*run, "--pre", "2", "--protocol"], capture_output=True, text=True)
    assert refused.returncode == 2 and "--pre" in refused.stderr


def test_preplaced_windows_packs_the_next_best_window_apart() -> None:
    # row 2 as above (D . D . D T at columns 1-6, product 24). Rows 3 and 6
    # both hold T T (a window of product 9); row 3 comes first in the scan but
    # touches row 2's window, so the second window is row 6's
    premiums = [BLANK, BLANK, ".D.D.DT...", "..TT......", BLANK, BLANK, "..T.T.....", *[BLANK] * 3]
    words = ["BANANA", "CANAPE", "PANAMA", "BENDER"]
    first, second = preplaced_windows(premiums, 4, 2, words, 2)
    assert first == preplaced_window(premiums, 4, 2, words)
    assert first.product == 24 and second.product == 9
    assert all(row == 6 for row, _ in second.squares)  # not row 3, beside the first
    board = preplaced_board([first, second], 10)
    assert board[2] == first.board(10)[2] and board[6] == second.board(10)[6]
    assert sum(ch != "." for row in board for ch in row) == 4
    assert len(preplaced_windows(premiums, 4, 2, words, 1)) == 1
    assert preplaced_windows(premiums, 9, 2, words, 2) == []  # 11 squares on a board of 10


def test_run_pre_windows_places_each_window_and_needs_pre(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", "8", "--out", str(cases)], check=True, capture_output=True
    )
    run = [*SCRIPT, "run", "--cases", str(cases), "--player", "greedy", "--baseline", "none"]
    out = subprocess.run(
        [*run, "--pre", "2", "--pre-windows", "2"], capture_output=True, text=True, check=True
    )
    line = out.stdout.splitlines()[0]
    tag = line.split(" pre=")[1].split()[0]
    assert len(tag.split(",")) == 2 and "FAILED" not in line
    refused = subprocess.run([*run, "--pre-windows", "2"], capture_output=True, text=True)
    assert refused.returncode == 2 and "--pre-windows needs --pre" in refused.stderr


def test_run_more_tiles_plays_past_n_squared_and_refuses_the_protocol(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", "8", "--out", str(cases)], check=True, capture_output=True
    )
    run = [*SCRIPT, "run", "--cases", str(cases), "--player", "greedy", "--baseline", "none"]
    plain = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    out = subprocess.run([*run, "--more-tiles", "1"], capture_output=True, text=True, check=True)
    line, report = out.stdout.splitlines()[0], json.loads(out.stdout.splitlines()[-1])
    n = int(line.split(" n=")[1].split()[0])
    assert f" more={n * n}" in line and "FAILED" not in line and report["failures"] == 0
    assert " more=" not in plain.splitlines()[0]
    # greedy discards its whole hand when it cannot play: with twice the tiles
    # it makes more plays and discards than on the case's own queue
    counts = [
        (int(text.split(" plays=")[1].split()[0]), int(text.split(" discards=")[1].split()[0]))
        for text in (plain.splitlines()[0], line)
    ]
    assert sum(counts[1]) > sum(counts[0])
    for bad, why in (("--protocol", "--more-tiles"), ("3", "outside 0-2"), ("x", "not a number")):
        args = ["--more-tiles", "1", bad] if bad == "--protocol" else ["--more-tiles", bad]
        refused = subprocess.run([*run, *args], capture_output=True, text=True)
        assert refused.returncode == 2 and why in refused.stderr


def test_run_counts_big_plays_and_windows_counts_the_maps_big_windows(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", "8-9", "--out", str(cases)], check=True, capture_output=True
    )
    run = [*SCRIPT, "run", "--cases", str(cases), "--player", "greedy", "--baseline", "none"]
    out = subprocess.run(run, capture_output=True, text=True, check=True).stdout.splitlines()
    report = json.loads(out[-1])
    per_case = [int(line.split(" big=")[1].split()[0]) for line in out[:2]]
    assert report["big_plays"] == sum(per_case)
    assert 0 <= report["big_plays_points_share"] <= 1
    assert (report["big_plays_points_share"] > 0) == (report["big_plays"] > 0)
    # the three groups share out the maps' word-multiplier squares, counted here
    maps = [json.loads(line)["premiums"] for line in cases.read_text().splitlines()]
    on_maps = sum(ch in "DT" for rows in maps for row in rows for ch in row)
    squares = report["word_squares"]
    assert sum(squares.values()) == on_maps and min(squares.values()) >= 0
    assert squares["under_big_plays"] + squares["under_other_plays"] > 0
    windows = subprocess.run(
        [*SCRIPT, "windows", "--cases", str(cases), "--pre", "3"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    one, three = windows.splitlines()
    counted = [int(text.split(" windows of product >= 27")[0].split()[-1]) for text in (one, three)]
    expected = [
        sum(
            sum(1 for p in packed_products(rows, json.loads(line)["t"], k, 400) if p >= 27)
            for rows, line in zip(maps, cases.read_text().splitlines(), strict=True)
        )
        for k in (1, 3)
    ]
    assert counted == expected
