"""sudoku_model.records: one schema for every command's records. Each command's real output
(verify, solve, count, rate, generate, compare; JSONL, JSON and CSV) is loaded and checked
against the schema: required fields, types, verdict words; malformed input gives the same
record everywhere; a wrong published solution is loud and makes verify exit 1."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path

import pytest

from sudoku_model import records
from sudoku_model.cli import main
from sudoku_model.data import bundled_path
from sudoku_model.verify import CSV_COLUMNS

UNIQUE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
MULTIPLE = "12" + "." * 79
BAD = UNIQUE[:40] + "x" + UNIQUE[41:]


def jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def assert_conform(recs: list[dict], command: str) -> None:
    assert recs, "no record"
    for r in recs:
        assert records.check_record(r) == [], r
        assert r["command"] == command and r["schema"] == records.SCHEMA_VERSION


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    clash = "44" + UNIQUE[2:]
    f = tmp_path / "mixed.txt"
    f.write_text("\n".join([UNIQUE, "not a puzzle", clash, MULTIPLE, BAD]) + "\n")
    return f


# -- the table ---------------------------------------------------------------------------------
def test_docstring_table_is_the_checked_table() -> None:
    doc = records.__doc__ or ""
    rows = [ln for ln in doc.splitlines() if ln.startswith("| ") and not ln.startswith("| field")]
    cells = [re.split(r"(?<!\\)\|", ln) for ln in rows]  # "\|" is a "|" inside a cell
    names = [c[1].strip() for c in cells]
    assert names == [f.name for f in records.FIELDS]
    for ln, c, spec in zip(rows, cells, records.FIELDS):
        written = c[2].strip()
        # the table escapes "|" for Markdown and says float where ints are accepted too
        rendered = records._names(spec.types).replace("int|float", "float")
        assert written.replace("\\|", "|") == rendered.replace("dict", "object"), ln


def test_check_record_finds_every_kind_of_problem() -> None:
    good = {
        **records.head("count", "f.txt", 3),
        "puzzle": UNIQUE,
        "clues": 17,
        "verdict": "unique",
        "count": 1,
        "complete": True,
        "limit": 2,
        "solutions": [],
        "backend": "native",
        "seconds": 0.1,
        "stats": {},
    }
    assert records.check_record(good) == []
    assert records.check_record(good | {"count": None}) == ["count is NoneType, expected int"]
    missing = dict(good)
    del missing["complete"]
    assert records.check_record(missing) == ["count record without 'complete'"]
    assert records.check_record(good | {"verdict": "solved"})[0].startswith("verdict 'solved'")
    assert records.check_record(good | {"complete": 1}) == ["complete is int, expected bool"]
    assert records.check_record(good | {"clues": True}) == ["clues is bool, expected int|null"]
    assert records.check_record(good | {"colour": "red"}) == ["unknown field 'colour'"]
    assert records.check_record(good | {"witnesses": []}) == ["count records have no 'witnesses'"]
    assert records.check_record(good | {"schema": 0})[0].startswith("schema is 0")
    assert records.check_record(good | {"command": "x"})[-1] == "unknown command 'x'"
    assert records.check_record(good | {"puzzle": None}) == [
        "puzzle is null but the verdict is not malformed"
    ]
    assert records.check_record([good]) == ["a record is a JSON object, not list"]


def test_dumps_writes_unmeasured_times_as_null() -> None:
    assert records.dumps({"seconds": math.nan, "x": [math.inf]}) == '{"seconds":null,"x":[null]}'


# -- every command's output ---------------------------------------------------------------------
def test_verify_jsonl_records_conform(mixed: Path, tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    variant = tmp_path / "diag.jsonl"
    variant.write_text(json.dumps({"puzzle": "." * 81, "variants": ["diagonal"]}) + "\n")
    code = main(["verify", str(mixed), str(variant), "-o", str(out), "-q", "--minimal"])
    recs = jsonl(out.read_text())
    assert code == 2 or code == 1  # malformed lines; the input-error rule is the cli's
    assert_conform(recs, "verify")
    assert [r["verdict"] for r in recs] == [
        "unique",
        "malformed",
        "contradictory",
        "multiple",
        "malformed",
        "multiple",
    ]
    assert recs[-1]["rules"]["variants"] == ["diagonal"]
    out2 = tmp_path / "c.jsonl"
    main(["verify", str(mixed), "-o", str(out2), "-q", "--cross-check", "native,pysat"])
    assert_conform(jsonl(out2.read_text()), "verify")


def test_verify_csv_has_the_schema_columns(mixed: Path, tmp_path: Path) -> None:
    out = tmp_path / "v.csv"
    main(["verify", str(mixed), "-o", str(out), "-q"])
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert set(CSV_COLUMNS) - {"witness1", "witness2", "error_line", "error_column"} <= {
        f.name for f in records.FIELDS
    }
    assert [r["schema"] for r in rows] == ["1"] * 5
    bad = rows[4]
    assert (bad["verdict"], bad["error"], bad["error_line"], bad["error_column"]) == (
        "malformed",
        "bad symbol 'x'",
        "5",
        "41",
    )
    assert rows[3]["witness1"] != rows[3]["witness2"] and rows[3]["differing_cells"]


def test_solve_and_count_json_records_conform(
    mixed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(mixed), "--json"]) == 2
    solved = jsonl(capsys.readouterr().out)
    assert_conform(solved, "solve")
    assert [r.get("status", r.get("verdict")) for r in solved] == [
        "solved",
        "malformed",
        "contradictory",
        "solved",
        "malformed",
    ]
    assert main(["count", str(mixed), "--json", "--limit", "3"]) == 2
    counted = jsonl(capsys.readouterr().out)
    assert_conform(counted, "count")
    assert [r["verdict"] for r in counted] == [
        "unique",
        "malformed",
        "contradictory",
        "multiple",
        "malformed",
    ]


def test_rate_records_conform(mixed: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert main(["rate", str(mixed), "-o", str(out)]) == 2
    recs = jsonl(out.read_text())
    assert_conform(recs, "rate")
    assert [r["verdict"] for r in recs][:2] == ["unique", "malformed"]


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_generate_records_conform_and_read_back(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudoku_model import formats

    out = tmp_path / f"g.{fmt}"
    args = ["generate", "-n", "3", "--seed", "4", "--box", "2x2", "--solutions"]
    assert main([*args, "--symmetry", "rot180", "--to", fmt, "-o", str(out)]) == 0
    text = out.read_text()
    recs = json.loads(text) if fmt == "json" else jsonl(text)
    assert_conform(recs, "generate")
    assert [r["index"] for r in recs] == [0, 1, 2]
    assert all(r["verdict"] == "unique" and r["symmetry"] == "rot180" for r in recs)
    back = list(formats.iter_records(out))  # the records are a puzzle file too
    assert [b.puzzle.to_line() for b in back] == [r["puzzle"] for r in recs]
    assert [b.solution.to_line() for b in back] == [r["solution"] for r in recs]


@pytest.mark.parametrize("ext", ["json", "csv"])
def test_compare_records_conform(ext: str, tmp_path: Path) -> None:
    out = tmp_path / f"c.{ext}"
    inp = tmp_path / "in.txt"
    inp.write_text(UNIQUE + "\n" + MULTIPLE + "\n")
    code = main(["compare", str(inp), "--backends", "native,pysat", "--output", str(out)])
    assert code == 0
    if ext == "json":
        doc = json.loads(out.read_text())
        assert doc["schema"] == records.SCHEMA_VERSION and doc["command"] == "compare"
        assert_conform(doc["rows"], "compare")
        assert len(doc["rows"]) == 4
    else:
        rows = list(csv.DictReader(io.StringIO(out.read_text())))
        assert len(rows) == 4 and {r["command"] for r in rows} == {"compare"}
        assert {r["answer"] for r in rows} == {"solved"}


def test_malformed_record_is_the_same_in_every_command(
    mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    got = {}
    main(["verify", str(mixed), "-q"])
    got["verify"] = jsonl(capsys.readouterr().out)[4]
    main(["solve", str(mixed), "--json"])
    got["solve"] = jsonl(capsys.readouterr().out)[4]
    main(["count", str(mixed), "--json"])
    got["count"] = jsonl(capsys.readouterr().out)[4]
    main(["rate", str(mixed)])
    got["rate"] = jsonl(capsys.readouterr().out)[4]
    same = {k: {f: r[f] for f in records.MALFORMED_FIELDS + ("text",)} for k, r in got.items()}
    for command, r in same.items():
        assert r.pop("command") == command
    first = same["verify"]
    assert first["error"] == {"message": "bad symbol 'x'", "line": 5, "column": 41}
    assert first["text"] == BAD
    assert all(r == first for r in same.values())


# -- published solutions through the command line ----------------------------------------------
def test_verify_wrong_published_solution_is_loud_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [ln.split(":") for ln in bundled_path("counts-43").read_text().splitlines()]
    unique = [(p, rest[0]) for p, c, *rest in rows if c == "1" and rest][:2]
    (p1, s1), (p2, s2) = unique
    wrong = s2[:10] + s2[11] + s2[10] + s2[12:] if s2[10] != s2[11] else s2[::-1]
    f = tmp_path / "pub.csv"
    f.write_text(f"puzzle,solution\n{p1},{s1}\n{p2},{wrong}\n")
    assert main(["verify", str(f)]) == 1  # every puzzle is unique, but one answer is wrong
    captured = capsys.readouterr()
    ok, bad = jsonl(captured.out)
    assert_conform([ok, bad], "verify")
    assert ok["verdict"] == bad["verdict"] == "unique"
    assert ok["published_solution"] == "matches" and "published_cells" not in ok
    assert bad["published_solution"] == "mismatch" and len(bad["published_cells"]) == 2
    assert "MISMATCHES" in captured.err and "published ok" in captured.err
    good = tmp_path / "good.csv"
    good.write_text(f"puzzle,solution\n{p1},{s1}\n{p2},{s2}\n")
    assert main(["verify", str(good), "-q"]) == 0


def test_no_c_file_spells_a_record_field():
    """C returns values; the records are written by this module alone: no string literal
    of a C file of the project names a record field (``"verdict"``, ``\\"solution\\"``...)."""
    from sudoku_model.records import FIELDS

    root = Path(__file__).resolve().parents[2]
    names = {f.name for f in FIELDS}
    literal = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
    sources = sorted(p for p in root.rglob("*.c") if ".git" not in p.parts)
    assert sources, "no C source found"
    found = []
    for path in sources:
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for text in literal.findall(line):
                for word in re.findall(r'\\"(\w+)\\"', text):
                    if word in names:
                        found.append(f"{path.relative_to(root)}:{k}: {word}")
    assert found == []


@pytest.mark.parametrize("seed", range(3))
def test_bulk_records_carry_each_line_number_and_position(seed):
    """The bulk writer interleaves line numbers, positions, clue counts and grids column by
    column: each record still holds its own, across powers of ten and gaps between lines."""
    import json
    import random

    from sudoku_model.geometry import Shape
    from sudoku_model.records import BULK_SOLUTION, verify_bulk_lines

    rng = random.Random(seed)
    for _ in range(40):
        n = rng.choice([1, 2, 16, 100, 512])
        first = rng.choice([0, 5, 95, 995, 9990, 99_997, rng.randrange(10**7)])
        position = rng.choice([0, 8, 98, 997, rng.randrange(10**6)])
        if rng.random() < 0.8:
            lines = list(range(first, first + n))
        else:  # blank lines or comments between them: not consecutive
            lines = sorted(rng.sample(range(first, first + 3 * n + 1), n))
        givens = bytes(rng.choice([0, 0, 0, rng.randint(1, 9)]) for _ in range(81 * n))
        solutions = bytes(rng.randint(1, 9) for _ in range(81 * n))
        clues = bytes(rng.randint(17, 81) for _ in range(n))
        text = verify_bulk_lines(
            source="x.txt",
            input_index=3,
            lines=lines,
            first_position=position,
            statuses=bytes(n),
            layout=(("unique", BULK_SOLUTION),),
            givens=givens,
            clues=clues,
            solutions=solutions,
            witnesses=bytes(2 * 81 * n),
            shape=Shape(3, 3),
            inserts=[None] * n,
            backend="native",
            version="1",
            options={},
            seconds=0.001,
            stats={},
        )
        records = [json.loads(line) for line in text.splitlines()]
        assert [r["line"] for r in records] == lines
        assert [r["position"] for r in records] == list(range(position, position + n))
        assert [r["clues"] for r in records] == list(clues)
        for i, r in enumerate(records):
            assert r["puzzle"] == givens[81 * i : 81 * i + 81].translate(_SYMBOLS).decode()
            assert r["solution"] == solutions[81 * i : 81 * i + 81].translate(_SYMBOLS).decode()


_SYMBOLS = bytes([46]) + b"123456789" + bytes(246)
