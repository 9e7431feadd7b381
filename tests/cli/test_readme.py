"""The README is self-contained (issue 13 item 29): everything it points to is in the
repository (or the installed package), nothing points outside it."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ["README.md", "sudoku_model/data/README.md", "sudoku_model/DESIGN.md"]


@pytest.mark.parametrize("doc", DOCS)
def test_no_pointer_outside_the_repository(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    for phrase in ("shared folder", "shared/data", "issue note", "product owner"):
        assert phrase not in text, f"{doc} mentions {phrase!r}"


def test_every_repository_path_in_the_readme_exists() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    # paths into the fixed top-level folders, and benchmark scripts named bare
    tops = "sudoku_model|backends|native_backtrack|tests|notebooks|\\.ci"
    paths = set(re.findall(rf"(?<![\w/])((?:{tops})/[\w./-]*\w)", text))
    paths |= {f"tests/benchmarks/{name}" for name in re.findall(r"\b(bench_\w+\.py)", text)}
    assert {"sudoku_model/DESIGN.md", "tests/benchmarks/bench_logic.py"} <= paths
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, missing


def test_design_and_data_provenance_ship_with_the_package() -> None:
    package = resources.files("sudoku_model")
    assert package.joinpath("DESIGN.md").is_file()
    provenance = package.joinpath("data", "README.md").read_text(encoding="utf-8")
    for name in ("17-clue", "top95", "counts-43"):
        assert name in provenance
