"""Compile the WordGame kernels once (Numba's disk cache) and build the
players' compiled lexicon, so that a ``play`` process starts in well under a
second instead of compiling for a minute inside a case's 10 s. When it has
played every player it marks the cache warm for this checkout (``is_warm``), the
mark ``play`` looks for before it trusts a case's clock to the kernels."""

from __future__ import annotations

from scrabble.compiled import cache_directory, is_warm, mark_warm
from scrabble.wordgame import cases
from scrabble.wordgame.lexicons import load_compiled, load_lexicon
from scrabble.wordgame.players.registry import make_player
from scrabble.wordgame.referee import play_in_process

WARM_SEED = 2  # a 10 x 10 case
PART = "wordgame"  # the cache mark's name


def wordgame_is_warm() -> bool:
    """Whether a player here loads its kernels from the cache (see ``warm_wordgame``)."""
    return is_warm(cache_directory(), PART)


def warm_wordgame(lexicon_name: str = "enable") -> None:
    full = load_lexicon(lexicon_name)
    compiled = load_compiled(lexicon_name)
    case = cases.generate(WARM_SEED, cases.letter_probabilities(full.words), lexicon_name)
    for name in ("greedy", "prospect", "planner"):
        player = make_player(
            name,
            compiled,
            fixed_effort=True,
            settings={} if name == "greedy" else {"fixed_share": "0.3"},
        )
        play_in_process(case, player, full.contains, time_limit_ms=float("inf"))
    mark_warm(cache_directory(), PART)
