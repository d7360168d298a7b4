"""The trie engine against the brute-force oracle on small boards and small
dictionaries (hypothesis), and on hand-scored plays on the full lexicon."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble.engines.trie_engine import TrieEngine
from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.trie import lowest_letter
from scrabble.notation import move_at
from scrabble.position import Position, make_position, parse_board, parse_rack
from scrabble.rules import STANDARD_VALUES, Rules
from tests.oracle import all_moves

SMALL = Rules(
    name="small",
    size=7,
    premiums=("T..d..T", ".D...D.", "..t.t..", "d..*..d", "..t.t..", ".D...D.", "T..d..T"),
    letter_values=STANDARD_VALUES,
    tile_counts={ch: 9 for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ?"},
    rack_size=5,
    bingo_bonus=35,
)
THROUGH = dataclasses.replace(SMALL, name="small-through", connection="through")
LETTERS = "AEINST"


@given(st.integers(min_value=1, max_value=(1 << 26) - 1))
def test_lowest_letter_is_the_index_of_the_lowest_letter_in_the_set(letters):
    # every trie walk takes a node's children in letter order through it
    assert lowest_letter(letters) == min(i for i in range(26) if letters >> i & 1)


def engine_moves(rows: list[str], rack: str, lexicon: Lexicon, rules: Rules) -> set:
    position = Position(board=parse_board(rows, rules), rack=parse_rack(rack, rules), rules=rules)
    moves = TrieEngine(lexicon).generate(position)
    keys = [move_at(moves, i).golden_key() for i in range(len(moves))]
    assert len(keys) == len(set(keys)), "a move is listed twice"
    return set(keys)


@st.composite
def small_positions(draw):
    words = draw(
        st.sets(st.text(alphabet=LETTERS, min_size=2, max_size=5), min_size=1, max_size=40)
    )
    cells = draw(
        st.lists(st.sampled_from("......" + LETTERS + LETTERS.lower()), min_size=49, max_size=49)
    )
    if draw(st.booleans()):
        cells = ["."] * 49  # an opening
    rows = ["".join(cells[r * 7 : (r + 1) * 7]) for r in range(7)]
    rack = "".join(draw(st.lists(st.sampled_from(LETTERS + "?"), min_size=1, max_size=5)))
    return sorted(words), rows, rack


@settings(max_examples=150, deadline=None, derandomize=True)
@given(small_positions())
def test_trie_engine_equals_brute_force(case):
    words, rows, rack = case
    lexicon = Lexicon.from_words(words)
    assert engine_moves(rows, rack, lexicon, SMALL) == all_moves(rows, rack, set(words), SMALL)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(small_positions())
def test_through_rule_equals_brute_force(case):
    """The WordGame connection rule: the main word must hold a board tile."""
    words, rows, rack = case
    lexicon = Lexicon.from_words(words)
    assert engine_moves(rows, rack, lexicon, THROUGH) == all_moves(rows, rack, set(words), THROUGH)


def empty_rows() -> list[str]:
    return ["." * 15 for _ in range(15)]


def with_word(rows: list[str], row: int, col: int, word: str, down: bool = False) -> list[str]:
    grid = [list(r) for r in rows]
    for k, ch in enumerate(word):
        r, c = (row + k, col) if down else (row, col + k)
        grid[r][c] = ch
    return ["".join(r) for r in grid]


def find(lexicon, rows, rack, notation):
    moves = TrieEngine(lexicon).generate(make_position(rows, rack))
    found = [move_at(moves, i) for i in range(len(moves))]
    matches = [m for m in found if m.notation == notation]
    assert matches, f"{notation} not generated"
    return matches


def test_opening_bingo_through_centre(lexicon):
    # RETAINS at 8B: R(1) E(1) T(1) A(1) I(1) N(1) S(1) on 8B..8H; 8D is a double
    # letter (T -> 2), 8H the centre double word: (7 + 1) x 2 + 50 = 66.
    (move,) = find(lexicon, empty_rows(), "AEINRST", "8B RETAINS")
    assert move.score == 66


def test_opening_listed_across_and_down(lexicon):
    find(lexicon, empty_rows(), "AEINRST", "8B RETAINS")
    # the down copy: row and column swapped, H2 down through the centre
    (down,) = find(lexicon, empty_rows(), "AEINRST", "H2 RETAINS")
    assert down.score == 66
    assert down.direction_name == "down"


def test_hook_scores_both_words(lexicon):
    rows = with_word(empty_rows(), 7, 6, "CAT")  # 8G..8I
    (move,) = find(lexicon, rows, "AHST", "J5 HATS")
    # HATS: H 4, A on the J6 triple letter 3, T 1, S 1 = 9; the hook CATS = 3+1+1+1 = 6
    assert move.score == 15


def test_play_through_two_board_tiles(lexicon):
    rows = with_word(empty_rows(), 6, 7, "BAD", down=True)  # A on 8H
    rows = with_word(rows, 6, 9, "HEN", down=True)  # E on 8J
    (move,) = find(lexicon, rows, "GRT", "8F GR(A)T(E)")
    assert move.score == 2 + 1 + 1 + 1 + 1  # no premium under G, R or T
    assert move.tiles == ((7, 5, "G"), (7, 6, "R"), (7, 8, "T"))


def test_blank_scores_zero_under_letter_premium(lexicon):
    # w on the 8D double letter scores 0; A T E R 1 each; the centre doubles: 8
    (move,) = find(lexicon, empty_rows(), "AERT?", "8D wATER")
    assert move.score == 8
    (real,) = find(lexicon, empty_rows(), "AERTW", "8D WATER")
    assert real.score == (4 * 2 + 4) * 2


def test_two_way_single_tile_listed_once_across(lexicon):
    rows = with_word(empty_rows(), 7, 7, "AT")  # 8H..8I
    rows = with_word(rows, 8, 7, "X")  # AX down in column H
    moves = TrieEngine(lexicon).generate(make_position(rows, "I"))
    found = [move_at(moves, i) for i in range(len(moves))]
    at_square = [m for m in found if m.tiles == ((8, 8, "I"),)]
    assert len(at_square) == 1
    (move,) = at_square
    # XI across (X 8 + I 1 on the 9I double letter = 10) and TI down (1 + 2 = 3)
    assert move.notation == "9H (X)I"
    assert move.score == 13


def _wide_rules(size: int, premiums: list[str]) -> Rules:
    return Rules(
        name=f"wide{size}",
        size=size,
        premiums=tuple(premiums),
        letter_values=STANDARD_VALUES,
        tile_counts={},
        rack_size=9,
        bingo_bonus=0,
        connection="through",
        opening="anywhere",
    )


@st.composite
def wide_positions(draw):
    """Boards up to 20 x 20 with random premiums, 9-tile racks, first move anywhere
    (the WordGame's shape): word length and rack size past the standard game's."""
    size = draw(st.integers(10, 20))
    premiums = [
        "".join(draw(st.lists(st.sampled_from("......dtDT"), min_size=size, max_size=size)))
        for _ in range(size)
    ]
    words = draw(
        st.sets(st.text(alphabet=LETTERS, min_size=2, max_size=5), min_size=1, max_size=25)
    )
    words |= draw(st.sets(st.text(alphabet=LETTERS, min_size=9, max_size=size), max_size=3))
    rows = ["." * size for _ in range(size)]
    if draw(st.booleans()):
        word = draw(st.sampled_from(sorted(words)))
        r = draw(st.integers(0, size - 1))
        c = draw(st.integers(0, size - len(word)))
        rows[r] = rows[r][:c] + word + rows[r][c + len(word) :]
    rack = "".join(draw(st.lists(st.sampled_from(LETTERS), min_size=1, max_size=9)))
    return sorted(words), rows, rack, _wide_rules(size, premiums)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(wide_positions())
def test_wide_boards_and_nine_tile_racks_equal_brute_force(case):
    words, rows, rack, rules = case
    lexicon = Lexicon.from_words(words)
    assert engine_moves(rows, rack, lexicon, rules) == all_moves(rows, rack, set(words), rules)
