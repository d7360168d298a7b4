"""``scripts/wordgame.py trace``: one case turn by turn. The recorder must not
change the game, each turn's points must add up to the referee's score, and
what it reports of a decision must be what the player decided."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from scrabble.wordgame import cases
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.players.registry import make_player
from scrabble.wordgame.protocol import play_subprocess
from scrabble.wordgame.referee import play_in_process
from scrabble.wordgame.trace import Trace, trace_case
from scrabble.wordgame.window import Window

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.usefixtures("warm_player")  # `play` is the real player
SCRIPT = [sys.executable, str(ROOT / "scripts" / "wordgame.py")]
SEED = 2  # 10 x 10, T 5, D 2: a planner's game in about 2 s at fixed effort


@pytest.fixture(scope="module")
def case() -> cases.Case:
    words = load_lexicon("enable").words
    return cases.generate(SEED, cases.letter_probabilities(words), "enable")


@pytest.fixture(scope="module")
def planner_trace(case: cases.Case) -> Trace:
    lexicon = load_lexicon(case.lexicon)
    player = make_player("planner", lexicon, fixed_effort=True)
    return trace_case(case, player, lexicon.contains, float("inf"), alternatives=3)


def test_a_traced_game_is_the_game_run_plays(case: cases.Case, planner_trace: Trace) -> None:
    lexicon = load_lexicon(case.lexicon)
    plain = play_in_process(
        case, make_player("planner", lexicon, fixed_effort=True), lexicon.contains, float("inf")
    )
    traced = planner_trace.outcome
    assert traced.failure is None
    assert traced.score == plain.score
    assert traced.plays == plain.plays
    assert traced.discards == plain.discards


def test_the_turns_points_add_up_to_the_referees_score(
    case: cases.Case, planner_trace: Trace
) -> None:
    turns = planner_trace.turns
    outcome = planner_trace.outcome
    assert [t.number for t in turns] == list(range(1, len(turns) + 1))
    assert sum(t.points for t in turns) == outcome.raw_score
    plays = [t for t in turns if t.reply.startswith("PLAY")]
    assert [t.points for t in plays] == [p.score for p in outcome.plays]
    for play, record in zip(plays, outcome.plays, strict=True):
        direction = "H" if record.horizontal else "V"
        assert play.reply == f"PLAY {record.row} {record.col} {direction} {record.word}"
    discards = [t for t in turns if t.reply.startswith("DISCARD")]
    assert len(discards) == outcome.discards
    assert all(t.points == -case.d for t in discards)
    # the final board holds every tile the referee counted, on the case's size
    board = planner_trace.board
    assert len(board) == case.n and all(len(row) == case.n for row in board)
    assert sum(ch != "." for row in board for ch in row) == outcome.board_tiles


def test_the_planners_decisions_are_reported_with_terms_and_target(
    planner_trace: Trace,
) -> None:
    turns = planner_trace.turns
    assert all(t.value is not None and t.terms for t in turns if t.reply != "STOP")
    # the alternatives are other actions, worth no more than the one chosen
    with_alternatives = [t for t in turns if t.alternatives]
    assert with_alternatives
    for t in with_alternatives:
        assert len(t.alternatives) <= 3
        assert all(reply != t.reply for reply, _ in t.alternatives)
        assert t.value is not None
        assert all(value <= t.value + 1e-6 for _, value in t.alternatives)
    targets = [t.target for t in turns if t.target is not None]
    assert targets and all(t.split()[0] in ("H", "V") for t in targets)


def test_greedys_value_is_the_score_it_makes(case: cases.Case) -> None:
    lexicon = load_lexicon(case.lexicon)
    player = make_player("greedy", lexicon)
    trace = trace_case(case, player, lexicon.contains, float("inf"))
    plays = [t for t in trace.turns if t.reply.startswith("PLAY")]
    assert plays
    assert all(t.value == t.points == t.terms["score"] for t in plays)
    assert all(t.target is None for t in trace.turns)


def test_a_slot_is_described_by_its_squares_and_word_multipliers() -> None:
    premiums = ("D..T", ".d..", "T...", "....")
    down = SimpleNamespace(direction=1, line=0, start=0, length=4, new_squares=(0, 4, 8))
    window = Window.of_slot(down, premiums)
    assert window.squares == ((0, 0), (1, 0), (2, 0))
    assert window.label() == "V 0,0 +4 x6"  # D and T under new tiles
    across = SimpleNamespace(direction=0, line=1, start=1, length=3, new_squares=(5, 6))
    assert Window.of_slot(across, premiums).label() == "H 1,1 +3 x1"  # a letter multiplier only


def test_the_command_prints_each_turn_the_board_and_a_json_summary(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", f"1-{SEED}", "--out", str(path)],
        check=True,
        capture_output=True,
    )
    done = subprocess.run(
        [*SCRIPT, "trace", "--cases", str(path), "--case", str(SEED), "--player", "greedy"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    report = json.loads(lines[-1])
    assert report["id"] == f"wg-{SEED:04d}" and report["player"] == "greedy"
    assert lines[0].startswith(f"wg-{SEED:04d} seed={SEED} n=10 t=5")
    turn_lines = [line for line in lines if line[:3].strip().isdigit() and "left=" in line]
    assert len(turn_lines) == report["turns"]
    header = lines.index(next(line for line in lines if "premiums" in line))
    assert len(lines[header + 1 : header + 11]) == 10  # N rows of board and map


def test_the_command_refuses_a_case_not_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    subprocess.run(
        [*SCRIPT, "cases", "--seeds", "5", "--out", str(path)], check=True, capture_output=True
    )
    done = subprocess.run(
        [*SCRIPT, "trace", "--cases", str(path), "--case", "6"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "argument --case: no case with id or seed '6'" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_play_logs_each_turn_of_a_game_an_outside_referee_runs(
    case: cases.Case, planner_trace: Trace, tmp_path: Path
) -> None:
    """``play --log``: the referee here stands for an outside one; the log holds
    the game the in-process trace saw, turn by turn, and the referee's END."""
    log = tmp_path / "play.log"
    there = play_subprocess(
        case,
        [*SCRIPT, "play", "--player", "planner", "--fixed-effort", "--log", str(log)],
        load_lexicon(case.lexicon).contains,
        time_limit_ms=60_000,
        cwd=str(ROOT),
    )
    assert there.failure is None and there.score == planner_trace.outcome.score
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith(f"# n={case.n} t={case.t} x={case.x} d={case.d} lexicon=enable")
    assert lines[-1] == f"END {there.score}"
    turns = lines[1:-1]
    assert len(turns) == len(planner_trace.turns)
    for line, record in zip(turns, planner_trace.turns, strict=True):
        assert f" {record.reply} " in f"{line} " and "points=" not in line
        assert f"score={record.score:6d}" in line


def test_play_refuses_a_log_it_cannot_write(tmp_path: Path) -> None:
    done = subprocess.run(
        [*SCRIPT, "play", "--log", str(tmp_path / "no" / "such" / "dir.log")],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and "argument --log: No such file or directory" in done.stderr
