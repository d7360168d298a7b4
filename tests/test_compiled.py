"""Numba's cache is keyed on the package sources: a change anywhere, a new directory."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from scrabble import compiled


def test_this_process_compiles_into_the_directory_of_its_sources():
    assert Path(numba.config.CACHE_DIR).name == compiled.sources_digest()


def test_editing_any_source_changes_the_directory(tmp_path):
    copy = tmp_path / "scrabble"
    shutil.copytree(compiled.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "import numba, scrabble; print(numba.config.CACHE_DIR)"
    )
    env = {"PATH": "/usr/bin:/bin", "SCRABBLE_NUMBA_CACHE_BASE": str(tmp_path / "cache")}

    def cache_dir() -> str:
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=env,
                              capture_output=True, text=True, check=True)  # fmt: skip
        return done.stdout.strip()

    first = cache_dir()
    assert cache_dir() == first  # same sources, same directory
    scoring = copy / "scoring.py"
    scoring.write_text(scoring.read_text().replace("total += scoring.bingo_bonus",
                                                   "total += scoring.bingo_bonus + 1"))  # fmt: skip
    second = cache_dir()
    assert second != first and Path(second).parent == Path(first).parent


def test_only_sources_compiled_code_can_reach_key_the_directory(tmp_path):
    copy = tmp_path / "scrabble"
    shutil.copytree(compiled.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from scrabble import compiled; print(compiled.sources_digest())"
    )
    env = {"PATH": "/usr/bin:/bin", "SCRABBLE_NUMBA_CACHE_BASE": str(tmp_path / "cache")}

    def digest() -> str:
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=env,
                              capture_output=True, text=True, check=True)  # fmt: skip
        return done.stdout.strip()

    first = digest()
    # game records: no kernel imports them, so an edit keeps the compiled code
    gcg = copy / "gcg.py"
    gcg.write_text(gcg.read_text() + "\n# an edit\n")
    assert digest() == first
    # tile codes: no kernel in the module, but kernels freeze its constants
    tiles = copy / "tiles.py"
    tiles.write_text(tiles.read_text().replace("BLANK_FLAG: Final = 32", "BLANK_FLAG: Final = 16"))
    assert digest() != first


def test_a_warm_mark_holds_only_for_the_checkout_that_wrote_it(tmp_path):
    # Numba keys cached machine code on the directory the sources are imported
    # from: a copy of the package elsewhere (a moved checkout) compiles again,
    # so a mark written there must not count here, nor this one there
    here = tmp_path / "here-cache"
    here.mkdir()
    assert not compiled.is_warm(here, "part")
    compiled.mark_warm(here, "part")
    assert compiled.is_warm(here, "part") and not compiled.is_warm(here, "other")

    copy = tmp_path / "moved" / "scrabble"
    shutil.copytree(compiled.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
        "from scrabble import compiled; d = Path(sys.argv[2]); "
        "print(compiled.is_warm(d, 'part')); compiled.mark_warm(d, 'part'); "
        "print(compiled.is_warm(d, 'part'))"
    )
    env = {"PATH": "/usr/bin:/bin", "SCRABBLE_NUMBA_CACHE_BASE": str(tmp_path / "cache")}
    there = tmp_path / "there-cache"
    shutil.copytree(here, there)
    done = subprocess.run([sys.executable, "-c", script, str(copy.parent), str(there)],
                          env=env, capture_output=True, text=True, check=True)  # fmt: skip
    assert done.stdout.split() == ["False", "True"]  # cold for the copy until it marks
    assert compiled.is_warm(there, "part")  # both checkouts' marks kept side by side
    assert len(list(there.glob("warm-part-*.json"))) == 2


def test_a_cache_base_that_cannot_be_written_falls_back_to_the_temporary_directory(tmp_path):
    # a sandbox with the checkout and home read-only: every kernel would fail to
    # define without somewhere to write (a file stands in the way of the base here,
    # which refuses even root)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    script = "import numba, scrabble; print(numba.config.CACHE_DIR)"
    env = {"PATH": "/usr/bin:/bin", "SCRABBLE_NUMBA_CACHE_BASE": str(blocker / "cache"),
           "TMPDIR": str(tmp_path)}  # fmt: skip
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=str(compiled.PACKAGE.parent),
                          capture_output=True, text=True, check=True)  # fmt: skip
    directory = Path(done.stdout.strip())
    assert directory.name == compiled.sources_digest()
    assert directory.parent.parent == tmp_path and directory.is_dir()


@pytest.mark.usefixtures("warm_player")  # this checkout's cache holds the players' kernels
def test_a_cache_made_away_from_the_checkout_starts_as_a_copy_of_the_checkouts(tmp_path):
    # A checkout set up, then read-only in a fresh sandbox: Numba only uses a cache
    # it can write, so one is made elsewhere; the checkout's compiled code holds
    # there (the same sources at the same path), and a player need not compile.
    own = compiled.PACKAGE.parent / ".numba_cache" / compiled.sources_digest()
    script = (
        "import numba; from scrabble.wordgame.warmup import wordgame_is_warm; "
        "print(numba.config.CACHE_DIR, wordgame_is_warm())"
    )
    env = {"PATH": "/usr/bin:/bin", "SCRABBLE_NUMBA_CACHE_BASE": str(tmp_path / "sandbox")}
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=str(compiled.PACKAGE.parent),
                          capture_output=True, text=True, check=True)  # fmt: skip
    directory, warm = done.stdout.split()
    assert Path(directory) == tmp_path / "sandbox" / own.name and warm == "True"

    def files(root: Path) -> set[Path]:
        return {p.relative_to(root) for p in root.rglob("*") if p.is_file()}

    assert files(own) <= files(Path(directory)) and any(p.suffix == ".nbi" for p in files(own))
    assert [p.name for p in (tmp_path / "sandbox").iterdir()] == [own.name]  # no staging left
