"""`pip install .` into a fresh virtual environment outside the checkout, then
the installed `scrabble` command on a CGP, as a new user would run it.

pip resolves the dependencies the usual way (its configured index and wheel
cache). The installed copy compiles its kernels into its own cache under the
temporary HOME, so this test costs a pip install and a cold compile of the
move generator (about half a minute of CPU)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tooling.services import ROOT

EMPTY = "15/" * 14 + "15"
WORDS = ["qi", "za", "zas", "ax", "xi", "ox", "listen", "silent", "tinsel", "enlist", "inlets"]


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)


def test_installed_outside_the_checkout(tmp_path):
    venv = tmp_path / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)], dict(os.environ), tmp_path)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    installed = run([str(python), "-m", "pip", "install", "-q", str(ROOT)], dict(os.environ),
                    tmp_path)  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-2000:]
    # a user's environment: no checkout, no LEXICON_DIR, no cache settings of ours
    keep = ("PATH", "LANG", "PIP_FIND_LINKS", "PIP_CERT")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env["HOME"] = str(tmp_path / "home")
    scrabble = str(venv / "bin" / "scrabble")

    top_level = next((venv / "lib").glob("python3*/site-packages/scrabble_engine-*.dist-info"))
    assert (top_level / "top_level.txt").read_text().split() == ["scrabble"]
    page = run([str(python), "-c", "import scrabble.gateway.page as p; print(p.STATIC.is_dir())"],
               env, tmp_path)  # fmt: skip
    assert page.stdout.strip() == "True", page.stderr
    assert run([str(python), "-c", "import gateway"], env, tmp_path).returncode != 0

    # no lexicon yet: the error says where it looked and what to run
    cgp = f"{EMPTY} AEILNST/ 0/0 0"
    missing = run([scrabble, "moves", cgp], env, tmp_path)
    data_dir = tmp_path / "home" / ".local" / "share" / "scrabble-engine" / "lexicons"
    assert missing.returncode == 2
    assert "scrabble lexicon build WORDS.txt --name NAME" in missing.stderr
    assert str(data_dir) in missing.stderr

    words = tmp_path / "mywords.txt"
    words.write_text("\n".join(WORDS) + "\n")
    built = run([scrabble, "lexicon", "build", str(words), "--name", "mini"], env, tmp_path)
    assert built.returncode == 0, built.stderr
    assert f"built {data_dir / 'mini.sqlite'} (11 words, 7 signatures" in built.stdout

    moves = run([scrabble, "moves", cgp, "--rank-by", "score", "--limit", "3"], env, tmp_path)
    assert moves.returncode == 0, moves.stderr
    out = moves.stdout
    assert "A  B  C  D  E  F  G  H  I  J  K  L  M  N  O" in out  # the board is drawn
    assert "lexicon mini" in out
    # a six-letter anagram across the start square: six ones, one of them on a
    # double letter (D8 or L8), the word doubled: 14, and nothing scores more
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("rank  move"))
    rank, _, word, score, *_ = lines[header + 2].split()
    assert rank == "1" and score == "14", out
    assert word in {"ENLIST", "INLETS", "LISTEN", "SILENT", "TINSEL"}
