"""The placements an equity ranking can show, found without the whole move list.

A request ranked by equity shows its best ``limit`` actions and gives the
expensive terms to the best ``max_moves`` by the cheap terms, so every
placement it can show is among the best ``max(limit, max_moves)`` by cheap
equity. The best-N kernel (``StaticEquity.best``: score + leave or endgame
adjustment + opening, evaluated in the move generator with shadow bounds)
finds those without materialising the list: on a two-blank mid-game rack
138,080 placements, 1.3 s to generate and rank in NumPy, against 10 ms
(``docs/static.md``).

Premium waste is the one cheap term the kernel does not hold. It is a charge
(never negative), so a placement's cheap equity is at most its static
equity: with the best M by static equity in hand and T the N-th best cheap
equity among them, any placement left out has static equity at most the
M-th's, so when that is below T none can reach the top N. Otherwise M grows
and the kernel runs again (rarely: the charge is a few points).

Not used when the bag is empty (the exact endgame search ranks the whole
list) or the leave is weighted (the kernel's table is the unweighted leave).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scrabble.equity.options import EquityOptions
from scrabble.equity.static import StaticEquity
from scrabble.equity.terms import terms_for
from scrabble.equity.waste import premium_waste
from scrabble.lexicon.trie import Trie
from scrabble.moves import MoveList
from scrabble.position import Position

FIRST_MARGIN = 2  # the first run keeps this many times N (and at least N + 8)
GROWTH = 4  # then M grows by this factor until the bound holds


@dataclass(frozen=True)
class Shortlist:
    moves: MoveList  # at least the best ``wanted`` by cheap equity (all, when fewer)
    wanted: int
    kernel_runs: int
    found: int  # placements the last run evaluated (not the legal total)
    pruned: int  # anchors its bounds skipped


def applies(position: Position, options: EquityOptions) -> bool:
    """Whether the shortlist ranks exactly as the whole list would."""
    if options.rank_by != "equity" or options.leave_weight_pct != 100:
        return False
    return position.bag_count > 0 or not options.endgame_search


def shown(options: EquityOptions, limit: int) -> int:
    """How many placements by cheap equity a ranking of ``limit`` can show: the
    limit, and the best ``max_moves`` when it computes expensive terms for them."""
    expensive = any(not term.cheap for term in terms_for(options))
    return max(limit, options.max_moves) if expensive else limit


def shortlist(position: Position, static: StaticEquity, trie: Trie, options: EquityOptions,
              limit: int) -> Shortlist:  # fmt: skip
    """Every placement a ranking of the best ``limit`` can show (``shown``), and
    perhaps a few more."""
    wanted = shown(options, limit)
    worth = static.rack_values(position)
    keep = max(FIRST_MARGIN * wanted, wanted + 8) if options.premium_waste else wanted
    runs = 0
    while True:
        runs += 1
        best = static.best(position, trie, keep, worth)
        moves = best.moves
        complete = len(moves) < keep  # the heap held every placement
        if not options.premium_waste or complete or len(moves) <= wanted:
            return Shortlist(moves, wanted, runs, best.found, best.pruned)
        unseen = int(position.unseen().sum())
        cheap = best.equity - premium_waste(moves, position.rules, unseen, options)
        nth = np.sort(cheap)[::-1][wanted - 1]
        if int(best.equity[-1]) < int(nth):  # nothing left out can reach the top N
            return Shortlist(moves, wanted, runs, best.found, best.pruned)
        keep *= GROWTH
