"""The ``compact-numba`` engine as the gateway calls it: the worker finds the
candidate words, the shared fit and scoring (here, with the gateway's board
view) make the moves."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from scrabble.board import BoardView
from scrabble.engines.compact.client import WorkerClient, WorkerUnavailable
from scrabble.engines.compact.wire import WIRE_STATS
from scrabble.engines.span import Plan, plan
from scrabble.engines.span_engine import finish
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import MoveList, Stats
from scrabble.position import Position


class CompactNumbaEngine:
    name = "compact-numba"

    def __init__(self, lexicon: Lexicon, client: WorkerClient) -> None:
        self.lexicon = lexicon
        self.client = client

    async def generate(self, position: Position) -> MoveList:
        """The request goes out first and the gateway's own board view and spans
        are computed while the worker works, so the two overlap."""
        started = time.perf_counter()
        pending = asyncio.ensure_future(self.client.candidates(position))
        try:
            await asyncio.sleep(0)  # let the request be written before the local work
            view = position.view(self.lexicon.trie)
            spans = plan(view, position.rack, signatures=False)  # the worker built them
            answer = await pending
        finally:
            if not pending.done():
                pending.cancel()
        roundtrip_ms = (time.perf_counter() - started) * 1000
        return self.finish(position, answer, roundtrip_ms, view, spans)

    def place(self, position: Position, answer: dict[str, Any], roundtrip_ms: float) -> MoveList:
        """The moves for a worker answer fetched elsewhere (the gateway's
        accepting process asks the worker; a compute process places the words)."""
        view = position.view(self.lexicon.trie)
        spans = plan(view, position.rack, signatures=False)
        return self.finish(position, answer, roundtrip_ms, view, spans)

    def finish(
        self,
        position: Position,
        answer: dict[str, Any],
        roundtrip_ms: float,
        view: BoardView,
        spans: Plan,
    ) -> MoveList:
        served = answer.get("lexicon_sha256")
        if served and self.lexicon.info.sha256 and served != self.lexicon.info.sha256:
            # its words would be right for another word list: no answer beats a wrong one
            raise WorkerUnavailable(
                f"the worker serves another lexicon (sha256 {served[:12]}..., this gateway "
                f"{self.lexicon.info.sha256[:12]}...)"
            )
        stats: Stats = {name: answer[wire] for wire, name in WIRE_STATS.items() if wire in answer}
        stats["worker_roundtrip_ms"] = round(roundtrip_ms, 3)
        return finish(position, view, spans, answer["words"], stats)
