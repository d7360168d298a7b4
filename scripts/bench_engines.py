#!/usr/bin/env python3
"""Benchmark the five engines on one corpus: in-process and full requests.

    python scripts/bench_engines.py [--positions 40] [--repeat 3] [--seed 2026]
                                    [--client http.client|httpx] [--json PATH]

Corpus: the 40 golden positions plus --positions self-played ones
(scrabble.corpus, seeded; 1- and 2-blank racks included). A real worker (LRU
cache off, so repeats measure work, not the cache) and a real gateway pointed
at it are started on loopback.

Per engine and position, the best of --repeat of:
  movegen  - all moves generated and scored in this process (compact-numba:
             the worker's POST /candidates round trip plus the shared fit);
  request  - POST /scrabble-api with limit=20 to the gateway, client wall time,
             over one keep-alive connection. The default client, http.client,
             adds the least of its own (about 0.3 ms), so the ratio to trie is
             mostly the servers'; --client httpx (httpx.Client) adds about
             1.6 ms to every engine alike and so shows smaller ratios.
Printed: median and p95 of each, the ratio of medians to trie, and lookups per
position; then the worker's startup_ms and table_bytes, hash_query_ms for
blank-free 7-tile racks on the empty board, and worker_ms for 2-blank racks.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scrabble.engines.registry import ENGINE_NAMES, EngineSet  # noqa: E402
from scrabble.engines.span import plan  # noqa: E402
from scrabble.engines.span_engine import finish  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.moves import MoveList, Stats  # noqa: E402
from scrabble.position import Position, make_position  # noqa: E402
from tooling.corpus import self_play_positions  # noqa: E402
from tooling.golden import GOLDEN, golden_cases  # noqa: E402
from tooling.services import free_port, start_service  # noqa: E402

# trie first: the others' ratios are to it
ENGINES = ("trie", *(name for name in ENGINE_NAMES if name != "trie"))
EMPTY = ["." * 15] * 15
BLANK_FREE_RACKS = ("AEINRST", "DEGLNOR", "BCEIMOS", "AHKLPTU", "EFIJORW")


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


def corpus(lexicon: Lexicon, count: int, seed: int) -> list[tuple[str, Position]]:
    out = [(p["id"], make_position(p["board"], p["rack"])) for p, _ in golden_cases()]
    for s in self_play_positions(lexicon, count, seed=seed):
        out.append((f"s{s.game}.{s.turn}", s.position))
    return out


def lookups_of(stats: Stats) -> int:
    return int(stats.get("lookups", stats.get("nodes_visited", 0)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="self-played positions")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--restarts", type=int, default=3, help="extra worker starts to time (Numba cache warm)"
    )
    parser.add_argument(
        "--client",
        choices=("http.client", "httpx"),
        default="http.client",
        help="the client timing the gateway requests",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    lexicon = Lexicon.load()
    positions = corpus(lexicon, args.positions, args.seed)
    blanks = [int(p.rack[26]) for _, p in positions]
    print(
        f"corpus: {len(positions)} positions ({GOLDEN.name} 40 + {args.positions} self-played,"
        f" seed {args.seed}); 1 blank: {blanks.count(1)}, 2 blanks: {blanks.count(2)}"
    )

    worker_port, gateway_port = free_port(), free_port()
    worker_url = f"http://127.0.0.1:{worker_port}"
    startups = []
    for _ in range(args.restarts):  # alone, before anything else of ours runs
        proc = start_service("scrabble.worker.app:app", worker_port)
        startups.append(httpx.get(worker_url + "/health").json()["startup_ms"])
        proc.terminate()
        proc.wait(timeout=10)
    worker = start_service("scrabble.worker.app:app", worker_port, env={"WORKER_CACHE_BYTES": "0"})
    gateway = start_service(
        "scrabble.gateway.app:app", gateway_port, env={"WORKER_URL": worker_url}
    )
    result: dict[str, Any] = {"positions": len(positions), "client": args.client}
    try:
        client = httpx.Client(timeout=60)
        health = client.get(worker_url + "/health").json()
        result["worker"] = {
            k: health[k] for k in ("startup_ms", "table_bytes", "signatures", "capacity")
        }
        result["worker"]["restart_startup_ms"] = startups

        def worker_candidates(position: Position) -> dict[str, Any]:
            r = client.post(
                worker_url + "/candidates",
                json={"board": position.rows(), "rack": position.rack_string()},
            )
            r.raise_for_status()
            answer: dict[str, Any] = r.json()
            return answer

        engines = EngineSet(lexicon)

        def movegen(engine: str, position: Position) -> MoveList:
            if engine == "compact-numba":
                answer = worker_candidates(position)
                view = position.view(lexicon.trie)
                spans = plan(view, position.rack, signatures=False)
                return finish(
                    position, view, spans, answer["words"], {"lookups": answer["hash_lookups"]}
                )
            return engines[engine].generate(position)

        conn = http.client.HTTPConnection("127.0.0.1", gateway_port, timeout=60)
        headers = {"content-type": "application/json"}

        def request_body(engine: str, position: Position) -> bytes:
            return json.dumps(
                {
                    "board": position.rows(),
                    "rack": position.rack_string(),
                    "limit": 20,
                    "engine": engine,
                }
            ).encode()

        def request(body: bytes) -> None:
            if args.client == "httpx":
                r = client.post(
                    f"http://127.0.0.1:{gateway_port}/scrabble-api", content=body, headers=headers
                )
                assert r.status_code == 200, r.text[:300]
                return
            conn.request("POST", "/scrabble-api", body, headers)
            response = conn.getresponse()
            payload = response.read()
            assert response.status == 200, payload[:300]

        for engine in ENGINES:  # build lazy tables, load compiled code
            movegen(engine, positions[0][1])
            request(request_body(engine, positions[0][1]))

        # Engines interleaved per position, so drifting load on a shared
        # machine falls on all of them alike and the ratios stay fair.
        gen: dict[str, list[float]] = {e: [] for e in ENGINES}
        req: dict[str, list[float]] = {e: [] for e in ENGINES}
        looks: dict[str, list[int]] = {e: [] for e in ENGINES}
        for _, position in positions:
            for engine in ENGINES:
                best_gen = best_req = float("inf")
                body = request_body(engine, position)  # built outside the timing
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    moves = movegen(engine, position)
                    best_gen = min(best_gen, (time.perf_counter() - t) * 1000)
                    t = time.perf_counter()
                    request(body)
                    best_req = min(best_req, (time.perf_counter() - t) * 1000)
                gen[engine].append(best_gen)
                req[engine].append(best_req)
                looks[engine].append(lookups_of(moves.stats))
        per_engine = {}
        for engine in ENGINES:
            per_engine[engine] = {
                "movegen_median_ms": round(statistics.median(gen[engine]), 3),
                "movegen_p95_ms": round(pct(gen[engine], 95), 3),
                "request_median_ms": round(statistics.median(req[engine]), 3),
                "request_p95_ms": round(pct(req[engine], 95), 3),
                "lookups_median": statistics.median(looks[engine]),
            }
        trie = per_engine["trie"]
        for figures in per_engine.values():
            figures["movegen_vs_trie"] = round(
                figures["movegen_median_ms"] / trie["movegen_median_ms"], 2
            )
            figures["request_vs_trie"] = round(
                figures["request_median_ms"] / trie["request_median_ms"], 2
            )
        result["engines"] = per_engine

        print(
            f"\n{'engine':<14} {'movegen med':>11} {'p95':>8} {'x trie':>7}   "
            f"{'request med':>11} {'p95':>8} {'x trie':>7}   {'lookups/pos':>11}"
        )
        for engine, f in per_engine.items():
            shown = "(trie nodes)" if engine == "trie" else f"{f['lookups_median']:.0f}"
            print(
                f"{engine:<14} {f['movegen_median_ms']:>11.2f} {f['movegen_p95_ms']:>8.2f} "
                f"{f['movegen_vs_trie']:>7.2f}   {f['request_median_ms']:>11.2f} "
                f"{f['request_p95_ms']:>8.2f} {f['request_vs_trie']:>7.2f}   {shown:>11}"
            )

        hq = []
        for rack in BLANK_FREE_RACKS:
            answer = worker_candidates(make_position(EMPTY, rack))
            hq.append(answer["hash_query_ms"])
        result["hash_query_ms_empty_board_7_tiles"] = {
            "AEINRST": round(hq[0], 4),
            "median": round(statistics.median(hq), 4),
            "max": round(max(hq), 4),
        }
        two = [worker_candidates(make_position(EMPTY, "AEINR??"))["worker_ms"]]
        two += [
            worker_candidates(p)["worker_ms"]
            for (_, p), b in zip(positions, blanks, strict=True)
            if b == 2
        ]
        result["two_blank_worker_ms"] = {
            "positions": len(two),
            "median": round(statistics.median(two), 2),
            "max": round(max(two), 2),
        }
        w = result["worker"]
        print(
            f"\nworker: startup_ms {w['startup_ms']} (restarts alone: {startups}), "
            f"table_bytes {w['table_bytes']:,} "
            f"({w['table_bytes'] / 2**20:.2f} MiB), {w['signatures']:,} signatures in "
            f"{w['capacity']:,} slots"
        )
        h = result["hash_query_ms_empty_board_7_tiles"]
        print(
            f"hash_query_ms, blank-free 7-tile rack on the empty board: AEINRST {h['AEINRST']}"
            f", median of {len(hq)} racks {h['median']}, max {h['max']}"
        )
        t = result["two_blank_worker_ms"]
        print(
            f"worker_ms with 2 blanks ({t['positions']} positions incl. AEINR?? opening): "
            f"median {t['median']}, max {t['max']}"
        )
    finally:
        for proc in (gateway, worker):
            proc.terminate()
            proc.wait(timeout=10)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
