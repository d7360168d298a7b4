"""The last tiles: once every tile to come is visible, the rest is a search.

Each case is played by ``greedy`` through the real referee up to the first
turn whose queue left is all visible. From there the search's best sequence is
replayed through the referee (which judges and scores each play itself): what
the referee counts is what the search said, and it is never below what
greedy goes on to score from the same turn.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace
from typing import cast

import pytest

from scrabble.engines.trie_engine import TrieEngine
from scrabble.lexicon.loaded import Lexicon
from scrabble.position import parse_board
from scrabble.rules import STANDARD_VALUES
from scrabble.wordgame import cases
from scrabble.wordgame.actions import Play
from scrabble.wordgame.judge import judge_play
from scrabble.wordgame.last_tiles import LastTiles, hand_counts
from scrabble.wordgame.players.greedy import GreedyPlayer
from scrabble.wordgame.players.planner import PlannerConfig, PlannerPlayer
from scrabble.wordgame.referee import Referee, TurnView

# small boards (n <= 12) whose greedy game reaches the last tiles with plays left
SEEDS = (21, 43, 57)
SEARCH_BEATS_GREEDY = (21, 57)


def at_last_tiles(enable, seed: int) -> tuple[Referee, GreedyPlayer, TurnView]:
    case = cases.generate(seed, cases.letter_probabilities(enable.words))
    referee = Referee(case, enable.contains)
    greedy = GreedyPlayer(enable)
    greedy.start(referee.setup())
    while not referee.over:
        turn = referee.turn(0)
        if turn.queue_left <= case.x:
            return referee, greedy, turn
        referee.apply(greedy.act(turn))
    raise AssertionError(f"seed {seed} ended before its last tiles")


def points(referee: Referee, replies: list[str]) -> int:
    """What the referee adds to the score for these replies."""
    before = referee.turn(0).score
    for reply in replies:
        referee.apply(reply)
    return referee.turn(0).score - before


def greedy_rest(referee: Referee, greedy: GreedyPlayer) -> int:
    referee, greedy = copy.deepcopy(referee), copy.deepcopy(greedy)
    before = referee.turn(0).score
    while not referee.over:
        referee.apply(greedy.act(referee.turn(0)))
    return referee.turn(0).score - before


@pytest.mark.parametrize("seed", SEEDS)
def test_the_searched_sequence_scores_what_it_says_and_at_least_greedy(enable, seed) -> None:
    referee, greedy, turn = at_last_tiles(enable, seed)
    search = LastTiles(greedy.engine, greedy.own.rules, turn.visible[: turn.queue_left])
    hand = hand_counts(turn.hand)

    value, _, first = search.best_play(greedy.own.board, hand)
    line = search.principal(greedy.own.board, hand)

    assert first >= 0 and line
    replay = copy.deepcopy(referee)
    assert points(replay, [p.line() for p in line]) == value
    assert not replay.over  # every play was legal: a failure ends the case
    rest = greedy_rest(referee, greedy)
    assert value >= rest
    if seed in SEARCH_BEATS_GREEDY:
        assert value > rest


# seed 162 (10 x 10, T 6, X 4, D 1) at turn 43 of the planner's own game: the
# planner without the search plays BE for 8 here, with BECKONED in hand
SEED_162_TURN_43 = [
    "AEON...O..",
    "A.HEEHAWS.",
    "...V.AA.AR",
    "A.PE.ES.U.",
    "CHIRKS.ACT",
    "TEN...T.E.",
    "AD.FAKEERS",
    ".G..DAL.SO",
    ".E..ONE..D",
    ".R...ES.PA",
]
TURN_43 = TurnView(elapsed_ms=0, score=2709, queue_left=3, hand="RCDTKB", visible="URN")


def judged(enable, case, rows: list[str], hand: str, queue: str, plays: list[Play]) -> int:
    """The points of these plays by the referee's judge, each refilling the
    hand from the known queue."""
    board = [list(row) for row in rows]
    tiles, rest, total = list(hand), list(queue), 0
    for play in plays:
        judgement = judge_play(
            board, case.premiums, dict(STANDARD_VALUES), play, Counter(tiles), enable.contains
        )
        for r, c, letter in judgement.tiles:
            board[r][c] = letter
            tiles.remove(letter)
        total += judgement.score
        while len(tiles) < case.t and rest:
            tiles.append(rest.pop(0))
    return total


def with_search_after(player: PlannerPlayer, case, first: Play) -> list[Play]:
    """``first``, then the search's best sequence from the position it leaves."""
    n = case.n
    rows = [list(row) for row in SEED_162_TURN_43]
    hand = list(TURN_43.hand)
    for k, ch in enumerate(first.word):
        r, c = (first.row, first.col + k) if first.horizontal else (first.row + k, first.col)
        if rows[r][c] == ".":
            rows[r][c] = ch
            hand.remove(ch)
    used = case.t - len(hand)
    hand += TURN_43.visible[:used]
    board = parse_board(["".join(row) for row in rows], player.kit.rules)
    assert board.shape == (n * n,)
    search = LastTiles(TrieEngine(enable_lexicon(player)), player.kit.rules, TURN_43.visible[used:])
    return [first, *search.principal(board, hand_counts("".join(hand)))]


def enable_lexicon(player: PlannerPlayer) -> Lexicon:
    return cast(Lexicon, player.lexicon)


@pytest.mark.parametrize("last_tiles", [True, False])
def test_the_planner_with_the_search_makes_the_best_sequence(enable, last_tiles) -> None:
    case = cases.generate(162, cases.letter_probabilities(enable.words))
    planner = PlannerPlayer(enable, True, PlannerConfig(fixed_share=0.3, last_tiles=last_tiles))
    planner.start(Referee(case, enable.contains).setup())
    planner.set_board(parse_board(SEED_162_TURN_43, planner.kit.rules))
    search = LastTiles(TrieEngine(enable_lexicon(planner)), planner.kit.rules, TURN_43.visible)
    best, _, _ = search.best_play(planner.board, hand_counts(TURN_43.hand))

    choice = planner.decide(TURN_43)

    assert isinstance(choice.action, Play)
    line = with_search_after(planner, case, choice.action)
    total = judged(enable, case, SEED_162_TURN_43, TURN_43.hand, TURN_43.visible, line)
    if last_tiles:
        assert total == best
        assert choice.value == best
        # the alternatives are valued by the same count, so none is above it
        assert choice.alternatives
        for _, value, terms in choice.alternatives:
            assert value <= choice.value
            assert value == sum(terms.values())
    else:
        assert total < best  # what the search is for


def test_the_clock_s_lean_mode_searches_too_and_panic_does_not(enable) -> None:
    case = cases.generate(162, cases.letter_probabilities(enable.words))
    counts = {}
    for share in (0.9, 1.05):  # past LEAN (0.85) and past the budget
        planner = PlannerPlayer(enable, False, PlannerConfig())
        planner.start(Referee(case, enable.contains).setup())
        planner.set_board(parse_board(SEED_162_TURN_43, planner.kit.rules))
        elapsed = round(share * planner.config.budget_ms)
        choice = planner.decide(replace(TURN_43, elapsed_ms=elapsed))
        assert isinstance(choice.action, Play)
        counts[share] = planner.stats().get("last_tiles", 0)
        if share < 1:
            assert choice.value == sum(choice.terms.values())
            assert set(choice.terms) == {"score", "last_tiles"}
    assert counts == {0.9: 1, 1.05: 0}
