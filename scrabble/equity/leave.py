"""Leave evaluation: what the tiles kept after a move are worth, in millipoints.

A leave's value is a linear function of a few features, each weight meaning
"points this adds to the next turn compared with drawing a fresh tile in its
place" (so an empty leave is 0 and an average tile is about 0):

* one value per tile (27: A..Z and the blank),
* duplicates: each copy beyond the first of a vowel / of a consonant, and each
  copy beyond the second of anything (three of a letter is much worse than two),
* vowel/consonant balance: the squared excess of vowels over consonants, and of
  consonants over vowels + 1 (the blank counts as neither),
* Q without U (no U kept; a blank does not count as U).

The weights were fitted by least squares on score-greedy self-play
(``scripts/fit_leave.py``; figures and reasoning in docs/leave.md), then
rounded. When the bag cannot refill the rack the leave is no longer a draw
improvement but a liability: that is the endgame term's business
(``terms.endgame``), not this model's.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from scrabble.tiles import ALPHABET, BLANK, RACK_TYPES

VOWELS = np.zeros(RACK_TYPES, dtype=bool)
for _ch in "AEIOU":
    VOWELS[ALPHABET.index(_ch)] = True
CONSONANTS = ~VOWELS
CONSONANTS[BLANK] = False
Q, U = ALPHABET.index("Q"), ALPHABET.index("U")

# Per-tile values (millipoints), A..Z then blank; see docs/leave.md.
TILE_VALUES = np.array(
    [
        # A     B      C      D     E      F      G     H      I      J     K      L     M
        -900,
        -1700,
        -1200,
        -800,
        -100,
        -1100,
        -2800,
        500,
        -2000,
        -1700,
        200,
        -1600,
        -600,
        # N     O      P     Q     R      S      T      U      V      W      X     Y     Z
        -900,
        -1500,
        -1800,
        1500,
        -800,
        4100,
        -1100,
        -3500,
        -4000,
        -3400,
        900,
        -400,
        4700,
        # ?
        19500,
    ],
    dtype=np.int64,
)
DUP_VOWEL = -3500  # each copy beyond the first of a vowel
DUP_CONSONANT = -3900  # each copy beyond the first of a consonant
TRIPLE = -300  # each copy beyond the second, on top of the above
VOWEL_EXCESS_SQ = -340  # times (vowels - consonants)^2 when vowels outnumber
CONSONANT_EXCESS_SQ = -450  # times (consonants - vowels - 1)^2 when positive
Q_WITHOUT_U = -7200
WEIGHTS = np.array(
    [
        *TILE_VALUES,
        DUP_VOWEL,
        DUP_CONSONANT,
        TRIPLE,
        VOWEL_EXCESS_SQ,
        CONSONANT_EXCESS_SQ,
        Q_WITHOUT_U,
    ],
    dtype=np.int64,
)


def feature_names() -> list[str]:
    return [
        *(f"tile_{s}" for s in ALPHABET + "?"),
        "dup_vowel",
        "dup_consonant",
        "triple",
        "vowel_excess_sq",
        "consonant_excess_sq",
        "q_without_u",
    ]


def features(leave: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """The integer feature vector of a leave (27 counts)."""
    c = np.asarray(leave, dtype=np.int64)
    extra = np.maximum(c[:26] - 1, 0)
    v = int(c[VOWELS].sum())
    k = int(c[CONSONANTS].sum())
    return np.array(
        [
            *c,
            int(extra[VOWELS[:26]].sum()),
            int(extra[CONSONANTS[:26]].sum()),
            int(np.maximum(c[:26] - 2, 0).sum()),
            max(0, v - k) ** 2,
            max(0, k - v - 1) ** 2,
            int(c[Q] > 0 and c[U] == 0),
        ],
        dtype=np.int64,
    )


def leave_value(leave: npt.NDArray[np.integer]) -> int:
    """Millipoints of keeping ``leave`` (27 counts) with the bag able to refill."""
    return int(features(leave) @ WEIGHTS)


def features_matrix(leaves: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """``features`` for many leaves at once, (k, 27) -> (k, 33)."""
    c = np.asarray(leaves, dtype=np.int64)
    extra = np.maximum(c[:, :26] - 1, 0)
    v = c[:, VOWELS].sum(axis=1)
    k = c[:, CONSONANTS].sum(axis=1)
    return np.column_stack(
        [
            c,
            extra[:, VOWELS[:26]].sum(axis=1),
            extra[:, CONSONANTS[:26]].sum(axis=1),
            np.maximum(c[:, :26] - 2, 0).sum(axis=1),
            np.maximum(v - k, 0) ** 2,
            np.maximum(k - v - 1, 0) ** 2,
            ((c[:, Q] > 0) & (c[:, U] == 0)).astype(np.int64),
        ]
    )


def leave_values(leaves: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """``leave_value`` for many leaves, (k, 27) -> (k,)."""
    return features_matrix(leaves) @ WEIGHTS
