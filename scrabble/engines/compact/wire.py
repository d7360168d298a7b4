"""What crosses the gateway-worker hop, and the statistics it carries.

Request: ``{"board": [15 rows], "rack": "..."}`` (the worker parses and
validates it as the gateway does). Answer: ``{"words": [...], "lexicon_sha256",
and the figures of WIRE_STATS}``. The board, not the gateway's masks or spans,
goes over the hop: the worker needs only a few of its squares' letters (the
rack's) and the gateway's own view computation overlaps the worker's work, so
sending them would add serial work and bytes for nothing
(``docs/worker-transport.md``, "What crosses the hop").
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

# worker answer field -> the engine statistic it becomes (the names the
# in-process signature engines use for the same figures)
WIRE_STATS = {
    "hash_lookups": "lookups",
    "hash_hits": "hits",
    "hash_probes": "probes",
    "cross_check_probes": "cross_check_probes",
    "signatures_built": "signatures_built",
    "spans": "worker_spans",
    "signature_ms": "signature_ms",
    "hash_query_ms": "lookup_ms",
    "worker_ms": "worker_ms",
    "cache_hit": "cache_hit",
}


class CandidatesRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    board: list[str] = Field(description="15 rows of 15 cells, as the gateway takes them.")
    rack: str = Field(description="1-7 tiles, A-Z and ? for a blank.")
