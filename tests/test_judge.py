"""The move judge: the engines' placements are exactly the legal ones, the
rules name why any other is refused, and the rules' own scorer agrees with
the engines' on every legal move."""

from __future__ import annotations

import random
import re

import pytest

from scrabble.judge import judge
from scrabble.moves import SCORE
from scrabble.notation import NotationError, coordinate, move_at, parse_move
from scrabble.position import make_position
from tooling.golden import golden_positions

EMPTY = ["." * 15] * 15
QI = EMPTY[:7] + [".......QI......"] + EMPTY[8:]  # QI at 8H, across


def verdict(trie, lexicon, rows, rack, text):
    position = make_position(rows, rack)
    moves = trie.generate(position)
    return judge(position, lexicon, moves, parse_move(text)), moves


def test_every_generated_move_is_legal_with_the_engines_score(trie, lexicon):
    positions = golden_positions()[::4]  # 10 positions: openings to endgames, blanks
    checked = 0
    for p in positions:
        position = make_position(p["board"], p["rack"])
        moves = trie.generate(position)
        for i in range(0, len(moves), 11):
            move = move_at(moves, i)
            found = judge(position, lexicon, moves, parse_move(move.notation))
            assert found.legal and found.index == i, (p["id"], move.notation, found)
            assert found.score == int(moves.meta[i, SCORE]), (p["id"], move.notation)
            assert found.notation == move.notation
            checked += 1
    assert checked > 500


def test_random_placements_are_legal_exactly_when_generated(trie, lexicon):
    """Seeded random placements near the tiles: legal iff the engine has them,
    and every refusal names a rule (never "not generated")."""
    rng = random.Random(5)
    rules_seen = set()
    legal = 0
    for p in golden_positions()[5::6]:
        position = make_position(p["board"], p["rack"])
        moves = trie.generate(position)
        notations = {move_at(moves, i).notation for i in range(len(moves))}
        for _ in range(150):
            row, col, direction = rng.randrange(15), rng.randrange(15), rng.randrange(2)
            letters = []
            for k in range(rng.randrange(1, 8)):
                r, c = (row, col + k) if direction == 0 else (row + k, col)
                held = p["board"][r][c] if r < 15 and c < 15 else "."
                if held != ".":
                    letters.append(f"({held})")
                else:
                    tile = rng.choice(p["rack"] + "ES")
                    letters.append(rng.choice("aeist") if tile == "?" else tile)
            text = f"{coordinate(row, col, direction)} {''.join(letters).replace(')(', '')}"
            found = judge(position, lexicon, moves, parse_move(text))
            assert found.rule != "not_generated", (p["id"], text)
            assert found.legal == (found.notation in notations if found.legal else False)
            legal += found.legal
            rules_seen.add(found.rule)
    assert legal > 0
    assert {"not_on_rack", "off_board", "not_connected", "not_a_word"} <= rules_seen


@pytest.mark.parametrize(
    ("rows", "rack", "move", "rule", "words"),
    [
        (EMPTY, "QZ", "8H QZ", "not_a_word", "not a word: QZ"),
        (QI, "AX", "9G AX", "cross_word", "QX at H8"),
        (QI, "EI", "9G ZE", "not_on_rack", "places 1 Z, the rack EI holds 0"),
        (QI, "E?", "9G EE", "not_on_rack", "lower case"),
        (QI, "EE", "9G Ee", "not_on_rack", "blank"),
        (QI, "AB", "1A AB", "not_connected", "neither touches"),
        (EMPTY, "AB", "1A AB", "start_square", "start square H8"),
        (EMPTY, "ABC", "8N ABC", "off_board", "off the board"),
        (QI, "AB", "8H AB", "occupied", "H8 already holds Q"),
        (QI, "AB", "8G (X)I", "not_on_board", "G8 is empty"),
        (QI, "AB", "H8 (A)B", "not_on_board", "holds Q, not A"),
        (QI, "AB", "8F AB", "word_continues", "the whole word there is ABQI"),
        (QI, "AB", "8H (QI)", "no_tiles", "places no tile"),
        (EMPTY, "A", "8H A", "too_short", "2 or more letters"),
    ],
)
def test_each_rule_is_named(trie, lexicon, rows, rack, move, rule, words):
    found, _ = verdict(trie, lexicon, rows, rack, move)
    assert not found.legal
    assert found.rule == rule and words in found.reason, found


def test_a_phony_is_scored_as_it_would_have_scored(trie, lexicon):
    found, _ = verdict(trie, lexicon, EMPTY, "QZ", "8H QZ")
    assert found.score == 2 * (10 + 10)  # the start square doubles the word


def test_a_single_tile_is_judged_the_way_it_reads(trie, lexicon):
    # S hooked under Q would read QS down; under I it reads IS down, and
    # written across from its own square it is the same one-tile play
    down, moves = verdict(trie, lexicon, QI, "S", "I8 (I)S")
    across, _ = verdict(trie, lexicon, QI, "S", "9I S")
    assert down.legal and across.legal and down.index == across.index
    assert down.notation == "I8 (I)S" and down.score == 1 + 1 * 2  # S on a double letter


def test_exchanges_and_pass(trie, lexicon):
    found, _ = verdict(trie, lexicon, EMPTY, "AEINRST", "-AE")
    assert found.legal and found.kind == "exchange" and found.notation == "-AE"
    found, _ = verdict(trie, lexicon, EMPTY, "AEINRST", "-Q")
    assert found.rule == "not_on_rack" and "1 Q" in found.reason
    endgame = golden_positions()[37]  # 93 tiles on the board: the bag is empty
    found, _ = verdict(trie, lexicon, endgame["board"], endgame["rack"], "-A")
    assert found.rule == "bag_too_small" and "holds 0 tiles" in found.reason
    found, _ = verdict(trie, lexicon, endgame["board"], endgame["rack"], "-")
    assert found.legal and found.kind == "pass" and found.score == 0


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("8H", "expected '<coordinate> <word>'"),
        ("88 QI", "not a coordinate"),
        ("8H Q#", "'#' is not a letter"),
        ("8H Q(I", "'(' is not a letter"),
        ("-7", "not their count"),
        ("-ab", "an exchange is"),
        ("8H " + "A" * 70, "at most 64"),
    ],
)
def test_notation_errors(text, words):
    with pytest.raises(NotationError, match=re.escape(words)):
        parse_move(text)
