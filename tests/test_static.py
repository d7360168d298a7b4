"""The compiled best-move path against the full move list ranked in NumPy.

Static equity is worked out here from its definition (score x 1000 + the
value of the tiles kept, read by their counts; the opening's vowels beside a
double letter; the bag-empty adjustments) over every move the trie finds, and
the kernel's best N, pruned by shadow bounds or not, must be exactly those.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.static import RackValues, StaticEquity, choose, mixed_radix
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import COL, DIRECTION, LENGTH, ROW, leaves_of
from scrabble.position import Position, make_position, parse_board, parse_rack
from scrabble.rules import STANDARD_VALUES, Rules
from scrabble.tiles import ACROSS, LETTER_MASK, NEW_FLAG
from tooling.corpus import self_play_positions

VOWELS = set("AEIOU")


@pytest.fixture(scope="module")
def static(lexicon) -> StaticEquity:
    return StaticEquity.for_lexicon(lexicon)


def hotspot_vowels(position: Position, moves, i: int) -> int:
    """Vowels move i places beside (above or below its line) a double letter."""
    row, col, direction, length = (int(x) for x in moves.meta[i, [ROW, COL, DIRECTION, LENGTH]])
    n = position.rules.size
    count = 0
    for k in range(length):
        code = int(moves.words[i, k])
        if not code & NEW_FLAG or chr(64 + (code & LETTER_MASK)) not in VOWELS:
            continue
        r, c = (row, col + k) if direction == ACROSS else (row + k, col)
        beside = [(r - 1, c), (r + 1, c)] if direction == ACROSS else [(r, c - 1), (r, c + 1)]
        if any(0 <= a < n and 0 <= b < n and position.rules.premiums[a][b] == "d"
               for a, b in beside):  # fmt: skip
            count += 1
    return count


def reference(position: Position, trie: TrieEngine, worth: RackValues, penalty: int):
    """Every move, its static equity, and their fixed order."""
    moves = trie.generate(position)
    kept = leaves_of(position.rack, moves)
    equity = moves.scores.astype(np.int64) * 1000 + worth.values[kept @ worth.radix]
    if position.is_empty and penalty:
        equity += np.array([penalty * hotspot_vowels(position, moves, i)
                            for i in range(len(moves))], dtype=np.int64)  # fmt: skip
    return moves, equity, moves.order(None, primary=equity)


def rows(moves, order) -> list[tuple[int, ...]]:
    return [tuple(moves.meta[i].tolist()) + tuple(moves.words[i].tolist()) for i in order]


@pytest.mark.parametrize("top", [1, 5, 40])
@pytest.mark.parametrize("prune", [True, False])
def test_best_n_equals_the_full_list_on_self_played_positions(lexicon, trie, static, top, prune):
    samples = self_play_positions(lexicon, count=45, seed=31, one_blank=0.3, two_blanks=0.2)
    assert {s.blanks for s in samples} == {0, 1, 2}
    for s in samples:
        position = s.position
        worth = static.rack_values(position)
        moves, equity, order = reference(position, trie, worth, -700)
        best = static.best(position, lexicon.trie, top, worth, prune=prune)
        want = order[:top]
        assert best.equity.tolist() == equity[want].tolist(), (s.game, s.turn)
        assert rows(best.moves, range(len(best.moves))) == rows(moves, want), (s.game, s.turn)


def test_opening_vowels_beside_double_letters_cost_points(lexicon, trie, static):
    position = make_position(["." * 15] * 15, "AEINRST")
    worth = static.rack_values(position)
    moves, equity, order = reference(position, trie, worth, -700)
    best = static.best(position, lexicon.trie, 10, worth)
    assert best.equity.tolist() == equity[order[:10]].tolist()
    spots = [hotspot_vowels(position, moves, i) for i in range(len(moves))]
    assert max(spots) > 0 and min(spots) == 0  # the penalty really sorts openings


def test_bag_empty_adjustments(lexicon, static):
    # the endgame of the golden set's MAGPIE-style position: INR against OT
    rows_ = (
        "4RUMMAGED2C/7A6A/2H1G2T6V/2O1O2I6E/2WAB2PREBENDS/2ER3O3n3/2SI6COW2/3L2HUE2KANE/"
        "3LI3FILII2/J1TANGENT2T1Z1/A2TA5FA1OP/R2EN5Ok1OU/VILDE5YEX1D/I3R6SUQS/E13Y"
    )
    from scrabble import cgp

    parsed = cgp.parse(f"{rows_} INR/OT 440/448 0 lex sowpods;")
    position = make_position(parsed.rows, parsed.rack)
    assert position.bag_count == 0
    worth = static.rack_values(position)
    # going out: +2 x O (1) + T (1); keeping tiles: -(10 + 2 x their points)
    assert worth.of(np.zeros(27, dtype=np.int64)) == 4_000
    kept = np.zeros(27, dtype=np.int64)
    kept[ord("N") - 65] = 1
    assert worth.of(kept) == -(10_000 + 2 * 1_000)
    found = static.best(position, lexicon.trie, 1, worth)
    from scrabble.notation import move_at

    assert move_at(found.moves, 0).notation == "2K RIN"  # 8 + 4 beats 2F RI(A)'s 13 - 12


def test_choose_exchanges_a_hopeless_rack_and_plays_a_good_one(lexicon, static):
    from itertools import product

    hopeless = make_position(["." * 15] * 15, "QVVWWUU")
    choice = choose(static, hopeless, lexicon.trie)
    assert choice.kind == "exchange" and choice.keep is not None
    # the keep is the table's best among those that throw something back
    held = np.nonzero(hopeless.rack)[0]
    keeps = []
    for counts in product(*(range(int(hopeless.rack[t]) + 1) for t in held)):
        keep = np.zeros(27, dtype=np.int64)
        keep[held] = counts
        if keep.sum() < 7:
            keeps.append((static.table.value(keep), keep))
    best_value = max(v for v, _ in keeps)
    assert static.table.value(choice.keep) == best_value == choice.equity
    good = make_position(["." * 15] * 15, "AEINRST")
    assert choose(static, good, lexicon.trie).kind == "play"


SMALL = Rules(
    name="small",
    size=7,
    premiums=("T..d..T", ".D...D.", "..t.t..", "d..*..d", "..t.t..", ".D...D.", "T..d..T"),
    letter_values=STANDARD_VALUES,
    tile_counts={ch: 9 for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ?"},
    rack_size=5,
    bingo_bonus=35,
)
LETTERS = "AEINST"


@st.composite
def small_cases(draw):
    words = draw(st.sets(st.text(alphabet=LETTERS, min_size=2, max_size=6), min_size=3,
                         max_size=40))  # fmt: skip
    cells = draw(st.lists(st.sampled_from("......." + LETTERS), min_size=49, max_size=49))
    if draw(st.booleans()):
        cells = ["."] * 49
    board = ["".join(cells[r * 7 : (r + 1) * 7]) for r in range(7)]
    rack = "".join(draw(st.lists(st.sampled_from(LETTERS + "?"), min_size=1, max_size=5)))
    seed = draw(st.integers(0, 2**31))
    top = draw(st.sampled_from([1, 2, 5]))
    return sorted(words), board, rack, seed, top


@settings(max_examples=120, deadline=None, derandomize=True)
@given(small_cases())
def test_shadow_pruning_never_loses_a_move(case):
    """With random values for every keep (the bounds must hold for any leave
    table), pruning by shadow bounds keeps exactly what the full search keeps."""
    words, board, rack, seed, top = case
    lexicon = Lexicon.from_words(words)
    position = Position(parse_board(board, SMALL), parse_rack(rack, SMALL), SMALL)
    radix = mixed_radix(position.rack)
    combos = int(np.prod(position.rack.astype(np.int64) + 1))
    values = np.random.default_rng(seed).integers(-30_000, 30_000, combos)
    worth = RackValues(values.astype(np.int64), radix)
    static = StaticEquity.for_lexicon(lexicon, table=_linear_small())
    full = static.best(position, lexicon.trie, top, worth, prune=False)
    pruned = static.best(position, lexicon.trie, top, worth, prune=True)
    assert pruned.equity.tolist() == full.equity.tolist()
    assert rows(pruned.moves, range(len(pruned.moves))) == rows(full.moves, range(len(full.moves)))
    # and the full search is the definition: every move, ranked in NumPy
    moves = TrieEngine(lexicon).generate(position)
    if len(moves):
        kept = leaves_of(position.rack, moves)
        equity = moves.scores.astype(np.int64) * 1000 + values[kept @ radix]
        assert full.equity.tolist() == np.sort(equity)[::-1][:top].tolist()


def _linear_small():
    from scrabble.equity.leave_table import LeaveTable

    return LeaveTable.linear(SMALL.counts.astype(np.int64), SMALL.rack_size)
