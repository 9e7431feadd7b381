"""No command destroys an input: every command that writes a file refuses, with exit 2 and
before opening anything for writing, an output that is the same file as one of its inputs,
however it is spelled (the same name, ``./X``, an absolute path, a symbolic link, a hard
link, ``-`` redirected from it). In-process through :func:`sudoku_model.cli.main`, one
subprocess for standard input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_model.cli import main

TOP = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
]
LINES = "\n".join(TOP) + "\n"
SOLVED_START = "1234567894" + "." * 71  # a partial grid for generate --from

#: command -> (input file name, its content, argv with {input} and {out}); every writer
WRITERS: dict[str, tuple[str, str, list[str]]] = {
    "verify": ("p.txt", LINES, ["verify", "{input}", "-o", "{out}", "-q"]),
    "canon": ("p.txt", LINES, ["canon", "{input}", "-o", "{out}"]),
    "dedup": ("p.txt", LINES, ["dedup", "{input}", "-o", "{out}"]),
    "dedup-report": (
        "p.txt",
        LINES,
        ["dedup", "{input}", "-o", "reps.txt", "--report", "{out}"],
    ),
    "convert": ("p.txt", LINES, ["convert", "{input}", "--to", "line", "-o", "{out}"]),
    "convert-layout": (
        "p.txt",
        LINES,
        ["convert", "{input}", "--to", "quiz-answer", "-o", "{out}"],
    ),
    "rate": ("p.txt", LINES, ["rate", "{input}", "-o", "{out}"]),
    "rate-se": ("p.txt", LINES, ["rate", "{input}", "--scale", "se", "-o", "{out}"]),
    "generate-from": (
        "p.txt",
        SOLVED_START + "\n",
        ["generate", "-n", "1", "--seed", "1", "--from", "{input}", "-o", "{out}", "-q"],
    ),
    "generate-pattern": (
        "p.txt",
        "x" * 40 + "." * 41 + "\n",
        ["generate", "-n", "1", "--seed", "1", "--pattern", "{input}", "-o", "{out}", "-q"],
    ),
    "compare": (
        "p.csv",
        "puzzle\n" + "\n".join(TOP) + "\n",
        ["compare", "{input}", "--backends", "native", "-o", "{out}"],
    ),
    "compare-output": (
        "p.csv",
        "puzzle\n" + "\n".join(TOP) + "\n",
        ["compare", "{input}", "--backends", "native", "--output", "{out}"],
    ),
    "compare-plot": (
        "p.svg",
        LINES,
        ["compare", "{input}", "--backends", "native", "--plot", "{out}"],
    ),
    "generate-regions": (
        "r.txt",
        "".join("".join(str(3 * (r // 3) + c // 3 + 1) for c in range(9)) + "\n" for r in range(9)),
        ["generate", "-n", "1", "--seed", "1", "--regions", "{input}", "-o", "{out}", "-q"],
    ),
    "render": ("p.svg", LINES, ["render", "{input}", "--to", "{out}"]),
    "cnf": ("p.txt", TOP[0] + "\n", ["cnf", "{input}", "-o", "{out}"]),
}

SPELLINGS = ("same", "dot-slash", "absolute", "symlink", "hardlink")


def _spell(name: str, how: str, where: Path) -> str:
    if how == "same":
        return name
    if how == "dot-slash":
        return f".{os.sep}{name}"
    if how == "absolute":
        return str(where / name)
    link = where / f"link-{how}{Path(name).suffix}"
    if how == "symlink":
        link.symlink_to(where / name)
    else:
        os.link(where / name, link)
    return link.name


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.err


@pytest.mark.parametrize("how", SPELLINGS)
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_writer_refuses_an_output_that_is_its_input(
    command: str,
    how: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    name, content, template = WRITERS[command]
    (tmp_path / name).write_text(content, encoding="utf-8")
    before = os.stat(tmp_path / name)
    out = _spell(name, how, tmp_path)
    argv = [a.format(input=name, out=out) for a in template]
    code, err = _run(argv, capsys)
    assert code == 2, err
    assert "is an input of this command" in err and "Traceback" not in err, err
    assert (tmp_path / name).read_text(encoding="utf-8") == content  # untouched
    after = os.stat(tmp_path / name)
    assert after.st_mtime_ns == before.st_mtime_ns  # never opened for writing
    assert not (tmp_path / "reps.txt").exists()  # nothing else was opened either


@pytest.mark.parametrize("command", ["convert", "canon", "cnf", "compare"])
def test_the_input_spelled_otherwise_is_refused_too(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the input through a link or an absolute path, the output by its plain name
    monkeypatch.chdir(tmp_path)
    name, content, template = WRITERS[command]
    (tmp_path / name).write_text(content, encoding="utf-8")
    for how in ("absolute", "symlink", "hardlink"):
        spelled = _spell(name, how, tmp_path)
        code, err = _run([a.format(input=spelled, out=name) for a in template], capsys)
        assert code == 2 and "is an input of this command" in err, (how, err)
        assert (tmp_path / name).read_text(encoding="utf-8") == content


def test_a_different_output_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # the guard refuses only the same file: a copy, /dev/null and a new file are fine
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.txt").write_text("\n".join(TOP) + "\n", encoding="utf-8")
    (tmp_path / "copy.txt").write_text("\n".join(TOP) + "\n", encoding="utf-8")
    for out in ("copy.txt", "new.txt", os.devnull):
        code, err = _run(["convert", "p.txt", "--to", "line", "-o", out], capsys)
        assert code == 0, err
    assert (tmp_path / "new.txt").read_text(encoding="utf-8").splitlines() == TOP


def test_compare_accepts_dash_o(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.txt").write_text("\n".join(TOP) + "\n", encoding="utf-8")
    code, err = _run(["compare", "p.txt", "--backends", "native", "-o", "times.csv"], capsys)
    assert code == 0, err
    rows = (tmp_path / "times.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("schema,") and len(rows) == 1 + len(TOP)


def test_bundled_input_is_guarded_by_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # bundled:NAME names a file of the package: writing over it is refused as well
    from sudoku_model.formats import resolve_source

    path = resolve_source("bundled:hardest")
    before = Path(path).read_bytes()
    code, err = _run(["convert", "bundled:hardest", "--to", "line", "-o", path], capsys)
    assert code == 2 and "is an input of this command" in err, err
    assert Path(path).read_bytes() == before


def test_dataset_build_refuses_a_directory_holding_its_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "ds"
    d.mkdir()
    (d / "train.csv").write_text("\n".join(TOP) + "\n", encoding="utf-8")
    argv = ["dataset", "build", str(d), "--from", str(d / "train.csv"), "--overwrite", "-q"]
    code, err = _run(argv, capsys)
    assert code == 2 and "holds the input" in err, err
    assert (d / "train.csv").read_text(encoding="utf-8").splitlines() == TOP
    assert sorted(os.listdir(d)) == ["train.csv"]


def test_standard_input_redirected_from_the_output_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("\n".join(TOP) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    with open(path, "rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "sudoku_model.cli", "convert", "-", "--to", "line"]
            + ["-o", str(path)],
            stdin=stdin,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    assert done.returncode == 2 and "is an input of this command" in done.stderr, done.stderr
    assert path.read_text(encoding="utf-8").splitlines() == TOP
