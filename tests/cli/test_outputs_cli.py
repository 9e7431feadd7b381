"""Outputs of every writing command (issue 13 items 4 and 17): an output that cannot be
written gives one line and exit 2, whether it fails when opened (a missing directory, a
directory) or only when written or closed (``/dev/full``, ``/proc/version``); a usage error
never truncates an existing output; an unexpected exception is one line and exit 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sudoku_model.cli import main

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

#: (command line before the output path, extension the output needs)
WRITERS = {
    "generate": (["generate", "-n", "2", "--seed", "1", "-q", "-o"], ".txt"),
    "convert": (["convert", "bundled:hardest", "--to", "jsonl", "-o"], ".jsonl"),
    "compare-plot": (["compare", "bundled:hardest", "--backends", "native", "--plot"], ".svg"),
    "compare-output": (["compare", "bundled:hardest", "--backends", "native", "--output"], ".csv"),
    "rate": (["rate", "bundled:hardest", "-o"], ".jsonl"),
    "cnf": (["cnf", HARD, "-o"], ".cnf"),
    "render": (["render", "bundled:hardest", "--first", "1", "--to"], ".svg"),
}


def _one_line_exit_2(code: int, err: str, path: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert path in lines[0] and lines[0].startswith("sudoku: "), lines[0]


@pytest.mark.parametrize("name", sorted(WRITERS))
@pytest.mark.parametrize("where", ["missing-dir", "directory", "full-device", "proc-version"])
def test_unwritable_output_is_one_line_exit_2(
    name: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, ext = WRITERS[name]
    if where == "missing-dir":
        target = tmp_path / "no" / "such" / f"out{ext}"
    elif where == "directory":
        target = tmp_path / f"dir{ext}"
        target.mkdir()
    else:
        # A link with the extension the command wants: the write itself fails (no space
        # left; EIO for /proc/version, which a root user may open but not write to).
        device = "/dev/full" if where == "full-device" else "/proc/version"
        if not os.path.exists(device):
            pytest.skip(f"{device} does not exist here")
        target = tmp_path / f"link{ext}"
        target.symlink_to(device)
    code = main([*argv, str(target)])
    captured = capsys.readouterr()
    _one_line_exit_2(code, captured.err, str(target))


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "--backend", "nosuch", "-o"],
        ["generate", "--box", "3by3", "-o"],
        ["generate", "--symmetry", "sideways", "-o"],
        ["generate", "--from", "missing.txt", "-o"],
        ["convert", "missing.txt", "--to", "line", "-o"],
        ["convert", "bundled:nosuch", "--to", "line", "-o"],
        ["convert", "bundled:hardest", "--to", "line", "--box", "3by3", "-o"],
        ["convert", "bundled:hardest", "--to", "line", "--blank", "1", "-o"],
        ["rate", "missing.txt", "-o"],
        ["rate", "bundled:hardest", "--techniques", "no_such_technique", "-o"],
        ["rate", "bundled:hardest", "--jobs", "0", "-o"],
        ["rate", "bundled:hardest", "--variant", "nosuch", "-o"],
        ["cnf", "missing.txt", "-o"],
        ["cnf", HARD, "--index", "2", "-o"],
    ],
    ids=lambda argv: "-".join(a.strip("-") for a in argv[:4]),
)
def test_usage_error_never_truncates_the_output(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keep = tmp_path / "keep.txt"
    keep.write_text("precious\n")
    assert main([*argv, str(keep)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert keep.read_text() == "precious\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", "bundled:hardest", "--backends", "native,nosuch"],
        ["render", "bundled:hardest", "--solutions", "--backend", "nosuch", "--to"],
    ],
)
def test_bad_backend_is_refused_before_any_work(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out.svg"
    extra = [str(target)] if argv[-1] == "--to" else ["--plot", str(target)]
    assert main([*argv, *extra]) == 2
    err = capsys.readouterr().err
    assert "nosuch" in err and "Traceback" not in err
    assert not target.exists()


def test_unexpected_exception_is_one_line_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A crash inside a command must never exit 1 (that reads as "the answer is no").
    from sudoku_model.cli import show

    def crash(args: object) -> int:
        raise RuntimeError("something broke\nsecond line")

    monkeypatch.setattr(show, "run", crash)
    monkeypatch.delenv("SUDOKU_DEBUG", raising=False)
    assert main(["show", HARD]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "sudoku: internal error: RuntimeError: something broke (a bug: please report it "
        "with the command line; SUDOKU_DEBUG=1 shows where)"
    )
    monkeypatch.setenv("SUDOKU_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["show", HARD])


def test_dev_null_is_a_fine_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", "bundled:hardest", "--to", "line", "-o", os.devnull]) == 0
