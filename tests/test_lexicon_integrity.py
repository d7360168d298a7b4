"""A damaged lexicon store is found and rebuilt, by setup's build and by both
services at start-up; dead builds' temporary files go (issue 9, rows 7, 12).

Real SQLite files built from the first 30,000 SOWPODS words, damaged the ways
a disk or an operator damages them."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from scrabble.lexicon.store import read_info
from tooling.services import ROOT, running

WORDS = 30000


def damage(db: Path) -> str | None:
    """The test's own soundness check: quick_check, and the words the rows hold."""
    try:
        with sqlite3.connect(db) as con:
            check = con.execute("PRAGMA quick_check").fetchall()
            words = sum(len(w.split()) for (w,) in con.execute("SELECT words FROM signatures"))
            meta = dict(con.execute("SELECT key, value FROM meta"))
    except sqlite3.Error as exc:
        return str(exc)
    if check != [("ok",)]:
        return str(check)
    return None if int(meta["words"]) == words == WORDS else f"{meta['words']} != {words}"


def overwrite_middle(db: Path) -> None:
    """1/8 of the file, from its middle, overwritten with seeded noise."""
    size = db.stat().st_size
    noise = random.Random(9).randbytes(size // 8)
    with db.open("r+b") as fh:
        fh.seek(size // 2)
        fh.write(noise)


def delete_rows(db: Path) -> None:
    with sqlite3.connect(db) as con:
        con.execute(
            "DELETE FROM signatures WHERE signature IN (SELECT signature FROM signatures LIMIT 50)"
        )


def alter_meta(db: Path) -> None:
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value = '12345' WHERE key = 'words'")


def truncate(db: Path) -> None:
    with db.open("r+b") as fh:
        fh.truncate(db.stat().st_size // 2)


def clobber_header(db: Path) -> None:
    with db.open("r+b") as fh:
        fh.write(b"not a database, no longer")


DAMAGE = [
    ("pages-overwritten", overwrite_middle),
    ("rows-deleted-meta-intact", delete_rows),
    ("meta-count-altered", alter_meta),
    ("truncated", truncate),
    ("header-clobbered", clobber_header),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """mini.txt and its sound mini.sqlite, built once; tests copy them."""
    home = tmp_path_factory.mktemp("lexicon")
    words = (ROOT / "lexicon" / "sowpods.txt").read_text().splitlines()[:WORDS]
    (home / "mini.txt").write_text("\n".join(words) + "\n")
    run_build(home / "mini.txt")
    return home


def run_build(source: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_lexicon.py"), str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def copy_of(built: Path, tmp_path: Path) -> Path:
    for name in ("mini.txt", "mini.sqlite"):
        shutil.copy(built / name, tmp_path / name)
    return tmp_path / "mini.sqlite"


@pytest.mark.parametrize("harm", [d[1] for d in DAMAGE], ids=[d[0] for d in DAMAGE])
def test_setup_rebuilds_a_damaged_store(built, tmp_path, harm):
    db = copy_of(built, tmp_path)
    sound = read_info(db)
    harm(db)
    assert damage(db) is not None
    done = run_build(tmp_path / "mini.txt")
    assert done.returncode == 0, done.stderr
    assert "damaged" in done.stderr and done.stdout.startswith("built "), (done.stdout, done.stderr)
    assert damage(db) is None
    assert read_info(db) == sound
    again = run_build(tmp_path / "mini.txt")  # and now it is current
    assert again.stdout.startswith("up to date:"), again.stdout


def test_builds_remove_temporary_files_of_dead_builds_only(built, tmp_path):
    db = copy_of(built, tmp_path)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    stale = tmp_path / f"mini.sqlite.tmp{int(dead.stdout)}"
    stale.write_bytes(b"half a build")
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        in_progress = tmp_path / f"mini.sqlite.tmp{alive.pid}"
        in_progress.write_bytes(b"a build in progress")
        done = run_build(tmp_path / "mini.txt")
        assert done.returncode == 0 and done.stdout.startswith("up to date:")
        assert not stale.exists() and stale.name in done.stderr
        assert in_progress.exists()
    finally:
        alive.kill()
        alive.wait()
    assert damage(db) is None


@pytest.mark.parametrize("app", ["scrabble.worker.app:app", "scrabble.gateway.app:app"])
def test_services_rebuild_a_damaged_store_at_start_up(built, tmp_path, app):
    db = copy_of(built, tmp_path)
    sound = read_info(db)
    overwrite_middle(db)
    with running(app, env={"LEXICON_DB": str(db)}) as url:
        health = httpx.get(url + "/health", timeout=30).json()
    assert health["status"] == "ok"
    assert health["lexicon"]["words"] == sound.words == WORDS
    assert health["lexicon"]["signatures"] == sound.signatures
    assert damage(db) is None
