"""Run one service under uvicorn with its limits, and stop it gracefully.

    python -m scrabble.gateway [--host H] [--port P]      (GATEWAY_HOST, GATEWAY_PORT)
    python -m scrabble.worker  [--host H] [--port P]      (WORKER_HOST, WORKER_PORT)

SIGTERM or SIGINT: the listening socket is closed, requests already accepted
are answered (Connection: close) for up to ``shutdown_timeout`` seconds, then
the app's shutdown runs and the process exits 0. Start-up failure exits 1.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys

import uvicorn

from scrabble.serving.limits import Limits
from scrabble.serving.memory import fix_mmap_threshold
from scrabble.serving.protocol import guarded_protocol

_log = logging.getLogger("serving")


def cors_origin() -> bytes | None:
    """The gateway's allowed origin for answers written before the app: "*"
    by default; a single configured origin; none when there are several (the
    one to echo depends on the request, which is not parsed yet there)."""
    origins = [o.strip() for o in os.environ.get("CORS_ORIGINS", "*").split(",") if o.strip()]
    return origins[0].encode() if len(origins) == 1 else None


def config(
    app: str, prefix: str, host: str, port: int, allow_origin: bytes | None
) -> uvicorn.Config:
    limits = Limits.from_env(prefix)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(limits, allow_origin),
        ws="none",
        lifespan="on",
        # both are used as seconds (call_later, wait_for): fractions work
        timeout_keep_alive=limits.keepalive_timeout,  # type: ignore[arg-type]
        timeout_graceful_shutdown=limits.shutdown_timeout,  # type: ignore[arg-type]
        log_level=os.environ.get("LOG_LEVEL", "info").lower(),
        access_log=False,
        server_header=False,
    )


def main(app: str, prefix: str, default_port: int, argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m scrabble.{prefix.lower()}")
    parser.add_argument("--host", default=os.environ.get(f"{prefix}_HOST", "127.0.0.1"))
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get(f"{prefix}_PORT", default_port))
    )
    args = parser.parse_args(argv)
    level = os.environ.get("LOG_LEVEL", "info").upper()
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per worker call otherwise
    fix_mmap_threshold()
    allow_origin = cors_origin() if prefix == "GATEWAY" else None
    server = uvicorn.Server(config(app, prefix, args.host, args.port, allow_origin))
    # uvicorn re-raises the signal it stopped for once it has shut down, which
    # kills the process with it (exit -15) unless a handler is in place: a
    # graceful stop exits 0
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: None)
    server.run()
    if not server.started:
        print(f"{prefix.lower()}: did not start", file=sys.stderr)
        return 1
    return 0
