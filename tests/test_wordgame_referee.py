"""The in-process referee: what the player sees, discards, the final clamp,
illegal and unparsable replies, the time limit and the end of the game."""

from __future__ import annotations

import dataclasses
import time

import pytest

from scrabble.wordgame import cases
from scrabble.wordgame.referee import GameSetup, Referee, TurnView, play_in_process
from tests.wordgame_boards import SIZE

WORDS = {"AT", "TA", "CAT", "ACT", "TAT"}
PROBS = cases.letter_probabilities(["CAT"])


def case_with(tiles: str, t: int = 5, x: int = 2, d: int = 3) -> cases.Case:
    tiles = (tiles * SIZE * SIZE)[: SIZE * SIZE]
    return cases.Case(
        id="wg-test",
        seed=0,
        n=SIZE,
        t=t,
        x=x,
        d=d,
        premiums=tuple("." * SIZE for _ in range(SIZE)),
        tiles=tiles,
        lexicon="enable",
        probabilities=PROBS,
    )


def reachable(obj: object, seen: set[int] | None = None) -> list[object]:
    """Every value reachable from a view through its fields and containers."""
    seen = seen if seen is not None else set()
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    out = [obj]
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            out += reachable(getattr(obj, f.name), seen)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out += reachable(k, seen) + reachable(v, seen)
    elif isinstance(obj, list | tuple | set):
        for v in obj:
            out += reachable(v, seen)
    return out


def test_player_sees_hand_next_x_and_nothing_of_the_queue():
    case = case_with("CATXYZWQ")
    ref = Referee(case, WORDS.__contains__)
    setup, view = ref.setup(), ref.turn(0)
    assert isinstance(setup, GameSetup) and isinstance(view, TurnView)
    assert view.hand == case.tiles[:5] and view.visible == case.tiles[5:7]
    assert view.queue_left == SIZE * SIZE - 5
    values = reachable(setup) + reachable(view)
    assert not any(v is case or v is case.tiles or v is ref for v in values)
    # nothing reachable spells more of the queue than the hand and the visible tiles
    texts = [v for v in values if isinstance(v, str)]
    assert not any(case.tiles[:8] in s for s in texts)
    assert not hasattr(view, "__dict__") or set(vars(view)) == {
        "elapsed_ms",
        "score",
        "queue_left",
        "hand",
        "visible",
    }


def test_discard_costs_d_and_refills_from_the_queue():
    case = case_with("CATXYZWQRS", d=3)
    ref = Referee(case, WORDS.__contains__)
    ref.apply("DISCARD CA")
    view = ref.turn(0)
    assert view.score == -3
    assert view.hand == "TXY" + case.tiles[5:7]
    assert view.visible == case.tiles[7:9]


def test_final_score_is_clamped_at_zero():
    ref = Referee(case_with("CATXY"), WORDS.__contains__)
    ref.apply("DISCARD XY")
    ref.apply("STOP")
    out = ref.outcome()
    assert out.raw_score == -3 and out.score == 0 and out.failure is None


def test_plays_score_and_illegal_action_scores_zero():
    ref = Referee(case_with("CATXY"), WORDS.__contains__)
    ref.apply("PLAY 4 4 H CAT")
    assert ref.turn(0).score == 5 and ref.board_rows[4] == "....CAT..."
    ref.apply("PLAY 0 0 H AT")  # not through a board tile
    out = ref.outcome()
    assert out.score == 0 and "illegal play" in out.failure and out.raw_score == 5


def test_unparsable_or_bad_discard_scores_zero():
    for reply in ("play 4 4 H CAT", "PLAY 4 4 H  CAT", "DISCARD", "PASS", "DISCARD QQ"):
        ref = Referee(case_with("CATXY"), WORDS.__contains__)
        ref.apply(reply)
        assert ref.outcome().score == 0 and ref.outcome().failure


def test_game_ends_when_hand_and_queue_are_empty():
    ref = Referee(case_with("XYZWQ", d=0), WORDS.__contains__)
    turns = 0
    while not ref.over:
        ref.apply("DISCARD " + ref.turn(0).hand)
        turns += 1
    assert turns == SIZE * SIZE // 5 and ref.outcome().discards == turns
    assert ref.outcome().score == 0 and ref.outcome().failure is None


class _Slow:
    def start(self, setup: GameSetup) -> None:
        pass

    def act(self, turn: TurnView) -> str:
        time.sleep(0.03)
        return "DISCARD " + turn.hand


class _Crash(_Slow):
    def act(self, turn: TurnView) -> str:
        raise RuntimeError("boom")


def test_time_limit_ends_the_case_with_zero():
    case = case_with("XYZWQ", d=0)
    out = play_in_process(case, _Slow(), WORDS.__contains__, time_limit_ms=50)
    assert out.score == 0 and "time limit" in out.failure and out.elapsed_ms > 50
    ok = play_in_process(case_with("CATXY", d=0), _Slow(), WORDS.__contains__, time_limit_ms=60_000)
    assert ok.failure is None


def test_crash_scores_zero():
    out = play_in_process(case_with("CATXY"), _Crash(), WORDS.__contains__)
    assert out.score == 0 and "crashed" in out.failure


def test_a_starting_board_is_the_board_the_first_play_must_go_through():
    start = ["." * SIZE for _ in range(SIZE)]
    start[4] = "....A....."
    ref = Referee(case_with("CTXYZ"), WORDS.__contains__, start)
    assert ref.board_rows[4] == "....A....."
    ref.apply("PLAY 4 3 H CAT")  # through the placed A; the hand lays C and T only
    assert ref.turn(0).score == 5 and ref.turn(0).hand == "XYZCT"  # two tiles used, two drawn
    assert ref.board_rows[4] == "...CAT...."
    away = Referee(case_with("CATXY"), WORDS.__contains__, start)
    away.apply("PLAY 0 0 H AT")  # a board is there: no longer a first move anywhere
    assert away.outcome().score == 0 and "illegal play" in away.outcome().failure
    for bad in (start[:-1], [*start[:-1], "....a....."], [*start[:-1], "." * (SIZE + 1)]):
        with pytest.raises(ValueError, match="starting board"):
            Referee(case_with("CAT"), WORDS.__contains__, bad)


def test_more_tiles_are_queued_after_the_cases_own():
    # the experiment behind `run --more-tiles`: the queue runs on past N^2 with
    # the extra letters, in order, and the game lasts until they are gone too
    case = case_with("XYZWQ", d=0)
    extra = cases.more_tiles(case, 0.5)
    assert len(extra) == SIZE * SIZE // 2 and set(extra) <= set("CAT")  # PROBS: C, A, T only
    assert extra == cases.more_tiles(case, 0.5)  # seeded by the case
    assert extra != cases.more_tiles(dataclasses.replace(case, seed=1), 0.5)
    ref = Referee(case, WORDS.__contains__, more_tiles=extra)
    assert ref.turn(0).queue_left == SIZE * SIZE + len(extra) - case.t
    discarded = ""
    while not ref.over:
        hand = ref.turn(0).hand
        discarded += hand
        ref.apply("DISCARD " + hand)
    assert discarded == case.tiles + extra
    with pytest.raises(ValueError, match="letters A-Z"):
        Referee(case, WORDS.__contains__, more_tiles="ab")


def test_a_play_records_the_word_multipliers_under_its_new_tiles():
    # row 4: D under the C, T under the T; a later play through the board's A
    # covers the t (a letter multiplier, not counted) and nothing else
    premiums = ["." * SIZE for _ in range(SIZE)]
    premiums[4] = "....D.T..."
    premiums[5] = ".....t...."
    premiums[7] = "T........."
    case = dataclasses.replace(case_with("CATAT", t=5), premiums=tuple(premiums))
    ref = Referee(case, WORDS.__contains__)
    ref.apply("PLAY 4 4 H CAT")  # C on D, A plain, T on T
    ref.apply("PLAY 4 5 V AT")  # through the board's A: the T on row 5's t
    ref.apply("STOP")
    out = ref.outcome()
    first, second = out.plays
    assert (first.multipliers, first.product, first.score) == (2, 6, 5 * 6)
    assert (second.multipliers, second.product) == (0, 1)
    assert out.big_plays == 0 and out.big_points == 0  # a product of 6 is under 27
    assert out.play_points == first.score + second.score
    # the map holds three word multipliers: two under the first play, one never covered
    assert out.word_multipliers == 3 and out.word_squares == (0, 2, 1)


def test_a_play_over_three_triple_words_is_a_big_play():
    premiums = ["." * SIZE for _ in range(SIZE)]
    premiums[2] = "..TTT....."
    case = dataclasses.replace(case_with("CATXY", t=5), premiums=tuple(premiums))
    ref = Referee(case, WORDS.__contains__)
    ref.apply("PLAY 2 2 H CAT")
    ref.apply("STOP")
    out = ref.outcome()
    assert out.plays[0].product == 27 and out.plays[0].score == 5 * 27
    assert out.big_plays == 1 and out.word_squares == (3, 0, 0)
    assert out.big_points == out.play_points == 5 * 27
