"""Numba's disk cache, keyed on the engine sources so stale kernels cannot run.

Numba checks a cached function against its own source file only: a cached
caller keeps the machine code of a callee in another module after that module
changes, and then runs the old code (a changed bingo bonus in ``scoring.py``
passed the whole golden set that way) or fails oddly. So the cache lives in a
directory named after a hash of every source file of the package: any change
anywhere gives a fresh, empty directory, whatever runs the code (plain
``pytest``, a service, a script, a Docker image with a cache volume).

``guard()`` runs when ``scrabble`` is imported, before any kernel is defined.
The base directory is ``NUMBA_CACHE_DIR`` when set (the Docker images' volume),
else ``.numba_cache`` in a writable checkout, else the user's cache directory,
else (none of them writable) one in the temporary directory; a keyed directory
made away from the checkout starts as a copy of the checkout's, if it has one.
Only the newest few keyed directories are kept.

Numba also keys each cached function on the directory its source was imported
from, its own version and the CPU: a checkout moved or copied elsewhere, or a
venv rebuilt with another Numba, finds the keyed directory full and still
compiles everything. A warm-up that finished writes a mark (``mark_warm``)
named after those; ``is_warm`` looks for this process's, so a process that must
not compile (a WordGame player on the clock) can tell before it starts.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import shutil
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT_CACHE = PACKAGE.parent / ".numba_cache"  # a checkout's own base
KEEP = 3  # keyed directories kept under the base (the newest)
_ENV = "NUMBA_CACHE_DIR"
_BASE_ENV = "SCRABBLE_NUMBA_CACHE_BASE"  # the base, remembered for child processes


_KERNEL = re.compile(r"^\s*@(?:numba\.)?(?:njit|jit|vectorize|guvectorize|cfunc)\b", re.M)
_FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(scrabble(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[\w \t,]+)", re.M
)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+(scrabble(?:\.\w+)*)", re.M)
# imports for annotations only: they never run, so no kernel can see them
_TYPE_CHECKING = re.compile(r"^if TYPE_CHECKING:[^\n]*\n(?:(?:[ \t]+[^\n]*)?\n)*", re.M)


def _module_files() -> dict[str, Path]:
    files = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ("scrabble", *path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join(parts)] = path
    return files


def kernel_sources() -> list[Path]:
    """The modules that define kernels and every package module they import,
    transitively (with the packages' ``__init__``), sorted."""
    files = _module_files()
    texts = {name: path.read_text(encoding="utf-8") for name, path in files.items()}
    pending = [name for name, text in texts.items() if _KERNEL.search(text)]
    pending.append("scrabble.compiled")
    reached: set[str] = set()
    while pending:
        name = pending.pop()
        if name in reached or name not in files:
            continue
        reached.add(name)
        parts = name.split(".")
        pending.extend(".".join(parts[:k]) for k in range(1, len(parts)))  # the packages
        text = _TYPE_CHECKING.sub("", texts[name])
        for module, names in _FROM_IMPORT.findall(text):
            pending.append(module)
            pending.extend(f"{module}.{item}" for item in re.findall(r"\w+", names))
        pending.extend(_IMPORT.findall(text))
    return sorted(files[name] for name in reached)


def sources_digest() -> str:
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def base_directory() -> Path:
    if os.environ.get(_BASE_ENV):
        return Path(os.environ[_BASE_ENV])
    if os.environ.get(_ENV):
        return Path(os.environ[_ENV])
    checkout = PACKAGE.parent
    if (checkout / "pyproject.toml").is_file() and os.access(checkout, os.W_OK):
        return CHECKOUT_CACHE
    cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache_home) / "scrabble-engine" / "numba"


def guard() -> Path:
    """Point Numba's cache at the directory for these sources; returns it."""
    import numba

    digest = sources_digest()
    base = base_directory()
    try:
        keyed = _keyed_directory(base, digest)
    except OSError:
        # a read-only checkout and home (a sandbox): Numba needs somewhere to
        # write, or every kernel fails to define; the temporary directory
        base = Path(tempfile.gettempdir()) / f"scrabble-engine-numba-{os.getuid()}"
        keyed = _keyed_directory(base, digest)
    numba.config.CACHE_DIR = str(keyed)  # type: ignore[attr-defined]
    # child processes (test workers, services started by tests) import numba
    # before scrabble: give them the same directory and remember the base
    os.environ[_BASE_ENV] = str(base)
    os.environ[_ENV] = str(keyed)
    _prune(base, keyed)
    return keyed


def _keyed_directory(base: Path, digest: str) -> Path:
    keyed = base / digest
    if not keyed.exists():
        _seed(keyed)
    keyed.mkdir(parents=True, exist_ok=True)
    os.utime(keyed)  # marks it the newest
    return keyed


def _seed(keyed: Path) -> None:
    """A new keyed directory away from the checkout's starts as a copy of it.

    Numba only uses a cache it can write, so a checkout set up and then made
    read-only (a sandbox) would compile everything again in every fresh
    sandbox; the checkout's files hold for these sources at this path, marks
    included. Copied aside and renamed into place: whole or not at all.
    """
    own = CHECKOUT_CACHE / keyed.name
    if keyed == own or not own.is_dir():
        return
    staging = keyed.with_name(f"{keyed.name}.seed{os.getpid()}")
    try:
        keyed.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(own, staging)
        staging.rename(keyed)  # another process may have been first: then this fails
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)


def cache_directory() -> Path:
    """The keyed directory this process compiles into (set by ``guard``)."""
    import numba

    return Path(numba.config.CACHE_DIR)  # type: ignore[attr-defined]


def _machine_code_key() -> dict[str, str]:
    """What a cached function is good for besides its source text."""
    import llvmlite.binding
    import numba

    return {
        # as imported, not resolved: Numba keys on os.path.abspath of the source
        "package": os.path.dirname(os.path.abspath(__file__)),
        "numba": numba.__version__,
        "python": platform.python_version(),
        "cpu": numba.config.CPU_NAME or llvmlite.binding.get_host_cpu_name(),  # type: ignore[attr-defined]
    }


def _mark_path(directory: Path, part: str, key: dict[str, str]) -> Path:
    # one mark per checkout, Numba, Python and CPU: checkouts sharing a cache
    # base (NUMBA_CACHE_DIR, the user's cache) do not overwrite each other's
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    return directory / f"warm-{part}-{digest}.json"


def mark_warm(directory: Path, part: str) -> None:
    """Record that ``part``'s functions are compiled into the directory for this
    checkout, Numba, Python and CPU (after its warm-up has run them all)."""
    key = _machine_code_key()
    mark = _mark_path(directory, part, key)
    tmp = mark.with_name(f"{mark.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(key, indent=1) + "\n", encoding="utf-8")
    tmp.replace(mark)  # whole or absent, for a reader in another process


def is_warm(directory: Path, part: str) -> bool:
    """Whether ``part``'s warm-up finished into the directory for this checkout,
    Numba, Python and CPU: its functions load instead of compiling."""
    return _mark_path(directory, part, _machine_code_key()).is_file()


def is_cold(directory: Path) -> bool:
    """Whether nothing has been compiled into the directory yet."""
    return not any(directory.rglob("*.nbi"))


def _prune(base: Path, current: Path) -> None:
    others = [p for p in base.iterdir() if p.is_dir() and p != current]
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in others[KEEP - 1 :]:
        shutil.rmtree(stale, ignore_errors=True)
