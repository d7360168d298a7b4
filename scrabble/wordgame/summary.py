"""Summaries of a run: mean score, ratios to a baseline with a bootstrap CI, and
the Topcoder-style relative score."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

BOOTSTRAP_SAMPLES = 2000
_CASE_LINE = re.compile(r"^(\S+) n=.*? score=\s*(\d+) ")
_CASE_SIZES = re.compile(r"^(\S+) n=\s*(\d+) t=\s*(\d+) x=\s*(\d+) d=\s*(\d+) ")
SIZE_CLASSES = ("n", "t", "x", "d")


def ratios(scores: Sequence[int], baseline: Sequence[int]) -> list[float]:
    """Per-case ratios; a score of 0 counts as 1 point so a ratio is always
    defined and positive (a failed case still weighs heavily: 1/baseline)."""
    return [max(s, 1) / max(b, 1) for s, b in zip(scores, baseline, strict=True)]


def geometric_mean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else 0.0


def bootstrap_ci(
    values: Sequence[float], seed: int = 1, samples: int = BOOTSTRAP_SAMPLES
) -> tuple[float, float]:
    """95 % percentile bootstrap interval of the geometric mean (seeded)."""
    if not values:
        return (0.0, 0.0)
    rng = random.Random(seed)
    logs = [math.log(v) for v in values]
    k = len(logs)
    means = sorted(math.exp(sum(rng.choice(logs) for _ in range(k)) / k) for _ in range(samples))
    return (means[int(0.025 * samples)], means[int(0.975 * samples) - 1])


def relative_scores(scores: Sequence[int], baseline: Sequence[int]) -> tuple[float, float]:
    """Topcoder's relative scoring over the two players compared: per case
    score / best score of the case (0 if both are 0), summed, scaled to 100 a
    case at most; (player, baseline)."""
    mine = theirs = 0.0
    for s, b in zip(scores, baseline, strict=True):
        best = max(s, b)
        if best > 0:
            mine += s / best
            theirs += b / best
    k = len(scores) or 1
    return (100 * mine / k, 100 * theirs / k)


def case_scores(path: Path) -> dict[str, int]:
    """Per case id, the player's score from the case lines a ``run`` printed."""
    scores = {}
    for line in path.read_text().splitlines():
        found = _CASE_LINE.match(line)
        if found:
            scores[found.group(1)] = int(found.group(2))
    return scores


def case_sizes(path: Path) -> dict[str, dict[str, int]]:
    """Per case id, its N, T, X and D as the case lines a ``run`` printed
    them (keys ``n``, ``t``, ``x``, ``d``)."""
    sizes = {}
    for line in path.read_text().splitlines():
        found = _CASE_SIZES.match(line)
        if found:
            values = map(int, found.groups()[1:])
            sizes[found.group(1)] = dict(zip(SIZE_CLASSES, values, strict=True))
    return sizes


def size_class(name: str, value: int) -> str:
    """A case's class by one of N, T, X, D: N in bands of three sizes (a band
    of one size holds too few cases of a 200-case set), the others as they are."""
    if name == "n":
        low = 10 + 3 * ((value - 10) // 3)
        return f"{low}-{min(low + 2, 20)}"
    return str(value)


def share_class(share: float) -> str:
    """A case's class by its word-multiplier share, in bands of 0.05."""
    low = min(int(share * 20 + 1e-9), 19) / 20
    return f"{low:.2f}-{low + 0.05:.2f}"


PairedFigures = tuple[int, int, float, tuple[float, float]]


def _pair_ratios(
    pairs: Sequence[tuple[dict[str, int], dict[str, int]]],
) -> list[tuple[str, float]]:
    values: list[tuple[str, float]] = []
    for a, b in pairs:
        both = [i for i in a if i in b]
        values += zip(both, ratios([b[i] for i in both], [a[i] for i in both]), strict=True)
    return values


def _figures(values: Sequence[float]) -> PairedFigures:
    changed = sum(1 for v in values if v != 1.0)
    return len(values), changed, geometric_mean(values), bootstrap_ci(values)


def paired(pairs: Sequence[tuple[dict[str, int], dict[str, int]]]) -> PairedFigures:
    """Two players on the same cases (several runs pooled): (cases, cases
    whose scores differ, geometric mean of b / a per case, its 95 % CI)."""
    return _figures([ratio for _, ratio in _pair_ratios(pairs)])


def paired_by(
    pairs: Sequence[tuple[dict[str, int], dict[str, int]]], class_of: Mapping[str, str]
) -> dict[str, PairedFigures]:
    """``paired`` within each class of cases (``class_of``: case id to its
    class); a case with no class is left out. Classes in sorted order."""
    by_class: dict[str, list[float]] = {}
    for case_id, ratio in _pair_ratios(pairs):
        if case_id in class_of:
            by_class.setdefault(class_of[case_id], []).append(ratio)
    return {name: _figures(by_class[name]) for name in sorted(by_class)}
