"""Loading a lexicon by name, once per process.

One small function so the gateway's own lexicon registry can replace it.
"""

from __future__ import annotations

from functools import cache

from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.store import LEXICON_DIR

DEFAULT = "enable"


@cache
def load_lexicon(name: str = DEFAULT) -> Lexicon:
    """The built lexicon ``lexicon/<name>.sqlite``; FileNotFoundError if it is not built."""
    if not name.isidentifier():
        raise FileNotFoundError(f"no lexicon named {name!r}")
    return Lexicon.load(LEXICON_DIR / f"{name.lower()}.sqlite")
