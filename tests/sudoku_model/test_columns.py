"""The column interleaver behind verify's bulk writer (sudoku_model/columns.c), against a
direct Python reading of its template, on random templates and on its refusals."""

from __future__ import annotations

import random

import pytest

from sudoku_model import _columns

DIGITS = bytes([ord(".")] + [ord(c) for c in "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"]) + b"?" * 220
ODD = bytes(range(255, -1, -1))  # not a digit table: every byte through the lookup
ZERO_EMPTY = b"0123456789" + b"?" * 246  # '0' for empty: the word path at its bound


def reference(n: int, template: tuple[object, ...]) -> bytes:
    out = bytearray()
    for i in range(n):
        for item in template:
            if isinstance(item, bytes):
                out += item
                continue
            assert isinstance(item, tuple)
            kind = item[0]
            if kind == 0:
                _, data, width, table = item
                out += bytes(table[b] for b in data[i * width : (i + 1) * width])
            elif kind == 1:
                out += b"%d" % (item[1] + i)
            elif kind == 2:
                out += b"%d" % item[1][i]
            else:
                _, index, choices = item
                out += choices[index[i]]
    return bytes(out)


@pytest.mark.parametrize("seed", range(40))
def test_random_templates_match_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([0, 1, 2, 7, 64, 513])
    template: list[object] = []
    for _ in range(rng.randint(1, 8)):
        kind = rng.randint(-1, 3)
        if kind == -1:
            template.append(bytes(rng.randrange(256) for _ in range(rng.randint(0, 12))))
        elif kind == 0:
            width = rng.choice([0, 1, 8, 9, 16, 81, 83])
            top = rng.choice([9, 10, 36, 255])
            data = bytes(rng.randint(0, top) if rng.random() < 0.5 else 0 for _ in range(n * width))
            table = rng.choice([DIGITS, ODD, ZERO_EMPTY])
            template.append((0, data, width, table))
        elif kind == 1:
            template.append((1, rng.choice([0, 9, 99, -5, 10**15, -(2**63)])))
        elif kind == 2:
            big = rng.choice([10, 10**6, 2**62])
            template.append((2, [rng.randint(-big, big) for _ in range(n)]))
        else:
            choices = tuple(bytes(rng.randrange(97, 123) for _ in range(k)) for k in range(5))
            template.append((3, bytes(rng.randrange(5) for _ in range(n)), choices))
    t = tuple(template)
    assert _columns.join(n, t) == reference(n, t)


def test_the_digit_table_maps_every_cell_value() -> None:
    data = bytes(range(256)) * 81
    item = (0, data, 81, DIGITS)
    assert _columns.join(256, (item,)) == reference(256, (item,))


@pytest.mark.parametrize(
    "template",
    [
        ((0, b"12", 3, DIGITS),),  # the column is shorter than n * width
        ((0, b"123456", 3, b"short"),),  # the table is not 256 bytes
        ((2, [1]),),  # ints not n long
        ((3, b"\x05\x00", (b"a",)),),  # an index without its choice
        ((3, b"\x00\x00", (b"a", "b")),),  # a choice that is not bytes
        ((9, 1),),  # an unknown kind
        ((1,),),  # a kind without its fields
        ("text",),  # neither bytes nor a tuple
    ],
)
def test_malformed_templates_raise(template: tuple[object, ...]) -> None:
    with pytest.raises((ValueError, TypeError)):
        _columns.join(2, template)  # type: ignore[arg-type]


def test_negative_n_raises() -> None:
    with pytest.raises(ValueError):
        _columns.join(-1, (b"x",))


@pytest.mark.parametrize("seed", range(20))
def test_join_text_is_the_same_text_as_a_str(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([0, 1, 5, 64])
    ascii_table = DIGITS
    template: tuple[object, ...] = (
        b'{"a":',
        (1, rng.randint(-99, 99)),
        b',"g":"',
        (0, bytes(rng.randint(0, 9) for _ in range(n * 9)), 9, ascii_table),
        (3, bytes(rng.randrange(2) for _ in range(n)), (b'"}', b'","x":1}')),
        b"\n",
    )
    text = _columns.join_text(n, template)
    assert type(text) is str and text.isascii()
    assert text == reference(n, template).decode("ascii")
    # a piece beyond ASCII (a source path named in UTF-8): decoded, the same text
    wide = ("é/données ".encode(), *template)
    assert _columns.join_text(n, wide) == reference(n, wide).decode("utf-8")


def test_join_text_refuses_bytes_that_are_not_utf8() -> None:
    with pytest.raises(UnicodeDecodeError):
        _columns.join_text(1, (b"\xff",))
    with pytest.raises(ValueError):
        _columns.join_text(-1, (b"x",))
