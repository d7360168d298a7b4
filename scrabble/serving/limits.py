"""Every limit and timeout of a service's HTTP side, with its default and the
environment variable that sets it (``<PREFIX>_<NAME>``, PREFIX ``GATEWAY`` or
``WORKER``); ``docs/service.md`` lists them."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Limits:
    # request line + headers, bytes; over it: 431 (h11's default is 16 KiB too)
    max_header_bytes: int = 16 * 1024
    # seconds from a request's first byte (or from connecting) until all of it
    # has arrived; over it: 408 and the connection is closed
    request_timeout: float = 10.0
    # seconds an idle keep-alive connection is kept
    keepalive_timeout: float = 5.0
    # open connections; a request on one over the cap gets 503 and is closed
    max_connections: int = 512
    # seconds an answer may make no progress towards a caller that does not
    # read it; then the connection is dropped and its buffer freed
    send_timeout: float = 10.0
    # seconds SIGTERM waits for accepted requests before cancelling them
    shutdown_timeout: float = 10.0
    # seconds an idle connection is kept after SIGTERM, so a request already on
    # its way is read and answered (with Connection: close) instead of reset
    drain_grace: float = 0.5

    @classmethod
    def from_env(cls, prefix: str) -> Limits:
        values: dict[str, float | int] = {}
        for spec in fields(cls):
            raw = os.environ.get(f"{prefix}_{spec.name.upper()}")
            if raw is not None:
                kind = int if spec.type in ("int", int) else float
                value = kind(raw)
                if value <= 0:
                    raise ValueError(f"{prefix}_{spec.name.upper()} must be positive, got {raw}")
                values[spec.name] = value
        return cls(**values)  # type: ignore[arg-type]
