"""Millipoints: the integer unit of every score and equity inside the engine.

Integers keep the order of moves exact (no float ties broken by rounding
noise); a point is 1000 millipoints. Arrays of millipoints are int64. The two
conversions below are used only where figures leave the engine (JSON) or enter
it from a person (settings given in points).
"""

from __future__ import annotations

from typing import Final, NewType

Millipoints = NewType("Millipoints", int)

PER_POINT: Final = 1000


def from_points(points: int) -> Millipoints:
    return Millipoints(points * PER_POINT)


def to_points(value: int) -> float:
    """Points with three decimals, as the API shows them."""
    return value / PER_POINT
