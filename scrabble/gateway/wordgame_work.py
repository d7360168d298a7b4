"""The CPU work of ``POST /wordgame/turn``, run by a heavy compute process like
every search (``compute``): the accepting process validated the state
(``TurnRequest``) and chose the lexicon; a ``TurnTask`` carries both across the
pipe and ``turn_answer`` writes the JSON."""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import orjson

from scrabble.gateway.wordgame_replay import letter_shares
from scrabble.http_errors import SERVER_ERROR
from scrabble.lexicon.loaded import Lexicon
from scrabble.rules import STANDARD_VALUES
from scrabble.tiles import ALPHABET
from scrabble.wordgame.actions import Discard, Play, Stop
from scrabble.wordgame.players.choice import Action, Choice
from scrabble.wordgame.players.registry import make_player
from scrabble.wordgame.referee import GameSetup, TurnView, board_codes
from scrabble.wordgame.rules import MIN_HAND
from scrabble.wordgame.window import Window

if TYPE_CHECKING:
    from scrabble.gateway.wordgame import TurnRequest

_log = logging.getLogger("gateway.compute")
# share of lines and plays searched for an API answer: bounded time, fixed result
API_EFFORT = "0.3"


@dataclass(frozen=True)
class TurnTask:
    body: TurnRequest
    lexicon: str  # the served lexicon's key
    started: float  # time.perf_counter() when the request arrived


def _probabilities(lexicon: Lexicon) -> tuple[float, ...]:
    share = letter_shares(lexicon)
    return tuple(share[ch] for ch in ALPHABET)


def _action_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Play):
        return {
            "type": "play",
            "row": action.row,
            "col": action.col,
            "direction": "H" if action.horizontal else "V",
            "word": action.word,
            "line": action.line(),
        }
    if isinstance(action, Discard):
        return {"type": "discard", "letters": action.letters, "line": action.line()}
    assert isinstance(action, Stop)
    return {"type": "stop", "line": action.line()}


def _points(value: float) -> float:
    """Points to 0.001 for JSON; + 0.0 turns a -0.0 (a discard at D = 0) into 0.0."""
    return round(float(value), 3) + 0.0


def _terms(terms: dict[str, float]) -> dict[str, float]:
    return {name: _points(v) for name, v in terms.items() if v}


def turn_answer(lexicon: Lexicon, task: TurnTask) -> tuple[int, bytes]:
    """(status, JSON body) for a validated state; never raises."""
    body = task.body
    try:
        setup = GameSetup(
            n=len(body.premiums),
            t=int(body.hand_size or MIN_HAND),
            x=len(body.visible),
            d=body.discard_cost,
            premiums=tuple(body.premiums),
            letter_values=tuple(STANDARD_VALUES[ch] for ch in ALPHABET),
            probabilities=_probabilities(lexicon),
            lexicon=lexicon.info.name,
        )
        settings = {} if body.player == "greedy" else {"fixed_share": API_EFFORT}
        player = make_player(body.player, lexicon, fixed_effort=True, settings=settings)
        player.start(setup)
        player.set_board(board_codes(body.board))  # type: ignore[attr-defined]
        view = TurnView(
            elapsed_ms=body.elapsed_ms,
            score=body.score,
            queue_left=body.tiles_left,
            hand=body.hand,
            visible=body.visible,
        )
        choice: Choice = player.decide(view)  # type: ignore[attr-defined]
        target = getattr(player, "target", None)
        window = None if target is None else Window.of_slot(target, body.premiums)
        answer: dict[str, Any] = {
            "player": body.player,
            "lexicon": lexicon.info.name,
            "action": _action_json(choice.action),
            "value": _points(choice.value),
            "terms": _terms(choice.terms),
            "alternatives": [
                {"action": _action_json(a), "value": _points(v), "terms": _terms(t)}
                for a, v, t in choice.alternatives[: body.alternatives]
            ],
            "target": None if window is None else asdict(window),  # its fields, as TargetOut
            "timing_ms": round((time.perf_counter() - task.started) * 1000, 1),
        }
        return 200, orjson.dumps(answer)
    except Exception:
        _log.exception("the WordGame turn %s failed", body)
        return 500, orjson.dumps(SERVER_ERROR)
