"""``scrabble``: the command line over the library.

    scrabble moves CGP [--limit N] [--rank-by score|equity] [--lexicon NAME] [--json]
    scrabble score CGP MOVE [--lexicon NAME] [--json]
    scrabble analyze GAME.gcg [--lexicon NAME] [--json]
    scrabble selfplay [--a CHOOSER --b CHOOSER --pairs N --seed S --gcg DIR ...]
    scrabble lexicon build WORDS.txt --name NAME [--dir DIR] [--force]
    scrabble lexicon list
    scrabble serve [--host H] [--port P] [--worker-port P | --no-worker]

Lexicon stores are read from (and built into) ``LEXICON_DIR``, by default a
checkout's ``lexicon/`` folder or the user's data directory
(``~/.local/share/scrabble-engine/lexicons``). ``--json`` prints what the
HTTP API answers for the same question.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scrabble import cgp as cgp_format
from scrabble import gcg
from scrabble.lexicon.catalog import Catalog, LexiconChoiceError, NoLexicons
from scrabble.lexicon.store import build, lexicon_dir
from scrabble.lexicon.wordlist import WordListError
from scrabble.notation import NotationError, parse_move
from scrabble.position import Position, PositionError, make_position
from scrabble.terminal import LEGEND, board_text, table


class CommandError(Exception):
    """A problem with what the user asked; printed without a traceback."""


def _catalog() -> Catalog:
    try:
        return Catalog.open()
    except NoLexicons as exc:
        raise CommandError(str(exc)) from None


def _position(text: str) -> tuple[Position, cgp_format.CGP]:
    try:
        parsed = cgp_format.parse(text)
        return make_position(parsed.rows, parsed.rack, opponent=parsed.opponent_rack), parsed
    except PositionError as exc:
        raise CommandError(f"CGP: {exc.message}") from None


def _engines(catalog: Catalog, requested: str | None, recorded: str | None, field: str) -> Any:
    try:
        return catalog.engines(catalog.choose(requested, recorded, field))
    except LexiconChoiceError as exc:
        raise CommandError(f"{exc.field}: {exc.message}") from None


def _dump(body: dict[str, Any]) -> None:
    print(json.dumps(body, indent=2))


def _points(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


# -- moves ------------------------------------------------------------------


def cmd_moves(args: argparse.Namespace) -> int:
    from scrabble.gateway.analysis import MoveQuery, answer, placements

    position, parsed = _position(args.cgp)
    engines = _engines(_catalog(), args.lexicon, parsed.opcodes.get("lex"), "cgp")
    started = time.perf_counter()
    query = MoveQuery(
        engine="trie", limit=args.limit, heuristics=args.rank_by == "equity", adversarial=False,
        rank_by=args.rank_by, count_moves=True, risk="neutral", budget_ms=300.0, upcoming=None,
        lexicon=None, opponent_rack=parsed.opponent_rack, scores=parsed.scores,
        zero_turns=parsed.zero_turns,
    )  # fmt: skip
    moves, whole = placements(query, position, engines)  # counted: the summary line says how many
    timing = {"parse_ms": 0.0, "movegen_ms": round((time.perf_counter() - started) * 1000, 3)}
    body = answer(query, position, moves, engines, timing, whole)
    if args.json:
        _dump(body)
        return 0
    shown = body["moves"]
    best = next((m for m in shown if m["tiles"]), None)
    preview = {(t["row"], t["col"]): t["letter"] for t in best["tiles"]} if best else None
    print(board_text(position.rows(), position.rules, preview))
    print(f"    {LEGEND}")
    print(f"    [X]: the first move's tiles.  rack {position.rack_string()}  "
          f"scores {parsed.scores[0]}-{parsed.scores[1]}  lexicon {body['lexicon']['name']}  "
          f"bag {body['unseen']['bag']}")  # fmt: skip
    print()
    equity = args.rank_by == "equity"
    rows = [
        [m["rank"], m["notation"], m["score"], m["leave"] or "-"]
        + ([f"{m['heuristics']['equity']:.1f}"] if equity else [])
        for m in shown
    ]
    headers = ["rank", "move", "score", "leave"] + (["equity"] if equity else [])
    print(table(headers, rows))
    print(f"\n{body['total_moves']} placements; ranked by {args.rank_by}")
    return 0


# -- score ------------------------------------------------------------------


def _judged_lines(judged: dict[str, Any]) -> list[str]:
    lines = []
    if judged["legal"]:
        lines.append(f"legal: {judged['notation']} scores {judged['score']}")
        lines.append(
            f"rank {judged['rank']} of {judged['actions']} actions, equity "
            f"{_points(judged['equity'])} (gives away {_points(judged['equity_lost'])})"
        )
    else:
        lines.append(f"not legal ({judged['rule']}): {judged['reason']}")
        if judged["score"] is not None:
            lines.append(f"it would score {judged['score']}")
    best = judged["best"]
    lines.append(
        f"best: {best['notation']} scores {best['score']}, equity {_points(best['equity'])}"
    )
    return lines


def cmd_score(args: argparse.Namespace) -> int:
    from scrabble.notation import appraisal_json
    from scrabble.review import appraise

    position, parsed = _position(args.cgp)
    try:
        move = parse_move(args.move)
    except NotationError as exc:
        raise CommandError(f"move: {exc}") from None
    engines = _engines(_catalog(), args.lexicon, parsed.opcodes.get("lex"), "cgp")
    judged = appraisal_json(appraise(position, engines, move))
    if args.json:
        _dump({"lexicon": engines.lexicon.info.as_dict(), "move": args.move, **judged})
        return 0
    print("\n".join(_judged_lines(judged)))
    return 0 if judged["legal"] else 1


# -- analyze -------------------------------------------------------------------


def cmd_analyze(args: argparse.Namespace) -> int:
    from scrabble.notation import review_json
    from scrabble.review import review

    try:
        record = gcg.parse(gcg.decode(Path(args.game).read_bytes()))
    except OSError as exc:
        raise CommandError(f"{args.game}: {exc.strerror}") from None
    except gcg.GCGError as exc:
        raise CommandError(f"{args.game}: {exc}") from None
    engines = _engines(_catalog(), args.lexicon, record.lexicon, "#lexicon")
    try:
        body = review_json(review(record, engines))
    except gcg.GCGError as exc:
        raise CommandError(f"{args.game}: {exc}") from None
    body["lexicon"] = engines.lexicon.info.as_dict()
    if args.json:
        _dump(body)
        return 0
    rows = []
    for turn in body["turns"]:
        verdict = "" if turn.get("legal", True) else f"not legal: {turn['rule']}"
        if turn["skipped"]:
            verdict = f"skipped: {turn['skipped']}"
        best = turn.get("best")
        rows.append([
            turn["number"], turn["player"], turn["rack"], turn["played"], turn["recorded_score"],
            turn.get("rank"), _points(turn.get("equity")),
            f"{best['notation']} ({_points(best['equity'])})" if best else "",
            _points(turn.get("equity_lost")), verdict,
        ])  # fmt: skip
    print(table(["#", "player", "rack", "played", "score", "rank", "equity", "best (equity)",
                 "lost", ""], rows))  # fmt: skip
    print()
    print(table(
        ["player", "score", "turns", "best moves", "equity lost", "illegal"],
        [[p["nickname"], p["final_score"], p["turns"], p["best_moves"],
          _points(p["equity_lost"]), p["illegal"]] for p in body["players"]],
    ))  # fmt: skip
    print(f"\nlexicon {body['lexicon']['name']}; equity: score, leave, endgame, opening and "
          "premium waste, for every action alike")  # fmt: skip
    return 0


# -- selfplay --------------------------------------------------------------------


def cmd_selfplay(args: argparse.Namespace) -> int:
    from scrabble.match import run

    return run(args)


# -- lexicon ---------------------------------------------------------------------


def cmd_lexicon_build(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    target = Path(args.dir) if args.dir else lexicon_dir()
    try:
        info, built = build(Path(args.words), args.name, force=args.force, directory=target,
                            verbose=True)  # fmt: skip
    except (WordListError, OSError) as exc:
        raise CommandError(str(exc)) from None
    path = target / f"{info.name}.sqlite"
    verb = "built" if built else "up to date:"
    print(f"{verb} {path} ({info.words} words, {info.signatures} signatures, "
          f"{time.perf_counter() - started:.1f}s)")  # fmt: skip
    if built:
        print("restart the gateway (scrabble serve) to serve it; requests name it "
              f"with lexicon={info.name!r} or a CGP's 'lex {info.name.upper()};'")  # fmt: skip
    return 0


def cmd_lexicon_list(args: argparse.Namespace) -> int:
    catalog = _catalog()
    rows = [[i.name, i.words, i.signatures, i.sha256[:16]] for i in catalog.infos()]
    print(table(["name", "words", "signatures", "sha256"], rows))
    print(f"\nin {catalog.directory}; default {catalog.default}")
    for name, why in catalog.skipped.items():
        print(f"skipped {name}: {why}")
    return 0


# -- serve -------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    worker: subprocess.Popen[bytes] | None = None
    env = dict(os.environ)
    if not args.no_worker:
        env["WORKER_URL"] = f"http://127.0.0.1:{args.worker_port}"
        os.environ["WORKER_URL"] = env["WORKER_URL"]
        worker = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "scrabble.worker.app:app", "--host", "127.0.0.1",
             "--port", str(args.worker_port), "--log-level", "warning"],
            env=env,
        )  # fmt: skip
        print(f"serve: worker (compact-numba) starting at {env['WORKER_URL']}", file=sys.stderr)
    try:
        print(f"serve: gateway starting at http://{args.host}:{args.port} (the page at /, "
              "docs at /docs)", file=sys.stderr)  # fmt: skip
        uvicorn.run("scrabble.gateway.app:app", host=args.host, port=args.port,
                    log_level="info")  # fmt: skip
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=10)
    return 0


# -- the parser ----------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    from scrabble.match import add_arguments as selfplay_arguments

    top = argparse.ArgumentParser(
        prog="scrabble",
        description="A Scrabble move engine: moves, scores, game analysis, self-play, "
        "lexicons and the HTTP service.",
        epilog=f"lexicon stores: LEXICON_DIR (now {lexicon_dir()})",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, run: Callable[[argparse.Namespace], int], summary: str
                ) -> argparse.ArgumentParser:  # fmt: skip
        sub = commands.add_parser(name, help=summary, description=summary)
        sub.set_defaults(run=run)
        return sub

    moves = command("moves", cmd_moves, "the board and the best moves of a CGP position")
    moves.add_argument("cgp", help="the position, e.g. '15/15/.../15 AEINRST/ 0/0 0 lex sowpods;'")
    moves.add_argument("--limit", type=int, default=10, help="moves to show (default 10)")
    moves.add_argument("--rank-by", choices=("score", "equity"), default="equity")
    moves.add_argument("--lexicon", help="a served lexicon (default: the CGP's lex)")
    moves.add_argument("--json", action="store_true", help="the API's answer as JSON")

    score = command("score", cmd_score, "is a move legal, its score, rank and equity")
    score.add_argument("cgp")
    score.add_argument("move", help="'8H QI', 'G2 SCOLDI(N)G', '-ABC' (exchange), '-' (pass)")
    score.add_argument("--lexicon")
    score.add_argument("--json", action="store_true")

    analyze = command("analyze", cmd_analyze, "a GCG game record reviewed turn by turn")
    analyze.add_argument("game", help="a .gcg file")
    analyze.add_argument("--lexicon", help="judge by this lexicon (default: the #lexicon)")
    analyze.add_argument("--json", action="store_true")

    selfplay = command("selfplay", cmd_selfplay, "paired self-play between two move choosers")
    selfplay_arguments(selfplay)

    lexicon = command("lexicon", lambda a: 2, "build or list lexicon stores")
    actions = lexicon.add_subparsers(dest="action", required=True, metavar="ACTION")
    build_cmd = actions.add_parser("build", help="build a store from a word list (one a line)")
    build_cmd.set_defaults(run=cmd_lexicon_build)
    build_cmd.add_argument("words", help="the word list, A-Z, one word a line")
    build_cmd.add_argument("--name", required=True, help="the store's name, e.g. csw21")
    build_cmd.add_argument("--dir", help="where to write it (default: LEXICON_DIR)")
    build_cmd.add_argument("--force", action="store_true", help="rebuild even when current")
    list_cmd = actions.add_parser("list", help="the stores served from LEXICON_DIR")
    list_cmd.set_defaults(run=cmd_lexicon_list)

    serve = command("serve", cmd_serve, "the HTTP service: gateway (and the worker)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=int(os.environ.get("GATEWAY_PORT", 8000)))
    serve.add_argument("--worker-port", type=int,
                       default=int(os.environ.get("WORKER_PORT", 8001)))  # fmt: skip
    serve.add_argument(
        "--no-worker",
        action="store_true",
        help="no worker: compact-numba answers 503, the other engines work",
    )
    return top


def console() -> int:
    """The installed ``scrabble`` command: ``main`` as its own process."""
    if hasattr(signal, "SIGPIPE"):  # `scrabble analyze game.gcg | head`: stop quietly
        # only here: in a process that calls ``main`` (a test, a notebook)
        # the default action would kill it at its next write to a closed socket
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    return main()


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except CommandError as exc:
        print(f"scrabble {args.command}: {exc}", file=sys.stderr)
        return 2
    except FileNotFoundError as exc:  # a missing store: the message says what to run
        print(f"scrabble {args.command}: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(console())
