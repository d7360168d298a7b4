#!/usr/bin/env python3
"""Benchmark move generation: in-process and over HTTP, on a seeded corpus.

    python scripts/bench_movegen.py [--positions 240] [--repeat 5] [--no-http]

The corpus is self-played positions (scrabble.corpus; 1- and 2-blank racks
included). In-process time is one call that generates and scores every move
of the position (best of --repeat per position, to shed scheduler noise).
The HTTP figure is the full round trip of POST /scrabble-api with limit=20
against a real gateway process on loopback. As a baseline in the same process,
a fixed Numba workload (20,000 trie look-ups in one call) is timed, and the ratios
movegen/baseline let runs on a busy machine be compared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scrabble.engines.trie_engine import TrieEngine  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.lexicon.trie import contains  # noqa: E402
from tooling.corpus import Sample, self_play_positions  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


@njit(cache=True)
def look_up_all(trie, words, lengths):  # type: ignore[no-untyped-def]
    found = 0
    for i in range(words.shape[0]):
        found += contains(trie, words[i, : lengths[i]])
    return found


def baseline_ms(lexicon: Lexicon, repeat: int) -> float:
    """A fixed compiled workload: 20,000 trie look-ups in one call (so Python's
    per-call dispatch, which depends on the argument types, stays out of it)."""
    sample = lexicon.words[:: len(lexicon.words) // 20000][:20000]
    width = max(map(len, sample))
    words = np.zeros((len(sample), width), dtype=np.uint8)
    for i, word in enumerate(sample):
        words[i, : len(word)] = np.frombuffer(word.encode(), dtype=np.uint8) - 65
    lengths = np.array([len(w) for w in sample], dtype=np.int64)
    look_up_all(lexicon.trie, words, lengths)
    times = []
    for _ in range(repeat * 5):
        t = time.perf_counter()
        look_up_all(lexicon.trie, words, lengths)
        times.append((time.perf_counter() - t) * 1000)
    return min(times)


def bench_http(samples: list[Sample], repeat: int) -> list[float]:
    """Round trips over one keep-alive connection. http.client is used as
    the client because its own overhead is the smallest (headers and body go
    out in one send), so the figure is mostly the gateway's."""
    import http.client

    from tooling.services import free_port, start_service

    port = free_port()
    proc = start_service("scrabble.gateway.app:app", port)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"content-type": "application/json"}
        bodies = [
            json.dumps(
                {"board": s.position.rows(), "rack": s.position.rack_string(), "limit": 20}
            ).encode()
            for s in samples
        ]

        def post(body: bytes) -> None:
            conn.request("POST", "/scrabble-api", body, headers)
            response = conn.getresponse()
            payload = response.read()
            assert response.status == 200, payload[:200]

        for body in bodies[:10]:
            post(body)
        times = []
        for body in bodies:
            best = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                post(body)
                best = min(best, (time.perf_counter() - t) * 1000)
            times.append(best)
        conn.close()
        return times
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=240)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-http", action="store_true")
    args = parser.parse_args()

    lexicon = Lexicon.load()
    samples = self_play_positions(lexicon, args.positions, seed=args.seed)
    engine = TrieEngine(lexicon)
    for s in samples[:5]:
        engine.generate(s.position)  # compile / load the Numba cache
    base = baseline_ms(lexicon, args.repeat)

    times, counts = [], []
    for s in samples:
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            moves = engine.generate(s.position)
            best = min(best, (time.perf_counter() - t) * 1000)
        times.append(best)
        counts.append(len(moves))
    blanks = [s.blanks for s in samples]
    print(
        f"corpus: {len(samples)} positions from self-play (seed {args.seed}); "
        f"racks with 1 blank: {blanks.count(1)}, 2 blanks: {blanks.count(2)}"
    )
    print(f"baseline (20,000 trie look-ups in one call): {base:.3f} ms")
    med = statistics.median(times)
    result = {
        "positions": len(samples),
        "movegen_median_ms": round(med, 3),
        "movegen_p95_ms": round(percentile(times, 95), 3),
        "movegen_max_ms": round(max(times), 3),
        "moves_per_second": round(sum(counts) / (sum(times) / 1000)),
        "median_moves": statistics.median(counts),
        "baseline_ms": round(base, 3),
        "movegen_median_over_baseline": round(med / base, 3),
    }
    for k in (0, 1, 2):
        sub = [t for t, b in zip(times, blanks, strict=True) if b == k]
        if sub:
            result[f"movegen_median_ms_{k}_blank"] = round(statistics.median(sub), 3)
    print(
        f"in-process, all moves generated and scored: median {result['movegen_median_ms']} ms,"
        f" p95 {result['movegen_p95_ms']} ms, max {result['movegen_max_ms']} ms, "
        f"{result['moves_per_second']:,} moves/s; median/baseline "
        f"{result['movegen_median_over_baseline']}"
    )
    if not args.no_http:
        http = bench_http(samples, args.repeat)
        result["http_limit20_median_ms"] = round(statistics.median(http), 3)
        result["http_limit20_p95_ms"] = round(percentile(http, 95), 3)
        result["http_limit20_max_ms"] = round(max(http), 3)
        result["http_median_over_baseline"] = round(statistics.median(http) / base, 3)
        # every move is generated and scored server-side even when 20 are returned
        result["http_moves_per_second"] = round(sum(counts) / (sum(http) / 1000))
        print(
            f"HTTP round trip, limit=20: median {result['http_limit20_median_ms']} ms, "
            f"p95 {result['http_limit20_p95_ms']} ms, max {result['http_limit20_max_ms']} ms, "
            f"{result['http_moves_per_second']:,} moves/s generated and scored"
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
