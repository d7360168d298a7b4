"""Small generated endgames for the endgame search's property tests.

A game on a 7x7 board with a random small dictionary over five letters is
played out with random legal moves from random racks; then each side gets a
final rack of a few tiles from what is left. The rules' tile set is made
exactly the tiles on the board and the two racks, so the bag is empty and
the opponent's rack is the unseen tiles, as in a real endgame. Blanks and a
letter worth 0 appear often, so zero-score plays (which count as scoreless
turns) come up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import leave_of, place
from scrabble.position import Position
from scrabble.rules import Rules
from scrabble.tiles import ALPHABET, BLANK

LETTERS = "ABCDE"
SMALL_PREMIUMS = (
    "T..d..T",
    ".D...D.",
    "..t.t..",
    "d..*..d",
    "..t.t..",
    ".D...D.",
    "T..d..T",
)


@dataclass(frozen=True)
class Endgame:
    position: Position
    opponent: np.ndarray  # 27 counts
    lexicon: Lexicon
    scoreless: int


def small_rules(values: dict[str, int], counts: dict[str, int], rack_size: int = 7) -> Rules:
    letter_values = {ch: values.get(ch, 1) for ch in ALPHABET}
    return Rules(
        name="small",
        size=7,
        premiums=SMALL_PREMIUMS,
        letter_values=letter_values,
        tile_counts=counts,
        rack_size=rack_size,
        bingo_bonus=10,
    )


def random_endgame(
    seed: int, mover_tiles: int, opponent_tiles: int, scoreless: int = 0, turns: int = 6
) -> Endgame:
    rng = random.Random(seed)
    words = sorted(
        {"".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 4))) for _ in range(40)}
    )
    lexicon = Lexicon.from_words(words, name=f"random-{seed}")
    values = {ch: rng.randint(1, 4) for ch in LETTERS}
    if rng.random() < 0.3:
        values[rng.choice(LETTERS)] = 0  # a zero-valued letter: more zero-score plays
    pool = [ch for ch in LETTERS for _ in range(8)] + ["?"] * rng.choice((0, 1, 2, 3))
    rng.shuffle(pool)
    counts = {ch: 8 for ch in LETTERS} | {"?": pool.count("?")}
    rules = small_rules(values, counts)
    board = np.zeros(49, dtype=np.uint8)
    racks = [_draw(pool, 7), _draw(pool, 7)]
    player = 0
    for _ in range(turns):
        position = Position(board=board, rack=racks[player].astype(np.uint8), rules=rules)
        moves = TrieEngine(lexicon).generate(position)
        if len(moves) == 0:
            break
        i = rng.randrange(len(moves))
        board = place(board, moves, i, rules.size)
        left = leave_of(racks[player], moves, i)
        pool.extend(_symbols(left))
        racks[player] = _draw(pool, 7)
        rng.shuffle(pool)
        player = 1 - player
    mover = _draw(pool, mover_tiles)
    opponent = _draw(pool, opponent_tiles)
    # the tile set: exactly what is on the board and the racks (the bag is empty)
    used = Position(board=board, rack=mover.astype(np.uint8), rules=rules).board_counts()
    used = used + mover + opponent
    final_counts = {ch: int(used[i]) for i, ch in enumerate(ALPHABET)} | {"?": int(used[BLANK])}
    final = small_rules(values, final_counts)
    position = Position(board=board, rack=mover.astype(np.uint8), rules=final)
    return Endgame(position=position, opponent=opponent, lexicon=lexicon, scoreless=scoreless)


def _draw(pool: list[str], k: int) -> np.ndarray:
    rack = np.zeros(27, dtype=np.int32)
    for _ in range(min(k, len(pool))):
        ch = pool.pop()
        rack[BLANK if ch == "?" else ALPHABET.index(ch)] += 1
    return rack


def _symbols(rack: np.ndarray) -> list[str]:
    return [("?" if i == BLANK else ALPHABET[i]) for i in range(27) for _ in range(int(rack[i]))]
