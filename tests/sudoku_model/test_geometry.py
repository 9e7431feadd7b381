"""Shapes: sizes, units and peers for every supported box."""

from __future__ import annotations

import pickle

import pytest

from sudoku_model import Shape, ShapeError, shape_for_size
from sudoku_model.geometry import parse_box, shape_for_cell_count

BOXES = [
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 4),
    (4, 2),
    (3, 3),
    (2, 5),
    (3, 4),
    (4, 3),
    (4, 4),
    (3, 5),
    (4, 5),
    (4, 6),
    (5, 5),
]


@pytest.mark.parametrize("box", BOXES)
def test_units_partition_the_grid(box):
    shape = Shape(*box)
    n = shape.size
    assert shape.cell_count == n * n
    for group in (shape.rows, shape.columns, shape.boxes):
        assert len(group) == n
        cells = sorted(c for unit in group for c in unit)
        assert cells == list(range(n * n))
    assert len(shape.units) == 3 * n


@pytest.mark.parametrize("box", BOXES)
def test_peer_count(box):
    shape = Shape(*box)
    n, br, bc = shape.size, *box
    # row + column + box, minus the overlaps the box shares with the row and the column
    expected = 2 * (n - 1) + (br - 1) * (bc - 1)
    assert all(len(p) == expected for p in shape.peers)
    assert all(i not in p for i, p in enumerate(shape.peers))


def test_box_shape_is_rows_by_columns():
    shape = Shape(2, 3)
    assert shape.boxes[0] == (0, 1, 2, 6, 7, 8)
    assert Shape(3, 2).boxes[0] == (0, 1, 6, 7, 12, 13)
    assert shape.box_of(8) == 0 and shape.box_of(9) == 1 and shape.box_of(12) == 2


@pytest.mark.parametrize("bad", [(1, 4), (4, 1), (0, 3), (1, 1), (6, 5), (2, 13)])
def test_bad_shapes_refused(bad):
    with pytest.raises(ShapeError):
        Shape(*bad)


def test_standard_shapes():
    assert shape_for_size(4) == Shape(2, 2)
    assert shape_for_size(6) == Shape(2, 3)
    assert shape_for_size(12) == Shape(3, 4)
    assert shape_for_size(25) == Shape(5, 5)
    assert shape_for_cell_count(256) == Shape(4, 4)
    with pytest.raises(ShapeError, match="prime"):
        shape_for_size(7)
    with pytest.raises(ShapeError):
        shape_for_cell_count(80)


def test_parse_box_and_repr_roundtrip():
    assert parse_box("2x3") == Shape(2, 3)
    assert parse_box("16") == Shape(4, 4)
    with pytest.raises(ShapeError):
        parse_box("3by3")
    shape = Shape(3, 4)
    assert eval(repr(shape)) == shape
    assert pickle.loads(pickle.dumps(shape)) == shape
    assert shape.cell_name(13) == "r2c2"


def test_parse_box_says_why_a_size_has_no_shape():
    # issue 13 item 21: `--size 7` said "'7' is not a number"
    with pytest.raises(ShapeError, match=r"a 7x7 grid has no box shape \(7 is prime\)"):
        parse_box("7")
    with pytest.raises(ShapeError, match="outside 4..25"):
        parse_box("36")
    with pytest.raises(ShapeError, match="not a number or RxC box"):
        parse_box("seven")
