"""Generations of static self-play that make an exhaustive leave table.

Generation ``g`` plays ``games_per_generation`` games with the table of
generation ``g - 1`` (the linear model of ``equity.leave`` before the first),
tallies the best equity of every full rack held with tiles in the bag, and
turns the tally into the next table (``leave_average``: averaging, smoothing
toward the previous table). Games are spread over processes in chunks; each
game's seed is a fixed function of (seed, generation, game number) and tallies
are integer sums, so the result does not depend on ``jobs`` or the chunking.

After each generation a checkpoint holds the run's settings, the table just
made and that generation's tally; ``resume`` continues from it and ends with
exactly the table an uninterrupted run makes.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from scrabble.equity.leave_average import AVERAGINGS, RackTally, estimate, smooth
from scrabble.equity.leave_index import LeaveIndex
from scrabble.equity.leave_selfplay import PLAYER, Records, game_seed, play_games
from scrabble.equity.leave_table import LeaveTable, tile_set_of
from scrabble.lexicon.loaded import Lexicon
from scrabble.lexicon.store import default_db_path
from scrabble.rules import STANDARD, Rules

CHECKPOINT_FORMAT = 1


@dataclass(frozen=True)
class RunSettings:
    """What a run's table depends on (a resumed run must match all of it)."""

    lexicon: str
    lexicon_sha256: str
    games_per_generation: int
    seed: int
    averaging: str = "turn"
    smooth_count: int = 50
    player: str = PLAYER.__name__
    rack_size: int = 7
    tile_set: str = ""  # "A9,B2,...", filled from the rules

    def __post_init__(self) -> None:
        if self.averaging not in AVERAGINGS:
            raise ValueError(f"averaging must be one of {AVERAGINGS}")
        if self.games_per_generation < 1:
            raise ValueError("games_per_generation must be >= 1")


def tile_set_string(rules: Rules) -> str:
    return ",".join(f"{k}{v}" for k, v in tile_set_of(rules.counts).items())


def settings_for(
    lexicon: Lexicon,
    games_per_generation: int,
    seed: int,
    averaging: str = "turn",
    smooth_count: int = 50,
    rules: Rules = STANDARD,
) -> RunSettings:
    return RunSettings(
        lexicon=lexicon.info.name,
        lexicon_sha256=lexicon.info.sha256,
        games_per_generation=games_per_generation,
        seed=seed,
        averaging=averaging,
        smooth_count=smooth_count,
        rack_size=rules.rack_size,
        tile_set=tile_set_string(rules),
    )


@dataclass
class RunState:
    settings: RunSettings
    generations_done: int
    table: LeaveTable
    tally: RackTally | None  # the last generation's
    history: list[dict[str, Any]]  # per generation: games, turns, records, baseline, seen...


# -- workers -------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _init_worker(lexicon_path: str, values: np.ndarray, rules: Rules) -> None:
    lexicon = Lexicon.load(Path(lexicon_path))
    index = LeaveTable.catalog(rules.counts, rules.rack_size)
    _WORKER.update(
        lexicon=lexicon,
        rules=rules,
        table=LeaveTable(index=index, values=values, rack_size=rules.rack_size),
        racks=LeaveIndex.build(rules.counts, rules.rack_size, rules.rack_size),
    )


def _play_chunk(seeds: list[int]) -> Records:
    return play_games(
        _WORKER["table"], _WORKER["racks"], _WORKER["lexicon"], _WORKER["rules"], seeds
    )


def chunks(seeds: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(seeds), size):
        yield seeds[start : start + size]


# -- one generation ------------------------------------------------------------
def play_generation(
    state: RunState, lexicon: Lexicon, rules: Rules, jobs: int, chunk: int, progress: bool
) -> tuple[RackTally, int, int, float]:
    """Play generation ``state.generations_done``; returns its tally, games, turns, seconds."""
    s = state.settings
    generation = state.generations_done
    seeds = [game_seed(s.seed, generation, i) for i in range(s.games_per_generation)]
    tally = RackTally.empty(rules.counts, rules.rack_size)
    games = turns = 0
    started = time.perf_counter()
    bar = tqdm(
        total=len(seeds),
        desc=f"generation {generation + 1}",
        unit="game",
        disable=not progress,
        smoothing=0.05,
    )
    values = np.array(state.table.values)  # a plain copy to hand to the workers

    def take(records: Records) -> None:
        nonlocal games, turns
        tally.add(records.rack_ids, records.equities)
        games += records.games
        turns += records.turns
        bar.update(records.games)

    if jobs <= 1:
        _init_worker(str(lexicon.db_path), values, rules)
        for part in chunks(seeds, chunk):
            take(_play_chunk(part))
    else:
        with Pool(
            jobs, initializer=_init_worker, initargs=(str(lexicon.db_path), values, rules)
        ) as pool:
            for records in pool.imap_unordered(_play_chunk, chunks(seeds, chunk)):
                take(records)
    bar.close()
    return tally, games, turns, time.perf_counter() - started


def next_table(state: RunState, tally: RackTally) -> tuple[LeaveTable, dict[str, Any]]:
    s = state.settings
    index = state.table.index
    est = estimate(tally, index, s.averaging)
    values = smooth(est, state.table.values, s.smooth_count)
    table = LeaveTable(index=index, values=values, rack_size=state.table.rack_size)
    stats = {
        "records": tally.records,
        "baseline": round(est.baseline, 1),
        "leaves_seen": int((est.seen > 0).sum()),
        "leaves_full_weight": int((est.seen >= max(1, s.smooth_count)).sum()),
    }
    return table, stats


# -- checkpoints ---------------------------------------------------------------
def save_checkpoint(path: Path, state: RunState) -> None:
    meta = {
        "format": CHECKPOINT_FORMAT,
        "settings": asdict(state.settings),
        "generations_done": state.generations_done,
        "history": state.history,
    }
    arrays: dict[str, Any] = {
        "meta": np.array(json.dumps(meta)),
        "table": np.asarray(state.table.values),
    }
    if state.tally is not None:
        arrays.update(tally_sums=state.tally.sums, tally_counts=state.tally.counts)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(buffer.getvalue())
    tmp.replace(path)


def load_checkpoint(path: Path, rules: Rules) -> RunState:
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        if meta.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path}: checkpoint format {meta.get('format')}")
        index = LeaveTable.catalog(rules.counts, rules.rack_size)
        table = LeaveTable(
            index=index, values=data["table"].astype(np.int32), rack_size=rules.rack_size
        )
        tally = None
        if "tally_sums" in data:
            empty = RackTally.empty(rules.counts, rules.rack_size)
            tally = RackTally(
                index=empty.index,
                sums=data["tally_sums"].astype(np.int64),
                counts=data["tally_counts"].astype(np.int64),
            )
    return RunState(
        settings=RunSettings(**meta["settings"]),
        generations_done=int(meta["generations_done"]),
        table=table,
        tally=tally,
        history=list(meta["history"]),
    )


# -- the run -------------------------------------------------------------------
def start_state(settings: RunSettings, rules: Rules) -> RunState:
    return RunState(
        settings=settings,
        generations_done=0,
        table=LeaveTable.linear(rules.counts, rules.rack_size),
        tally=None,
        history=[],
    )


def values_sha256(values: np.ndarray) -> str:
    return hashlib.sha256(np.asarray(values, dtype="<i4").tobytes()).hexdigest()


def run(
    settings: RunSettings,
    generations: int,
    checkpoint: Path,
    resume: bool = False,
    jobs: int = 1,
    chunk: int = 25,
    progress: bool = False,
    rules: Rules = STANDARD,
    log: Any = None,
) -> RunState:
    """Run (or continue) until ``generations`` are done; checkpoint after each one."""
    lexicon = Lexicon.load(default_db_path(settings.lexicon))
    if lexicon.info.sha256 != settings.lexicon_sha256:
        raise ValueError(
            f"lexicon {settings.lexicon} has sha256 {lexicon.info.sha256}, "
            f"the run was made with {settings.lexicon_sha256}"
        )
    if resume:
        state = load_checkpoint(checkpoint, rules)
        if state.settings != settings:
            raise ValueError(f"{checkpoint} was made with other settings: {state.settings}")
    elif checkpoint.exists():
        raise FileExistsError(f"{checkpoint} exists: resume from it or remove it")
    else:
        state = start_state(settings, rules)
    while state.generations_done < generations:
        tally, games, turns, seconds = play_generation(state, lexicon, rules, jobs, chunk, progress)
        table, stats = next_table(state, tally)
        stats = {
            "generation": state.generations_done + 1,
            "games": games,
            "turns": turns,
            **stats,
            "table_sha256": values_sha256(table.values),
        }
        state = RunState(
            settings=settings,
            generations_done=state.generations_done + 1,
            table=table,
            tally=tally,
            history=[*state.history, stats],
        )
        save_checkpoint(checkpoint, state)
        if log is not None:
            log(
                f"generation {stats['generation']}: {games} games in {seconds:.0f} s "
                f"({games / max(seconds, 1e-9):.1f} games/s), {stats['records']} records, "
                f"baseline {stats['baseline'] / 1000:.2f} points, "
                f"{stats['leaves_seen']} leaves seen, {stats['leaves_full_weight']} "
                f"seen >= {settings.smooth_count} times"
            )
    return state


def provenance(state: RunState, command: str, commit: str, dirty: bool) -> dict[str, Any]:
    s = state.settings
    return {
        "command": command,
        "commit": commit,
        "dirty_tree": dirty,
        "lexicon": {"name": s.lexicon, "sha256": s.lexicon_sha256},
        "generations": state.generations_done,
        "games_per_generation": s.games_per_generation,
        "games": s.games_per_generation * state.generations_done,
        "seed": s.seed,
        "averaging": s.averaging,
        "smooth_count": s.smooth_count,
        "player": s.player,
        "start": "linear model (scrabble/equity/leave.py)",
        "history": state.history,
    }


def warm() -> None:
    """Run every compiled path of leave tables and their generation once (fills Numba's cache)."""
    table = LeaveTable.linear(STANDARD.counts, STANDARD.rack_size)
    table.rack_values(np.array([1] * 7 + [0] * 19 + [1], dtype=np.int64))
    tally = RackTally.empty(STANDARD.counts, STANDARD.rack_size)
    tally.add(np.array([0, 5], dtype=np.int64), np.array([1000, 3000], dtype=np.int64))
    for averaging in AVERAGINGS:
        estimate(tally, table.index, averaging)
