"""WordGame cases: the case-file format (JSON lines) and the seeded generator.

Generator (the contract's default), all draws from ``random.Random(seed)`` in
this order: N, T, X, D (uniform integers over their ranges), the letter- and
word-multiplier densities pL and pW (uniform in [0.05, 0.30]); then per square,
row by row, u = random(): u < pL a letter multiplier, pL <= u < pL + pW a word
multiplier, and for either one more random() < 0.5 picks x2 (else x3); then the
N^2 tiles with ``random.choices`` weighted by the published probabilities.
"""

from __future__ import annotations

import json
import math
import operator
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from scrabble.tiles import ALPHABET
from scrabble.wordgame import rules as wg

DENSITY_RANGE = (0.05, 0.30)
PROBABILITY_DIGITS = 6  # published (and drawn from) rounded to this many places


@dataclass(frozen=True)
class Case:
    id: str
    seed: int
    n: int
    t: int
    x: int
    d: int
    premiums: tuple[str, ...]
    tiles: str
    lexicon: str
    probabilities: dict[str, float]

    def __post_init__(self) -> None:
        wg.wordgame_rules(self.n, self.premiums, self.t)  # raises on a bad map
        if not 0 <= self.x <= wg.MAX_VISIBLE:
            raise ValueError(f"{self.id}: x must be 0..{wg.MAX_VISIBLE}")
        if not 0 <= self.d <= wg.MAX_DISCARD_COST:
            raise ValueError(f"{self.id}: d must be 0..{wg.MAX_DISCARD_COST}")
        if len(self.tiles) != self.n * self.n or not set(self.tiles) <= set(ALPHABET):
            raise ValueError(f"{self.id}: tiles must be exactly n*n letters A-Z")
        if sorted(self.probabilities) != list(ALPHABET):
            raise ValueError(f"{self.id}: probabilities must name A..Z")

    @property
    def word_share(self) -> float:
        """The share of the squares holding a word multiplier: what most sets a
        case's ratio to greedy apart (1.4x on the sparsest boards, 3-4x on the
        densest; docs/wordgame.md)."""
        return sum(row.count("D") + row.count("T") for row in self.premiums) / self.n**2

    def to_json(self) -> str:
        body = asdict(self)
        body["premiums"] = list(self.premiums)
        return json.dumps(body, separators=(", ", ": "))

    @classmethod
    def from_json(cls, line: str) -> Case:
        """One case-file line; ``ValueError`` naming the field for anything
        malformed (case files may be written by hand or by other testers)."""
        try:
            body = json.loads(line)
        except json.JSONDecodeError as err:
            raise ValueError(f"not JSON ({err.msg})") from None
        if not isinstance(body, dict):
            raise ValueError("a case is a JSON object")
        names = [f.name for f in fields(cls)]
        missing = [name for name in names if name not in body]
        if missing:
            raise ValueError(f"missing field {missing[0]!r}")
        unknown = sorted(set(body) - set(names))
        if unknown:
            raise ValueError(f"unknown field {unknown[0]!r}")
        for name in ("id", "tiles", "lexicon"):
            if not isinstance(body[name], str):
                raise ValueError(f"{name} must be a string")
        for name in ("seed", "n", "t", "x", "d"):
            if not isinstance(body[name], int) or isinstance(body[name], bool):
                raise ValueError(f"{name} must be an integer")
        premiums = body["premiums"]
        if not isinstance(premiums, list) or not all(isinstance(r, str) for r in premiums):
            raise ValueError("premiums must be a list of strings")
        probabilities = body["probabilities"]
        if not isinstance(probabilities, dict) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and v >= 0
            for v in probabilities.values()
        ):
            raise ValueError("probabilities must map letters to numbers >= 0")
        body["premiums"] = tuple(premiums)
        body["probabilities"] = {k: float(v) for k, v in probabilities.items()}
        return cls(**body)


def letter_probabilities(words: Iterable[str]) -> dict[str, float]:
    """Each letter's share of all letters in the words, rounded for publishing."""
    counts = dict.fromkeys(ALPHABET, 0)
    for word in words:
        for ch in word.upper():
            counts[ch] += 1
    total = sum(counts.values())
    return {ch: round(counts[ch] / total, PROBABILITY_DIGITS) for ch in ALPHABET}


def case_id(seed: int) -> str:
    return f"wg-{seed:04d}"


def generate(seed: int, probabilities: dict[str, float], lexicon: str = "enable") -> Case:
    rng = random.Random(seed)
    n = rng.randint(wg.MIN_SIZE, wg.MAX_SIZE)
    t = rng.randint(wg.MIN_HAND, wg.MAX_HAND)
    x = rng.randint(0, wg.MAX_VISIBLE)
    d = rng.randint(0, wg.MAX_DISCARD_COST)
    p_letter = rng.uniform(*DENSITY_RANGE)
    p_word = rng.uniform(*DENSITY_RANGE)
    rows = []
    for _ in range(n):
        row = []
        for _ in range(n):
            u = rng.random()
            if u < p_letter:
                row.append("d" if rng.random() < 0.5 else "t")
            elif u < p_letter + p_word:
                row.append("D" if rng.random() < 0.5 else "T")
            else:
                row.append(".")
        rows.append("".join(row))
    tiles = draw_tiles(rng, probabilities, n * n)
    return Case(
        id=case_id(seed),
        seed=seed,
        n=n,
        t=t,
        x=x,
        d=d,
        premiums=tuple(rows),
        tiles=tiles,
        lexicon=lexicon,
        probabilities=dict(probabilities),
    )


def more_tiles(case: Case, share: float) -> str:
    """``share`` x N^2 letters more for the case's queue, drawn as its own are
    (i.i.d. from its probabilities), seeded by the case: an experiment on
    whether tiles or the board bound a game (``run --more-tiles``); the
    contract's queue holds exactly N^2."""
    rng = random.Random(f"{case.id}:{case.seed}:more")
    return draw_tiles(rng, case.probabilities, round(share * case.n * case.n))


def draw_tiles(rng: random.Random, probabilities: dict[str, float], count: int) -> str:
    """``count`` letters i.i.d. from the published probabilities: the case's
    queue and an experiment's extra tiles are drawn by this one rule."""
    weights = [probabilities[ch] for ch in ALPHABET]
    return "".join(rng.choices(ALPHABET, weights=weights, k=count))


def parse_seeds(spec: str, limit: int | None = None) -> list[int]:
    """'1-100' or '7' or '1-5,9' -> the seeds, in order; more than ``limit``
    seeds is refused before the list is built."""
    ranges: list[range] = []
    for part in spec.split(","):
        lo, sep, hi = part.strip().partition("-")
        if not lo.isdigit() or (sep and not hi.isdigit()):
            raise ValueError(f"seeds: {part!r} is not N or A-B")
        a, b = int(lo), int(hi) if sep else int(lo)
        if b < a:
            raise ValueError(f"seeds: {part!r} is an empty range")
        ranges.append(range(a, b + 1))
    count = sum(len(r) for r in ranges)
    if limit is not None and count > limit:
        raise ValueError(f"seeds: {count:,} seeds, at most {limit:,}")
    return [seed for r in ranges for seed in r]


# ``cases --where``: the classes the ratio to greedy is read by (the share
# sets it most; docs/wordgame.md), so a subset measured in the docs is one
# command, not a script beside the repository
WHERE_FIELDS: dict[str, Callable[[Case], float]] = {
    "n": lambda case: case.n,
    "t": lambda case: case.t,
    "x": lambda case: case.x,
    "d": lambda case: case.d,
    "share": lambda case: case.word_share,
}
WHERE_TESTS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "<": operator.lt,
    ">": operator.gt,
    "=": operator.eq,
}


def parse_where(spec: str) -> Callable[[Case], bool]:
    """'share>=0.2' or 'n<=12' -> a test of a case; ``ValueError`` naming
    what is wrong."""
    text = spec.replace(" ", "")
    for symbol in sorted(WHERE_TESTS, key=len, reverse=True):  # '<=' before '<'
        name, sep, number = text.partition(symbol)
        if sep:
            break
    else:
        raise ValueError(f"where: {spec!r} has no comparison (<=, >=, <, >, =)")
    if name not in WHERE_FIELDS:
        raise ValueError(f"where: {name!r} is not one of {', '.join(WHERE_FIELDS)}")
    try:
        bound = float(number)
    except ValueError:
        raise ValueError(f"where: {number!r} is not a number") from None
    if not math.isfinite(bound):
        raise ValueError(f"where: {number!r} is not a finite number")
    field_of, test = WHERE_FIELDS[name], WHERE_TESTS[symbol]
    return lambda case: test(field_of(case), bound)


def write_cases(cases: Iterable[Case], path: Path) -> int:
    count = 0
    with path.open("w") as fh:
        for case in cases:
            fh.write(case.to_json() + "\n")
            count += 1
    return count


def read_cases(path: Path) -> Iterator[Case]:
    """The cases of a file; ``ValueError`` naming the file, line and field of
    the first malformed one."""
    with path.open() as fh:
        for number, line in enumerate(fh, 1):
            if line.strip():
                try:
                    case = Case.from_json(line)
                except ValueError as err:
                    raise ValueError(f"{path} line {number}: {err}") from None
                yield case
