"""Helpers for the WordGame tests: small boards, premium maps and lexicons."""

from __future__ import annotations

from scrabble.engines.trie_engine import TrieEngine
from scrabble.lexicon.loaded import Lexicon
from scrabble.notation import move_at
from scrabble.position import Position, parse_board
from scrabble.rules import Rules
from scrabble.tiles import rack_counts
from scrabble.wordgame import cases
from scrabble.wordgame.lexicons import PlayerLexicon
from scrabble.wordgame.players.greedy import GreedyPlayer
from scrabble.wordgame.players.prospect import ProspectConfig, ProspectPlayer
from scrabble.wordgame.referee import Referee
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


def mid_game(seed: int, lexicon: PlayerLexicon, turns: int) -> tuple[cases.Case, ProspectPlayer]:
    """Case ``seed`` after greedy's first ``turns`` turns, and a prospect
    player (fixed effort) set up on that board: real rows on a real board."""
    case = cases.generate(seed, cases.letter_probabilities(lexicon.words))
    referee = Referee(case, lexicon.contains)
    greedy = GreedyPlayer(lexicon)
    greedy.start(referee.setup())
    for _ in range(turns):
        referee.apply(greedy.act(referee.turn(0)))
    player = ProspectPlayer(lexicon, True, ProspectConfig())
    player.start(referee.setup())
    assert greedy.own is not None
    player.set_board(greedy.own.board)
    return case, player
