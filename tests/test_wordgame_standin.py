"""The standard-library stand-in that ``play`` answers with on a bare clone
while the set-up runs: legal games through the real protocol, and the hand-over
from a bare ``python3``."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scrabble.wordgame import cases
from scrabble.wordgame.players.registry import make_player
from scrabble.wordgame.protocol import play_subprocess
from scrabble.wordgame.referee import play_in_process

ROOT = Path(__file__).resolve().parents[1]
# the interpreter the venv was made from, without site-packages: no NumPy, no Numba
BARE = [getattr(sys, "_base_executable", sys.executable), "-S"]
SEEDS = (2, 43, 1002)  # two 10 x 10 boards and an 18 x 18 one with T 9


@pytest.fixture(scope="module")
def games(enable):
    probs = cases.letter_probabilities(enable.words)
    return [cases.generate(s, probs) for s in SEEDS]


def test_the_standin_plays_legal_games_in_time_without_the_projects_packages(games, enable):
    for case in games:
        out = play_subprocess(
            case,
            [*BARE, str(ROOT / "scripts" / "wordgame_standin.py")],
            enable.contains,
            cwd=str(ROOT),
        )
        # the referee judges every action with its own judge: an illegal one,
        # a crash or the clock would end the case with a failure and 0
        assert out.failure is None, out.failure
        assert out.plays and out.elapsed_ms < 10_000
        greedy = play_in_process(
            case, make_player("greedy", enable), enable.contains, time_limit_ms=float("inf")
        )
        # a smaller search than greedy's, the same policy: well above nothing
        assert out.score >= 0.3 * greedy.score


def bare_clone(root: Path) -> None:
    """A clone with nothing set up: no .venv. The set-up itself (pip from the
    network, minutes) is the remote party here; a stub records that it ran."""
    (root / "scripts").mkdir()
    (root / "lexicon").mkdir()
    for name in ("wordgame.py", "wordgame_standin.py"):
        shutil.copy(ROOT / "scripts" / name, root / "scripts" / name)
    shutil.copy(ROOT / "lexicon" / "enable.txt", root / "lexicon" / "enable.txt")
    setup = root / "scripts" / "setup"
    setup.write_text('#!/bin/sh\necho "setting up" >&2\ntouch "$(dirname "$0")/../set-up-ran"\n')
    setup.chmod(0o755)


def play_while_setting_up(root: Path, case: cases.Case, enable) -> None:
    """``play`` from the bare clone at ``root``: the stand-in's legal game, and the
    set-up started beside it."""
    out = play_subprocess(
        case, [*BARE, str(root / "scripts" / "wordgame.py"), "play"], enable.contains, cwd=str(root)
    )
    assert out.failure is None, out.failure
    assert out.score > 0 and out.plays
    deadline = time.monotonic() + 10
    while not (root / "set-up-ran").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (root / "set-up-ran").exists()


def test_play_on_a_bare_clone_answers_with_the_standin_and_sets_up_beside_it(
    tmp_path, games, enable
):
    bare_clone(tmp_path)
    play_while_setting_up(tmp_path, games[0], enable)
    assert "setting up" in (tmp_path / ".setup.log").read_text()


def test_play_on_a_bare_clone_it_cannot_write_beside_still_answers(tmp_path, games, enable):
    # The set-up's lock cannot be opened in the checkout (a directory stands where
    # it goes; in a sandbox, a read-only checkout): play takes the lock and the log
    # in the temporary directory and still answers with the stand-in.
    bare_clone(tmp_path)
    (tmp_path / ".setup.lock").mkdir()
    play_while_setting_up(tmp_path, games[0], enable)
    assert not (tmp_path / ".setup.log").exists()


def test_the_standin_reads_another_testers_spelling(games, enable):
    # the same turns written with a byte-order mark, CRLF, blank lines and a
    # lower-case end get the same replies as written plainly; before, the mark
    # failed the start block and a blank line crashed the player
    from scrabble.wordgame.protocol import start_block, turn_line
    from scrabble.wordgame.referee import Referee

    ref = Referee(games[0], enable.contains)
    block, turn = start_block(ref.setup()), turn_line(ref.turn(0))
    command = [*BARE, str(ROOT / "scripts" / "wordgame_standin.py")]

    def replies(script: str) -> list[str]:
        done = subprocess.run(
            command, input=script.encode(), capture_output=True, cwd=str(ROOT), timeout=60
        )
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout.decode().splitlines()

    plain = replies(block + turn + turn + "END 0\n")
    crlf = block.replace("\n", "\r\n"), turn.replace("\n", "\r\n")
    odd = replies("\ufeff" + crlf[0] + "\r\n" + crlf[1] + "\n\n" + crlf[1] + "end 0\r\n")
    assert len(plain) == 2 and odd == plain
