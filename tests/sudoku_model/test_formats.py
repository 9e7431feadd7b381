"""Formats: round trips for every format and size, exact error positions, streaming."""

from __future__ import annotations

import gzip
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_model import ZERO_BASED_ALPHABET, Grid, ParseError, Puzzle, RuleSet, Shape, formats
from sudoku_model.data import BUNDLED, bundled_path

SHAPES = [
    Shape(2, 2),
    Shape(2, 3),
    Shape(3, 2),
    Shape(2, 4),
    Shape(3, 3),
    Shape(3, 4),
    Shape(4, 4),
    Shape(5, 5),
]


@st.composite
def grids(draw, shapes=SHAPES):
    shape = draw(st.sampled_from(shapes))
    values = draw(
        st.lists(st.integers(0, shape.size), min_size=shape.cell_count, max_size=shape.cell_count)
    )
    return Grid(shape, values)


def _read(text: str, **kw) -> list[formats.Record]:
    return list(formats.iter_records(io.StringIO(text), source="t", **kw))


@settings(max_examples=60, deadline=None)
@given(grids())
def test_line_roundtrip(grid):
    assert Grid.parse(grid.to_line(), shape=grid.shape) == grid
    (rec,) = _read(grid.to_line() + "  trailing comment\n", shape=grid.shape)
    assert rec.puzzle.givens == grid and rec.comment == "trailing comment"


@settings(max_examples=60, deadline=None)
@given(grids())
def test_block_roundtrip(grid):
    for separators in (True, False):
        text = grid.to_block(separators=separators)
        assert Grid.parse(text, shape=grid.shape) == grid


@settings(max_examples=40, deadline=None)
@given(
    st.lists(grids([Shape(2, 3)]), min_size=1, max_size=4),
    st.sampled_from(formats.WRITABLE_FORMATS),
)
def test_every_writable_format_roundtrips(grid_list, fmt):
    puzzles = [Puzzle(g) for g in grid_list]
    out = io.StringIO()
    formats.write_records(((p, None) for p in puzzles), fmt, out)
    suffix = {"csv": "x.csv", "json": "x.json", "jsonl": "x.jsonl"}.get(fmt, "x.txt")
    back = list(
        formats.iter_records(
            io.StringIO(out.getvalue()),
            source=suffix,
            shape=Shape(2, 3),
            fmt=fmt if fmt != "line" else "auto",
        )
    )
    assert [r.error for r in back] == [None] * len(puzzles)
    assert [r.puzzle for r in back] == puzzles


@settings(max_examples=30, deadline=None)
@given(grids([Shape(4, 4), Shape(3, 3)]))
def test_zero_based_alphabet_roundtrip(grid):
    text = grid.to_line(alphabet=ZERO_BASED_ALPHABET)
    assert Grid.parse(text, alphabet=ZERO_BASED_ALPHABET, shape=grid.shape) == grid


def test_variant_json_roundtrip_keeps_rules():
    shape = Shape(2, 2)
    labels = [0, 0, 1, 1, 0, 0, 1, 1, 2, 3, 3, 3, 2, 2, 2, 3]
    rules = RuleSet.build(shape, ["jigsaw", "diagonal"], regions=labels)
    puzzle = Puzzle(Grid.parse("1...............", shape=shape), rules)
    obj = formats.puzzle_to_json(puzzle, solution=None)
    assert obj["variants"] == ["diagonal"] and obj["regions"] == labels
    back, solution = formats.puzzle_from_json(json.loads(json.dumps(obj)))
    assert back == puzzle and solution is None
    text = json.dumps(
        {
            "box": [2, 3],
            "variants": ["anti-king"],
            "puzzle": ["1.....", "......", "......", "......", "......", "......"],
        }
    )
    (rec,) = _read(text, fmt="json")
    assert rec.puzzle.shape == Shape(2, 3) and rec.puzzle.rules.variants == ("anti-king",)


def test_comment_separators_and_crlf():
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    for sep in (" ", "\t", "#", ";", ":", ","):
        (rec,) = _read(f"{line}{sep}rating 9.9\r\n")
        assert rec.error is None and rec.comment == "rating 9.9"
    recs = _read(f"# header\r\n\r\n{line}\r\n\n{line.replace('.', '0')}\n")
    assert [r.line for r in recs] == [3, 5] and recs[0].puzzle == recs[1].puzzle
    for blank in "._-*0":
        assert _read(line.replace(".", blank))[0].puzzle.clues == 17


def test_several_blocks_in_one_file():
    text = "12..\n..12\n21..\n..21\n\n1...\n....\n....\n...1\n"
    recs = _read(text, fmt="block")
    assert [r.line for r in recs] == [1, 6]
    assert [r.puzzle.clues for r in recs] == [8, 2]


def test_csv_with_kaggle_header_and_solution():
    p = "1.3..4.2.1.4..2."
    s = "1234342121434312"
    recs = _read(f"quizzes,solutions\n{p.replace('.', '0')},{s}\n", fmt="auto")
    assert recs[0].puzzle.givens == Grid.parse(p) and recs[0].solution == Grid.parse(s)


@pytest.mark.parametrize(
    "text,line,column,message",
    [
        ("1" * 80, 1, 81, "80 cells is not a grid"),
        ("1" * 82, 1, 82, "82 cells is not a grid"),
        ("12x" + "." * 78, 1, 3, "bad symbol 'x'"),
        ("." * 40 + "A" + "." * 40, 1, 41, "value 10 ('A') is above 9"),
        ("# only a comment\n\n", 2, 1, "empty input"),
        ("  " + "." * 5 + "?" + "." * 75, 1, 8, "bad symbol '?'"),
    ],
)
def test_line_errors_have_exact_positions(text, line, column, message):
    try:
        recs = _read(text)
    except ParseError as exc:
        err = exc
    else:
        (rec,) = recs
        err = rec.error
    assert err is not None, "expected a parse error"
    assert (err.source, err.line, err.column) == ("t", line, column)
    assert message in err.message
    assert str(err).startswith(f"t:{line}:{column}: ")


def test_block_errors():
    ragged = (
        "5 3 . | . 7 .\n6 . . | 1 9 5\n. 9 8 | . . .\n8 . . | . 6 .\n4 . | 8 . 3\n7 . . | . 2 .\n"
    )
    (rec,) = _read(ragged, shape=Shape(2, 3), fmt="block")
    assert (rec.error.line, rec.error.column) == (5, 12)  # just after the last cell
    assert "ragged block: row has 5 cells, expected 6" in rec.error.message
    short = "12..\n..12\n21..\n\n"
    (rec,) = _read(short, fmt="block")
    assert "block has 3 rows, too few" in rec.error.message and rec.error.line == 4


def test_malformed_lines_do_not_stop_the_stream():
    good = "1.3..4.2.1.4..2."
    recs = _read(f"{good}\n{good[:-1]}\n{good}x\n{good}\n")
    assert [r.error is None for r in recs] == [True, False, False, True]
    assert recs[1].error.line == 2 and "15 cells" in recs[1].error.message
    # a comment needs a separator: "x" straight after the cells is a 17th cell
    assert recs[2].error.line == 3 and "17 cells" in recs[2].error.message


def test_json_errors_name_the_place():
    (rec,) = _read('{"puzzle": "1.3..4.2.1.4..2."\n', fmt="jsonl")
    assert rec.error is not None and rec.error.line == 1 and "invalid JSON" in rec.error.message
    with pytest.raises(ParseError) as info:
        _read('[\n"1.3..4.2.1.4..2.",\n]\n', fmt="json")
    assert info.value.line == 3


def test_gzip_is_read_transparently(tmp_path):
    path = tmp_path / "p.txt.gz"
    with gzip.open(path, "wt") as f:
        f.write("1.3..4.2.1.4..2.\n")
    assert formats.read_puzzles(path)[0].clues == 7


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_every_bundled_file_reads_with_the_right_count(name):
    expected = BUNDLED[name][1]
    count = 0
    for rec in formats.iter_records(bundled_path(name)):
        assert rec.error is None, rec.error
        count += 1
    assert count == expected


def test_inferred_shapes_for_every_cell_count():
    for count in (16, 36, 64, 81, 144, 256, 625):
        (rec,) = _read("." * count)
        assert rec.puzzle.shape.cell_count == count
