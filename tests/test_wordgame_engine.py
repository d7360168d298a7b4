"""The engine under WordGame rules against the brute-force oracle and against
the referee's own judge, and the prospect search against both: on small
boards with random premium maps and hands of up to 9 tiles."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble.lexicon.loaded import Lexicon
from scrabble.rules import STANDARD_VALUES
from scrabble.wordgame.actions import Play
from scrabble.wordgame.judge import judge_play
from scrabble.wordgame.kit import NO_TABLE, reach_for
from scrabble.wordgame.lines import board_lines, multiplier_lines
from scrabble.wordgame.rules import wordgame_rules
from scrabble.wordgame.search import META_WIDTH, search
from tests.oracle import all_moves
from tests.wordgame_boards import engine_plays

LETTERS = "AEINRST"


@st.composite
def wordgame_positions(draw):
    size = 10
    premiums = [
        "".join(draw(st.lists(st.sampled_from("......dtDT"), min_size=size, max_size=size)))
        for _ in range(size)
    ]
    words = draw(
        st.sets(st.text(alphabet=LETTERS, min_size=2, max_size=5), min_size=3, max_size=25)
    )
    words |= draw(st.sets(st.text(alphabet=LETTERS, min_size=6, max_size=10), max_size=3))
    words = sorted(words)
    rows = ["." * size for _ in range(size)]
    for _ in range(draw(st.integers(0, 2))):
        word = draw(st.sampled_from(words))
        r = draw(st.integers(0, size - 1))
        c = draw(st.integers(0, size - len(word)))
        if draw(st.booleans()):
            rows[r] = rows[r][:c] + word + rows[r][c + len(word) :]
        else:
            rows = ["".join(row) for row in zip(*rows, strict=True)]
            rows[r] = rows[r][:c] + word + rows[r][c + len(word) :]
            rows = ["".join(row) for row in zip(*rows, strict=True)]
    hand = "".join(draw(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=9)))
    return words, rows, hand, premiums


def _judge(rows, premiums, key, hand, words):
    r, c, d, word = key
    return judge_play(
        rows,
        premiums,
        STANDARD_VALUES,
        Play(r, c, d == "H", word),
        Counter(hand),
        set(words).__contains__,
    )


def _search(rows, hand, lexicon, rules, wild):
    n = rules.size
    board = np.frombuffer("".join(rows).encode(), dtype=np.uint8).copy()
    board = np.where(board == ord("."), 0, board - 64).astype(np.uint8)
    values = rules.values
    bl = board_lines(board, n, lexicon, values)
    lm, wm = multiplier_lines(rules)
    have = np.zeros(26, dtype=np.int64)
    for ch in hand:
        have[ord(ch) - 65] += 1
    meta = np.empty((200000, META_WIDTH), dtype=np.int32)
    codes = np.empty((200000, n), dtype=np.uint8)
    counter = np.zeros(2, dtype=np.int64)
    search(
        bl.cells,
        bl.cmask,
        bl.cross,
        lm,
        wm,
        values,
        lexicon.trie.mask,
        lexicon.trie.first,
        reach_for(lexicon),
        have,
        np.zeros(26, dtype=np.int64),
        np.full((2, n), wild, dtype=np.int64),
        rules.rack_size,
        bl.empty,
        0,
        0,
        0,
        0,
        NO_TABLE,
        meta,
        codes,
        counter,
    )
    out = []
    for i in range(int(counter[0])):
        d, line, s, ln = (int(x) for x in meta[i, :4])
        word = "".join(chr(64 + (int(x) & 31)) for x in codes[i, :ln])
        missing = "".join(chr(64 + (int(x) & 31)) for x in codes[i, :ln] if x & 128)
        r, c = (line, s) if d == 0 else (s, line)
        out.append(((r, c, "H" if d == 0 else "V", word), int(meta[i, 6]), missing))
    return out


@settings(max_examples=50, deadline=None, derandomize=True)
@given(wordgame_positions())
def test_engine_equals_oracle_and_judge_agrees(case):
    words, rows, hand, premiums = case
    rules = wordgame_rules(10, premiums, 9)
    lexicon = Lexicon.from_words(words)
    plays = engine_plays(rows, hand, lexicon, rules)
    oracle = {
        (r, c, d, w.upper()): s for r, c, d, w, _, s in all_moves(rows, hand, set(words), rules)
    }
    assert plays == oracle
    for key, score in plays.items():
        assert _judge(rows, premiums, key, hand, words).score == score


@settings(max_examples=40, deadline=None, derandomize=True)
@given(wordgame_positions())
def test_prospect_search_plays_and_prospects_are_legal(case):
    words, rows, hand, premiums = case
    rules = wordgame_rules(10, premiums, 9)
    lexicon = Lexicon.from_words(words)
    legal = {key: score for key, score, missing in _search(rows, hand, lexicon, rules, 0)}
    assert legal == engine_plays(rows, hand, lexicon, rules)
    for key, score, missing in _search(rows, hand, lexicon, rules, 2):
        assert len(missing) <= 2
        # with the missing letters in hand it is a legal play scoring the same
        assert _judge(rows, premiums, key, hand + missing, words).score == score
        if not missing:
            assert legal[key] == score
