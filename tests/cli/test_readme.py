"""The README keeps its promises: every command block runs as written, its Python example
runs, everything it points to is in the repository (or the installed package), nothing
points outside it, it names no issue numbers or revisions, and every benchmark script has
its section in tests/benchmarks/README.md."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = [
    "README.md",
    "sudoku_model/data/README.md",
    "sudoku_model/DESIGN.md",
    "sudoku_model/docs/REFERENCE.md",
    "sudoku_model/docs/CHANGES.md",
]


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(info string, body) of every fenced code block of a markdown text."""
    return re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M)


def command_blocks() -> list[str]:
    """The README's `sh` blocks: the commands a reader is told run as written."""
    return [
        body for info, body in fenced_blocks(README.read_text(encoding="utf-8")) if info == "sh"
    ]


@pytest.mark.parametrize("doc", DOCS)
def test_no_pointer_outside_the_repository(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    for phrase in ("shared folder", "shared/data", "issue note", "product owner", "/work/"):
        assert phrase not in text, f"{doc} mentions {phrase!r}"


def test_every_repository_path_in_the_readme_exists() -> None:
    text = README.read_text(encoding="utf-8")
    # paths into the fixed top-level folders, and benchmark scripts named bare
    tops = "sudoku_model|backends|native_backtrack|tests|notebooks|\\.ci"
    paths = set(re.findall(rf"(?<![\w/])((?:{tops})/[\w./-]*\w)", text))
    paths |= {f"tests/benchmarks/{name}" for name in re.findall(r"\b(bench_\w+\.py)", text)}
    paths |= set(re.findall(r"\]\(((?!https?:|#)[^)#]+)", text))  # markdown links
    assert {"sudoku_model/DESIGN.md", "tests/benchmarks/README.md", "LICENSE"} <= paths
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, missing


def test_the_readme_names_no_issue_numbers_revisions_or_load_figures() -> None:
    text = README.read_text(encoding="utf-8")
    assert not re.search(r"\bissues? \d+", text, re.I), "an issue number"
    assert not re.search(r"(?<![\w&])#\d+\b", text), "an issue reference like #12"
    hashes = [h for h in re.findall(r"\b[0-9a-f]{7,40}\b", text) if re.search(r"[a-f]", h)]
    assert not [h for h in hashes if re.search(r"\d", h)], hashes  # a revision hash
    assert not re.search(r"\bload (average )?\d", text), "a machine-load figure"


def test_the_readme_is_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 350


def test_every_benchmark_script_has_its_section() -> None:
    reports = (ROOT / "tests" / "benchmarks" / "README.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (bench_\w+\.py)$", reports, flags=re.M))
    scripts = {p.name for p in (ROOT / "tests" / "benchmarks").glob("bench_*.py")}
    assert scripts and scripts <= sections, sorted(scripts - sections)
    assert sections <= scripts, sorted(sections - scripts)  # no section for a deleted script


def test_the_quickstart_holds_exactly_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    block = text.split("<!-- quickstart:begin -->")[1].split("<!-- quickstart:end -->")[0]
    (body,) = [b for _, b in fenced_blocks(block.strip() + "\n")]
    assert [ln for ln in body.splitlines() if ln.strip()] == [
        'pip install -e ".[dev]" && sudoku verify bundled:top95 -o top95.jsonl --force',
        "python -m pytest -q",
    ]


def test_the_readme_has_command_blocks() -> None:
    assert len(command_blocks()) >= 3


@pytest.mark.parametrize("index", range(len(command_blocks())))
def test_a_readme_command_block_runs_as_written(index: int, tmp_path: Path) -> None:
    """Each line of the block runs in a fresh folder (later lines may use what earlier ones
    wrote), `sudoku` being this tree's command; every line must exit 0."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "sudoku"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sudoku_model "$@"\n')
    shim.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    for line in command_blocks()[index].splitlines():
        if not line.strip():
            continue
        done = subprocess.run(
            ["bash", "-c", line],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
        )
        assert done.returncode == 0, (line, done.stderr[-2000:])


def test_the_readme_python_example_runs(tmp_path: Path) -> None:
    (code,) = [
        b for info, b in fenced_blocks(README.read_text(encoding="utf-8")) if info == "python"
    ]
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("unique 417369825632158947958724316")
    assert lines[1] == "74160"
    assert len(lines) == 2 + 11  # hardest: 11 puzzles


def test_design_reference_and_data_provenance_ship_with_the_package() -> None:
    package = resources.files("sudoku_model")
    assert package.joinpath("DESIGN.md").is_file()
    assert package.joinpath("docs", "REFERENCE.md").is_file()
    provenance = package.joinpath("data", "README.md").read_text(encoding="utf-8")
    for name in ("17-clue", "top95", "counts-43"):
        assert name in provenance
