"""Running every compiled path once, so no caller's request pays for it.

Numba loads a function's machine code from its disk cache on the first call
(50-100 ms for the signature engines' fit, about 30 ms for the heuristics), or
compiles it when the cache is cold. A service runs this at start-up, before it
reports healthy; ``scripts/warm_numba.py`` runs it to fill the cache.
"""

from __future__ import annotations

from scrabble.heuristics.equity import Options, evaluate
from scrabble.lexicon.loaded import Lexicon
from scrabble.movegen import ENGINES, generate, generate_from_words
from scrabble.moves import move_at
from scrabble.position import make_position

# an opening, and tiles on the board with a blank (cross-checks, blank paths)
POSITIONS = [
    (["." * 15] * 15, "AEINRST"),
    (["." * 15] * 7 + ["....QUIET......"] + ["." * 15] * 7, "SORE??"),
]


def warm_gateway(lexicon: Lexicon) -> None:
    """Every in-process engine, the gateway's half of compact-numba, and the
    heuristics with the opponent's replies, once per warm-up position."""
    for rows, rack in POSITIONS:
        position = make_position(rows, rack)
        moves = generate(position, lexicon)
        # some of the words a worker would send for this position
        words = sorted({move_at(moves, i).word.upper() for i in range(min(len(moves), 50))})
        for engine in ENGINES:
            if engine == "compact-numba":
                generate_from_words(position, lexicon, words, {})
            elif engine != "trie":
                generate(position, lexicon, engine)
        evaluate(position, moves, lexicon, Options(adversarial=True))
