"""Fit leave values from score-greedy self-play: what a kept tile is worth next turn.

For every turn of a greedy game (bag still holding a full rack, so the player
will refill), record the tiles kept and the score the same player makes on
their next turn. Least squares of that score on leave features gives, per
feature, the points it adds next turn compared with drawing a fresh tile
instead (the intercept absorbs the average turn). The printed table is what
``scrabble/equity/leave.py`` holds (rounded), see docs/leave.md.

    .venv/bin/python scripts/fit_leave.py --games 1500 --seed 1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scrabble.engines.trie_engine import TrieEngine  # noqa: E402
from scrabble.equity.evaluate import evaluate  # noqa: E402
from scrabble.equity.leave import feature_names, features  # noqa: E402
from scrabble.equity.leave_table import LeaveTable  # noqa: E402
from scrabble.equity.options import EquityOptions  # noqa: E402
from scrabble.equity.static import StaticEquity  # noqa: E402
from scrabble.game import Game  # noqa: E402
from scrabble.lexicon.loaded import Lexicon  # noqa: E402
from scrabble.moves import MoveList, leave_of  # noqa: E402
from scrabble.position import Position  # noqa: E402
from scrabble.rules import STANDARD  # noqa: E402


def choose(
    position: Position, moves: MoveList, trie: TrieEngine, static: StaticEquity, chooser: str
) -> int:
    """Index of the placement played: top score, or the top placement by cheap
    equity with the linear model (no prospects)."""
    if chooser == "score":
        return int(moves.order(1)[0])
    ev = evaluate(position, moves, trie, static, EquityOptions(prospects=False))
    return int(next(i for i in ev.order.tolist() if i < len(moves)))


def collect(
    lexicon: Lexicon, games: int, seed: int, chooser: str = "score"
) -> tuple[np.ndarray, np.ndarray]:
    trie = TrieEngine(lexicon)
    linear = LeaveTable.linear(STANDARD.counts.astype(np.int64), STANDARD.rack_size)
    static = StaticEquity.for_lexicon(lexicon, linear)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    for g in range(games):
        game = Game.new(seed * 1_000_003 + g)
        pending: list[np.ndarray | None] = [None, None]
        while not game.over:
            p = game.to_move
            moves = trie.generate(game.position())
            if not len(moves):
                game.pass_turn()
                pending[p] = None
                continue
            i = choose(game.position(), moves, trie, static, chooser)
            score = int(moves.meta[i, 5])
            waiting = pending[p]
            if waiting is not None:
                xs.append(waiting)
                ys.append(score)
            left = leave_of(game.racks[p], moves, i)
            refill = game.bag_count >= 7 + int(moves.meta[i, 4])
            game.play_move(moves, i)
            pending[p] = features(left) if refill else None
    return np.array(xs, dtype=float), np.array(ys, dtype=float)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--chooser",
        choices=("score", "equity"),
        default="score",
        help="who plays the games the data come from",
    )
    args = ap.parse_args()
    lexicon = Lexicon.load()
    x, y = collect(lexicon, args.games, args.seed, args.chooser)
    a = np.hstack([np.ones((len(x), 1)), x])
    beta, *_ = np.linalg.lstsq(a, y, rcond=None)
    resid = y - a @ beta
    sigma2 = resid @ resid / (len(y) - a.shape[1])
    se = np.sqrt(np.diag(sigma2 * np.linalg.pinv(a.T @ a)))
    print(f"samples {len(y)}  mean next score {y.mean():.2f}  intercept {beta[0]:.2f}")
    for name, b, s in zip(["intercept", *feature_names()], beta, se, strict=True):
        print(f"{name:>14} {b:+7.2f} (se {s:.2f})")
    print("millipoints:", [int(round(b * 10)) * 100 for b in beta[1:]])


if __name__ == "__main__":
    main()
