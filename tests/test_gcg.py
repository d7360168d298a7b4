"""GCG records: a self-played game written, read back and replayed; the
events of the format; errors that name the line."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scrabble import gcg
from scrabble.engines.trie_engine import TrieEngine
from scrabble.game import Game
from scrabble.players import make_player
from scrabble.tiles import EMPTY


@pytest.fixture(scope="module")
def game(lexicon) -> Game:
    """A whole static-equity game (exchanges and passes when it chooses them)."""
    player = make_player("static", TrieEngine(lexicon))
    played = Game.new(20)
    while not played.over:
        player(played)
    return played


def test_a_self_played_game_round_trips_through_gcg(game):
    record = gcg.record_of(game, ("ann", "bob"), "sowpods", title="round trip")
    text = gcg.format_gcg(record)
    assert text.startswith("#player1 ann ann\n#player2 bob bob\n#lexicon sowpods\n")
    back = gcg.parse(text)
    assert back.players == record.players and back.lexicon == "sowpods"
    assert back.pragmata == (("title", "round trip"),)
    # the same events, read from the lines that hold them
    assert [replace(e, line=0) for e in back.events] == list(record.events)
    assert gcg.format_gcg(back) == text
    turns = [e for e in back.events if e.kind in gcg.TURNS]
    assert len(turns) == len(game.history)
    for event, turn in zip(turns, game.history, strict=True):
        assert (event.player, event.rack, event.score, event.total) == (
            turn.player,
            turn.rack,
            turn.score,
            turn.total,
        )
    # replaying the record rebuilds the game's board, tile for tile
    assert np.array_equal(_replayed_board(back), game.board)
    # the tournament convention: the spread is the game's
    a, b = back.final_scores()
    assert a - b == game.spread


def _replayed_board(record: gcg.GameRecord) -> np.ndarray:
    board = None
    for snap in gcg.replay(record):
        board = snap.board.copy()
        for row, col, code in snap.placed:
            board[row * 15 + col] = code
    assert board is not None
    return board


def test_the_end_of_a_game_is_recorded_as_gcg_does(game):
    record = gcg.record_of(game, ("ann", "bob"), "sowpods")
    ends = [e for e in record.events if e.kind in (gcg.OUT_BONUS, gcg.RACK_PENALTY)]
    values = [game.rack_value(0), game.rack_value(1)]
    if game.out_player is not None:
        (end,) = ends
        assert end.kind == gcg.OUT_BONUS and end.player == game.out_player
        assert end.score == 2 * values[1 - game.out_player]
    else:
        assert sorted((e.player, e.score) for e in ends) == [(0, -values[0]), (1, -values[1])]


# A hand-written record with every kind of event line: a phony taken back, a
# challenge bonus, a pass, an exchange, a time penalty and the out bonus.
EVERY_EVENT = """#character-encoding UTF-8
#player1 cesar Cesar Del Solar
#player2 frentz Frentz
#lexicon NWL20
#title every event
#description a made-up game
>cesar: ?AACDER 8D CRAAlED +74 74
#note a bingo
#note on two lines
>frentz: DEENOSW E2 ENDOWE.S +74 74
>cesar: AABEIIW D4 AWA +28 102
>frentz: KNOO F2 NOOK +30 104
>frentz: KNOO -- -30 74
>cesar: BEGIIJX 9G XI +35 137
>cesar: ADDIPYZ (challenge) +5 142
>frentz: KNOO - +0 74
>cesar: ADDIPYZ -DDZ +0 142
>frentz: AEKNOOT (time) -10 64
>cesar:  (AEKNOOT) +18 160
"""


def test_every_event_line_of_the_format():
    record = gcg.parse(EVERY_EVENT)
    kinds = [e.kind for e in record.events]
    assert kinds == [
        gcg.PLAY, gcg.PLAY, gcg.PLAY, gcg.PLAY, gcg.WITHDRAWN, gcg.PLAY,
        gcg.CHALLENGE_BONUS, gcg.PASS, gcg.EXCHANGE, gcg.TIME_PENALTY, gcg.OUT_BONUS,
    ]  # fmt: skip
    assert record.players[0] == gcg.Player("cesar", "Cesar Del Solar")
    assert record.lexicon == "NWL20"
    assert record.events[0].note == "a bingo\non two lines"
    assert record.events[1].word == "ENDOWE.S" and record.events[1].position == "E2"
    assert record.events[8].exchanged == "DDZ"
    assert record.final_scores() == (160, 64)
    again = gcg.parse(gcg.format_gcg(record))
    assert [replace(e, line=0) for e in again.events] == [replace(e, line=0) for e in record.events]
    # NOOK was taken back: F2-F5 are empty again when XI is played
    snapshots = list(gcg.replay(record))
    xi = snapshots[5]
    assert xi.event.word == "XI"
    assert all(xi.board[r * 15 + 5] == EMPTY for r in range(1, 5))
    assert xi.zero_turns == 1


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("#player1 a A\n#player2 b B\n>a: QI 8H QI +22 22\n>b: AB 8H AB +10 11\n", 4,
         "does not follow: 0 \\+ 10 = 10"),
        ("#player1 a A\n#player2 b B\n>c: QI 8H QI +22 22\n", 3, "neither player"),
        ("#player1 a A\n#player2 b B\n>a: QI 8H QI 22 22\n", 3, "not a GCG event"),
        ("#player1 a A\n>a: QI 8H QI +22 22\n", 2, "#player1 and #player2"),
        ("#player1 a A\n#player2 b B\nhello\n", 3, "neither a pragma"),
        ("#player1 a A\n#player2 b B\n>a: QI 8P QI +22 22\n", 3, "runs off the board"),
        ("#player1 a A\n#player2 b B\n>a: AB 8H QI +22 22\n", 3, "does not hold"),
        ("#player1 a A\n#player2 b B\n>a: QI 8H .I +2 2\n", 3, "'.' at an empty square"),
        ("#player1 a A\n#player2 b B\n>a: QI 8H QI +22 22\n>b: AB -- -22 -22\n", 4,
         "by the same player"),
        ("#player1 a A\n#player2 b B\n>a: QI 8H QI +22 22\n>a: QI -- -20 2\n", 4,
         "the play scored 22"),
        ("#player1 a A\n#player2 a B\n", 1, "both players"),
    ],
)  # fmt: skip
def test_errors_name_the_line(text, line, words):
    with pytest.raises(gcg.GCGError, match=words) as caught:
        list(gcg.replay(gcg.parse(text)))
    assert caught.value.line == line, caught.value
