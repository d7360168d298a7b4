"""The best-N shortlist ranks an equity request exactly as the whole move list.

For self-played positions (with 0-2 blanks, the opening, late turns) the
ranking of ``evaluate`` over every placement the trie finds is the reference;
over the shortlist it must give the same actions in the same order with the
same terms, premium waste on, off, and weighted so heavily that the first
kernel run cannot prove its bound and must grow.
"""

from __future__ import annotations

import dataclasses

import pytest

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity.evaluate import Evaluation, evaluate
from scrabble.equity.options import EquityOptions
from scrabble.equity.shortlist import applies, shortlist
from scrabble.equity.static import StaticEquity
from scrabble.notation import action_json
from scrabble.position import Position
from tooling.corpus import self_play_positions

CHEAP = EquityOptions(prospects=False, budget_ms=1e9)
OPTIONS = {
    "waste": CHEAP,
    "no-waste": dataclasses.replace(CHEAP, premium_waste=False),
    "heavy-waste": dataclasses.replace(CHEAP, waste_weight_pct=2000, fade_tiles=1),
}


@pytest.fixture(scope="module")
def static(lexicon) -> StaticEquity:
    return StaticEquity.for_lexicon(lexicon)


@pytest.fixture(scope="module")
def played(lexicon) -> list[Position]:
    samples = self_play_positions(lexicon, count=60, seed=41, one_blank=0.25, two_blanks=0.15)
    return [s.position for s in samples]


@pytest.fixture(scope="module")
def positions(played) -> list[Position]:
    return [p for p in played if p.bag_count > 0]


def ranked(evaluation: Evaluation, position: Position) -> list[dict[str, object]]:
    out = [action_json(evaluation, int(i), rank, position)
           for rank, i in enumerate(evaluation.order.tolist(), start=1)]  # fmt: skip
    for entry in out:
        entry["heuristics"].pop("evaluated")  # type: ignore[union-attr]
    return out


@pytest.mark.parametrize("name", list(OPTIONS))
@pytest.mark.parametrize("limit", [1, 5, 30])
def test_shortlist_ranks_as_the_whole_list(name, limit, positions, static, trie: TrieEngine):
    options = OPTIONS[name]
    runs = 0
    for position in positions:
        assert applies(position, options)
        whole = evaluate(position, trie.generate(position), trie, static, options, limit=limit)
        found = shortlist(position, static, trie.lexicon.trie, options, limit)
        short = evaluate(position, found.moves, trie, static, options, limit=limit)
        assert ranked(short, position) == ranked(whole, position), position.rows()
        runs = max(runs, found.kernel_runs)
    if name == "heavy-waste":
        assert runs > 1  # the bound failed at first somewhere, and growing fixed it
    if name == "no-waste":
        assert runs == 1


def test_prospects_go_to_the_same_moves(positions, static, trie: TrieEngine):
    options = EquityOptions(budget_ms=1e9)  # prospects for the best 4 by the cheap terms
    for position in positions[::6]:
        whole = evaluate(position, trie.generate(position), trie, static, options, limit=3)
        found = shortlist(position, static, trie.lexicon.trie, options, 3)
        short = evaluate(position, found.moves, trie, static, options, limit=3)
        assert ranked(short, position) == ranked(whole, position)


def test_not_used_where_it_would_rank_differently(played):
    position = played[0]
    assert applies(position, CHEAP)
    assert not applies(position, dataclasses.replace(CHEAP, rank_by="score"))
    assert not applies(position, dataclasses.replace(CHEAP, leave_weight_pct=70))
    # the bag empty: the exact endgame search ranks the whole list
    empty_bag = next(p for p in played if p.bag_count == 0)
    assert not applies(empty_bag, CHEAP)
    assert applies(empty_bag, dataclasses.replace(CHEAP, endgame_search=False))
