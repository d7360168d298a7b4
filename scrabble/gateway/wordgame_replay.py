"""The work of ``POST /wordgame/game``: a seeded case replayed through the
referee with the actions sent so far, and the state a player sees after them.

Stateless: the client keeps the seed and its list of actions and sends them
all each time (at most N^2 + 1, each judged in microseconds), so the gateway
holds no game and an undo is the list less its last line. The referee is the
one ``run`` and ``play`` are judged by (``wordgame.referee``); the case is the
contract's generator's (``wordgame.cases``), with the lexicon's published
letter probabilities. An action the referee refuses is a 422 naming it
(``actions[k]``) instead of a game ended at 0, so that a person can try again.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from scrabble.http_errors import SERVER_ERROR, field_error
from scrabble.lexicon.loaded import Lexicon
from scrabble.wordgame.actions import ActionError, parse_action
from scrabble.wordgame.cases import Case, generate, letter_probabilities
from scrabble.wordgame.referee import Referee

if TYPE_CHECKING:
    from scrabble.gateway.wordgame_game import GameRequest

_log = logging.getLogger("gateway.compute")
_PROBABILITIES: dict[str, dict[str, float]] = {}


@dataclass(frozen=True)
class GameTask:
    body: GameRequest
    lexicon: str  # the served lexicon's key
    started: float  # time.perf_counter() when the request arrived


def letter_shares(lexicon: Lexicon) -> dict[str, float]:
    """Each letter's published probability: its share of the lexicon's letters
    (computed once a lexicon, for the cases here and the player's turns)."""
    name = lexicon.info.name
    if name not in _PROBABILITIES:
        _PROBABILITIES[name] = letter_probabilities(lexicon.words)
    return _PROBABILITIES[name]


def seeded_case(lexicon: Lexicon, seed: int) -> Case:
    """The contract's case for the seed, drawn with the lexicon's letter shares."""
    return generate(seed, letter_shares(lexicon), lexicon.info.name)


def _refused(index: int, message: str) -> tuple[int, bytes]:
    return 422, orjson.dumps(field_error(f"actions[{index}]", message))


def game_answer(lexicon: Lexicon, task: GameTask) -> tuple[int, bytes]:
    """(status, JSON body) for a validated request; never raises."""
    body = task.body
    try:
        case = seeded_case(lexicon, body.seed)
        referee = Referee(case, lexicon.contains)
        turns: list[dict[str, Any]] = []
        for index, line in enumerate(body.actions):
            if referee.over:
                return _refused(index, "the game is over (after a STOP or the last tile)")
            try:
                action = parse_action(line)
            except ActionError as exc:
                return _refused(index, str(exc))
            before = referee.turn(0).score
            referee.apply(action.line())
            if referee.failure is not None:
                return _refused(index, referee.failure)
            after = referee.turn(0).score
            turns.append({"line": action.line(), "points": after - before, "score": after})
        view = referee.turn(0)
        answer = {
            "seed": body.seed,
            "id": case.id,
            "lexicon": case.lexicon,
            "n": case.n,
            "t": case.t,
            "x": case.x,
            "d": case.d,
            "premiums": list(case.premiums),
            "board": referee.board_rows,
            "hand": "" if referee.over else view.hand,
            "visible": "" if referee.over else view.visible,
            "tiles_left": view.queue_left,
            "score": view.score,
            "over": referee.over,
            "final_score": referee.outcome().score if referee.over else None,
            "turns": turns,
            "timing_ms": round((time.perf_counter() - task.started) * 1000, 1),
        }
        return 200, orjson.dumps(answer)
    except Exception:
        _log.exception("the WordGame replay %s failed", body)
        return 500, orjson.dumps(SERVER_ERROR)
