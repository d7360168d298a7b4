"""Running every compiled path the gateway uses once, before it reports healthy.

Numba loads a function's machine code from its disk cache on the first call
(50-100 ms for the signature engines' fit, about 30 ms for the equity terms),
or compiles it when the cache is cold; done here, no caller's request pays.
"""

from __future__ import annotations

from scrabble import cgp
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


# the bag empty, the opponent's OT known: the exact endgame search's paths
ENDGAME = (
    "4RUMMAGED2C/7A6A/2H1G2T6V/2O1O2I6E/2WAB2PREBENDS/2ER3O3n3/2SI6COW2/3L2HUE2KANE/"
    "3LI3FILII2/J1TANGENT2T1Z1/A2TA5FA1OP/R2EN5Ok1OU/VILDE5YEX1D/I3R6SUQS/E13Y INR/OT 0/0 0"
)


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
    parsed = cgp.parse(ENDGAME)
    endgame = make_position(parsed.rows, parsed.rack, opponent=parsed.opponent_rack)
    evaluate(endgame, engines.trie.generate(endgame), engines.trie, engines.static)
