"""Running every compiled path the gateway uses once, before it reports healthy.

Numba loads a function's machine code from its disk cache on the first call
(50-100 ms for the signature engines' fit, about 30 ms for the equity terms),
or compiles it when the cache is cold; done here, no caller's request pays.
"""

from __future__ import annotations

from scrabble.compile_log import compile_log
from scrabble.engines.registry import ENGINES, EngineSet
from scrabble.engines.span import plan
from scrabble.engines.span_engine import finish
from scrabble.equity.evaluate import evaluate
from scrabble.equity.options import EquityOptions
from scrabble.notation import move_at
from scrabble.position import make_position

# an opening, and tiles on the board with blanks (cross-checks, blank paths)
POSITIONS = [
    (["." * 15] * 15, "AEINRST"),
    (["." * 15] * 7 + ["....QUIET......"] + ["." * 15] * 7, "SORE??"),
]


def warm_gateway(engines: EngineSet) -> None:
    """Every in-process engine, the gateway's half of compact-numba (fitting
    words a worker would send), and the equity terms with the opponent's
    replies, once per warm-up position; each function compiled (a cold
    cache) is listed on stderr as it is done."""
    with compile_log():
        _warm(engines)


def _warm(engines: EngineSet) -> None:
    for rows, rack in POSITIONS:
        position = make_position(rows, rack)
        moves = engines.trie.generate(position)
        for spec in ENGINES.values():
            if spec.remote:
                words = sorted({move_at(moves, i).word.upper() for i in range(min(len(moves), 50))})
                view = position.view(engines.lexicon.trie)
                finish(position, view, plan(view, position.rack, signatures=False), words, {})
            else:
                engines[spec.name].generate(position)
        evaluate(position, moves, engines.trie, engines.static, EquityOptions(adversarial=True))
        engines.static.best(position, engines.lexicon.trie, 20)
