"""The seeded case generator and the case-file format."""

from __future__ import annotations

import json

import pytest

from scrabble.tiles import ALPHABET
from scrabble.wordgame import cases

WORDS = ["AAB", "ABC", "CAB", "ZA"]
PROBS = cases.letter_probabilities(WORDS)


def test_letter_probabilities_are_each_letters_share():
    # 11 letters: A 5, B 3, C 2, Z 1
    assert PROBS["A"] == round(5 / 11, 6) and PROBS["Z"] == round(1 / 11, 6)
    assert PROBS["Q"] == 0.0 and sorted(PROBS) == list(ALPHABET)


def test_same_seed_same_case_and_other_seeds_differ():
    a, b = cases.generate(7, PROBS), cases.generate(7, PROBS)
    assert a == b
    others = {cases.generate(s, PROBS).tiles for s in range(8, 20)}
    assert a.tiles not in others and len(others) == 12


def test_ranges_counts_and_legend():
    seen_n, seen_t, seen_x, seen_d = set(), set(), set(), set()
    for seed in range(1, 201):
        case = cases.generate(seed, PROBS)
        assert 10 <= case.n <= 20 and 5 <= case.t <= 9 and 0 <= case.x <= 5 and 0 <= case.d <= 5
        assert len(case.tiles) == case.n**2 and set(case.tiles) <= {"A", "B", "C", "Z"}
        assert len(case.premiums) == case.n and all(len(r) == case.n for r in case.premiums)
        assert set("".join(case.premiums)) <= set(".dtDT")
        seen_n.add(case.n)
        seen_t.add(case.t)
        seen_x.add(case.x)
        seen_d.add(case.d)
    assert seen_n == set(range(10, 21)) and seen_t == set(range(5, 10))
    assert seen_x == set(range(6)) and seen_d == set(range(6))


def test_densities_follow_the_contract():
    # premium share per case lies within the generator's [0.10, 0.60] of pL + pW
    shares = []
    for seed in range(1, 61):
        case = cases.generate(seed, PROBS)
        squares = "".join(case.premiums)
        shares.append(sum(ch != "." for ch in squares) / len(squares))
    assert 0.05 < min(shares) and max(shares) < 0.70
    # tiles follow the probabilities: A is drawn about 5/11 of the time
    tiles = "".join(cases.generate(s, PROBS).tiles for s in range(1, 31))
    assert abs(tiles.count("A") / len(tiles) - 5 / 11) < 0.02


def test_case_file_round_trip_and_fields(tmp_path):
    path = tmp_path / "cases.jsonl"
    written = [cases.generate(s, PROBS) for s in (1, 2, 3)]
    assert cases.write_cases(written, path) == 3
    lines = path.read_text().splitlines()
    body = json.loads(lines[0])
    assert list(body) == [
        "id",
        "seed",
        "n",
        "t",
        "x",
        "d",
        "premiums",
        "tiles",
        "lexicon",
        "probabilities",
    ]
    assert body["id"] == "wg-0001" and body["lexicon"] == "enable"
    assert list(cases.read_cases(path)) == written


def test_bad_case_is_refused():
    case = cases.generate(1, PROBS)
    line = json.loads(case.to_json())
    line["tiles"] = line["tiles"][:-1]
    with pytest.raises(ValueError, match="n\\*n"):
        cases.Case.from_json(json.dumps(line))


def test_seed_ranges():
    assert cases.parse_seeds("1-3,7") == [1, 2, 3, 7]
    with pytest.raises(ValueError):
        cases.parse_seeds("5-1")
    assert cases.parse_seeds("1-3,7", limit=4) == [1, 2, 3, 7]
    # refused by count before a list of that size is built
    with pytest.raises(ValueError, match="100,000,000 seeds, at most 4"):
        cases.parse_seeds("1-100000000", limit=4)


def _edited(**change: object) -> str:
    body = json.loads(cases.generate(1, PROBS).to_json())
    for name, value in change.items():
        if value is _DROP:
            del body[name]
        else:
            body[name] = value
    return json.dumps(body)


_DROP = object()


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("nonsense", "not JSON"),
        ("[1, 2]", "a case is a JSON object"),
        (_edited(seed=_DROP), "missing field 'seed'"),
        (_edited(colour="red"), "unknown field 'colour'"),
        (_edited(n="15"), "n must be an integer"),
        (_edited(d=True), "d must be an integer"),
        (_edited(tiles=7), "tiles must be a string"),
        (_edited(premiums="..."), "premiums must be a list of strings"),
        (_edited(probabilities={"A": -1.0}), "probabilities must map letters to numbers"),
        (_edited(premiums=["." * 5] * 5), "premiums must be"),
    ],
)
def test_a_malformed_case_line_is_refused_by_field(line, problem):
    with pytest.raises(ValueError, match=problem):
        cases.Case.from_json(line)


def test_read_cases_names_the_file_and_line_of_a_bad_case(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text(cases.generate(1, PROBS).to_json() + "\n\n" + _edited(x=9) + "\n")
    with pytest.raises(ValueError, match=r"cases.jsonl line 3: wg-0001: x must be 0\.\.5"):
        list(cases.read_cases(path))
