"""The line protocol: the same cases in-process and through a real player
process give identical games; the referee's side enforces the rules."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from scrabble.wordgame import cases
from scrabble.wordgame.lexicons import player_lexicon_name
from scrabble.wordgame.players.registry import make_player
from scrabble.wordgame.protocol import (
    ProtocolError,
    parse_start_block,
    parse_turn_line,
    play_subprocess,
    serve,
    start_block,
    turn_line,
)
from scrabble.wordgame.referee import Referee, play_in_process

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.usefixtures("warm_player")  # `play` is the real player

PLAY = [sys.executable, str(ROOT / "scripts" / "wordgame.py"), "play"]
SMALL_SEEDS = (2, 43)  # 10 x 10 boards


@pytest.fixture(scope="module")
def small_cases(enable):
    probs = cases.letter_probabilities(enable.words)
    return [cases.generate(s, probs) for s in SMALL_SEEDS]


def _same(a, b):
    assert a.failure is None and b.failure is None
    assert a.score == b.score and a.raw_score == b.raw_score
    assert [(p.row, p.col, p.horizontal, p.word, p.score) for p in a.plays] == [
        (p.row, p.col, p.horizontal, p.word, p.score) for p in b.plays
    ]
    assert a.discards == b.discards


@pytest.mark.parametrize("player", ["greedy", "planner"])
def test_in_process_and_subprocess_games_are_identical(player, small_cases, enable):
    # a thinking player with a fixed effort makes the same decisions whatever the clock says
    settings = {} if player == "greedy" else {"fixed_share": "0.3"}
    flags = [f"--set={k}={v}" for k, v in settings.items()]
    for case in small_cases[: 2 if player == "greedy" else 1]:
        here = play_in_process(
            case,
            make_player(player, enable, True, settings),
            enable.contains,
            time_limit_ms=float("inf"),
        )
        there = play_subprocess(
            case,
            [*PLAY, "--player", player, "--fixed-effort", *flags],
            enable.contains,
            time_limit_ms=60_000,
            cwd=str(ROOT),
        )
        _same(here, there)
        assert here.plays and there.elapsed_ms > 0


def test_run_through_the_protocol_passes_the_players_settings_to_play(tmp_path):
    # an experiment through the protocol plays the settings it names, not the
    # defaults: the same game as in-process with them, another one without
    path = tmp_path / "cases.jsonl"
    subprocess.run(
        [*PLAY[:2], "cases", "--seeds", str(SMALL_SEEDS[0]), "--out", str(path)],
        check=True,
        capture_output=True,
    )
    run = [*PLAY[:2], "run", "--cases", str(path), "--baseline", "none", "--jobs", "1"]
    run += ["--fixed-effort", "--no-time-limit", "--set", "fixed_share=0.3"]
    heavy = ["--set", "per_tile=40"]  # 40 points a tile placed: another game

    def game(*extra):
        done = subprocess.run([*run, *extra], capture_output=True, text=True, check=True)
        line = done.stdout.splitlines()[0]
        assert "FAILED" not in line
        return line.split(" score=")[1].split(" time=")[0]  # score, plays, discards, ...

    there, here, plain = game("--protocol", *heavy), game(*heavy), game()
    assert there == here
    assert here != plain


def test_play_runs_under_the_project_environment_from_a_bare_python(small_cases, enable):
    # A referee runs the script with whatever python3 it finds. The interpreter the
    # venv was made from, without site-packages (-S), has neither NumPy nor Numba;
    # the script must re-run itself under .venv and play the same game.
    bare = getattr(sys, "_base_executable", sys.executable)
    assert bare != sys.executable
    here = play_in_process(
        small_cases[0], make_player("greedy", enable), enable.contains, time_limit_ms=float("inf")
    )
    there = play_subprocess(
        small_cases[0],
        [bare, "-S", str(ROOT / "scripts" / "wordgame.py"), "play", "--player", "greedy"],
        enable.contains,
        time_limit_ms=60_000,
        cwd=str(ROOT),
    )
    _same(here, there)


def test_play_prefers_the_project_environment_to_a_python_with_packages_of_its_own(
    tmp_path, monkeypatch, small_cases, enable
):
    # A referee's python3 may bring a NumPy and a Numba of its own (other versions:
    # the kernels would not load, or the code not run). Here they are stand-ins on
    # PYTHONPATH that fail on import: the script must leave them for .venv's.
    site = tmp_path / "site"
    for name in ("numpy", "numba"):
        (site / name).mkdir(parents=True)
        (site / name / "__init__.py").write_text(f"raise ImportError('a foreign {name}')\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    bare = getattr(sys, "_base_executable", sys.executable)
    here = play_in_process(
        small_cases[0], make_player("greedy", enable), enable.contains, time_limit_ms=float("inf")
    )
    there = play_subprocess(
        small_cases[0],
        [bare, str(ROOT / "scripts" / "wordgame.py"), "play", "--player", "greedy"],
        enable.contains,
        time_limit_ms=60_000,
        cwd=str(ROOT),
    )
    _same(here, there)


def test_start_block_and_turn_line_round_trip(small_cases):
    ref = Referee(small_cases[0], lambda w: True)
    setup = ref.setup()
    lines = io.StringIO(start_block(setup))
    assert parse_start_block(lines.readline) == setup
    view = ref.turn(1234.9)
    assert turn_line(view) == f"1234 0 {100 - setup.t} {view.hand} -\n"
    assert parse_turn_line(turn_line(view)) == view


@pytest.mark.parametrize(
    ("block", "problem"),
    [
        ("garbage\n", "expected 'WORDGAME 1'"),
        ("WORDGAME 1\n12 x 2 3\n", "expected 'N T X D', got '12 x 2 3'"),
        # refused before a million premium rows are waited for
        ("WORDGAME 1\n1000000 7 2 3\n", "out of range: 1000000 7 2 3"),
        ("WORDGAME 1\n10 4 2 3\n", "out of range: 10 4 2 3"),
        ("WORDGAME 1\n10 7 -1 3\n", "out of range: 10 7 -1 3"),
        ("WORDGAME 1\n10 7 2 3\n" + "..........\n" * 9 + "...q......\n", "premiums row 9"),
    ],
)
def test_a_malformed_start_block_is_refused_by_line(block, problem):
    with pytest.raises(ProtocolError, match=problem):
        parse_start_block(io.StringIO(block).readline)


def test_more_visible_tiles_or_a_dearer_discard_than_ours_are_played_as_sent(small_cases):
    # the contract's X <= 5 and D <= 5 are ours; another referee's wider ranges
    # must not end the case at the start block
    setup = replace(Referee(small_cases[0], lambda w: True).setup(), x=8, d=9)
    assert parse_start_block(io.StringIO(start_block(setup)).readline) == setup


def test_play_reports_a_bad_start_block_in_one_line():
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "wordgame.py"), "play"],
        input="WORDGAME 1\n25 7 2 3\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""  # no reply to a game that never started
    assert done.stderr.strip().splitlines()[-1] == (
        "wordgame.py play: error: N T X D out of range: 25 7 2 3"
    )
    assert "Traceback" not in done.stderr


def test_turn_line_is_read_leniently():
    # a time with a fraction, lower-case letters, an empty visible row left out
    view = parse_turn_line("1234.6 -3 90 abcDe\r\n")
    assert (view.elapsed_ms, view.score, view.queue_left) == (1235, -3, 90)
    assert (view.hand, view.visible) == ("ABCDE", "")
    assert parse_turn_line("0 12 0").hand == ""
    for bad in ("x 0 0 AB -", "0 0 0 AB3 -", "0 0", "0 0 0 A B C"):
        with pytest.raises(ProtocolError):
            parse_turn_line(bad)


@pytest.mark.parametrize(
    "sent, meant",
    [
        ("enable", "enable"),
        ("ENABLE", "enable"),
        ("enable1", "enable"),
        ("ENABLE1.TXT", "enable"),
        ("/data/words/enable1.txt", "enable"),
        ("sowpods", "sowpods"),
        ("no-such-list", "enable"),
        ("", "enable"),
    ],
)
def test_player_reads_the_lexicon_name_a_referee_sends(sent, meant, enable):
    assert player_lexicon_name(sent) == meant


def test_a_player_process_plays_a_referee_that_names_the_word_file(small_cases, enable):
    # another tester may name the list by its file; a crash there would score 0
    # on every case, so the player plays the same game under the contract's list
    case = replace(small_cases[0], lexicon="enable1.txt")
    here = play_in_process(
        small_cases[0], make_player("greedy", enable), enable.contains, time_limit_ms=float("inf")
    )
    there = play_subprocess(
        case, [*PLAY, "--player", "greedy"], enable.contains, time_limit_ms=60_000, cwd=str(ROOT)
    )
    _same(here, there)


def test_player_side_loop_answers_one_line_per_turn(small_cases, enable):
    case = small_cases[0]
    ref = Referee(case, enable.contains)
    script = start_block(ref.setup()) + turn_line(ref.turn(0)) + "END 7\n"
    out = io.BytesIO()
    final = serve(lambda setup: make_player("greedy", enable), io.BytesIO(script.encode()), out)
    assert final == 7
    reply = out.getvalue().decode().splitlines()
    assert len(reply) == 1 and reply[0].split()[0] in ("PLAY", "DISCARD", "STOP")


class _Recorder:
    """A player that takes at least ``think_s`` a turn and keeps what it saw."""

    def __init__(self, think_s: float) -> None:
        self.think_s = think_s
        self.seen: list[int] = []

    def start(self, setup) -> None:
        pass

    def act(self, turn) -> str:
        self.seen.append(turn.elapsed_ms)
        time.sleep(self.think_s)
        return "STOP"


def test_player_side_counts_its_own_time_when_the_referee_reports_less(small_cases):
    # a referee that always reports 0 ms: the player still sees its own time
    # (each turn took at least 30 ms); one that reports more is believed
    ref = Referee(small_cases[0], lambda w: True)
    view = ref.turn(0)
    lines = [turn_line(view)] * 4 + [turn_line(replace(view, elapsed_ms=90_000))]
    script = start_block(ref.setup()) + "".join(lines) + "END 0\n"
    recorder = _Recorder(0.03)
    serve(lambda setup: recorder, io.BytesIO(script.encode()), io.BytesIO())
    assert len(recorder.seen) == 5
    for k, seen in enumerate(recorder.seen[:4]):
        assert seen >= 30 * k
    assert recorder.seen[1] > 0 and recorder.seen[4] == 90_000


def _script(tmp_path, body: str) -> list[str]:
    path = tmp_path / "player.py"
    path.write_text("import sys, time\n" + body)
    return [sys.executable, str(path)]


def test_slow_player_is_stopped_and_scores_zero(tmp_path, small_cases, enable):
    cmd = _script(tmp_path, "for line in sys.stdin:\n    time.sleep(0.5)\n")
    out = play_subprocess(small_cases[0], cmd, enable.contains, time_limit_ms=300)
    assert out.score == 0 and "time limit" in out.failure


def test_crash_and_extra_output_score_zero(tmp_path, small_cases, enable):
    crash = _script(tmp_path, "sys.exit(3)\n")
    out = play_subprocess(small_cases[0], crash, enable.contains)
    assert out.score == 0 and out.failure
    # two lines (in one write) for one turn line
    chatty = _script(
        tmp_path,
        (
            "for line in sys.stdin:\n"
            "    f = line.split()\n"
            "    if len(f) == 5:\n"
            "        sys.stdout.write('DISCARD ' + f[3] + '\\nSTOP\\n'); sys.stdout.flush()\n"
        ),
    )
    out = play_subprocess(small_cases[0], chatty, enable.contains)
    assert out.score == 0 and out.failure == "output not asked for"


def test_player_side_reads_another_testers_spelling(small_cases, enable):
    # a byte-order mark before the start block, CRLF line ends, blank lines
    # between turns and an END with a fraction: before, each of these crashed
    # the player (the case scored 0) or raised after the game. The replies are
    # those to the same turns written plainly.
    case = small_cases[0]
    ref = Referee(case, enable.contains)
    block, turn = start_block(ref.setup()), turn_line(ref.turn(0))

    def replies(script: str) -> tuple[int, list[str]]:
        out = io.BytesIO()
        final = serve(lambda setup: make_player("greedy", enable), io.BytesIO(script.encode()), out)
        return final, out.getvalue().decode().splitlines()

    crlf = block.replace("\n", "\r\n"), turn.replace("\n", "\r\n")
    odd = "\ufeff" + crlf[0] + "\r\n" + crlf[1] + "\n\n" + crlf[1] + "END 12.0\r\n"
    final, answered = replies(odd)
    assert final == 12
    assert answered == replies(block + turn + turn + "END 12\n")[1] and len(answered) == 2
    for end, score in (("END\n", 0), ("end 5\n", 5), ("END x\n", 0)):
        script = start_block(ref.setup()) + end
        assert (
            serve(
                lambda setup: make_player("greedy", enable),
                io.BytesIO(script.encode()),
                io.BytesIO(),
            )
            == score
        )
