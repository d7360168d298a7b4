"""Helpers for the WordGame tests: small boards, premium maps and lexicons."""

from __future__ import annotations

from scrabble.engines.trie_engine import TrieEngine
from scrabble.lexicon.loaded import Lexicon
from scrabble.notation import move_at
from scrabble.position import Position, parse_board
from scrabble.rules import Rules
from scrabble.tiles import rack_counts
from scrabble.wordgame.rules import wordgame_rules

SIZE = 10


def premiums_with(cells: dict[tuple[int, int], str], size: int = SIZE) -> list[str]:
    rows = [["."] * size for _ in range(size)]
    for (r, c), ch in cells.items():
        rows[r][c] = ch
    return ["".join(row) for row in rows]


def board_with(words: list[tuple[int, int, str, str]], size: int = SIZE) -> list[str]:
    """(row, col, 'H'|'V', word) placed on an empty board."""
    rows = [["."] * size for _ in range(size)]
    for r, c, d, word in words:
        for k, ch in enumerate(word):
            rr, cc = (r, c + k) if d == "H" else (r + k, c)
            rows[rr][cc] = ch
    return ["".join(row) for row in rows]


def engine_plays(
    rows: list[str], hand: str, lexicon: Lexicon, rules: Rules
) -> dict[tuple[int, int, str, str], int]:
    """The shared engine's plays as {(row, col, H|V, word): score}."""
    position = Position(board=parse_board(rows, rules), rack=rack_counts(hand), rules=rules)
    moves = TrieEngine(lexicon).generate(position)
    out = {}
    for i in range(len(moves)):
        m = move_at(moves, i)
        out[(m.row, m.col, "H" if m.direction == 0 else "V", m.word)] = m.score
    return out


def rules_for(premiums: list[str], hand_size: int = 9) -> Rules:
    return wordgame_rules(len(premiums), premiums, hand_size)
