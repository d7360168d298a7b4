from __future__ import annotations

from collections.abc import Iterator

import pytest

from scrabble.engines.trie_engine import TrieEngine
from scrabble.lexicon.loaded import Lexicon
from scrabble.wordgame.lexicons import load_lexicon
from scrabble.wordgame.warmup import warm_wordgame, wordgame_is_warm
from tests.browser import browser, visit  # noqa: F401 (the pages' fixtures)
from tooling.services import running


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    """The real SOWPODS lexicon, loaded once per test process."""
    return Lexicon.load()


@pytest.fixture(scope="session")
def enable() -> Lexicon:
    """The WordGame's default lexicon (ENABLE), loaded once per test process."""
    return load_lexicon("enable")


@pytest.fixture(scope="session")
def warm_player() -> None:
    """``scripts/wordgame.py play`` answers with the stand-in until the WordGame
    kernels are marked warm for this checkout (``scripts/setup`` does it): warm
    them here when a source changed since, for the tests that need the real player."""
    if not wordgame_is_warm():
        warm_wordgame()


@pytest.fixture(scope="session")
def trie(lexicon: Lexicon) -> TrieEngine:
    return TrieEngine(lexicon)


@pytest.fixture(scope="session")
def gateway_url() -> Iterator[str]:
    """The real gateway in its own process, over HTTP on loopback."""
    with running("scrabble.gateway.app:app") as url:
        yield url
