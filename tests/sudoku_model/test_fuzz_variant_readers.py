"""Fuzzing the variant readers with hypothesis: killer CSV rows with any number of fields of
any text, f-puzzles objects (as JSON lines and as links) and JSON puzzle objects whose
fields hold wrongly typed JSON values. Whatever a record holds, nothing but a malformed
record (file:line:col) comes out of ``iter_records`` for it, and the good record after it
is still read.

By hand, a bigger run that counts the cases whose exception escapes instead of stopping at
the first::

    python tests/sudoku_model/test_fuzz_variant_readers.py 100000
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sudoku_model import ParseError
from sudoku_model.formats import iter_records
from sudoku_model.variant_formats import CONSTRAINT_TYPES

GOOD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
LETTERS = "K" + "AB" * 40 + "C"
KILLER_HEADER = ",ptitle,vol,book,puzzle,puzz_color,puzz_hint,solved,sOrder"
KILLER_GOOD = (
    "0,KD,1,1,1,KABBBCDDEEAAFBCGGHIJAFKLMMHIJNNKLOOPPJJJJQQPPPJRRSTUUPPJVWSTXXYZVVWabccYZVaaabddee,"
    '"11,25,14,9,12,15,4,14,6,40,3,15,9,8,12,38,11,15,13,6,4,17,7,13,10,6,26,4,15,11,12",'
    "184652793526793184739184562653278419941365827278941356895427631412836975367519248,1"
)

#: A marker written into the JSON text as a 5,000-digit number (json.dumps cannot write it)
BIG = "@big@"


def dumps(obj: Any) -> str:
    return json.dumps(obj).replace(f'"{BIG}"', "9" * 5000)


# -- JSON values, typed right and wrong ----------------------------------------------------
cells = st.sampled_from(["r1c1", "R1C2", "r2c1", "r9c9", "r0c0", "r10c1", "R0C4", "x", ""])
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.sampled_from([-1, 0, 1, 2, 5, 9, 45]),
    st.just(BIG),  # written as a number beyond the int-from-text limit
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    cells,
    st.sampled_from(["X", "V", "5", "", "A"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(["cells", "value", "lines", "cell", "sum", "given", "region"]),
            inner,
            max_size=3,
        ),
    ),
    max_leaves=12,
)

FPUZZLES_KEYS = [
    "killercage", "littlekillersum", "arrow", "thermometer", "difference", "ratio", "xv",
    "negative", "nonconsecutive", "even", "odd", "sandwichsum", "diagonal+", "diagonal-",
    "antiknight", "antiking", "extraregion", "disjointgroups", "solution", "size", "grid",
]  # fmt: skip


@st.composite
def fpuzzles_objects(draw: Callable[..., Any]) -> dict[str, Any]:
    size = draw(st.sampled_from([4, 9, 9, 9]))
    grid: Any = [[{} for _ in range(size)] for _ in range(size)]
    if draw(st.booleans()):
        r, c = draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))
        grid[r][c] = draw(
            st.dictionaries(st.sampled_from(["value", "given", "region"]), json_values)
        )
    obj: dict[str, Any] = {"size": size, "grid": grid}
    for key in draw(st.lists(st.sampled_from(FPUZZLES_KEYS), max_size=3)):
        obj[key] = draw(json_values)
    return obj


@st.composite
def variant_json_objects(draw: Callable[..., Any]) -> dict[str, Any]:
    obj: dict[str, Any] = {"puzzle": GOOD}
    entries = []
    for _ in range(draw(st.integers(0, 2))):
        entry = {"type": draw(st.sampled_from([*CONSTRAINT_TYPES, "nope"]))}
        for key in draw(
            st.lists(
                st.sampled_from(
                    ["cages", "lines", "arrows", "white", "black", "x", "v", "pairs", "even",
                     "odd", "rows", "columns", "units", "name", "allowed", "groups", "negative"]
                ),
                max_size=3,
            )
        ):  # fmt: skip
            entry[key] = draw(json_values)
        entries.append(entry)
    obj["constraints"] = entries if draw(st.booleans()) else draw(json_values)
    for key in draw(st.lists(st.sampled_from(["box", "size", "regions", "variants", "solution"]))):
        obj[key] = draw(json_values)
    return obj


fields = st.one_of(
    st.text(max_size=8),
    st.just(LETTERS),
    st.just('"3,4"'),
    st.sampled_from(["K" + "A" * 81, "K" + "AB" * 8, "1,2", "", '"', "x" * 100]),
)
killer_rows = st.lists(fields, min_size=0, max_size=14).map(",".join)


# -- the property --------------------------------------------------------------------------
def escaped(lines: list[str], fmt: str, good: int) -> str | None:
    """What went wrong reading ``lines`` (a bad record among good ones), or None: an
    exception other than ParseError, a record without location, or a good record lost."""
    try:
        records = list(iter_records(lines, source="fuzz", fmt=fmt))
    except ParseError:
        return None  # a whole-file refusal: allowed, located
    except Exception as exc:  # noqa: BLE001 - the point: nothing else may escape
        return f"{type(exc).__name__}: {exc}"
    for rec in records:
        if rec.error is not None and (rec.error.line < 1 or rec.error.column < 1):
            return f"unlocated: {rec.error}"
    if sum(1 for r in records if r.ok) < good:
        return "a good record was lost"
    return None


def _fpuzzles_line(obj: dict[str, Any], link: bool) -> str:
    text = dumps(obj)
    return "https://f-puzzles.com/?load=" + quote(text) if link else text


GOOD_FPUZZLES = json.dumps({"size": 4, "grid": [[{} for _ in range(4)] for _ in range(4)]})


def check_fpuzzles(obj: dict[str, Any], link: bool) -> str | None:
    return escaped([_fpuzzles_line(obj, link), GOOD_FPUZZLES], "fpuzzles", 1)


def check_variant_json(obj: dict[str, Any]) -> str | None:
    line = dumps(obj)
    good = json.dumps({"puzzle": GOOD})
    return escaped([line, good], "jsonl", 1) or escaped([f"[{line},\n{good}]"], "json", 1)


def check_killer_csv(row: str) -> str | None:
    return escaped([KILLER_HEADER, row, KILLER_GOOD], "csv", 1)


FAST = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@FAST
@given(fpuzzles_objects(), st.booleans())
def test_fpuzzles_objects_of_any_type_are_records(obj: dict[str, Any], link: bool) -> None:
    assert check_fpuzzles(obj, link) is None, json.dumps(obj)[:500]


@FAST
@given(variant_json_objects())
def test_variant_json_of_any_type_is_a_record(obj: dict[str, Any]) -> None:
    assert check_variant_json(obj) is None, json.dumps(obj)[:500]


@FAST
@given(killer_rows)
def test_killer_csv_rows_of_any_shape_are_records(row: str) -> None:
    assert check_killer_csv(row) is None, row


def test_the_reported_cases_are_malformed_records() -> None:
    # a killer row with more fields than the header, f-puzzles xv of a string, ratio of 5
    assert check_killer_csv(KILLER_GOOD + ",extra,fields") is None
    base = json.loads(GOOD_FPUZZLES)
    for change in ({"xv": ["r1c1"]}, {"ratio": 5}, {"negative": 5}, {"arrow": [{"lines": 3}]}):
        for link in (False, True):
            lines = [_fpuzzles_line({**base, **change}, link), GOOD_FPUZZLES]
            records = list(iter_records(lines, source="f.txt", fmt="fpuzzles"))
            assert [r.ok for r in records] == [False, True], change
            assert str(records[0].error).startswith("f.txt:1:1: f-puzzles: "), records[0].error


def _count(n: int) -> None:
    """By hand: ``n`` cases of each kind, counting (not stopping at) escapes."""
    found: dict[str, int] = {}

    def note(kind: str, problem: str | None) -> None:
        if problem is not None:
            key = f"{kind}: {problem.split(':')[0]}"
            found[key] = found.get(key, 0) + 1

    many = settings(
        max_examples=n,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    many(given(fpuzzles_objects(), st.booleans())(lambda o, k: note("f", check_fpuzzles(o, k))))()
    many(given(variant_json_objects())(lambda o: note("json", check_variant_json(o))))()
    many(given(killer_rows)(lambda r: note("killer-csv", check_killer_csv(r))))()
    print(f"{3 * n} cases; escapes: {sum(found.values())}")
    for key, count in sorted(found.items(), key=lambda kv: -kv[1]):
        print(f"  {count:6d}  {key}")


if __name__ == "__main__":
    _count(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
