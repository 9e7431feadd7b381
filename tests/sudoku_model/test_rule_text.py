"""The text listing of a puzzle's rules (``sudoku show``): every kind of rule is named with
its cells, checked on the Interactive Sudoku Solver examples (tests/data/README.md) against
the examples' own constraint strings, read here with a regular expression."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sudoku_model.cli import main
from sudoku_model.formats.iss import puzzle_from_iss
from sudoku_model.geometry import Shape
from sudoku_model.rule_marks import rule_marks
from sudoku_model.rule_text import describe_rules
from sudoku_model.rules import CANDIDATES_RULE, AllDifferent, Different, Domain, RuleSet

ISS = {
    e["name"]: e
    for e in json.loads((Path(__file__).parents[1] / "data" / "iss-examples.json").read_text())
}
S9 = Shape(3, 3)


def _lines(name: str) -> list[str]:
    return describe_rules(puzzle_from_iss(ISS[name]["input"]).rules)


def _entry(lines: list[str], label: str) -> list[str]:
    """The items of the one line that starts with ``label``."""
    [line] = [ln for ln in lines if ln.startswith(label)]
    return line.rsplit(": ", 1)[1].split("; ")


def _cell(token: str) -> str:
    return token.lower()


def test_killer_cages_list_their_cells_and_totals() -> None:
    expected = [
        ",".join(sorted((_cell(c) for c in cells.split("~")), key=_key)) + f" ({total})"
        for total, cells in re.findall(r"\.Cage~(\d+)~([RC0-9~]+)", ISS["Killer"]["input"])
    ]
    assert sorted(_entry(_lines("Killer"), "killer cages")) == sorted(expected)


def _key(name: str) -> tuple[int, int]:
    r, c = re.fullmatch(r"r(\d+)c(\d+)", name).groups()  # type: ignore[union-attr]
    return int(r), int(c)


def test_quadruples_list_their_squares_and_digits() -> None:
    expected = []
    for r, c, digits in re.findall(r"\.Quad~R(\d)C(\d)((?:~\d)+)", ISS["Quadruple X"]["input"]):
        r, c = int(r), int(c)
        expected.append(f"r{r}c{c}-r{r + 1}c{c + 1} ({', '.join(digits[1:].split('~'))})")
    items = _entry(_lines("Quadruple X"), "quadruples")
    assert sorted(items) == sorted(expected)


def test_clues_outside_the_grid_name_their_row_or_column_and_side() -> None:
    expected = []
    for kind, i, first, last in re.findall(r"\.XSum~([RC])(\d)~(\d*)~(\d*)", ISS["X-Sum"]["input"]):
        house = "row" if kind == "R" else "column"
        sides = ("left", "right") if kind == "R" else ("top", "bottom")
        expected += [f"{house} {i} from the {s} ({t})" for s, t in zip(sides, (first, last)) if t]
    assert sorted(_entry(_lines("X-Sum"), "x-sums")) == sorted(expected)
    sandwiches = _entry(_lines("Between 1 and 9 Sudoku"), "sandwiches")
    assert "column 1 from the top (8)" in sandwiches and "row 9 from the left (0)" in sandwiches
    assert len(sandwiches) == 18
    killers = _entry(_lines("Little Killer Sudoku"), "little killers")
    assert killers[:2] == ["r1c1 down-right (22)", "r2c1 down-right (28)"]
    assert "r1c9 down-left (42)" in killers


@pytest.mark.parametrize(
    "name, label, item",
    [
        ("Equality cages", "equality cages", "r3c2,r3c3 (=)"),
        ("6x6: Rellik cages", "rellik cages", "r3c3,r3c4 (\u22604)"),
        ("Look-and-Say Killer", "look-and-say cages", "r1c7,r1c8 (11)"),
        ("Thermo", "thermometers", "r9c4-r8c3-r7c2-r6c1-r5c2-r4c3"),
        ("Arrow", "arrows", "r7c4 <- r7c5-r7c6"),
        ("Pill Arrow Sudoku", "arrows", "r1c2,r1c3 <- r1c1-r2c1-r3c1"),
        ("Fortress", "greater-than signs", "r1c8>r2c8"),
        ("XV Kropki Sudoku", "X:", "r5c4|r5c5"),
        ("XV Kropki Sudoku", "white dots", "r3c2|r3c3"),
        ("Odd & even", "odd cells", "r2c3"),
        ("Neighbor Sums", "sum lines", "r1c5-r1c6 (3)"),
        ("The Barbed Cross", "disjoint group 1", "r1c1,r1c4,r1c7,r4c1,r4c4,r4c7,r7c1,r7c4,r7c7"),
        ("Lockout Lines (DSM 23 Quali Training)", "lockout lines", "r1c2-r2c2-r3c2-r4c2"),
    ],
)
def test_each_kind_is_named_with_its_cells(name: str, label: str, item: str) -> None:
    assert item in _entry(_lines(name), label)


def test_global_rules_stay_captions_and_a_table_kinds_legend_labels_its_line() -> None:
    assert "global mod 3: every 2x2 square holds a digit of each residue modulo 3" in _lines(
        "Global mod 3"
    )
    [line] = _lines("Skyscraper")
    assert line.startswith("skyscrapers (clues outside the grid): that many digits are seen")
    assert _entry([line], "skyscrapers")[0] == "column 5 from the top (5)"
    cages = _lines("Equality cages")[0]
    assert cages.startswith("equality cages (dashed, = in the corner): as many even as odd")
    assert cages.endswith("r6c9,r7c9 (=)")


def test_nothing_the_marks_read_is_left_out() -> None:
    """Every mark of every example the toolkit reads is one item of the listing, and every
    all-different unit or pair beyond the named variants is one item too."""
    shown_units = {"rows", "columns", "boxes", "regions", "diagonals", "windoku"}
    checked = 0
    for entry in ISS.values():
        try:
            rules = puzzle_from_iss(entry["input"]).rules
        except ValueError:
            continue
        marks = rule_marks(rules)
        count = sum(
            len(getattr(marks, kind))
            for kind in (
                "cages",
                "thermometers",
                "arrows",
                "edges",
                "cells",
                "sum_lines",
                "lines",
                "outside",
                "quadruples",
            )
        )
        for rule in rules.rules:
            if rule.name in shown_units or rule.name == "cages without totals":
                continue
            if isinstance(rule, AllDifferent):
                count += len(rule.units)
            elif isinstance(rule, Different) and rule.name not in ("anti-knight", "anti-king"):
                count += len(rule.pairs)
        lines = [ln for ln in describe_rules(rules) if ln not in marks.captions]
        items = sum(len(ln.rsplit(": ", 1)[1].split("; ")) for ln in lines)
        assert items == count, entry["name"]
        checked += 1
    assert checked >= 30


def test_named_variants_and_pencilmark_candidates_are_not_repeated() -> None:
    assert describe_rules(RuleSet.build(S9, ["diagonal", "windoku", "anti-king"])) == []
    candidates = Domain(CANDIDATES_RULE, ((0, frozenset({1, 2})),))
    assert describe_rules(RuleSet.classic(S9).with_rules([candidates])) == []
    odd = Domain("odd", ((0, frozenset({1, 3, 5, 7, 9})),))
    assert describe_rules(RuleSet.classic(S9).with_rules([odd])) == ["odd cells: r1c1"]


def test_show_prints_the_listing_under_the_grid(capsys: pytest.CaptureFixture[str]) -> None:
    for name, label in [("Killer", "killer cages"), ("Quadruple X", "quadruples")]:
        assert main(["show", ISS[name]["input"]]) == 0
        out = capsys.readouterr().out.splitlines()
        listed = [ln[2:] for ln in out if ln.startswith("# ") and not ln.startswith("# <")]
        assert listed == _lines(name)
        assert any(ln.startswith(label) for ln in listed)
