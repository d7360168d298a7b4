"""Leave evaluation: sign and size on racks where they are obvious."""

from __future__ import annotations

from scrabble.equity.leave import features, leave_value, leave_values
from scrabble.tiles import rack_counts


def lv(rack: str) -> int:
    return leave_value(rack_counts(rack))


def test_empty_leave_is_zero_and_values_are_integers():
    assert lv("") == 0
    assert isinstance(lv("AEI"), int)


def test_blank_and_s_are_the_best_keeps():
    assert lv("?") > lv("S") > lv("E") > lv("V")
    assert lv("?") >= 15_000 and lv("S") >= 3_000


def test_q_without_u_is_bad_and_u_helps():
    assert lv("Q") <= -5_000
    assert lv("QU") > lv("Q")
    assert features(rack_counts("Q?"))[-1] == 1  # a blank does not count as U


def test_three_of_a_letter_is_worse_than_one():
    assert lv("III") < lv("I") - 10_000
    assert lv("EEE") < lv("E") - 8_000
    assert lv("NN") < 2 * lv("N")


def test_balance_prefers_mixed_leaves():
    assert lv("AER") > lv("AEI")
    assert lv("AER") > lv("BCR")


def test_many_leaves_at_once_agree_with_one_at_a_time():
    racks = ["", "?", "QU", "AEINRST", "VVW", "EEE"]
    counts = [rack_counts(r) for r in racks]
    import numpy as np

    assert leave_values(np.array(counts)).tolist() == [lv(r) for r in racks]
