"""Parsing positions: boards, racks, tile supply, unseen pool, CGP."""

from __future__ import annotations

import numpy as np
import pytest

from scrabble import cgp
from scrabble.position import PositionError, make_position, parse_board, parse_rack
from scrabble.tiles import BLANK
from tooling.golden import golden_cases

EMPTY = ["." * 15] * 15


def test_board_codes_and_blanks():
    rows = list(EMPTY)
    rows[7] = ".......Qi......"
    board = parse_board(rows)
    assert board.dtype == np.uint8 and board.shape == (225,)
    assert board[7 * 15 + 7] == 17 and board[7 * 15 + 8] == 9 + 32


@pytest.mark.parametrize(
    ("rows", "field", "text"),
    [
        (EMPTY[:14], "board", "15 rows"),
        (EMPTY[:5] + ["." * 16] + EMPTY[6:], "board[5]", "row 5 has 16"),
        (EMPTY[:1] + ["....é.........."] + EMPTY[2:], "board[1]", "column 4"),
        (EMPTY[:1] + ["....?.........."] + EMPTY[2:], "board[1]", "'?'"),
    ],
)
def test_bad_boards(rows, field, text):
    with pytest.raises(PositionError) as err:
        parse_board(rows)
    assert err.value.field == field and text in err.value.message


@pytest.mark.parametrize(
    ("rack", "text"), [("", "empty"), ("ABCDEFGH", "8 tiles"), ("ab", "upper case"), ("A-", "'-'")]
)
def test_bad_racks(rack, text):
    with pytest.raises(PositionError, match=text):
        parse_rack(rack)


def test_unseen_pool_is_set_minus_board_minus_rack():
    rows = list(EMPTY)
    rows[7] = "....QUIz......."
    position = make_position(rows, "AEEZ??"[:5])
    unseen = position.unseen()
    assert unseen.sum() == 100 - 4 - 5
    assert unseen[ord("Q") - 65] == 0
    assert unseen[ord("Z") - 65] == 0  # one Z on the rack, the z on the board is a blank
    assert unseen[BLANK] == 0  # one blank on the board, one on the rack
    assert unseen[ord("E") - 65] == 10


def test_too_many_tiles():
    rows = list(EMPTY)
    rows[0] = "QQ............."
    with pytest.raises(PositionError, match="2 Q tiles"):
        make_position(rows, "A")


def test_cgp_round_trip():
    text = "15/15/15/15/15/15/15/3FRANc7/15/15/15/15/15/15/15 CDGILOS/AEEIMTW 0/28 0 lex sowpods;"
    parsed = cgp.parse(text)
    assert parsed.rows[7] == "...FRANc......."
    assert (parsed.rack, parsed.opponent_rack, parsed.scores) == ("CDGILOS", "AEEIMTW", (0, 28))
    assert parsed.opcodes == {"lex": "sowpods"}
    assert (
        cgp.format_cgp(
            parsed.rows,
            parsed.rack,
            "sowpods",
            parsed.opponent_rack,
            parsed.scores,
            parsed.zero_turns,
        )
        == text
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("15/15 A/", "2 rows"),
        ("15/" * 14 + "14 A/", "row 14 has 14"),
        ("15/" * 14 + "1#13 A/", "'#'"),
        ("15/" * 14 + "15", "expected"),
    ],
)
def test_bad_cgp(text, words):
    with pytest.raises(PositionError, match=words):
        cgp.parse(text)


def test_rows_and_counts_agree_with_the_cells():
    for p, _ in golden_cases():
        position = make_position(p["board"], p["rack"])
        assert position.rows() == p["board"], p["id"]
        want = [0] * 27
        for row in p["board"]:
            for ch in row:
                if ch.isupper():
                    want[ord(ch) - 65] += 1
                elif ch.islower():
                    want[26] += 1
        assert position.board_counts().tolist() == want, p["id"]
