"""Grid values, symbols and immutability."""

from __future__ import annotations

import pytest

from sudoku_model import ZERO_BASED_ALPHABET, Grid, Shape


def test_index_and_values():
    g = Grid.parse("1234341221434321")
    assert g[0] == 1 and g[1, 1] == 4 and g.clues == 16 and g.is_complete
    assert g.without([0]).clues == 15 and g.with_value(0, 0) == g.without([0])
    assert g.differences(g.with_value(0, 2)) == [0]
    assert g.rows()[1] == (3, 4, 1, 2)


def test_invalid_values_refused():
    with pytest.raises(ValueError, match="cells"):
        Grid(Shape(2, 2), [0] * 15)
    with pytest.raises(ValueError, match="values are 0..4"):
        Grid(Shape(2, 2), [5] + [0] * 15)
    with pytest.raises(AttributeError):
        Grid.empty(Shape(2, 2)).values = ()  # type: ignore[misc]


def test_symbols_above_nine():
    shape = Shape(4, 4)
    g = Grid(shape, list(range(1, 17)) + [0] * 240)
    line = g.to_line()
    assert line.startswith("123456789ABCDEFG.")
    assert Grid.parse(line) == g
    zero = g.to_line(alphabet=ZERO_BASED_ALPHABET)
    assert zero.startswith("0123456789ABCDEF.")
    assert Grid.parse(zero, alphabet=ZERO_BASED_ALPHABET) == g
    assert Grid.parse(line.lower()) == g


def test_repr_reproduces_value():
    for g in (Grid.parse("1234341221434321"), Grid.empty(Shape(3, 2))):
        assert eval(repr(g), {"Grid": Grid, "Shape": Shape}) == g
