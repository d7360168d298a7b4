"""Every default and weight of the equity, in one object.

The API, self-play and the benchmarks take an ``EquityOptions``; a tuning run
overrides a field by name (``scripts/selfplay.py --set leave_weight_pct=70``)
instead of patching module constants. Percentages are integers so the terms
stay integer millipoints; where each default comes from is in ``docs/``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

RANK_BY = ("score", "equity")
RISK_MODES = ("neutral", "averse")


@dataclass(frozen=True)
class EquityOptions:
    # what to compute and how to rank
    rank_by: str = "equity"  # "equity" | "score"
    risk: str = "neutral"  # "neutral" | "averse"
    adversarial: bool = False  # compute the risk term (the opponent's replies)
    prospects: bool = True  # compute the prospect term
    budget_ms: float = 300.0  # wall-clock safety net for the expensive terms
    max_moves: int = 4  # deterministic cap on moves given the expensive terms
    seed: int = 0  # sampled opponent racks (risk)
    upcoming: tuple[int, ...] | None = None  # visible upcoming tiles, in order (0..26)
    # leave (docs/leaves.md, docs/equity.md): the exhaustive table's value
    leave_weight_pct: int = 100
    # premium waste (docs/waste.md)
    premium_waste: bool = True
    # the exact endgame search once the bag is empty (docs/endgame.md)
    endgame_search: bool = True
    zero_turns: int = 0  # consecutive scoreless turns before this one (a CGP's count)
    waste_ref_base: int = 10_800  # millipoints: mean main-word base over DW/TW plays
    waste_weight_pct: int = 50  # share of the shortfall charged
    per_tile: int = 250  # millipoints per tile placed
    fade_tiles: int = 30  # below this many unseen tiles the waste charge fades to 0
    # prospect (docs/prospect.md)
    prospect_weight_pct: int = 50
    max_extra: int = 3  # a prospect is 1..3 tiles away
    wild_tile_budget: int = 6  # leave + wild blanks searched at once (bounds the cost)
    # risk (docs/risk.md)
    samples: int = 8  # sampled opponent racks
    risk_weight_pct: int = 100  # share of (best reply after - before) charged
    cvar_share_pct: int = 10  # the tail the CVaR averages
    cvar_penalty_pct: int = 50  # averse: minus this share of (CVaR - expected best reply)

    def with_settings(self, settings: list[str]) -> EquityOptions:
        """``NAME=VALUE`` overrides, each value parsed as the field's type."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, object] = {}
        for item in settings:
            name, _, value = item.partition("=")
            if name not in fields or not value:
                raise ValueError(f"unknown setting {item!r}; known: {', '.join(fields)}")
            current = getattr(self, name)
            if isinstance(current, bool):
                changes[name] = value.lower() in ("1", "true", "yes")
            elif isinstance(current, int):
                changes[name] = int(value)
            elif isinstance(current, float):
                changes[name] = float(value)
            else:
                changes[name] = value
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]
