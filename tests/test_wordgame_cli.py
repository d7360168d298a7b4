"""``scripts/wordgame.py``: what a user types wrong gets a usage error (exit 2)
that names the argument and the problem, before any case runs, not a
traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scrabble.wordgame.players.registry import check_settings

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = [sys.executable, str(ROOT / "scripts" / "wordgame.py")]


@pytest.fixture(scope="module")
def case_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", "7", "--out", str(path)], check=True, capture_output=True
    )
    return path


def refused(*args: str) -> str:
    done = subprocess.run(
        [*SCRIPT, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # nothing ran
    return done.stderr


def test_bad_seeds_are_refused(tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    assert "'5-x' is not N or A-B" in refused("cases", "--seeds", "5-x", "--out", out)
    assert "'9-3' is an empty range" in refused("cases", "--seeds", "9-3", "--out", out)
    assert "at most 1,000,000" in refused("cases", "--seeds", "1-99999999999", "--out", out)
    assert not Path(out).exists()
    nowhere = str(tmp_path / "no" / "such" / "dir.jsonl")
    assert "argument --out: No such file or directory" in refused(
        "cases", "--seeds", "1", "--out", nowhere
    )


def test_cases_where_keeps_the_cases_of_a_class(tmp_path: Path) -> None:
    """``cases --where``: the same lines as the whole range, less the cases
    outside the class, read here from the case's own fields and map."""
    every, some = tmp_path / "every.jsonl", tmp_path / "some.jsonl"
    seeds = ["--seeds", "1-60"]
    subprocess.run([*SCRIPT, "cases", *seeds, "--out", str(every)], check=True)
    done = subprocess.run(
        [*SCRIPT, "cases", *seeds, "--where", "share>=0.2", "--where", "n <= 14"]
        + ["--out", str(some)],
        check=True,
        capture_output=True,
        text=True,
    )

    def dense_and_small(line: str) -> bool:
        case = json.loads(line)
        words = sum(row.count("D") + row.count("T") for row in case["premiums"])
        return case["n"] <= 14 and words >= 0.2 * case["n"] ** 2

    wanted = [line for line in every.read_text().splitlines() if dense_and_small(line)]
    assert 0 < len(wanted) < 60
    assert some.read_text().splitlines() == wanted
    assert f"wrote {len(wanted)} of 60 cases" in done.stderr


def test_cases_refuses_a_bad_where(tmp_path: Path) -> None:
    out = str(tmp_path / "x.jsonl")
    for where, problem in [
        ("size<=12", "'size' is not one of n, t, x, d, share"),
        ("n~12", "'n~12' has no comparison"),
        ("d=low", "'low' is not a number"),
        ("share<nan", "'nan' is not a finite number"),
    ]:
        message = refused("cases", "--seeds", "1", "--where", where, "--out", out)
        assert "argument --where" in message and problem in message
    assert not Path(out).exists()


def test_run_refuses_a_missing_or_malformed_case_file(case_file: Path, tmp_path: Path) -> None:
    assert "argument --cases: no such file" in refused("run", "--cases", str(tmp_path / "no"))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(case_file.read_text() + '{"id": "wg-9"}\n')
    assert f"{bad} line 2: missing field 'seed'" in refused("run", "--cases", str(bad))
    assert "line 2" in refused("windows", "--cases", str(bad))


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--set", "fixed_share"], "argument --set: expected NAME=VALUE, got 'fixed_share'"),
        (["--set", "colour=red"], "unknown setting 'colour' for PlannerConfig"),
        (["--set", "fixed_share=abc"], "setting 'fixed_share': 'abc' is not a number"),
        (["--set", "use_setups=maybe"], "setting 'use_setups': 'maybe' is not true or false"),
        (["--player", "greedy", "--set", "budget_ms=1"], "greedy has no settings"),
        (["--jobs", "0"], "argument --jobs: expected a whole number of at least 1"),
        (["--limit", "-1"], "argument --limit: expected a whole number of at least 1"),
    ],
)
def test_run_refuses_bad_options(case_file: Path, args: list[str], problem: str) -> None:
    assert problem in refused("run", "--cases", str(case_file), "--baseline", "none", *args)


def test_run_refuses_an_unknown_player_or_baseline(case_file: Path) -> None:
    assert "unknown player 'nobody'" in refused(
        "run", "--cases", str(case_file), "--player", "nobody"
    )
    assert "unknown player 'nobody'" in refused(
        "run", "--cases", str(case_file), "--baseline", "nobody"
    )


def test_compare_and_play_refuse_bad_arguments(tmp_path: Path) -> None:
    missing = str(tmp_path / "a.txt")
    assert "no such file" in refused("compare", missing, missing)
    assert "unknown player 'nobody'" in refused("play", "--player", "nobody")
    assert "unknown setting 'colour'" in refused("play", "--set", "colour=1")


def test_check_settings_takes_what_the_players_take() -> None:
    check_settings("planner", {"fixed_share": "0.3", "use_setups": "no"})
    check_settings("prospect", {"budget_ms": "5000"})
    check_settings("greedy", {})
    with pytest.raises(KeyError, match="opened"):
        check_settings("prospect", {"opened": "1"})
    with pytest.raises(ValueError, match="'slots': '2.5' is not a whole number"):
        check_settings("planner", {"slots": "2.5"})
