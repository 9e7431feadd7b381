"""Variant JSON constraints, the killer CSV and f-puzzles import (lz-string included)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.formats import iter_records, puzzle_from_json, puzzle_to_json
from sudoku_model.rules import (
    Relation,
    Sum,
    SumGroup,
    arrow_rule,
    greater_than_rule,
    killer_rule,
    kropki_rules,
    nonconsecutive_rule,
    parity_rule,
    sandwich_rule,
    sum_lines_rule,
    thermometer_rule,
    xv_rules,
)
from sudoku_model.variant_formats import (
    constraints_from_json,
    constraints_to_json,
    decompress_lz_base64,
    puzzle_from_fpuzzles,
)
from tests.datafiles import data_file

S9 = Shape(3, 3)
KILLER_CSV = data_file("killer-generated.csv")

# Test vectors made with the reference lz-string (Python port ``lzstring`` 1.0.4,
# ``LZString().compressToBase64``), run once outside the project.
FPUZZLES_JSON = (
    '{"size":4,"title":"tiny test é€","author":"tests","grid":[[{"value":1,"given":true},'
    '{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{"value":1,"given":true}]],'
    '"killercage":[{"cells":["R1C2","R1C3"],"value":"5"}],"thermometer":[{"lines":'
    '[["R2C1","R2C2"]]}],"xv":[{"cells":["R3C1","R3C2"],"value":"V"}],"sandwichsum":'
    '[{"cell":"R0C4","value":"0"}],"even":[{"cell":"R4C1"}],"cage":[{"cells":["R1C1"],'
    '"value":"cosmetic"}]}'
)
FPUZZLES_LZ = (
    "N4IgzglgXgpiBcAWANCALhNAbO90QDsBPAAjRjDRIEvAaghFQEMBXNACwHsAnBdCtMAxABzLhAAmCANpTQ"
    "AN0ZZmuAIyphEOTAII0XZQF9kwIyeMGAuslmnb5qzfNOTDs29MgFS1es3bd+jCWViAA1hBYOFwAxozCuLIg0"
    "TCRgvBSIABKKgDCAExC2TkAzCAhXsq8AKwglqjsMFwAthxNMOQ86aBYhBTSGZl5OSqFQwUWFnUgAB5y0qDJq"
    "dJZxcOFq+OoFbggAGq1IWCMBOIA7hDRbGDMTfNJKVi8mQAMOYhC27zPB6gwWjpde6RJ6INZTWLxO6LLBpAa5"
    "EblRSVPDRDhgNoYaIHAxAA"
)
LONG_TEXT = "abracadabra " * 50 + "ÿ€ĀЖ"  # 8- and 16-bit characters, many dictionary codes
LONG_LZ = (
    "IYIwTsDGwCahACeVbKeFcPotLjk81DVsT9gdNiMizbSCGKq6ndHLyaOXv7ePagOHtRXZkLYTBI6a04K+kuYv"
    "5j56meKVS1KjftmHlx7ZoPmjOrbtWmbluybQB/wDUEgAEBAaCBA="
)


def test_lz_string_decompresses_reference_vectors():
    assert decompress_lz_base64(FPUZZLES_LZ) == FPUZZLES_JSON
    assert decompress_lz_base64(LONG_LZ) == LONG_TEXT
    assert decompress_lz_base64("") == ""


@pytest.mark.parametrize("bad", ["!!!!", "N4Ig", "AAAA"])
def test_lz_string_refuses_garbage(bad):
    with pytest.raises(ValueError):
        decompress_lz_base64(bad)


def test_fpuzzles_import_builds_every_rule():
    puzzle, solution = puzzle_from_fpuzzles(json.loads(FPUZZLES_JSON))
    assert solution is None and puzzle.givens.values[0] == 1 and puzzle.clues == 2
    names = [r.name for r in puzzle.rules.constraint_rules]
    assert names == ["killer", "thermometers", "XV v", "even/odd", "sandwich"]
    # the cosmetic "cage" drew nothing: one killer group only
    killer = puzzle.rules.constraint_rules[0]
    assert isinstance(killer, Sum) and killer.groups[0].cells == (1, 2)


def test_fpuzzles_lines_are_records_and_solve():
    from sudoku_model import get_backend

    url = "https://www.f-puzzles.com/?load=" + FPUZZLES_LZ
    records = list(iter_records([FPUZZLES_LZ + "\n", url + "\n"], source="fp.txt"))
    assert [r.error for r in records] == [None, None]
    backend = get_backend("pysat")
    count = backend.count(records[0].puzzle, limit=50)
    assert count.complete
    for grid in backend.solutions(records[0].puzzle, limit=50):
        assert records[0].puzzle.is_solution(grid)


@pytest.mark.parametrize(
    "change,fragment",
    [
        ({"renban": [{"lines": [["R1C1", "R1C2"]]}]}, "unsupported f-puzzles constraint 'renban'"),
        ({"difference": [{"cells": ["R1C1", "R1C2"], "value": "3"}]}, "'difference' with value"),
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "99"}]}, "cannot reach"),
        ({"killercage": [{"cells": ["R1C1", "R9C9"], "value": "5"}]}, "outside"),
        ({"size": 7}, "7 is prime"),
    ],
)
def test_fpuzzles_errors_name_the_constraint(change, fragment):
    obj = json.loads(FPUZZLES_JSON)
    obj.update(change)
    with pytest.raises(ValueError, match=fragment):
        puzzle_from_fpuzzles(obj)
    records = list(iter_records([json.dumps(obj)], source="bad.json", fmt="json"))
    assert records[0].error is not None and "bad.json:1" in str(records[0].error)


def _all_kinds_rules() -> RuleSet:
    s = S9
    return RuleSet.build(s, ["diagonal"]).with_rules(
        [
            killer_rule(s, [((0, 1), 3), ((2, 11), 17)]),
            sum_lines_rule(s, [((1, 11, 21), 12)]),
            arrow_rule(s, [((30, 31), (40, 41, 42, 43)), ((50,), (60, 70))]),
            thermometer_rule(s, [[54, 55, 56], [54, 63]]),
            *kropki_rules(s, [(72, 73)], [(74, 75)], negative=True),
            *xv_rules(s, [(4, 13)], [(5, 14)]),
            greater_than_rule(s, [(8, 7)]),
            nonconsecutive_rule(s),
            parity_rule(s, [80], [79]),
            sandwich_rule(s, {0: 10}, {8: 0}),
            Relation("custom", ((3, 12),), frozenset({(1, 9), (9, 1)})),
            Sum("weighted", (SumGroup((6, 16), (2, -1), 1, False),)),
        ]
    )


def test_variant_json_round_trips_every_kind():
    rules = _all_kinds_rules()
    puzzle = Puzzle(Grid.empty(S9), rules)
    obj = puzzle_to_json(puzzle)
    text = json.dumps(obj)
    again, _ = puzzle_from_json(json.loads(text))
    assert again.rules == rules and again == puzzle
    kinds = [c["type"] for c in obj["constraints"]]
    assert kinds[:5] == ["killer", "little-killer", "arrow", "thermometer", "kropki"]
    assert "relation" in kinds and "sum" in kinds


def test_readme_example_reads():
    """The variant JSON example of the reference (kept equal to it by this test)."""
    readme = (Path(__file__).resolve().parents[2] / "sudoku_model/docs/REFERENCE.md").read_text()
    start = readme.index("<!-- variant-json-example -->")
    block = readme[start:].split("```json", 1)[1].split("```", 1)[0]
    puzzle, solution = puzzle_from_json(json.loads(block))
    assert {r.kind for r in puzzle.rules.constraint_rules} == {"sum", "relation", "sandwich"}
    assert solution is not None and puzzle.is_solution(solution)
    section = readme[readme.index("## Variant rules") : start]
    code = section.split("```python", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {}
    exec(code, namespace)  # the reference's Python example runs as written
    count = namespace["get_backend"]("pysat").count(  # type: ignore[operator]
        namespace["Puzzle"](namespace["Grid"].empty(S9), namespace["rules"]),
        limit=2,  # type: ignore[operator]
    )
    assert count.count == 2


@pytest.mark.parametrize(
    "constraints,fragment",
    [
        ([{"type": "killer", "cages": [{"cells": ["r1c1", "r1c2"], "sum": 30}]}], "cannot reach"),
        ([{"type": "killer", "cages": [{"cells": ["r1c1", "x"], "sum": 3}]}], "not a cell"),
        ([{"type": "thermometer", "lines": [["r1c1", "r1c3"]]}], "not a path"),
        ([{"type": "kropki", "white": [["r1c1", "r2c2"]]}], "not orthogonal"),
        ([{"type": "sandwich", "rows": [1]}], "list of 9"),
        ([{"type": "teleport"}], "unknown type"),
        ([{"type": "killer"}], "missing field 'cages'"),
        (
            [
                {
                    "type": "killer",
                    "cages": [
                        {"cells": ["r1c1", "r1c2"], "sum": 3},
                        {"cells": ["r1c2", "r1c3"], "sum": 5},
                    ],
                }
            ],
            "overlap",
        ),
    ],
)
def test_bad_constraints_are_errors_naming_the_rule(constraints, fragment):
    with pytest.raises(ValueError, match=fragment):
        constraints_from_json(constraints, S9)
    line = json.dumps({"puzzle": "." * 81, "constraints": constraints})
    (record,) = iter_records([line], source="v.jsonl", fmt="jsonl")
    assert record.error is not None and "v.jsonl:1" in str(record.error)


def test_constraints_to_json_of_classic_rules_is_empty():
    assert constraints_to_json(RuleSet.classic(S9)) == []


def test_killer_csv_bad_rows_are_records_with_errors():
    header = ",ptitle,vol,book,puzzle,puzz_color,puzz_hint,solved,sOrder"
    letters = "K" + "AB" * 40 + "C"
    rows = [
        header,
        f'0,t,1,1,1,{letters},"3,4",,',  # 3 cages, 2 totals
        f'1,t,1,1,1,K{"A" * 80},"3",,',  # 80 letters
    ]
    records = list(iter_records(rows, source="k.csv", fmt="csv"))
    assert [r.line for r in records] == [2, 3]
    assert "3 cages but 2 totals" in str(records[0].error)
    assert "k.csv:3" in str(records[1].error)


@pytest.mark.parametrize("solver", ["pysat", pytest.param("cpsat", marks=pytest.mark.slow)])
def test_killer_csv_unique_and_equal_to_the_published_solution(solver):
    from sudoku_model import get_backend

    backend = get_backend(solver)
    records = list(iter_records(KILLER_CSV))
    assert len(records) == 40
    for record in records:
        assert record.error is None and record.solution is not None
        verdict = backend.check_unique(record.puzzle)
        assert verdict.kind.value == "unique", record.extra
        assert verdict.solution == record.solution


def _fpuzzles_with_plain_cages() -> dict[str, object]:
    """A 4x4 f-puzzles object with a cage that has a total, two without (one of them
    across two boxes, so its distinctness is a rule of its own), the anti-diagonal, an
    extra region and disjoint groups: 8 solutions, 2143432134121234 one of them."""
    return {
        "size": 4,
        "grid": [[{} for _ in range(4)] for _ in range(4)],
        "killercage": [
            {"cells": ["R1C2", "R1C3"], "value": "5"},
            {"cells": ["R2C2", "R2C3"]},
            {"cells": ["R3C3", "R4C2"], "value": ""},
        ],
        "diagonal+": True,
        "extraregion": [{"cells": ["R1C4", "R2C1", "R3C3"]}],
        "disjointgroups": True,
    }


def test_fpuzzles_cages_without_totals_are_distinct_cages_and_round_trip():
    from sudoku_model import get_backend
    from sudoku_model.rules import AllDifferent
    from sudoku_model.variant_formats import PLAIN_CAGES

    puzzle, _ = puzzle_from_fpuzzles(_fpuzzles_with_plain_cages())
    plain = [r for r in puzzle.rules.rules if r.name == PLAIN_CAGES]
    assert plain == [AllDifferent(PLAIN_CAGES, ((5, 6), (10, 13)))]
    # a grid repeating a digit in the cage across boxes breaks it (the check sees it)
    backend = get_backend("pysat")
    grids = list(backend.solutions(puzzle, limit=50))
    assert len(grids) == 8 and all(g.values[10] != g.values[13] for g in grids)
    obj = puzzle_to_json(puzzle)
    killers = [c for c in obj["constraints"] if c["type"] == "killer"]
    assert killers[-1] == {
        "type": "killer",
        "cages": [{"cells": ["r2c2", "r2c3"]}, {"cells": ["r3c3", "r4c2"]}],
    }
    kinds = [c["type"] for c in obj["constraints"]]
    assert kinds.count("distinct") == 6  # the diagonal, the extra region, 4 disjoint groups
    again, _ = puzzle_from_json(json.loads(json.dumps(obj)))
    assert again.rules == puzzle.rules and again == puzzle
    assert set(backend.solutions(again, limit=50)) == set(grids)


def test_variant_json_killer_cage_without_sum_and_distinct_units_read():
    rules = constraints_from_json(
        [
            {"type": "killer", "cages": [{"cells": ["r1c1", "r2c2"]}]},
            {"type": "distinct", "name": "anti-diagonal", "units": [["r1c9", "r2c8", "r3c7"]]},
        ],
        S9,
    )
    assert [(r.name, r.units) for r in rules] == [  # type: ignore[union-attr]
        ("cages without totals", ((0, 10),)),
        ("anti-diagonal", ((8, 16, 24),)),
    ]
    only_plain = Puzzle(Grid.empty(S9), RuleSet.classic(S9).with_rules(rules[:1]))
    assert puzzle_to_json(only_plain)["constraints"] == [
        {"type": "killer", "cages": [{"cells": ["r1c1", "r2c2"]}]}
    ]


@pytest.mark.parametrize(
    "entry,fragment",
    [
        ({"type": "distinct", "name": "d", "units": []}, "non-empty list"),
        ({"type": "distinct", "name": "d", "units": [["r1c1", "r1c1"]]}, "repeated cells"),
        ({"type": "distinct", "units": [["r1c1"]]}, "missing field 'name'"),
        (
            {
                "type": "killer",
                "cages": [
                    {
                        "cells": [
                            "r1c1",
                            "r1c2",
                            "r1c3",
                            "r1c4",
                            "r1c5",
                            "r1c6",
                            "r1c7",
                            "r1c8",
                            "r1c9",
                            "r2c1",
                        ]
                    }
                ],
            },
            "more than 9 cells",
        ),
    ],
)
def test_distinct_units_and_plain_cages_errors_name_the_entry(entry, fragment):
    text = json.dumps({"puzzle": "." * 81, "constraints": [entry]})
    (record,) = iter_records([text], source="v.json", fmt="json")
    assert record.error is not None and fragment in str(record.error), record.error
    assert "v.json:1" in str(record.error)


def test_lz_string_text_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A few bytes that name ever longer entries stop at the bound, not at memory's end."""
    import sudoku_model.variant_formats as vf

    # "a" * 3000, made with the reference lz-string (compressToBase64), as the vectors above
    runaway = "IY18ZXTt/DFOS1b0c17Pd/wYUcSaWeRZVdTbXfQ408y62+x519z73/wMFDhI0WPETJU6TNlyZQA="
    assert decompress_lz_base64(runaway) == "a" * 3000
    monkeypatch.setattr(vf, "MAX_LZ_TEXT", 2999)
    with pytest.raises(ValueError, match="grows beyond"):
        decompress_lz_base64(runaway)
