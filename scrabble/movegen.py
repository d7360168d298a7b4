"""Generate every legal placement of a position with a chosen engine."""

from __future__ import annotations

from scrabble.engines import signature
from scrabble.engines import trie as trie_engine
from scrabble.engines.memory_hash import MemoryHash
from scrabble.engines.prime_product import PrimeProduct
from scrabble.engines.sqlite_hash import SqliteHash
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import MoveList, capacity_for
from scrabble.position import Position

ENGINES = ("trie", "sqlite-hash", "memory-hash", "compact-numba", "prime-product")


def generate_trie(position: Position, lexicon: Lexicon) -> MoveList:
    rules = position.rules
    sr, sc = rules.opening_square
    capacity = capacity_for(position.rack)
    while True:
        words, meta, counter = trie_engine.generate(
            position.board, rules.size, rules.letter_mult, rules.word_mult, rules.values,
            position.rack, lexicon.trie.mask, lexicon.trie.first, sr, sc,
            rules.connection == "through", rules.rack_size,
            rules.bingo_bonus, capacity)
        if counter[trie_engine.MOVES] <= capacity:
            break
        capacity = int(counter[trie_engine.MOVES])
    return MoveList(words=words, meta=meta,
                    stats={"anchors": int(counter[trie_engine.ANCHORS]),
                           "nodes_visited": int(counter[trie_engine.NODES])})


class EngineUnavailable(RuntimeError):
    """The engine name is valid but not available here (yet)."""


# In-process lookups, built once per lexicon on first use (keyed by id: a
# Lexicon holds arrays and is not hashable; the entry keeps it alive).
_LOOKUPS: dict[tuple[int, str], tuple[Lexicon, signature.Lookup]] = {}
_BUILDERS = {
    "memory-hash": MemoryHash.for_lexicon,
    "prime-product": PrimeProduct.for_lexicon,
    "sqlite-hash": lambda lexicon: SqliteHash(lexicon.db_path),
}


def lookup_for(lexicon: Lexicon, engine: str) -> signature.Lookup:
    key = (id(lexicon), engine)
    entry = _LOOKUPS.get(key)
    if entry is None or entry[0] is not lexicon:
        entry = (lexicon, _BUILDERS[engine](lexicon))
        _LOOKUPS[key] = entry
    return entry[1]


def prepare(lexicon: Lexicon, engines: tuple[str, ...] = tuple(_BUILDERS)) -> None:
    """Build the in-process lookup tables now (a service's start-up) instead of
    on the first request that names each engine (about 0.5 s each for SOWPODS)."""
    for engine in engines:
        lookup_for(lexicon, engine)


def generate_from_words(position: Position, lexicon: Lexicon, words: list[str],
                        stats: dict[str, int | float]) -> MoveList:
    """``compact-numba``'s gateway half: the worker found the candidate words,
    the shared spans, fit and scoring make the moves."""
    analysis = signature.analyse(position, lexicon)
    p = signature.plan_position(position, analysis, signatures=False)  # the worker built them
    return signature.finish(position, analysis, p, words, stats)


def generate(position: Position, lexicon: Lexicon, engine: str = "trie") -> MoveList:
    """All placements of ``position`` found by ``engine`` (in-process engines only;
    ``compact-numba`` goes through the worker, see the gateway)."""
    if engine == "trie":
        return generate_trie(position, lexicon)
    if engine in _BUILDERS:
        return signature.generate_with(position, lexicon, lookup_for(lexicon, engine))
    raise EngineUnavailable(f"engine {engine!r} runs in the worker; call it through the gateway")
