"""``prospect``: the write-up's method.

Every turn (sections 1-2): one search lists the plays and the prospects (plays
one to three tiles away; three only on the hottest lines and for big scores);
each prospect is worth score x P(its missing letters arrive within the
horizon), exact under i.i.d. draws, visible tiles certain. A play is worth
score - pen + the best prospect it leaves open (against the hand it leaves) +
the best setup it advances; a discard -D + the best prospect of the hand it
keeps. pen charges a word-multiplier square spent on a play whose own
multiplier is under half of what the square could still make (weakened
linearly in the last 30 % of the tiles) and 3 points a tile. The top 32 plays
are searched again on the board after them (only the lines they change) and
get the change in place value Phi (section 5). Setups (section 3): a letter a
play could put on a hot square now, with the plays it would then allow; a
play putting exactly that letter there gets their value, other actions 0.4 of
it. The target-line table (section 4) holds big plays on the line with the
largest word multipliers, hand-independent, with up to five pre-placed
letters. Time (section 6): the budget left is shared over the turns to come
by the time profile of an unhurried game; when a turn is short, cold lines
lose their prospects first (at least the four hottest keep them).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass
from typing import cast

import numpy as np

from scrabble.engines.trie_engine import TrieEngine
from scrabble.lexicon.loaded import Lexicon
from scrabble.moves import MoveList
from scrabble.position import Position
from scrabble.tiles import rack_counts
from scrabble.wordgame.actions import Discard, Play, Stop, play_of
from scrabble.wordgame.clock import Clock
from scrabble.wordgame.first import best_placements
from scrabble.wordgame.kit import Kit, counts26, letters_of, unique_submultisets
from scrabble.wordgame.last_tiles import WIDTHS, Hand, LastTiles, hand_counts, refill
from scrabble.wordgame.lexicons import PlayerLexicon
from scrabble.wordgame.lines import BoardLines
from scrabble.wordgame.places import place_table, place_value
from scrabble.wordgame.players.choice import Alternative, Choice
from scrabble.wordgame.referee import GameSetup, TurnView
from scrabble.wordgame.row_value import (
    UNKNOWN,
    best_row_values,
    falling_bounds,
    row_values,
    top_rows,
)
from scrabble.wordgame.rows import (
    Rows,
    concat,
    drop_thrown_back,
    in_hand,
    need_counts,
    play_tiles,
    rows_from_search,
    same_rows,
    take,
    thrown_back,
    with_footprints,
)
from scrabble.wordgame.search import (
    META_LEN,
    META_LINE,
    META_MISSING,
    META_SCORE,
    META_START,
    META_VISIBLE,
    META_WIDTH,
)
from scrabble.wordgame.setups import SetupFinder
from scrabble.wordgame.target_line import TargetLine
from scrabble.wordgame.value import (
    play_values,
    pre_index,
    waste_penalties,
    window_products,
)

LEAN_WIDTHS = (4, 2)  # the last-tiles search in the clock's lean mode
LAST_TILES_OFFERED = 12  # actions of the ranking the last-tiles search values


@dataclass
class ProspectConfig:
    horizon: int = 32  # draws a prospect may wait for
    wild: int = 2  # missing tiles searched on every line
    hot_lines: int = 4  # lines also searched 3 tiles away, and never dropped
    min_score3: int = 100  # a prospect 3 tiles away must score this
    rows_kept: int = 400  # prospects an action is valued against
    reeval: int = 32  # plays searched again on the board after them
    # the plays searched again are picked by score - waste + the larger of the
    # prospect a play leaves and the setup it advances, as the search again
    # counts them (one best row), not by their sum, which ranked setup plays
    # above a 180-point play (twenty-fifth round: the planner x1.0087, the
    # prospect player x1.0094)
    preselect_max: bool = True
    keeps: int = 64  # prospects whose letters a discard may keep
    per_tile: float = 3.0
    waste_weight: float = 1.0  # points per unit of win(c) a wasted square costs
    # a word multiplier spent on a word of few letters costs too: per unit of
    # product (at most sum_cap) the shortfall under sum_per_tile x (T + 1)
    # points, x sum_weight (docs/wordgame-rounds.md, tenth round)
    sum_weight: float = 1.0
    sum_per_tile: float = 2.0
    sum_cap: float = 27.0
    late: float = 0.3  # waste penalty fades over the last 30 % of the tiles
    setup_weight: float = 0.4
    setups: int = 16  # hot (square, letter) pairs tried as setups
    table_rows: int = 64
    phi_weight: float = 1.0
    first_placements: int = 3
    budget_ms: float = 8000.0
    use_setups: bool = True
    use_table: bool = True
    use_phi: bool = True
    # once the queue left is all visible, search the plays to the end (last_tiles)
    last_tiles: bool = True
    # a play that throws back a letter of a play the whole hand makes now does
    # not count that play among its prospects, as a discard does not: waiting
    # to draw the letter again only costs turns (seed 640 held CAPRICCIO for
    # 25 turns of 2-8 point plays; nineteenth round)
    thrown_back: bool = True
    fixed_share: float = 1.0  # with fixed effort: the share of lines and plays searched
    max_share: float = 1.0  # by the clock: never more than this share


@dataclass
class TurnContext:
    """What a turn's valuation works from, fixed once at its start."""

    started: float  # perf_counter at the turn's start
    elapsed_ms: float  # the case's time used, as the referee reports it
    hand: np.ndarray  # (26,) letter counts
    vis: np.ndarray  # (26,) the visible tiles' counts
    tiles_left: int  # hand and queue
    allowance: float  # this turn's share of the budget, ms (inf at fixed effort)
    unknown: int  # unknown draws a prospect may wait for
    table3: np.ndarray  # arrival chances of every need of up to three letters
    mode: str  # the clock's mode: full, lean or panic
    caps: np.ndarray  # (2, n) wild tiles searched per line


@dataclass
class Prospects:
    """The rows actions are valued against, with what the valuation reads
    of them."""

    rows: Rows
    needs: np.ndarray  # (R, 26) each row's new letters
    made: np.ndarray  # indices of the rows the whole hand makes now
    upper: np.ndarray  # (R,) each row's best value
    order: np.ndarray  # the rows by falling ``upper`` (stable)


@dataclass
class PlayBatch:
    """A turn's legal plays, with what valuing them needs."""

    meta: np.ndarray  # the search's meta rows of the plays
    tiles: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # squares, letters, count, stamp
    leaves: np.ndarray  # (M, 26) the hand each play leaves
    leave_idx: np.ndarray  # (M,) each play's leave among the distinct ones
    haves: np.ndarray  # (L, 26) the distinct leaves plus the visible tiles
    lvals: np.ndarray  # (L, R) each distinct leave's value of each row
    order: np.ndarray  # the rows best bound first


class ProspectPlayer:
    name = "prospect"

    def __init__(
        self,
        lexicon: PlayerLexicon,
        fixed_effort: bool = False,
        config: ProspectConfig | None = None,
    ) -> None:
        self.lexicon = lexicon
        self.engine = TrieEngine(cast(Lexicon, lexicon))  # the engine reads only .trie
        self.fixed = fixed_effort
        self.config = config or ProspectConfig()
        # what the players did, for the run's stats: a count appears once it is 1
        self.counts: Counter[str] = Counter(turns=0, reevaluated=0, dropped_lines=0)
        self.last_choice: Choice | None = None  # the last turn's decision (traces)

    # -- set-up -------------------------------------------------------------
    def start(self, setup: GameSetup) -> None:
        self.kit = Kit(setup, self.lexicon)
        n = setup.n
        self.board = np.zeros(n * n, dtype=np.uint8)
        self.clock = Clock(n * n, self.config.budget_ms)
        self.place_s = place_table(self.lexicon, setup.t, self.kit.probs, self.kit.values)
        self.wm_flat = self.kit.rules.word_mult.astype(np.int64)
        self._derive()
        self.setups = SetupFinder(self.kit)
        self.table = TargetLine(self.kit)

    def stats(self) -> dict[str, int]:
        return dict(self.counts)

    # -- the turn -------------------------------------------------------------
    def act(self, turn: TurnView) -> str:
        started = time.perf_counter()
        if not self.fixed and self.clock.past_stop_mark(turn.elapsed_ms):
            self.counts["stopped_by_clock"] += 1
            self.last_choice = Choice(Stop(), 0.0)
            return Stop().line()
        if not self.fixed and (
            self.clock.past_rescue_mark(turn.elapsed_ms) or self._slow_first_turn(turn)
        ):
            # the last resort, so that no case runs out of time: the best score now
            choice = self._rescue(turn)
        else:
            choice = self.decide(turn)
        self.last_choice = choice
        if not self.fixed:
            self.clock.steer((time.perf_counter() - started) * 1000)
        action = choice.action
        if isinstance(action, Play):
            self._apply(action)
        return action.line()

    def _slow_first_turn(self, turn: TurnView) -> bool:
        """The board is empty and the start-up was too slow for its work
        (``Clock.slow_start``)."""
        if self.board.any() or not self.clock.slow_start(turn.elapsed_ms):
            return False
        self.counts["slow_start"] += 1
        return True

    def _behind_on_first_turn(self, ctx: TurnContext) -> bool:
        """Half way through the first turn, too slow for the rest of it
        (``Clock.behind_on_first_turn``)."""
        if self.fixed:
            return False
        spent = (time.perf_counter() - ctx.started) * 1000
        if not self.clock.behind_on_first_turn(ctx.elapsed_ms, spent):
            return False
        self.counts["slow_first_turn"] += 1
        return True

    def _rescue(self, turn: TurnView) -> Choice:
        self.counts["rescue"] += 1
        position = Position(board=self.board, rack=rack_counts(turn.hand), rules=self.kit.rules)
        moves = self.engine.generate(position)
        if len(moves):
            best = int(moves.order(1)[0])
            return Choice(play_of(moves, best), float(moves.scores[best]))
        if turn.queue_left > 0:
            return Choice(Discard(turn.hand), -float(self.kit.setup.d))
        return Choice(Stop(), 0.0)

    def set_board(self, board: np.ndarray) -> None:
        """Take over a board (cell codes 0/1..26, row-major): the API's state."""
        self.board = np.ascontiguousarray(board, dtype=np.uint8).copy()
        self._derive()

    def _apply(self, play: Play) -> None:
        n = self.kit.n
        for k, ch in enumerate(play.word):
            r, c = (play.row, play.col + k) if play.horizontal else (play.row + k, play.col)
            if self.board[r * n + c] == 0:
                self.board[r * n + c] = ord(ch) - 64
        self._derive()

    def _derive(self) -> None:
        """What follows from the board, computed once each time it changes:
        its lines, its place value Phi and the window products win(c)."""
        self.bl: BoardLines = self.kit.lines(self.board)
        self.phi = self.place_value(self.bl.cells)
        self.win = window_products(self.bl.cells, self.kit.wm, self.kit.setup.t)

    def place_value(self, cells: np.ndarray) -> float:
        """Phi of a board given as its (2, n, n) line cells."""
        return float(place_value(cells, self.kit.wm, self.place_s, self.kit.setup.t))

    def line_potential(self) -> np.ndarray:
        """(2, n): product of the line's T largest empty word multipliers."""
        t = self.kit.setup.t
        wm = np.where(self.bl.cells == 0, self.kit.wm, 1).astype(np.float64)
        top = -np.sort(-wm, axis=2)[:, :, :t]
        return np.asarray(top.prod(axis=2), dtype=np.float64)

    def _search_share(self) -> float:
        """The share of the lines searched with wild tiles and of the plays
        searched again: ``fixed_share`` with a fixed effort, else the clock's
        effort up to ``max_share``."""
        cfg = self.config
        return cfg.fixed_share if self.fixed else min(self.clock.effort, cfg.max_share)

    def wild_caps(self, allowance_ms: float, mode: str = "full") -> tuple[np.ndarray, np.ndarray]:
        """Wild tiles per line: cfg.wild everywhere the time allows, from the
        hottest line down, 3 on the hottest; 0 (plays only) on the rest. Short
        of time ("lean"): one wild tile on the hottest lines only; out of time
        ("panic"): plays only."""
        cfg = self.config
        n = self.kit.n
        pot = self.line_potential()
        order = np.argsort(-pot, axis=None, kind="stable")
        caps = np.zeros((2, n), dtype=np.int64)
        if mode != "full":
            self.counts["dropped_lines"] += 2 * n
            if mode == "lean":
                caps.reshape(-1)[order[: cfg.hot_lines]] = 1
            return caps, pot
        share = self._search_share()
        lines = max(cfg.hot_lines, min(2 * n, round(share * 2 * n)))
        self.counts["dropped_lines"] += 2 * n - lines
        flat = caps.reshape(-1)
        flat[order[:lines]] = cfg.wild
        # the hottest lines look three tiles away while the clock allows it
        hot = 3 if self.fixed or self.clock.effort > 0.5 else (2 if self.clock.effort > 0.15 else 1)
        flat[order[: cfg.hot_lines]] = max(min(cfg.wild, hot), hot)
        return caps, pot

    def decide(self, turn: TurnView) -> Choice:
        ctx = self._context(turn)
        self._prepare_plan(turn, ctx.hand, ctx.vis)
        # 1. plays and prospects
        if self.bl.empty:
            meta, codes = self._first_rows(ctx.hand, ctx.vis, ctx.caps)
            if self._behind_on_first_turn(ctx):
                return self._rescue(turn)
        else:
            # the rows kept are the best by value: the search drops the rest
            meta, codes, _ = self.kit.search(
                self.bl,
                ctx.hand,
                ctx.vis,
                ctx.caps,
                0,
                self.config.min_score3,
                keep_best=self._rows_kept(),
                table3=ctx.table3,
            )
        legal = (meta[:, META_MISSING] == 0) & (meta[:, META_VISIBLE] == 0)
        prospects = self._prospects(ctx, meta, codes, legal)
        moves = np.nonzero(legal)[0]
        alternatives: list[Alternative] = []
        if len(moves):
            alternatives.extend(self._plays(ctx, prospects, meta[moves], codes[moves]))
        # discards toward the best prospects
        if turn.queue_left > 0 and len(prospects.rows):
            alternatives.extend(self._discards(ctx, prospects))
        return self._choose(turn, ctx, alternatives, can_play=bool(len(moves)))

    def _context(self, turn: TurnView) -> TurnContext:
        """The turn's hand, horizon, clock mode and search caps."""
        started = time.perf_counter()
        self.counts["turns"] += 1
        tiles_left = turn.queue_left + len(turn.hand)
        if self.fixed:
            allowance, mode = float("inf"), "full"
        else:
            allowance, mode = self.clock.begin_turn(turn.elapsed_ms, tiles_left)
        unknown = max(0, min(self._horizon(turn), turn.queue_left) - len(turn.visible))
        self.counts[mode] += 1
        caps, _ = self.wild_caps(allowance, mode)
        return TurnContext(
            started=started,
            elapsed_ms=turn.elapsed_ms,
            hand=counts26(turn.hand),
            vis=counts26(turn.visible),
            tiles_left=tiles_left,
            allowance=allowance,
            unknown=unknown,
            table3=self.kit.table3(unknown),
            mode=mode,
            caps=caps,
        )

    def _rows_kept(self) -> int:
        """How many of the search's rows, the best by value, actions are valued
        against this turn."""
        cfg = self.config
        if self.fixed:
            return cfg.rows_kept
        return max(100, round(cfg.rows_kept * min(1.0, 2 * self.clock.effort)))

    def _prospects(
        self, ctx: TurnContext, meta: np.ndarray, codes: np.ndarray, legal: np.ndarray
    ) -> Prospects:
        """The rows actions are valued against: the search's best prospects
        (against the hand and the visible tiles), the setups' and the
        target-line table's."""
        cfg = self.config
        kit = self.kit
        n = kit.n
        hand, vis = ctx.hand, ctx.vis
        all_rows = rows_from_search(meta, codes, n, with_foot=False)
        have = (hand + vis)[None, :]
        base = (
            row_values(have, all_rows, ctx.table3, kit.probs, ctx.unknown)[0]
            if len(all_rows)
            else np.zeros(0, dtype=float)
        )
        keep_idx = np.argsort(-base, kind="stable")[: self._rows_kept()]
        prospects = with_footprints(take(all_rows, keep_idx), n)
        extra: list[Rows] = []
        if cfg.use_setups and not self.bl.empty and ctx.mode == "full":
            extra.append(
                self.setups.rows(
                    self.bl,
                    hand,
                    vis,
                    meta[legal],
                    codes[legal],
                    ctx.caps,
                    cfg.setups if self.fixed else max(2, round(cfg.setups * self.clock.effort)),
                    cfg.setup_weight,
                )
            )
        if cfg.use_table and not self.bl.empty and ctx.mode != "panic":
            # the table is rebuilt only when that fits in 15 % of the budget left
            rebuild_ok = self.fixed or (
                ctx.mode == "full" and self.table.build_ms < 0.15 * (cfg.budget_ms - ctx.elapsed_ms)
            )
            extra.append(
                self.table.rows(
                    self.bl,
                    hand + vis,
                    ctx.table3,
                    ctx.unknown,
                    cfg.table_rows,
                    cfg.setup_weight,
                    rebuild_ok,
                )
            )
        extra = [
            self._best_of(x, hand + vis, ctx.table3, ctx.unknown, cfg.table_rows) for x in extra
        ]
        rows = concat([prospects, *extra], n)
        # the rows' new letters, and which are plays the whole hand makes now:
        # neither counts for a leave that throws back one of their letters
        needs = need_counts(rows)
        upper, order = falling_bounds(rows)
        return Prospects(
            rows=rows,
            needs=needs,
            made=np.nonzero(in_hand(hand, rows, needs))[0],
            upper=upper,
            order=order,
        )

    def _plays(
        self, ctx: TurnContext, prospects: Prospects, mmeta: np.ndarray, mcodes: np.ndarray
    ) -> list[Alternative]:
        """The legal plays valued (section 2): score - waste + the best
        prospect and plan each leaves + the setups it advances + the slots it
        spoils; the best are then searched again on the board after them."""
        cfg = self.config
        n = self.kit.n
        hand, vis = ctx.hand, ctx.vis
        rows = prospects.rows
        tile_sq, tile_lt, tile_n, stamp, used = play_tiles(
            mmeta[:, 0].astype(np.int64),
            mmeta[:, META_LINE].astype(np.int64),
            mmeta[:, META_START].astype(np.int64),
            mmeta[:, META_LEN].astype(np.int64),
            mcodes,
            n,
        )
        leaves = hand[None, :] - used
        uniq, leave_idx = unique_submultisets(leaves, hand)
        haves = np.ascontiguousarray(uniq + vis[None, :])
        # the leaves' row values are computed as the walks read them; only the
        # plays made now are valued first, to drop those a leave throws back
        lvals = np.full((len(haves), len(rows)), UNKNOWN)
        made = prospects.made
        if cfg.thrown_back and len(made):
            made_vals = row_values(haves, take(rows, made), ctx.table3, self.kit.probs, ctx.unknown)
            drop_thrown_back(made_vals, haves, np.arange(len(made)), prospects.needs[made])
            lvals[:, made] = made_vals
        self._pre = pre_index(rows.direction, rows.line, rows.start, rows.length, rows.codes, n)
        batch = PlayBatch(
            meta=mmeta,
            tiles=(tile_sq, tile_lt, tile_n, stamp),
            leaves=leaves,
            leave_idx=leave_idx.astype(np.int64),
            haves=haves,
            lvals=lvals,
            order=prospects.order,
        )
        skip_none = np.zeros((2, n), dtype=np.bool_)  # every prospect row counts
        best, _, real, _, table_real = self._play_values(batch, prospects, ctx, None, skip_none)
        score = mmeta[:, META_SCORE].astype(np.float64)
        pen = self._penalties(tile_sq, tile_n, self._waste_weight(ctx.tiles_left), score)
        plan = self._plan_moves(leaves, stamp, tile_sq, tile_lt, tile_n)
        spoil = self._spoil(stamp)
        future, _, _ = self._future(best, plan)
        ahead = np.maximum(future, real) if cfg.preselect_max else future + real
        top = np.argsort(-(score - pen + ahead + spoil), kind="stable")

        def valued(m: int, future_terms: dict[str, float]) -> tuple[int, float, dict[str, float]]:
            terms = {
                "score": float(score[m]),
                "waste": -float(pen[m]),
                **future_terms,
                "target_line": float(table_real[m]),
                "spoil": float(spoil[m]),
            }
            return m, sum(terms.values()), terms

        # 2. the best plays again, on the board after them
        evaluated: list[tuple[int, float, dict[str, float]]] = []
        at_least = {
            "full": 4 if self.fixed or self.clock.effort >= 0.1 else 2,
            "lean": 1,
            "panic": 0,
        }[ctx.mode]
        reeval = max(at_least, round(self._search_share() * cfg.reeval))
        for rank, m in enumerate(top[:reeval]):
            spent = (time.perf_counter() - ctx.started) * 1000
            if (
                not self.fixed
                and rank >= at_least
                and (spent > ctx.allowance or ctx.mode == "panic")
            ):
                break
            terms = self._reevaluate(int(m), batch, prospects, ctx)
            # a setup's plays are found again on the board after the play, so
            # only target-line entries (too far for that search) count here
            _, terms["prospect"], terms["plan"] = self._future(
                np.array([terms["prospect"]]), None if plan is None else plan[m : m + 1]
            )
            evaluated.append(valued(int(m), terms))
        if not evaluated:
            m = int(top[0])
            _, pro, pla = self._future(best[m : m + 1], None if plan is None else plan[m : m + 1])
            evaluated.append(valued(m, {"prospect": pro, "plan": pla}))
        self.counts["reevaluated"] += len(evaluated)
        return [(self._play_of(mmeta[m], mcodes[m]), v, terms) for m, v, terms in evaluated]

    def _play_values(
        self,
        batch: PlayBatch,
        prospects: Prospects,
        ctx: TurnContext,
        m: int | None,
        skip: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``value.play_values`` for every play of the batch (``m`` None) or
        for play ``m`` alone, the rows on the lines ``skip`` marks left out."""
        tiles = batch.tiles
        leave_idx = batch.leave_idx
        if m is not None:
            sl = slice(m, m + 1)
            tiles = (tiles[0][sl], tiles[1][sl], tiles[2][sl], tiles[3][sl])
            leave_idx = leave_idx[sl]
        values: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] = play_values(
            tiles,
            leave_idx,
            batch.haves,
            batch.lvals,
            batch.order,
            prospects.upper,
            prospects.rows,
            self._pre,
            ctx.table3,
            self.kit.probs,
            ctx.unknown,
            self.kit.n,
            skip,
            self.wm_flat,
        )
        return values

    def _choose(
        self, turn: TurnView, ctx: TurnContext, alternatives: list[Alternative], can_play: bool
    ) -> Choice:
        """The best alternative (searched to the end once the tiles to come
        are all known), with the next best; the clock told what it used."""
        cfg = self.config
        if not alternatives:
            return Choice(Stop(), 0.0, {})
        alternatives.sort(key=lambda a: -a[1])
        action, value, terms = alternatives[0]
        if (
            isinstance(action, Discard)
            and not can_play
            and terms.get("prospect", 0.0) + terms.get("plan", 0.0) < 1.0
        ):
            # nothing to play and nothing worth waiting for
            return Choice(Stop(), 0.0, {}, alternatives[:5])
        rest = alternatives[1:21]
        if cfg.last_tiles and turn.queue_left <= len(turn.visible) and ctx.mode != "panic":
            # the clock's lean mode reaches most games' last tiles; a narrower
            # search there (8 sequences to the end, not 64)
            widths = LEAN_WIDTHS if ctx.mode == "lean" else WIDTHS
            (action, value, terms), rest = self._last_tiles(turn, alternatives, widths)
        if isinstance(action, Play):
            self.clock.observe(self._placed(action))
        elif isinstance(action, Discard):
            self.clock.observe(len(action.letters))
        self._chosen(action)
        return Choice(action, value, terms, rest)

    def _last_tiles(
        self, turn: TurnView, ranked: list[Alternative], widths: tuple[int, ...] = WIDTHS
    ) -> tuple[Alternative, list[Alternative]]:
        """With every tile to come known, each action offered (the first
        ``LAST_TILES_OFFERED`` of the ranking, the search's best first play and
        stop) valued by what it scores from here to the end (``last_tiles``):
        the best is made, and the ranking's order breaks ties."""
        search = LastTiles(self.engine, self.kit.rules, turn.visible[: turn.queue_left], widths)
        hand = hand_counts(turn.hand)
        _, moves, best_i = search.best_play(self.board, hand)
        self.counts["last_tiles"] += 1
        # a play is found by the tiles it lays, not its spelling (a one-tile
        # play has two)
        listed = {self._laid(play_of(moves, i)): i for i in range(len(moves))}
        offered = [a for a, _, _ in ranked[:LAST_TILES_OFFERED]]
        if best_i >= 0:
            offered.append(play_of(moves, best_i))
        offered.append(Stop())
        valued: list[Alternative] = []
        seen: set[object] = set()
        for action in offered:
            key = self._laid(action) if isinstance(action, Play) else action
            if key in seen:
                continue
            seen.add(key)
            terms = self._searched(action, search, moves, listed, hand)
            if terms is not None:
                valued.append((action, sum(terms.values()), terms))
        valued.sort(key=lambda a: -a[1])  # stable: the ranking breaks ties
        if valued[0][0] != ranked[0][0]:
            self.counts["last_tiles_changed"] += 1
        return valued[0], valued[1:]

    def _searched(
        self,
        action: Play | Discard | Stop,
        search: LastTiles,
        moves: MoveList,
        listed: dict[frozenset[tuple[int, str]], int],
        hand: Hand,
    ) -> dict[str, float] | None:
        """What an action scores from here by the search: its own points and
        the best sequence of plays after it (None: a play not listed)."""
        if isinstance(action, Stop):
            return {}
        if isinstance(action, Play):
            i = listed.get(self._laid(action))
            if i is None:
                return None
            board, left, drawn = search.after(self.board, hand, 0, moves, i)
            score = float(moves.scores[i])
            return {"score": score, "last_tiles": float(search.value(board, left, drawn, 1))}
        kept = np.array(hand) - np.array(hand_counts(action.letters))
        used = len(action.letters)
        refilled = refill(kept, search.queue, 0, used)
        rest = float(search.value(self.board, refilled, min(used, len(search.queue)), 0))
        return {"discard_cost": -float(self.kit.setup.d), "last_tiles": rest}

    # -- hooks for a player that plans (``planner``) ------------------------
    def _horizon(self, turn: TurnView) -> int:
        """Draws a prospect may wait for this turn."""
        return self.config.horizon

    def _prepare_plan(self, turn: TurnView, hand: np.ndarray, vis: np.ndarray) -> None:
        """Called each turn before any action is valued."""

    def _plan_moves(
        self,
        leaves: np.ndarray,
        stamp: np.ndarray,
        tile_sq: np.ndarray,
        tile_lt: np.ndarray,
        tile_n: np.ndarray,
    ) -> np.ndarray | None:
        """Per play, the value of the plan after it (None: no plan)."""
        return None

    def _spoil(self, stamp: np.ndarray) -> np.ndarray:
        """Per play (by its footprint ``stamp``), the value of the good
        windows it spoils, as a charge (<= 0); none here."""
        return np.zeros(len(stamp))

    def _plan_keeps(self, hand: np.ndarray) -> list[np.ndarray]:
        """Extra hands to keep that the discards should try."""
        return []

    def _plan_keep_value(self, keep: np.ndarray) -> float | None:
        return None

    def _future(
        self, prospect: np.ndarray, plan: np.ndarray | None
    ) -> tuple[np.ndarray, float, float]:
        """(future value per action, and for the first action its prospect and
        plan parts). The prospect player has no plan."""
        return prospect, float(prospect[0]) if len(prospect) else 0.0, 0.0

    def _chosen(self, action: Play | Discard | Stop) -> None:
        """Called with the action about to be sent."""

    def _discard_tile_cost(self) -> float:
        return 0.0

    def _best_of(
        self, rows: Rows, have: np.ndarray, table3: np.ndarray, unknown: int, count: int
    ) -> Rows:
        """The ``count`` rows of most value against ``have``."""
        if len(rows) <= count:
            return rows
        return take(rows, top_rows(have, rows, count, table3, self.kit.probs, unknown))

    def _laid(self, play: Play) -> frozenset[tuple[int, str]]:
        """The (square, letter) pairs a play lays on the empty squares."""
        n = self.kit.n
        out = []
        for k, ch in enumerate(play.word):
            r, c = (play.row, play.col + k) if play.horizontal else (play.row + k, play.col)
            if self.board[r * n + c] == 0:
                out.append((r * n + c, ch))
        return frozenset(out)

    def _placed(self, play: Play) -> int:
        return len(self._laid(play))

    def _play_of(self, meta_row: np.ndarray, code_row: np.ndarray) -> Play:
        d, line, s, ln = (int(x) for x in meta_row[:4])
        word = "".join(chr(64 + (int(c) & 31)) for c in code_row[:ln])
        row, col = (line, s) if d == 0 else (s, line)
        return Play(row, col, d == 0, word)

    def _first_rows(
        self, hand: np.ndarray, vis: np.ndarray, caps: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Plays and prospects of the first move (see ``first``)."""
        kit = self.kit
        n = kit.n
        bare_caps = np.full((2, n), -1, dtype=np.int64)
        bare_caps[0, 0] = min(int(caps.max()), 2)
        ones = np.ones_like(kit.lm)
        bl = self.bl
        saved = kit.lm, kit.wm
        kit.lm, kit.wm = ones, ones
        try:
            meta, codes, _ = kit.search(bl, hand, vis, bare_caps, 0, 0)
        finally:
            kit.lm, kit.wm = saved
        words = meta[:, META_START] == 0
        meta, codes = meta[words], codes[words]
        placed = best_placements(
            codes,
            meta[:, META_LEN].astype(np.int64),
            kit.values.astype(np.int64),
            kit.lm,
            kit.wm,
            self.config.first_placements,
            META_WIDTH,
        )
        extra = self._more_first_rows(meta, codes)
        if extra is None:
            return (placed[0], placed[1])
        return (np.concatenate([placed[0], extra[0]]), np.concatenate([placed[1], extra[1]]))

    def _more_first_rows(
        self, meta: np.ndarray, codes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """Other first moves worth valuing (words on a bare line given)."""
        return None

    def _reevaluate(
        self, m: int, batch: PlayBatch, prospects: Prospects, ctx: TurnContext
    ) -> dict[str, float]:
        """Play ``m``'s future searched again on the board after it (only the
        lines it changes, with the hand it leaves), and its change of Phi."""
        kit = self.kit
        n = kit.n
        tile_sq, tile_lt, tile_n, _ = batch.tiles
        post = self.board.copy()
        for t in range(int(tile_n[m])):
            post[tile_sq[m, t]] = tile_lt[m, t] + 1
        bl2 = kit.lines(post)
        d, line, s, ln = (int(x) for x in batch.meta[m, :4])
        changed = np.zeros((2, n), dtype=np.bool_)
        changed[d, max(0, line - 1) : line + 2] = True
        changed[1 - d, max(0, s - 1) : s + ln + 1] = True
        caps2 = np.where(changed, ctx.caps, -1).astype(np.int64)
        leave = batch.leaves[m]
        old_best, _, _, _, _ = self._play_values(batch, prospects, ctx, m, changed)
        # a row is worth at most its score, and only one worth more than the
        # other lines' best changes the answer: the search keeps no row scoring
        # under that, and stops its walks early (the same answer sooner)
        other = float(old_best[0])
        floor = math.floor(other) if math.isfinite(other) and other > 0 else 0
        meta2, codes2, _ = kit.search(
            bl2, leave, ctx.vis, caps2, 0, self.config.min_score3, floor=floor
        )
        new_best = 0.0
        have2 = (leave + ctx.vis)[None, :]
        if len(meta2):
            r2 = rows_from_search(meta2, codes2, n, with_foot=False)
            thrown = np.zeros(len(r2), dtype=np.bool_)
            if self.config.thrown_back:
                # the same plays found again on the lines this play changes
                again, needs2 = same_rows(r2, prospects.rows, prospects.made)
                thrown[again[thrown_back(have2, needs2)[0]]] = True
            upper2, order2 = falling_bounds(r2)
            # the answer is the better of the two, so only a row worth more
            # than the other lines' best needs valuing
            at_least = max(0.0, other) if math.isfinite(other) else 0.0
            new_best = float(
                best_row_values(
                    have2, r2, order2, upper2, thrown, ctx.table3, kit.probs, ctx.unknown, at_least
                )[0]
            )
        terms = {"prospect": max(new_best, other)}
        if self.config.use_phi:
            phi2 = self.place_value(bl2.cells)
            terms["place"] = self.config.phi_weight * (phi2 - self.phi)
        return terms

    def _penalties(
        self,
        tile_sq: np.ndarray,
        tile_n: np.ndarray,
        waste_weight: float,
        scores: np.ndarray | None = None,
    ) -> np.ndarray:
        """Per play, the waste penalty (``value.waste_penalties``) at
        ``waste_weight``; the letter-sum term only for plays whose ``scores``
        are known (None leaves it out)."""
        cfg = self.config
        sum_weight = cfg.sum_weight
        if scores is None:
            scores, sum_weight = np.zeros(len(tile_n)), 0.0
        pen: np.ndarray = waste_penalties(
            tile_sq,
            tile_n,
            self.wm_flat,
            self.win,
            waste_weight,
            cfg.per_tile,
            scores,
            cfg.sum_per_tile * (self.kit.setup.t + 1),
            sum_weight,
            cfg.sum_cap,
        )
        return pen

    def _waste_weight(self, tiles_left: int) -> float:
        """Points per unit of win(c) a wasted square costs: the full weight,
        fading linearly over the last ``late`` share of the tiles."""
        cfg = self.config
        return cfg.waste_weight * min(1.0, tiles_left / (cfg.late * self.kit.n * self.kit.n))

    def _discards(self, ctx: TurnContext, prospects: Prospects) -> list[Alternative]:
        """Discards keeping the letters of the best prospects (or of the
        plan), each worth -D + the best future of the hand it keeps."""
        cfg = self.config
        kit = self.kit
        hand, vis, rows = ctx.hand, ctx.vis, prospects.rows
        cand = prospects.order[: cfg.keeps]
        keeps = [np.zeros(26, dtype=np.int64), *self._plan_keeps(hand)]
        keeps.extend(np.minimum(hand[None, :], prospects.needs[cand]))
        uniq, _ = unique_submultisets(np.stack(keeps), hand)
        uniq = uniq[(uniq.sum(axis=1) < hand.sum())]  # discard at least one tile
        if not len(uniq):
            return []
        haves = np.ascontiguousarray(uniq + vis[None, :])
        # a play the hand makes now is no reason to discard, whether the keep
        # holds its letters or throws one back to draw it again: waiting for
        # it only costs D (a turn a tile drawn), and its row carries none of
        # the waste and place terms the same play made now is charged
        made = np.zeros(len(rows), dtype=np.bool_)
        made[prospects.made] = True
        best = best_row_values(
            haves, rows, prospects.order, prospects.upper, made, ctx.table3, kit.probs, ctx.unknown
        )
        out: list[Alternative] = []
        for keep, b in zip(uniq, best, strict=True):
            letters = letters_of(hand - keep)
            plan = self._plan_keep_value(keep)
            _, pro, pla = self._future(np.array([b]), None if plan is None else np.array([plan]))
            terms = {
                "discard_cost": -float(kit.setup.d),
                "prospect": pro,
                "plan": pla,
                "burn": -self._discard_tile_cost() * len(letters),
            }
            out.append((Discard(letters), sum(terms.values()), terms))
        return out
