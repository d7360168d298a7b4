#!/usr/bin/env python3
"""The WordGame variant: cases, a local tester, and a player process.

    scripts/wordgame.py cases --seeds 1-100 --out cases.jsonl [--where share>=0.2 ...]
    scripts/wordgame.py run --cases cases.jsonl [--player NAME] [--baseline greedy] [--jobs 2]
    scripts/wordgame.py play [--player NAME] [--log FILE]  # speaks the protocol on stdin/stdout
    scripts/wordgame.py compare A.txt B.txt [...] [--by n|t|x|d|share --cases F]  # B against A
    scripts/wordgame.py windows --cases cases.jsonl [--pre 2,3,5]  # premium maps' capacity
    scripts/wordgame.py trace --cases cases.jsonl --case 624 [--player NAME] [--alternatives 3]

``run`` prints one line per case (score, plays, discards, fill, best play, the
top 3 plays' share of the play points, time) and a summary against the
baseline (mean score, geometric mean of per-case ratios with a 95 % bootstrap
CI, ratio of sums, relative score); the last line is JSON. ``--protocol`` runs
each case through a real ``play`` subprocess instead of in-process.
``compare`` reads what ``run`` printed for two players (or settings) on the
same cases and gives the paired geometric mean of B's score over A's with a
bootstrap CI, pooling several pairs of outputs; ``--by`` repeats it within
each class of case (N, T, X, D, or the word-multiplier share, which needs the
case files: ``--cases FILE``). ``trace`` plays one case in-process and prints
each turn: what the player saw and answered, the points, the value in named
terms, the next best alternatives, the planner's target; then the final board.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

if TYPE_CHECKING:
    from scrabble.wordgame.cases import Case

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
VENV = ROOT / ".venv"


def start_in_background(command: list[str]) -> Path | None:
    """Run a set-up step beside this case, once for parallel jobs; returns the
    log it writes to (None when another job's step is running or nowhere is
    writable).

    A file lock held by the step for its whole life says one is running; its
    output goes to ``.setup.log``; niced, in its own session, so it outlives
    this case and leaves the cores to the games being played.
    """
    import fcntl
    import os
    import subprocess
    import tempfile

    # beside the checkout, or (a read-only one) in the temporary directory
    for place in (ROOT, Path(tempfile.gettempdir()) / f"scrabble-engine-{os.getuid()}"):
        try:
            place.mkdir(exist_ok=True)
            lock = open(place / ".setup.lock", "w")
            break
        except OSError:
            continue
    else:
        return None  # nowhere to write: the stand-in plays every case
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None  # another job is setting up
    with open(place / ".setup.log", "a") as log:
        subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            pass_fds=(lock.fileno(),),  # the lock lives as long as the step
            start_new_session=True,
            preexec_fn=lambda: os.nice(10),
        )
    lock.close()
    return place / ".setup.log"


def play_standin() -> NoReturn:
    """Answer this case with the standard-library stand-in (``wordgame_standin``)."""
    import wordgame_standin

    sys.exit(wordgame_standin.main())


def use_project_environment() -> None:
    """Run under the project's ``.venv`` whatever ``python3`` the caller used.

    A referee runs ``scripts/wordgame.py play`` as a command; the shebang finds
    the machine's python3, which may have no NumPy or Numba (every case would
    score 0 on an import error) or others than the ones the project was built
    and tested with (other versions: the compiled kernels do not load, or the
    code does not run). Once ``scripts/setup`` has finished (its ready stamp)
    this re-executes under ``.venv/bin/python``, without the caller's
    ``PYTHONPATH``. Without a ``.venv``, an interpreter that has NumPy and Numba
    is used as it is (an image with the project installed). Otherwise, on a bare
    clone, the set-up takes minutes and a case's clock is 10 s: ``play`` starts
    it in the background and plays this case with the stand-in; the cases after
    it find the project set up. Other commands set up first.
    """
    import importlib.util

    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    import fcntl
    import os
    import subprocess

    python = VENV / "bin" / "python"

    def ready() -> bool:  # scripts/setup's last stamp, written once all is built
        return python.exists() and any(VENV.glob(".ready-*"))

    if not ready():
        if importlib.util.find_spec("numpy") and importlib.util.find_spec("numba"):
            return
        if sys.argv[1:2] == ["play"]:
            start_in_background([str(ROOT / "scripts" / "setup")])
            play_standin()
        lock = open(ROOT / ".setup.lock", "w")
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready():
            subprocess.run([str(ROOT / "scripts" / "setup")], stdout=sys.stderr, check=True)
        lock.close()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)


def cmd_play(args: argparse.Namespace) -> int:
    started = time.perf_counter()  # the player's own clock counts its start-up
    # Imports here, not at the top: start-up counts against the case's 10 s.
    from scrabble.wordgame.lexicons import load_compiled, player_lexicon_name
    from scrabble.wordgame.players.registry import make_player
    from scrabble.wordgame.protocol import ProtocolError, serve
    from scrabble.wordgame.referee import GameSetup, Player

    def player_for(setup: GameSetup) -> Player:
        name = player_lexicon_name(setup.lexicon)
        if name != setup.lexicon:
            print(f"wordgame play: lexicon {setup.lexicon!r} read as {name!r}", file=sys.stderr)
        player = make_player(args.player, load_compiled(name), args.fixed_effort, settings)
        if log is None:
            return player
        from scrabble.wordgame.trace import Recorder, turn_line

        out = log  # (a name the closure below sees as a file)
        out.write(
            f"# n={setup.n} t={setup.t} x={setup.x} d={setup.d} lexicon={name} "
            f"player={args.player}\n"
        )

        def write(record: Any) -> None:  # each turn as it is played: a killed game keeps its log
            out.write(turn_line(record) + "\n")
            out.flush()

        return Recorder(player, setup.premiums, args.alternatives, sink=write)

    settings = checked_settings("play", args.player, args.set)
    log: TextIO | None = None
    if args.log is not None:
        try:
            log = args.log.open("a", encoding="utf-8")
        except OSError as err:
            usage_error("play", f"argument --log: {err.strerror}: {args.log}")
    from scrabble.wordgame.warmup import wordgame_is_warm

    if not wordgame_is_warm():
        # Set up, but the kernels not compiled for this checkout (moved or
        # copied, sources edited, another Numba): compiling them takes half a
        # minute of this case's 10 s. Warm them beside it; the stand-in plays.
        why = "the kernels are not compiled for this checkout yet"
        if log is not None:
            log.write(f"# {why}: this case is played by the stand-in\n")
            log.close()
        warming = start_in_background([sys.executable, str(Path(__file__).resolve()), "warm"])
        where = (
            f"warming them in the background ({warming})"
            if warming
            else "another job is warming them, or nothing here is writable"
        )
        print(f"wordgame play: {why}: {where}; this case is played by the stand-in",
              file=sys.stderr)  # fmt: skip
        play_standin()
    try:
        score = serve(player_for, sys.stdin.buffer, sys.stdout.buffer, started)
        if log is not None:
            log.write(f"END {score}\n")
    except (ProtocolError, EOFError, UnicodeDecodeError) as err:
        usage_error("play", str(err))  # what the referee sent, not a fault of the player
    finally:
        if log is not None:
            log.close()
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    from scrabble.wordgame import summary

    files = [Path(f) for f in args.outputs]
    if len(files) % 2:
        usage_error("compare", "takes pairs of run outputs: A B [A B ...]")
    pairs = [
        (summary.case_scores(a), summary.case_scores(b))
        for a, b in zip(files[::2], files[1::2], strict=True)
    ]
    class_of = case_classes(args.by, files[::2], args.cases) if args.by else {}
    cases, changed, ratio, (lo, hi) = summary.paired(pairs)
    if not cases:
        raise SystemExit("no case appears in both outputs of a pair")
    print(f"cases {cases}  changed {changed}  B/A geomean {ratio:.4f} (95% CI {lo:.4f}-{hi:.4f})")
    if args.by:
        classed = 0
        for name, (k, moved, mean, (low, high)) in summary.paired_by(pairs, class_of).items():
            classed += k
            print(
                f"{args.by} {name}: cases {k}  changed {moved}  "
                f"B/A geomean {mean:.4f} (95% CI {low:.4f}-{high:.4f})"
            )
        if classed < cases:
            print(f"{cases - classed} cases in no case file given: left out of the classes")
    return 0


def case_classes(by: str, outputs: list[Path], case_files: list[Path]) -> dict[str, str]:
    """Case id to its class for ``compare --by``: N, T, X, D from the run
    outputs' case lines, the word-multiplier share from the case files."""
    from scrabble.wordgame import summary

    if by == "share":
        if not case_files:
            usage_error("compare", "--by share needs the case files (--cases FILE ...)")
        return {
            case.id: summary.share_class(case.word_share)
            for path in case_files
            for case in case_file("compare", path)
        }
    return {
        case_id: summary.size_class(by, sizes[by])
        for path in outputs
        for case_id, sizes in summary.case_sizes(path).items()
    }


def usage_error(command: str, message: str) -> NoReturn:
    """What argparse does with a bad argument, for what only the command can
    check: one line on stderr, exit 2, no traceback."""
    print(f"wordgame.py {command}: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def seed_list(text: str) -> list[int]:
    """``cases --seeds``: '1-100', '7' or '1-5,9'."""
    from scrabble.wordgame.cases import parse_seeds

    try:
        return parse_seeds(text, MAX_SEEDS)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def where_clause(text: str) -> Callable[[Case], bool]:
    """``cases --where``: 'share>=0.2', 'n<=12', 'd=0'."""
    from scrabble.wordgame.cases import parse_where

    try:
        return parse_where(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def setting(text: str) -> tuple[str, str]:
    """``--set NAME=VALUE``; the name and the value's type are checked against
    the player's config before any case runs."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def existing_file(text: str) -> Path:
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return path


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def checked_settings(command: str, player: str, pairs: list[tuple[str, str]]) -> dict[str, str]:
    """The ``--set`` pairs as settings, refused (usage error, exit 2) when the
    player does not know a name or a value has the wrong type."""
    from scrabble.wordgame.players.registry import check_settings

    settings = dict(pairs)
    try:
        check_settings(player, settings)
    except (KeyError, ValueError) as err:
        usage_error(command, err.args[0] if err.args else str(err))
    return settings


def case_file(command: str, path: Path) -> list[Case]:
    """The cases of a file, or a usage error (exit 2): the file missing, or
    the line and field of the first malformed case."""
    from scrabble.wordgame.cases import read_cases

    try:
        return list(read_cases(path))
    except OSError as err:
        usage_error(command, f"no case file {path} ({err.strerror})")
    except ValueError as err:
        usage_error(command, str(err))


def letter_counts(text: str) -> list[int]:
    """``windows --pre``: comma-separated counts of letters pre-placed, each 1-9."""
    try:
        counts = [int(k) for k in text.split(",")]
    except ValueError:
        counts = []
    if not counts or not all(1 <= k <= 9 for k in counts):
        raise argparse.ArgumentTypeError(f"expected counts 1-9 separated by commas, got {text!r}")
    return counts


def cmd_warm(args: argparse.Namespace) -> int:
    """Compile the players' kernels here and mark the cache warm for this checkout."""
    from scrabble.wordgame.warmup import wordgame_is_warm

    if wordgame_is_warm():
        print("wordgame warm: the kernels are compiled for this checkout", file=sys.stderr)
        return 0
    warm_kernels("wordgame warm")
    return 0


def warm_kernels(command: str) -> None:
    """Compile the players' kernels (or load them) and mark the cache warm."""
    from scrabble.compile_log import compile_log
    from scrabble.wordgame.warmup import warm_wordgame

    started = time.perf_counter()
    with compile_log() as log:
        warm_wordgame()
    print(
        f"{command}: {log.compiled} functions compiled in "
        f"{time.perf_counter() - started:.1f} s; `play` uses them from now on",
        file=sys.stderr,
    )


def cmd_windows(args: argparse.Namespace) -> int:
    """The premium maps' best windows packed apart with k letters pre-placed,
    against one (``capacity``): what a plan of several plays could add at most."""
    from scrabble.wordgame.capacity import packed_products
    from scrabble.wordgame.referee import BIG_PRODUCT

    cases = case_file("windows", args.cases)
    if not cases:
        raise SystemExit(f"no case in {args.cases}")

    def spread(values: list[float]) -> str:
        if len(values) < 2:  # quartiles need two boards
            return f"{values[0]:.2f} (one board)"
        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
        return f"median {median:.2f} (quartiles {q1:.2f}-{q3:.2f})"

    def packings(pre: int) -> list[list[int]]:
        """Each board's windows of T + ``pre`` squares packed apart, all of them."""
        return [packed_products(list(c.premiums), c.t, pre, c.n * c.n) for c in cases]

    def big(packs: list[list[int]]) -> int:
        """Windows of product BIG_PRODUCT or more, over all boards."""
        return sum(product >= BIG_PRODUCT for products in packs for product in products)

    ones = packings(1)
    if 1 not in args.pre:
        print(
            f"k=1: {len(cases)} boards; {big(ones)} windows of product >= {BIG_PRODUCT} packed "
            "apart (against `run`'s big= plays)"
        )
    for pre in args.pre:
        packs = ones if pre == 1 else packings(pre)
        sums, best = [], []
        for products, one in zip(packs, ones, strict=True):
            more = products[:8] or one[:8]  # too long a window: as with one letter
            sums.append(sum(more) / sum(one[:8]))
            best.append(more[0] / one[0])
        print(
            f"k={pre}: {len(cases)} boards; the 8 best products summed, against k=1: "
            f"{spread(sums)}, geomean {statistics.geometric_mean(sums):.3f}; "
            f"the best window alone: {spread(best)}; {big(packs)} windows of product >= "
            f"{BIG_PRODUCT} packed"
        )
    return 0


def cmd_cases(args: argparse.Namespace) -> int:
    from scrabble.wordgame import cases
    from scrabble.wordgame.lexicons import load_lexicon

    probabilities = cases.letter_probabilities(load_lexicon(args.lexicon).words)
    generated = (cases.generate(s, probabilities, args.lexicon) for s in args.seeds)
    kept = (case for case in generated if all(test(case) for test in args.where))
    try:
        count = cases.write_cases(kept, args.out)
    except OSError as err:
        usage_error("cases", f"argument --out: {err.strerror}: {args.out}")
    of = f" of {len(args.seeds)}" if args.where else ""
    print(f"wrote {count}{of} cases to {args.out}", file=sys.stderr)
    return 0


_WORKER: dict[str, Any] = {}
MAX_SEEDS = 1_000_000


def _init_worker(options: dict[str, Any]) -> None:
    _WORKER.update(options)


def more_tiles_share(text: str) -> float:
    """``run --more-tiles``: a share of N^2 from 0 to 2."""
    try:
        share = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= share <= 2.0:
        raise argparse.ArgumentTypeError(f"{text} is outside 0-2 (a share of N^2)")
    return share


def _run_one(case_json: str) -> dict[str, Any]:
    from scrabble.wordgame.cases import Case
    from scrabble.wordgame.lexicons import load_lexicon
    from scrabble.wordgame.players.registry import make_player
    from scrabble.wordgame.protocol import play_subprocess
    from scrabble.wordgame.referee import play_in_process
    from scrabble.wordgame.rules import TIME_LIMIT_MS

    case = Case.from_json(case_json)
    lexicon = load_lexicon(case.lexicon)
    result: dict[str, Any] = {"id": case.id, "n": case.n, "t": case.t, "x": case.x, "d": case.d}
    board = None
    if _WORKER["pre"]:
        from scrabble.wordgame.capacity import preplaced_board, preplaced_windows

        windows = preplaced_windows(
            list(case.premiums), case.t, _WORKER["pre"], lexicon.words, _WORKER["pre_windows"]
        )
        if windows:  # else the case is played as it is
            board = preplaced_board(windows, case.n)
            result["pre"] = ",".join(f"{w.letters}x{w.product}" for w in windows)
    extra = ""
    if _WORKER["more_tiles"]:
        from scrabble.wordgame.cases import more_tiles

        extra = more_tiles(case, _WORKER["more_tiles"])
        result["more"] = len(extra)
    for role in ("player", "baseline"):
        name = _WORKER[role]
        if name is None:
            continue
        stats: dict[str, Any] = {}
        if _WORKER["protocol"]:
            command = [
                sys.executable,
                str(ROOT / "scripts" / "wordgame.py"),
                "play",
                "--player",
                name,
            ] + (["--fixed-effort"] if _WORKER["fixed"] else [])
            if role == "player":  # the baseline plays with its defaults, as in-process
                for key, value in _WORKER["settings"].items():
                    command += ["--set", f"{key}={value}"]
            # --no-time-limit: an hour, as the referee's wait for a reply is a
            # finite timeout
            limit_ms = 3_600_000 if _WORKER["no_limit"] else TIME_LIMIT_MS
            outcome = play_subprocess(case, command, lexicon.contains, limit_ms, cwd=str(ROOT))
        else:
            player = make_player(
                name, lexicon, _WORKER["fixed"], _WORKER["settings"] if role == "player" else {}
            )
            outcome = play_in_process(
                case,
                player,
                lexicon.contains,
                float("inf") if _WORKER["no_limit"] else TIME_LIMIT_MS,
                board,
                extra,
            )
            stats = dict(getattr(player, "stats", dict)())
        result[role] = {
            "score": outcome.score,
            "big": outcome.big_plays,
            "big_points": outcome.big_points,
            "play_points": outcome.play_points,
            "word_squares": outcome.word_squares,
            "raw": outcome.raw_score,
            "plays": len(outcome.plays),
            "discards": outcome.discards,
            "discarded_tiles": outcome.discarded_tiles,
            "fill": round(outcome.fill, 4),
            "best": outcome.best_play,
            "top3": round(outcome.top3_share, 4),
            "ms": round(outcome.elapsed_ms, 1),
            "failure": outcome.failure,
            "stats": stats,
        }
    return result


def _case_line(r: dict[str, Any]) -> str:
    p = r["player"]
    line = (
        f"{r['id']} n={r['n']:2d} t={r['t']} x={r['x']} d={r['d']} score={p['score']:6d} "
        f"plays={p['plays']:3d} discards={p['discards']:3d} fill={p['fill']:.2f} "
        f"best={p['best']:5d} top3={p['top3']:.2f} big={p['big']:2d} "
        f"time={p['ms'] / 1000:5.2f}s"
    )
    if "baseline" in r:
        b = r["baseline"]
        line += f" base={b['score']:6d} ratio={max(p['score'], 1) / max(b['score'], 1):6.2f}"
    if "pre" in r:
        line += f" pre={r['pre']}"
    if "more" in r:
        line += f" more={r['more']}"
    if p["failure"]:
        line += f" FAILED: {p['failure']}"
    return line


def cmd_run(args: argparse.Namespace) -> int:
    from scrabble.wordgame import summary
    from scrabble.wordgame.players.registry import DEFAULT

    player = args.player or DEFAULT
    baseline = None if args.baseline in ("none", player) else args.baseline
    settings = checked_settings("run", player, args.set)
    if baseline is not None:
        checked_settings("run", baseline, [])  # the baseline plays with its defaults
    case_lines = [c.to_json() for c in case_file("run", args.cases)][: args.limit]
    options = {
        "player": player,
        "baseline": baseline,
        "protocol": args.protocol,
        "fixed": args.fixed_effort,
        "settings": settings,
        "no_limit": args.no_time_limit,
        "pre": args.pre,
        "pre_windows": args.pre_windows,
        "more_tiles": args.more_tiles,
    }
    if args.pre and args.protocol:
        usage_error("run", "--pre starts from a board the protocol cannot send")
    if args.pre_windows > 1 and not args.pre:
        usage_error("run", "--pre-windows needs --pre K (the letters each window is given)")
    if args.more_tiles and args.protocol:
        usage_error("run", "--more-tiles queues more than N^2 tiles, which the protocol cannot")
    from scrabble.wordgame.warmup import wordgame_is_warm

    if not wordgame_is_warm():
        # sources edited (a new keyed cache directory), or this one pruned
        # while others were made: compiled inside the first cases' clocks the
        # kernels would cost those cases (a 0 past 10 s); compiled here first,
        # every case is timed as a referee would time it
        print("wordgame run: the kernels are not compiled for this checkout: "
              "compiling them first, outside every case's clock", file=sys.stderr)  # fmt: skip
        warm_kernels("wordgame run")
    started = time.perf_counter()
    results = []
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs, initializer=_init_worker, initargs=(options,)) as pool:
            for r in pool.imap(_run_one, case_lines):
                print(_case_line(r), flush=True)
                results.append(r)
    else:
        _init_worker(options)
        for line in case_lines:
            r = _run_one(line)
            print(_case_line(r), flush=True)
            results.append(r)
    scores = [r["player"]["score"] for r in results]
    times = [r["player"]["ms"] / 1000 for r in results]
    report: dict[str, Any] = {
        "player": player,
        "cases": len(results),
        "protocol": args.protocol,
        "mean_score": round(statistics.fmean(scores), 1) if scores else 0.0,
        "fill": round(statistics.fmean(r["player"]["fill"] for r in results), 3),
        "top3_share": round(statistics.fmean(r["player"]["top3"] for r in results), 3),
        "big_plays": sum(r["player"]["big"] for r in results),
        "big_plays_points_share": round(
            sum(r["player"]["big_points"] for r in results)
            / max(1, sum(r["player"]["play_points"] for r in results)),
            3,
        ),
        "word_squares": dict(
            zip(
                ("under_big_plays", "under_other_plays", "never_covered"),
                (sum(r["player"]["word_squares"][i] for r in results) for i in range(3)),
                strict=True,
            )
        ),
        "time_mean_s": round(statistics.fmean(times), 2) if times else 0.0,
        "time_median_s": round(statistics.median(times), 2) if times else 0.0,
        "time_max_s": round(max(times), 2) if times else 0.0,
        "failures": sum(1 for r in results if r["player"]["failure"]),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    stats: dict[str, Any] = {}
    for r in results:
        for key, value in r["player"]["stats"].items():
            stats[key] = stats.get(key, 0) + value
    if stats:
        report["stats"] = stats
    if baseline is not None:
        base = [r["baseline"]["score"] for r in results]
        ratios = summary.ratios(scores, base)
        lo, hi = summary.bootstrap_ci(ratios)
        mine, theirs = summary.relative_scores(scores, base)
        report["baseline"] = {
            "player": baseline,
            "mean_score": round(statistics.fmean(base), 1),
            "geomean_ratio": round(summary.geometric_mean(ratios), 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "ratio_of_sums": round(sum(scores) / max(sum(base), 1), 3),
            "relative_score": round(mine, 2),
            "baseline_relative_score": round(theirs, 2),
            "fill": round(statistics.fmean(r["baseline"]["fill"] for r in results), 3),
            "top3_share": round(statistics.fmean(r["baseline"]["top3"] for r in results), 3),
            "big_plays": sum(r["baseline"]["big"] for r in results),
            "time_mean_s": round(statistics.fmean(r["baseline"]["ms"] for r in results) / 1000, 2),
        }
        b = report["baseline"]
        print(
            f"{player}: mean {report['mean_score']}  vs {baseline}: mean {b['mean_score']}  "
            f"geomean ratio {b['geomean_ratio']} (95% CI {lo:.3f}-{hi:.3f})  ratio of sums "
            f"{b['ratio_of_sums']}  relative {mine:.1f} vs {theirs:.1f}"
        )
    print(
        f"fill {report['fill']}  top3 share {report['top3_share']}  time mean "
        f"{report['time_mean_s']}s median {report['time_median_s']}s max "
        f"{report['time_max_s']}s  failures {report['failures']}"
    )
    print(json.dumps(report))
    return 1 if report["failures"] else 0


def chosen_case(command: str, cases: list[Case], wanted: str | None) -> Case:
    """The case named by id (``wg-0624``) or seed (``624``); the first without one."""
    if not cases:
        usage_error(command, "the case file holds no case")
    if wanted is None:
        return cases[0]
    for case in cases:
        if wanted in (case.id, str(case.seed)):
            return case
    usage_error(command, f"argument --case: no case with id or seed {wanted!r} in the file")


def cmd_trace(args: argparse.Namespace) -> int:
    from scrabble.wordgame.lexicons import load_lexicon
    from scrabble.wordgame.players.registry import DEFAULT, make_player
    from scrabble.wordgame.rules import TIME_LIMIT_MS
    from scrabble.wordgame.trace import board_lines, trace_case, turn_line

    player_name = args.player or DEFAULT
    settings = checked_settings("trace", player_name, args.set)
    case = chosen_case("trace", case_file("trace", args.cases), args.case)
    lexicon = load_lexicon(case.lexicon)
    player = make_player(player_name, lexicon, args.fixed_effort, settings)
    limit = float("inf") if args.no_time_limit else TIME_LIMIT_MS
    print(
        f"{case.id} seed={case.seed} n={case.n} t={case.t} x={case.x} d={case.d} "
        f"player={player_name}{' fixed effort' if args.fixed_effort else ''}"
    )
    trace = trace_case(case, player, lexicon.contains, limit, args.alternatives)
    for record in trace.turns:
        print(turn_line(record))
    print("\n".join(board_lines(trace.board, case.premiums)))
    outcome = trace.outcome
    report = {
        "id": case.id,
        "player": player_name,
        "score": outcome.score,
        "raw": outcome.raw_score,
        "turns": len(trace.turns),
        "plays": len(outcome.plays),
        "discards": outcome.discards,
        "discarded_tiles": outcome.discarded_tiles,
        "fill": round(outcome.fill, 4),
        "best": outcome.best_play,
        "ms": round(outcome.elapsed_ms, 1),
        "failure": outcome.failure,
        "stats": dict(getattr(player, "stats", dict)()),
    }
    print(
        f"score {outcome.score}  plays {len(outcome.plays)}  discards {outcome.discards}  "
        f"fill {outcome.fill:.2f}  best {outcome.best_play}  time {outcome.elapsed_ms / 1000:.2f}s"
        + (f"  FAILED: {outcome.failure}" if outcome.failure else "")
    )
    print(json.dumps(report))
    return 1 if outcome.failure else 0


def add_alternatives(parser: argparse.ArgumentParser, help_text: str) -> None:
    """``--alternatives K`` (0-10): how many next best actions a trace line shows."""
    parser.add_argument(
        "--alternatives", type=int, default=0, choices=range(0, 11), metavar="K", help=help_text
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("cases", help="write seeded cases (JSON lines)")
    p.add_argument("--seeds", required=True, type=seed_list, help="e.g. 1-100 or 1-5,9")
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--lexicon", default="enable")
    p.add_argument(
        "--where",
        action="append",
        default=[],
        type=where_clause,
        metavar="FIELD<OP>VALUE",
        help="keep only the cases that pass, e.g. share>=0.2, n<=12, d=0 (fields n t x d "
        "share; <=, >=, <, >, =); repeated, all must pass",
    )
    p.set_defaults(func=cmd_cases)
    p = sub.add_parser("run", help="run a player over cases and summarise")
    p.add_argument("--cases", required=True, type=existing_file)
    p.add_argument("--player", default=None, help="default: the best player")
    p.add_argument("--baseline", default="greedy", help="player to compare with, or none")
    p.add_argument("--jobs", type=positive, default=1)
    p.add_argument("--limit", type=positive, default=None, help="only the first K cases")
    p.add_argument(
        "--protocol", action="store_true", help="run each case through a `play` subprocess"
    )
    p.add_argument(
        "--fixed-effort", action="store_true", help="decisions that do not depend on the clock"
    )
    p.add_argument(
        "--no-time-limit",
        action="store_true",
        help="in-process only: no 10 s limit (deterministic tuning with --fixed-effort)",
    )
    p.add_argument(
        "--pre",
        type=int,
        default=0,
        choices=range(0, 6),
        metavar="K",
        help="experiment, in-process: start with the letters of the map's best window of "
        "T + K squares placed (capacity.preplaced_window); 0: the contract's empty board",
    )
    p.add_argument(
        "--pre-windows",
        type=int,
        default=1,
        choices=range(1, 4),
        metavar="W",
        help="with --pre: the letters of the map's W best windows, packed apart "
        "(capacity.preplaced_windows)",
    )
    p.add_argument(
        "--more-tiles",
        type=more_tiles_share,
        default=0.0,
        metavar="SHARE",
        help="experiment, in-process: queue SHARE x N^2 more tiles after the case's, drawn "
        "from its probabilities (cases.more_tiles; 0-2); 0: the contract's N^2",
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        type=setting,
        metavar="NAME=VALUE",
        help="override a setting of the player's config (tuning; with --protocol, passed to play)",
    )
    p.set_defaults(func=cmd_run)
    p = sub.add_parser("compare", help="paired per-case comparison of run outputs (B against A)")
    p.add_argument(
        "outputs", nargs="+", type=existing_file, metavar="A B", help="what `run` printed, in pairs"
    )
    p.add_argument(
        "--by",
        choices=("n", "t", "x", "d", "share"),
        help="also by class of case: N (bands of 3), T, X, D, or word-multiplier share",
    )
    p.add_argument(
        "--cases",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="a case file the outputs ran (for --by share; repeat for several)",
    )
    p.set_defaults(func=cmd_compare)
    p = sub.add_parser("windows", help="premium maps' best windows with k letters pre-placed")
    p.add_argument("--cases", required=True, type=existing_file)
    p.add_argument(
        "--pre", default=[2, 3, 5], type=letter_counts, help="letters pre-placed, e.g. 2,3,5"
    )
    p.set_defaults(func=cmd_windows)
    p = sub.add_parser("trace", help="one case turn by turn, each decision's value in terms")
    p.add_argument("--cases", required=True, type=existing_file)
    p.add_argument("--case", default=None, help="id (wg-0624) or seed (624); default the first")
    p.add_argument("--player", default=None, help="default: the best player")
    p.add_argument(
        "--fixed-effort", action="store_true", help="decisions that do not depend on the clock"
    )
    p.add_argument("--no-time-limit", action="store_true", help="no 10 s limit")
    add_alternatives(p, "the K next best actions of each turn (0-10)")
    p.add_argument("--set", action="append", default=[], type=setting, metavar="NAME=VALUE")
    p.set_defaults(func=cmd_trace)
    p = sub.add_parser(
        "warm", help="compile the players' kernels for this checkout (what `play` needs first)"
    )
    p.set_defaults(func=cmd_warm)
    p = sub.add_parser("play", help="a player process speaking the protocol")
    p.add_argument("--player", default=None, help="default: the best player")
    p.add_argument("--fixed-effort", action="store_true")
    p.add_argument(
        "--log",
        type=Path,
        default=None,
        metavar="FILE",
        help="append each turn, as trace prints it (no points), and END to FILE",
    )
    add_alternatives(p, "with --log: the K next best actions of each turn (0-10)")
    p.add_argument("--set", action="append", default=[], type=setting, metavar="NAME=VALUE")
    p.set_defaults(func=cmd_play)
    args = parser.parse_args(argv)
    if args.command == "play" and args.player is None:
        from scrabble.wordgame.players.registry import DEFAULT

        args.player = DEFAULT
    return int(args.func(args))


if __name__ == "__main__":
    use_project_environment()
    sys.exit(main())
