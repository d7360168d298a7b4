"""Leave generation: the averaging, the smoothing, the choice rule, the stand-in
player, and a checkpointed run against an uninterrupted one."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from scrabble.engines.trie_engine import TrieEngine
from scrabble.equity import leavegen
from scrabble.equity.leave_average import LeaveEstimate, RackTally, estimate, smooth
from scrabble.equity.leave_index import LeaveIndex
from scrabble.equity.leave_selfplay import play_games
from scrabble.equity.leave_table import LeaveTable
from scrabble.equity.static_choice import (
    POINT,
    Player,
    best_exchange,
    choose_action,
    digits_of,
    kernel_best,
    standin_best,
)
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import leaves_of
from scrabble.notation import move_at
from scrabble.position import make_position
from scrabble.rules import STANDARD
from scrabble.tiles import rack_counts

ROOT = Path(__file__).resolve().parents[1]


def tally_of(caps: np.ndarray, rack_size: int, records: list[tuple[str, int]]) -> RackTally:
    tally = RackTally.empty(caps, rack_size)
    ids = [tally.index.rank(rack_counts(rack).astype(np.int64)) for rack, _ in records]
    tally.add(np.array(ids), np.array([equity for _, equity in records]))
    return tally


def test_averaging_by_hand() -> None:
    """Tiles A A B C, racks of 2: records AB 10, AB 20, AA 40, BC 6 (mean 19)."""
    caps = rack_counts("AABC").astype(np.int64)
    tally = tally_of(caps, 2, [("AB", 10), ("AB", 20), ("AA", 40), ("BC", 6)])
    leaves = LeaveIndex.build(caps, 1, 1)
    a, b, c = (leaves.rank(rack_counts(x).astype(np.int64)) for x in "ABC")
    turn = estimate(tally, leaves, "turn")
    assert turn.baseline == pytest.approx(19)
    # A: AB AB AA -> 70 / 3; B: AB AB BC -> 12; C: BC -> 6; each turn once per leave
    assert turn.observed[[a, b, c]] == pytest.approx([70 / 3 - 19, 12 - 19, 6 - 19])
    assert turn.seen[[a, b, c]].tolist() == [3, 3, 1]
    # per rack: means AB 15, AA 40, BC 6; ways to draw the rest of the rack from the set
    # baseline: AB C(2,1)C(1,1) = 2, AA C(2,2) = 1, BC 1 -> (30 + 40 + 6) / 4 = 19
    # A kept: AB draws B: C(1,1) = 1, AA draws A: C(2-1,1) = 1 -> (15 + 40) / 2
    # B kept: AB draws A: C(2,1) = 2, BC draws C: 1 -> (30 + 6) / 3
    rack = estimate(tally, leaves, "rack")
    assert rack.baseline == pytest.approx(19)
    assert rack.observed[[a, b, c]] == pytest.approx([55 / 2 - 19, 36 / 3 - 19, 6 - 19])
    assert rack.seen[[a, b, c]].tolist() == [3, 3, 1]


def test_averaging_against_brute_force() -> None:
    caps = rack_counts("AAABBCD??").astype(np.int64)
    rng = np.random.default_rng(7)
    pool = "AAABBCD??"
    records = []
    for _ in range(300):
        rack = "".join(sorted(rng.choice(list(pool), 4, replace=False)))
        records.append((rack, int(rng.integers(-5000, 60000))))
    tally = tally_of(caps, 4, records)
    leaves = LeaveIndex.build(caps, 1, 3)
    turn = estimate(tally, leaves, "turn")
    per_rack = estimate(tally, leaves, "rack")
    counts = {rack: rack_counts(rack).astype(np.int64) for rack, _ in records}
    mean = sum(e for _, e in records) / len(records)
    by_rack: dict[str, list[int]] = {}
    for rack, equity in records:
        by_rack.setdefault(rack, []).append(equity)

    def ways(rack: np.ndarray, kept: np.ndarray) -> int:
        return math.prod(
            math.comb(int(caps[t] - kept[t]), int(rack[t] - kept[t])) for t in range(27)
        )

    empty = np.zeros(27, dtype=np.int64)
    base = sum(ways(counts[r], empty) * np.mean(v) for r, v in by_rack.items()) / sum(
        ways(counts[r], empty) for r in by_rack
    )
    for position, leave in enumerate(leaves.all_leaves().astype(np.int64)):
        holding = [(r, e) for r, e in records if (counts[r] >= leave).all()]
        assert turn.seen[position] == len(holding) == per_rack.seen[position]
        if not holding:
            assert np.isnan(turn.observed[position]) and np.isnan(per_rack.observed[position])
            continue
        assert turn.observed[position] == pytest.approx(
            sum(e for _, e in holding) / len(holding) - mean
        )
        racks = {r for r, _ in holding}
        expected = sum(ways(counts[r], leave) * np.mean(by_rack[r]) for r in racks) / sum(
            ways(counts[r], leave) for r in racks
        )
        assert per_rack.observed[position] == pytest.approx(expected - base)


def test_smoothing() -> None:
    observed = np.array([np.nan, 10_000.0, 10_000.0, 10_000.0, 10_000.0, -3_000.4])
    seen = np.array([0, 25, 50, 80, 10, 1_000])
    prior = np.array([-7_000, 2_000, 2_000, 2_000, 2_000, 0])
    est = LeaveEstimate(observed=observed, seen=seen, baseline=40_000.0)
    values = smooth(est, prior, 50)
    # unseen keeps the prior; 25 of 50 is halfway; from 50 on the data alone
    assert values.tolist() == [-7_000, 6_000, 10_000, 10_000, 3_600, -3_000]
    assert values.dtype == np.int32
    assert smooth(est, prior, 0).tolist() == [-7_000, 10_000, 10_000, 10_000, 10_000, -3_000]


def test_choice_rule() -> None:
    assert choose_action(30_000, 29_999) == "play"
    assert choose_action(30_000, 30_000) == "play"  # an exchange must be strictly better
    assert choose_action(30_000, 30_001) == "exchange"
    assert choose_action(None, -5_000) == "exchange"
    assert choose_action(12_000, None) == "play"
    assert choose_action(None, None) == "pass"


def test_best_exchange_never_keeps_the_whole_rack() -> None:
    rack = rack_counts("QQ").astype(np.int64)  # keep nothing 0, Q +, QQ (whole) best
    values = np.array([0, 5_000, 9_000])
    radix = np.zeros(27, dtype=np.int64)
    radix[16] = 1
    index = best_exchange(values)
    assert index == 1
    assert digits_of(index, rack, radix).tolist() == rack_counts("Q").tolist()


@pytest.mark.parametrize("player", [standin_best, kernel_best], ids=["standin", "kernel"])
def test_the_players_play_the_best_equity(lexicon: Lexicon, player: Player) -> None:
    table = LeaveTable.linear(STANDARD.counts, 7)
    rows = ["." * 15] * 7 + ["...QUIXOTE....."] + ["." * 15] * 7
    kinds = []
    for board, rack, bag in (
        (["." * 15] * 15, "AEIRSTV", 86),
        (rows, "EEIUUV?", 60),
        (rows, "EEIUUVW", 3),
        (rows, "?IIIUUU", 60),
    ):
        position = make_position(board, rack)
        values, radix = table.rack_values(position.rack.astype(np.int64))
        choice = player(position, lexicon, values, radix, bag)
        moves = TrieEngine(lexicon).generate(position)
        held = position.rack.astype(np.int64)
        kept = leaves_of(held, moves)
        # the oracle: each move's equity from LeaveTable.value, one move at a time
        plays = [
            int(moves.scores[i]) * POINT
            + (0 if kept[i].sum() in (0, held.sum()) else table.value(kept[i]))
            for i in range(len(moves))
        ]
        keeps = [
            table.value(np.array(k))
            for k in itertools.product(*(range(int(n) + 1) for n in held))
            if 0 <= sum(k) < held.sum()
        ]
        best = max(plays)
        if bag >= 7 and max(keeps) > best:
            assert choice.kind == "exchange" and choice.equity == max(keeps)
            assert choice.keep is not None and table.value(choice.keep) == max(keeps)
        else:
            assert choice.kind == "play" and choice.equity == best
            assert choice.moves is not None
            assert move_at(choice.moves, choice.index).notation in {
                move_at(moves, i).notation for i in range(len(moves)) if plays[i] == best
            }
        kinds.append(choice.kind)
    assert kinds == ["play", "play", "play", "exchange"]  # both branches were checked


def test_games_stop_at_an_empty_bag_and_record_full_racks(lexicon: Lexicon) -> None:
    table = LeaveTable.linear(STANDARD.counts, 7)
    racks = LeaveIndex.build(STANDARD.counts, 7, 7)
    first = play_games(table, racks, lexicon, STANDARD, [11, 12])
    again = play_games(table, racks, lexicon, STANDARD, [11, 12])
    assert (first.rack_ids == again.rack_ids).all() and (first.equities == again.equities).all()
    assert first.games == 2 and 0 < len(first.rack_ids) <= first.turns
    for rack_id in first.rack_ids[:20]:
        assert racks.leave_at(int(rack_id)).sum() == 7
    # about 40 points a turn; an exchange or a pass can record 0 or less
    assert 20_000 < first.equities.mean() < 60_000


def test_resume_gives_the_uninterrupted_table(lexicon: Lexicon, tmp_path: Path) -> None:
    settings = leavegen.settings_for(lexicon, games_per_generation=3, seed=4)
    whole = leavegen.run(settings, 2, tmp_path / "whole.npz")
    leavegen.run(settings, 1, tmp_path / "parts.npz")
    with pytest.raises(FileExistsError):
        leavegen.run(settings, 2, tmp_path / "parts.npz")
    other = leavegen.settings_for(lexicon, games_per_generation=3, seed=5)
    with pytest.raises(ValueError):
        leavegen.run(other, 2, tmp_path / "parts.npz", resume=True)
    resumed = leavegen.run(settings, 2, tmp_path / "parts.npz", resume=True)
    assert resumed.generations_done == whole.generations_done == 2
    assert (resumed.table.values == whole.table.values).all()
    assert resumed.history == whole.history
    assert whole.tally is not None and resumed.tally is not None
    assert (resumed.tally.sums == whole.tally.sums).all()
    # generation 2 learned from generation 1's games: the table moved off the linear model
    linear = LeaveTable.linear(STANDARD.counts, 7).values
    assert (whole.table.values != linear).sum() > 1000
    # two processes and another chunking: the same table
    split = leavegen.run(settings, 2, tmp_path / "split.npz", jobs=2, chunk=1)
    assert (split.table.values == whole.table.values).all()


def leavegen_command(out: Path, checkpoint: Path) -> subprocess.CompletedProcess[str]:
    """``scripts/leavegen.py``: one generation of two games, seed 9."""
    arguments = ["--generations", "1", "--games-per-generation", "2", "--seed", "9",
                 "--jobs", "1", "--no-progress", "--out", str(out), "--checkpoint",
                 str(checkpoint)]  # fmt: skip
    return subprocess.run(
        [sys.executable, "scripts/leavegen.py", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_command_writes_a_table_with_provenance(tmp_path: Path) -> None:
    out = tmp_path / "sowpods.leaves"
    result = leavegen_command(out, tmp_path / "c.npz")
    assert result.returncode == 0, result.stderr
    table = LeaveTable.read(out)
    p = table.provenance
    assert p["command"] == (
        "scripts/leavegen.py --lexicon sowpods --generations 1 "
        "--games-per-generation 2 --seed 9 --averaging turn "
        "--smooth-count 50"
    )
    assert (p["games"], p["generations"], p["seed"]) == (2, 1, 9)
    assert p["lexicon"]["name"] == "sowpods" and len(p["lexicon"]["sha256"]) == 64
    assert "sha256" in result.stdout
    # the checkpoint is there: the same command again must be asked to resume
    again = leavegen_command(out, tmp_path / "c.npz")
    assert again.returncode == 2 and "resume" in again.stderr
