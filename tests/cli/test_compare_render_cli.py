"""`sudoku compare` with every installed backend on a small file, and `sudoku render`."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from itertools import islice
from pathlib import Path

import pytest

from sudoku_model.cli import main
from sudoku_model.data import bundled_path
from sudoku_model.formats import iter_records
from sudoku_model.solving import available_backends, get_backend

SVG_NS = "{http://www.w3.org/2000/svg}"


def _names() -> tuple[list[str], list[str]]:
    """(loadable, not loadable) among the registered backends and a second PySAT solver."""
    ok, broken = [], []
    for name in [*available_backends(), "pysat:glucose4"]:
        try:
            get_backend(name)
        except Exception:
            broken.append(name)
        else:
            ok.append(name)
    return ok, broken


LOADABLE, BROKEN = _names()
ONE = "native" if "native" in LOADABLE else (LOADABLE or ["native"])[0]
pytestmark = pytest.mark.skipif(not LOADABLE, reason="no backend installed")


@pytest.fixture()
def small_file(tmp_path: Path) -> tuple[Path, list]:
    """Four puzzles of counts-43 (unique, unique, none, several) and two of top95."""
    recs = list(iter_records(bundled_path("counts-43")))
    chosen = [recs[0], recs[1], recs[20], recs[-3]] + list(
        islice(iter_records(bundled_path("top95")), 2)
    )
    path = tmp_path / "small.txt"
    path.write_text("".join(r.puzzle.to_line() + "\n" for r in chosen))
    return path, chosen


def test_compare_every_installed_backend(small_file, tmp_path: Path, capsys) -> None:
    path, chosen = small_file
    out_json = tmp_path / "result.json"
    code = main(
        [
            "compare",
            str(path),
            "--backends",
            ",".join(LOADABLE + BROKEN),
            "--task",
            "unique",
            "--repeat",
            "2",
            "--output",
            str(out_json),
        ]
    )
    stdout, stderr = capsys.readouterr()
    assert code == 0, stdout + stderr
    assert "agree on every puzzle" in stdout or len(LOADABLE) == 1
    for name in LOADABLE:
        assert get_backend(name).name in stdout
    for name in BROKEN:  # reported, not silently dropped
        assert f"{name}: FAILED TO LOAD" in stdout and name in stderr
    data = json.loads(out_json.read_text())
    assert data["agreed"] is True and set(data["failed_to_load"]) == set(BROKEN)
    assert len(data["rows"]) == len(chosen) * len(LOADABLE)
    verdicts = {r["puzzle"]: r["answer"] for r in data["rows"]}
    assert [verdicts[r.puzzle.to_line()] for r in chosen[:4]] == [
        "unique",
        "unique",
        "unsolvable",
        "multiple",
    ]
    for s in data["summary"]:
        assert s["puzzles"] == len(chosen) and s["unknown"] == 0 and s["errors"] == 0
        assert 0 < s["median_seconds"] <= s["p90_seconds"] <= s["max_seconds"]


def test_compare_csv_and_plot(small_file, tmp_path: Path, capsys) -> None:
    pytest.importorskip("matplotlib")
    path, chosen = small_file
    out_csv, plot = tmp_path / "rows.csv", tmp_path / "times.svg"
    code = main(
        [
            "compare",
            str(path),
            "--backends",
            ONE,
            "--task",
            "count",
            "--limit",
            "50",
            "--output",
            str(out_csv),
            "--plot",
            str(plot),
        ]
    )
    assert code == 0
    with open(out_csv, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["answer"] for r in rows][:4] == [
        r.comment.split(":")[0] if int(r.comment.split(":")[0]) < 50 else ">=50" for r in chosen[:4]
    ]
    ET.parse(plot)  # a well-formed SVG picture
    assert "one backend only" in capsys.readouterr().out


def test_compare_usage_errors(small_file, capsys) -> None:
    path, _ = small_file
    assert main(["compare", str(path), "--backends", "no-such-backend"]) == 2
    assert "no backend named 'no-such-backend'" in capsys.readouterr().err
    assert main(["compare", str(path), "--output", "x.xlsx"]) == 2
    assert main(["compare", str(path), "--repeat", "0"]) == 2
    assert main(["compare", "missing-file.txt"]) == 2


def test_render_svg_pages_with_solutions(small_file, tmp_path: Path, capsys) -> None:
    path, chosen = small_file
    # the first two puzzles have one solution each (counts-43 says "1:")
    assert all(r.comment.startswith("1:") for r in chosen[:2])
    target = tmp_path / "book.svg"
    code = main(
        [
            "render",
            str(path),
            "--first",
            "2",
            "--per-page",
            "1",
            "--to",
            str(target),
            "--solutions",
            "--backend",
            ONE,
        ]
    )
    assert code == 0, capsys.readouterr()
    pages = sorted(tmp_path.glob("book-*.svg"))
    assert [p.name for p in pages] == [f"book-{k}.svg" for k in (1, 2, 3, 4)]
    for k, page in enumerate(pages):
        root = ET.parse(page).getroot()
        digits = [t for t in root.iter(f"{SVG_NS}text") if "digit" in (t.get("class") or "")]
        # puzzle pages: one text per given; solution pages: one per cell
        assert len(digits) == (chosen[k].puzzle.clues if k < 2 else 81)


def test_render_single_puzzle_and_pdf(tmp_path: Path, capsys) -> None:
    line = next(iter_records(bundled_path("top95"))).puzzle.to_line()
    target = tmp_path / "one.svg"
    assert main(["render", line, "--to", str(target), "--page", "board"]) == 0
    texts = list(ET.parse(target).getroot().iter(f"{SVG_NS}text"))
    assert len([t for t in texts if "digit" in t.get("class", "")]) == 17
    pytest.importorskip("matplotlib")
    pdf = tmp_path / "book.pdf"
    assert main(["render", "bundled:top95", "--first", "7", "--to", str(pdf)]) == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    assert "7 puzzle(s) on 2 page(s)" in capsys.readouterr().out
    assert main(["render", line, "--to", str(tmp_path / "x.gif")]) == 2


def test_compare_count_answers_sorted_as_numbers(capsys) -> None:
    # issue 13 item 26: "0 10, 1 18, 102 1, 113 1, ..." sorted as text before
    assert main(["compare", "bundled:counts-43", "--backends", ONE, "--task", "count"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith(f"  {ONE}"))
    answers = [pair.split()[0] for pair in line.split(": ", 1)[1].split(", ")]
    counts = [int(a) for a in answers]
    assert counts == sorted(counts) and {0, 3, 102, 847} <= set(counts)
