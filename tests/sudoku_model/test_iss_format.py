"""Interactive Sudoku Solver strings: reading (sniffed or ``--format iss``), refusals that
name the constraint kind, writing (``convert --to iss``) and the round trip, on ISS's own
example puzzles (``tests/data/iss-examples.json``) and on rules made by every constructor."""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.formats import iter_records
from sudoku_model.formats.iss import (
    ISS_KINDS,
    IssError,
    looks_like_iss,
    puzzle_from_iss,
)
from sudoku_model.formats.iss_write import puzzle_to_iss
from sudoku_model.rules import Relation, Sum, SumGroup, regions_rule
from sudoku_model.solving import Backend, Budget, get_backend
from tests.backends.test_rule_encodings import MAKERS, random_full_grid
from tests.datafiles import data_file

EXAMPLES = json.loads(Path(data_file("iss-examples.json")).read_text(encoding="utf-8"))
#: ISS examples the toolkit reads (the others use a kind it does not model).
READ = 50
#: Examples the native backend does not settle in seconds (sums and sandwiches over a
#: nearly empty grid); pysat proves them unique.
NATIVE_SLOW = {"Raw Spaghetti", "The Barbed Cross", "Between 1 and 9 Sudoku", "Cold Sauerkraut"}


@cache
def backend(name: str) -> Backend:
    return get_backend(name)


def _solution(text: str, shape: Shape) -> Grid:
    """ISS's published solution: digits, or letters A.. for 16x16."""
    values = [ord(ch) - 64 if ch.isalpha() else int(ch) for ch in text]
    return Grid(shape, values)


@cache
def read_examples() -> tuple[tuple[dict[str, str], Puzzle], ...]:
    out = []
    for example in EXAMPLES:
        try:
            out.append((example, puzzle_from_iss(example["input"])))
        except IssError:
            continue
    return tuple(out)


def solvable_examples() -> tuple[tuple[dict[str, str], Puzzle], ...]:
    """The read examples without table rules (those are solved, once a backend declares
    the kind, by ``test_iss_tables``)."""
    return tuple((e, p) for e, p in read_examples() if "table" not in p.rules.kinds)


# -- reading -------------------------------------------------------------------------------
def test_givens_candidates_and_white_space() -> None:
    puzzle = puzzle_from_iss(".~R1C1_5 ~R1C2_1_2 .\n~R1C2_2_3.  .~r9c9_9")
    assert puzzle.givens.values[0] == 5
    assert puzzle.givens.values[80] == 9
    assert puzzle.givens.values[1] == 2  # the candidate lists intersect
    assert puzzle.rules == RuleSet.classic(Shape(3, 3))
    pencil = puzzle_from_iss(".~R1C1_1_2~R5C5_3_4_5")
    (rule,) = pencil.rules.constraint_rules
    assert rule.name == "candidates"
    assert rule.cells == ((0, frozenset({1, 2})), (40, frozenset({3, 4, 5})))


def test_shapes_and_cell_names_beyond_9() -> None:
    six = puzzle_from_iss(".~R6C6_1.Shape~6x6")
    assert six.shape == Shape(2, 3) and six.givens.values[35] == 1
    big = puzzle_from_iss(".Shape~16x16.~RaCb_16~RgCg_2")
    assert big.shape == Shape(4, 4)
    assert big.givens.values[9 * 16 + 10] == 16 and big.givens.values[255] == 2


@pytest.mark.parametrize(
    ("text", "fragment", "column"),
    [
        (".~R1C1_5.CountingCircles~R1C2~R2C2", "unsupported ISS constraint 'CountingCircles'", 10),
        (".Thermo~R1C1~R0C2", "'R0C2' is not a cell", 2),
        (".~R1C1_1.Kropki~R1C1~R1C2", "unknown ISS constraint 'Kropki'", 10),
        (".~R1C1_0", "digits 1..9", 2),
        (".~R1C1_1.~R1C1_2", "R1C1 has no candidate left", 10),
        (".Shape~6x9", "only square grids", 2),
        (".Shape~9x9~0-9", "unsupported ISS Shape", 2),
        (".Shape~7x7", "no box shape", 2),
        (".Shape~" + "9" * 5000 + "x9", "unsupported ISS Shape", 2),
        (".Cage~" + "9" * 5000 + "~R1C1", "at most 9 digits", 2),
        (".NoBoxes", "'NoBoxes' without a Jigsaw", 1),
        (".Cage~3~R1C1~R1C2.Cage~5~R1C2~R1C3.X~R1C1~R3C3", "neighbouring", 36),
        (".Whisper~9~R1C1~R1C2", "allows no pair", 2),
        (".~R1C1_1.Renban~R1C1~R1C2~R1C1", "repeats a cell", 10),
        (".Thermo~R1C1~R1C2.Cage~50~R1C1~R1C2", "cannot reach total 50", 19),
        (".Sum~5_=_101_1~R1C1~R1C2", "from -100 to 100", 2),
        ("Thermo~R1C1", "starts with '.'", 1),
    ],
)
def test_malformed_strings_name_what_is_wrong(text: str, fragment: str, column: int) -> None:
    with pytest.raises(IssError, match=re.escape(fragment)) as info:
        puzzle_from_iss(text)
    assert info.value.column == column


def test_mangled_examples_are_records_never_tracebacks() -> None:
    """Examples cut, spliced and with characters replaced: each answer is a puzzle or an
    IssError, whatever the text."""
    rng = random.Random(11)
    alphabet = ".~_-=RC0123456789abgX "
    texts = [e["input"] for e in EXAMPLES]
    for _ in range(4000):
        text = list(rng.choice(texts))
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(text))
            if rng.random() < 0.5:
                text[i] = rng.choice(alphabet)
            else:
                del text[i : i + rng.randint(1, 8)]
                if not text:
                    break
        with contextlib.suppress(IssError):
            puzzle_from_iss("".join(text))


def test_windoku_windows_are_iss_windows() -> None:
    """ISS keeps windows off the bottom and right edges: on a 6x6 grid it has one where the
    toolkit's windoku variant has two, so each is written as what ISS reads back."""
    nine = puzzle_from_iss(".Windoku")
    assert nine.rules == RuleSet.build(Shape(3, 3), ["windoku"])
    assert puzzle_to_iss(nine) == ".Windoku"
    six = puzzle_from_iss(".Shape~6x6.Windoku")
    assert [len(r.units) for r in six.rules.rules if r.name == "windoku"] == [1]
    assert puzzle_to_iss(six) == ".Shape~6x6.Windoku"
    toolkit = Puzzle.empty(S6, RuleSet.build(S6, ["windoku"]))
    text = puzzle_to_iss(toolkit)
    assert ".Windoku" not in text and text.count(".AllDifferent~") == 2
    _same_solutions(toolkit, puzzle_from_iss(text), limit=5)


def test_overlapping_cages_are_kept() -> None:
    puzzle = puzzle_from_iss(".Cage~3~R1C1~R1C2.Cage~4~R1C2~R1C3")
    assert [r.name for r in puzzle.rules.constraint_rules] == ["killer", "killer 2"]


def test_a_file_of_strings_is_sniffed_and_bad_lines_cost_their_record() -> None:
    lines = [
        "# ISS strings",
        ".~R1C1_5.Thermo~R1C2~R1C3~R1C4",
        ".~R1C1_5.FullRank~R1~17~",
        ".Whisper~R1C1~R2C1",
    ]
    records = list(iter_records(lines, source="x.txt"))
    assert [r.ok for r in records] == [True, False, True]
    err = records[1].error
    assert err is not None and (err.line, err.column) == (3, 10)
    assert "unsupported ISS constraint 'FullRank'" in str(err)
    assert str(err).startswith("x.txt:3:10:")
    refused = list(iter_records(lines[1:2], fmt="iss", variants=["diagonal"]))
    assert refused[0].error is not None and "drop --variant" in str(refused[0].error)


def test_sniffing_leaves_dotted_grid_lines_alone() -> None:
    assert (
        looks_like_iss(".~R1C1_1")
        and looks_like_iss(".Shape~6x6")
        and looks_like_iss(".AntiKnight")
    )
    line = "." * 80 + "1"
    assert not looks_like_iss(line) and not looks_like_iss(".1" + "." * 79)
    assert not looks_like_iss(".BCDEFGHIJKLMNOP" + "." * 240)  # a 16x16 grid in letters
    assert not looks_like_iss(".X.V" + "." * 621) and looks_like_iss(".X~R1C1~R1C2")
    (record,) = iter_records([line])
    assert record.ok and record.puzzle is not None and record.puzzle.clues == 1


# -- ISS's examples ------------------------------------------------------------------------
def test_examples_are_read_or_refused_naming_their_kind() -> None:
    read = 0
    for example in EXAMPLES:
        try:
            puzzle_from_iss(example["input"])
            read += 1
        except IssError as exc:
            m = re.search(r"unsupported ISS (?:constraint '(\w+)'|Shape)", str(exc))
            assert m is not None, (example["name"], str(exc))
            kind = m.group(1) or "Shape"
            assert f".{kind}" in example["input"].replace(" ", "")
            assert kind not in ISS_KINDS or kind == "Shape"  # a value range, a 6x9 grid
    assert read == READ


def test_examples_are_unique_with_the_published_solution_on_pysat_and_round_trip() -> None:
    for example, puzzle in solvable_examples():
        expected = _solution(example["solution"], puzzle.shape)
        verdict = backend("pysat").check_unique(puzzle)
        assert verdict.is_unique and verdict.solution == expected, example["name"]
        again = puzzle_from_iss(puzzle_to_iss(puzzle))
        assert again.givens == puzzle.givens
        verdict = backend("pysat").check_unique(again)
        assert verdict.is_unique and verdict.solution == expected, example["name"]


def test_examples_are_unique_with_the_published_solution_on_native() -> None:
    for example, puzzle in solvable_examples():
        expected = _solution(example["solution"], puzzle.shape)
        slow = example["name"] in NATIVE_SLOW
        verdict = backend("native").check_unique(
            puzzle, budget=Budget(seconds=1.0) if slow else None
        )
        if slow and verdict.kind.value == "unknown":
            continue  # out of budget: never a wrong answer
        assert verdict.is_unique and verdict.solution == expected, example["name"]


# -- writing -------------------------------------------------------------------------------
S6 = Shape(2, 3)


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_every_constructor_round_trips(kind: str) -> None:
    """Rules of every constructor on 6x6 grids: written, read back, the same solutions."""
    rng = random.Random(f"iss round trip {kind}")
    for _ in range(3):
        solution = random_full_grid(S6, rng)
        extra = MAKERS[kind](S6, solution.values, rng)
        rules = RuleSet.build(S6, rng.sample(["anti-king", "anti-knight", "diagonal"], 1))
        rules = rules.with_rules(extra)
        givens = [v if rng.random() < 0.3 else 0 for v in solution.values]
        puzzle = Puzzle(Grid(S6, givens), rules)
        _same_solutions(puzzle, puzzle_from_iss(puzzle_to_iss(puzzle)))


def _same_solutions(a: Puzzle, b: Puzzle, limit: int = 30) -> None:
    """As many solutions (up to ``limit``), and the same grids when there are fewer."""
    pysat = backend("pysat")
    first, second = (set(pysat.solutions(p, limit=limit)) for p in (a, b))
    assert len(first) == len(second)
    if len(first) < limit:
        assert first == second


def test_raw_kinds_regions_and_odd_boxes_round_trip() -> None:
    """What ISS has no name for: a relation as a Pair table, a weighted distinct sum as a
    Sum with coefficients plus AllDifferent, jigsaw regions, a 3x2-box 6x6 grid."""
    shape = Shape(3, 2)
    table = frozenset({(1, 2), (2, 4), (3, 6), (6, 3), (5, 1)})
    extra = [
        Relation("custom", ((0, 7), (7, 14), (20, 3)), table),
        Sum("weighted", (SumGroup((1, 8, 15), (2, -1, 3), 9, True),)),
    ]
    rng = random.Random(5)
    solution = random_full_grid(shape, rng)
    givens = [v if rng.random() < 0.25 else 0 for v in solution.values]
    puzzle = Puzzle(Grid(shape, givens), RuleSet.build(shape).with_rules(extra))
    text = puzzle_to_iss(puzzle)
    assert ".NoBoxes.Jigsaw~" in text and ".Pair~" in text and "_=_2_-1_3" in text
    _same_solutions(puzzle, puzzle_from_iss(text))
    labels = [0, 0, 0, 1, 1, 1] * 2 + [2, 2, 2, 3, 3, 3] * 2 + [4, 4, 4, 5, 5, 5] * 2
    jigsaw = RuleSet.build(S6, ["jigsaw"], labels)
    assert jigsaw.rules[2] == regions_rule(S6, labels)
    back = puzzle_from_iss(puzzle_to_iss(Puzzle.empty(S6, jigsaw)))
    assert back.rules.regions == jigsaw.regions


def test_writing_refuses_what_iss_cannot_hold() -> None:
    with pytest.raises(ValueError, match="up to 16x16"):
        puzzle_to_iss(Puzzle.empty(Shape(5, 5)))


def test_convert_to_iss_and_back(tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    lines = [e["input"] for e, _ in solvable_examples()[:6]]
    source.write_text("\n".join([*lines, ".FullRank~R1~17~"]) + "\n")
    run = [sys.executable, "-m", "sudoku_model.cli"]
    out = subprocess.run(
        [*run, "convert", str(source), "--to", "iss"], capture_output=True, text=True
    )
    assert out.returncode == 2  # the FullRank line is reported and skipped
    assert f"{source}:7:2: iss: unsupported ISS constraint 'FullRank'" in out.stderr
    written = out.stdout.splitlines()
    assert len(written) == 6
    for original, text in zip(lines, written):
        _same_solutions(puzzle_from_iss(original), puzzle_from_iss(text), limit=2)
