"""The CLI skeleton through a real subprocess: help, version, show, check, convert, backends,
and `file:line:col: message` with exit 2 (never a traceback) for every kind of bad input."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def sudoku(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudoku_model.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.timing
def test_help_is_fast():
    start = time.perf_counter()
    out = sudoku("--help")
    elapsed = time.perf_counter() - start
    assert out.returncode == 0
    # generous bound for a loaded CI machine; the point is: no solver import at start-up
    assert elapsed < 2.0


def test_help_lists_commands_and_imports_no_solver():
    out = sudoku("--help")
    assert out.returncode == 0
    for command in ("show", "check", "convert", "backends"):
        assert command in out.stdout
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, sudoku_model.cli as c; c.build_parser();"
            "print(sorted(m for m in ('pysat', 'ortools', 'numpy', 'pandas', 'matplotlib') "
            "if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert probe.stdout.strip() == "[]", probe.stdout + probe.stderr


def test_version():
    out = sudoku("--version")
    assert out.returncode == 0 and "sudoku-model" in out.stdout


def test_show_literal_file_and_stdin(tmp_path):
    out = sudoku("show", TOP95_1)
    assert out.returncode == 0 and "4 . . | . . . | 8 . 5" in out.stdout
    path = tmp_path / "p.txt"
    path.write_text(TOP95_1 + "\n")
    separator_lines = [
        ln for ln in sudoku("show", str(path)).stdout.splitlines() if ln.startswith("------+")
    ]
    assert len(separator_lines) == 2
    assert sudoku("show", "-", stdin=TOP95_1 + "\n").returncode == 0
    assert sudoku("show", "bundled:hardest").stdout.count("# bundled:hardest:") == 11


def test_check_right_and_wrong():
    puzzle, solution = ".2..3....1....4.", "1234341241232341"
    assert sudoku("check", puzzle, solution).returncode == 0
    wrong = sudoku("check", puzzle, "1234341241233241")
    assert wrong.returncode == 1 and "duplicate" in wrong.stdout
    changed = sudoku("check", puzzle, "2134341241232341")
    assert changed.returncode == 1 and "given" in changed.stdout


@pytest.mark.parametrize("fmt", ["line", "block", "csv", "json", "jsonl"])
def test_convert_roundtrip_through_every_format(tmp_path, fmt):
    src = tmp_path / "in.txt"
    lines = [TOP95_1, "." * 80 + "1"]
    src.write_text("\n".join(lines) + "\n")
    ext = {"csv": ".csv", "json": ".json", "jsonl": ".jsonl"}.get(fmt, ".txt")
    mid = tmp_path / f"mid{ext}"
    assert sudoku("convert", str(src), "--to", fmt, "-o", str(mid)).returncode == 0
    back = sudoku("convert", str(mid), "--to", "line")
    assert back.returncode == 0, back.stderr
    assert back.stdout.split() == lines


def test_backends_lists_registered_names():
    out = sudoku("backends", "--json")
    assert out.returncode == 0
    names = {json.loads(line)["name"].split(":")[0] for line in out.stdout.splitlines()}
    assert {"native", "pysat", "cpsat"} <= names


@pytest.mark.parametrize(
    "content,where,message",
    [
        ("1" * 80 + "\n", ":1:81:", "80 cells"),
        ("12x" + "." * 78 + "\n", ":1:3:", "bad symbol 'x'"),
        ("A" + "." * 80 + "\n", ":1:1:", "value 10"),
        ("", ":1:1:", "empty input"),
        ("12..\n..12\n21.\n..21\n", ":3:4:", "ragged block"),
        ("# just a comment\n", ":1:1:", "empty input"),
        ("puzzle,solution\n12x" + "." * 78 + ",\n", ":2:3:", "bad symbol"),
        ('{"puzzle": 5}\n', ":1:1:", "puzzle"),
    ],
)
def test_bad_input_gives_file_line_col_and_exit_2(tmp_path, content, where, message):
    name = "bad.csv" if content.startswith("puzzle,") else "bad.txt"
    path = tmp_path / name
    path.write_text(content)
    out = sudoku("show", str(path))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    first = out.stderr.splitlines()[0]
    assert first.startswith(f"{path}{where}"), first
    assert message in first


def test_missing_file_and_unknown_option_exit_2():
    out = sudoku("show", "no/such/file.txt")
    assert out.returncode == 2 and "no such file" in out.stderr and "Traceback" not in out.stderr
    assert sudoku("show", TOP95_1, "--box", "3by3").returncode == 2
    assert sudoku("convert", TOP95_1, "--to", "xml").returncode == 2


@pytest.mark.parametrize(
    "argv,usage,hint",
    [
        (["verify", "bundled:top95", "--bakend", "native"], "usage: sudoku verify", "--backend"),
        (["solve", TOP95_1, "--budget-secnds", "1"], "usage: sudoku solve", "--budget-seconds"),
        (["show", TOP95_1, "extra"], "usage: sudoku show", None),
    ],
)
def test_typo_gives_the_subcommand_usage(argv, usage, hint, capsys):
    # issue 13 item 28: argparse hands a subcommand's unknown option to the top level
    from sudoku_model.cli import main

    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage), err
    assert "usage: sudoku [-h]" not in err
    if hint:
        assert f"did you mean {hint}?" in err
    else:
        assert "did you mean" not in err


def test_the_command_map_is_what_the_modules_register():
    import argparse

    from sudoku_model import cli

    parser = cli.build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    registered = {}
    for name in cli.COMMAND_MODULES:
        p = argparse.ArgumentParser()
        sub = p.add_subparsers()
        __import__(f"sudoku_model.cli.{name}", fromlist=["register"]).register(sub)
        registered.update(dict.fromkeys(sub.choices, name))
    assert registered == cli.COMMANDS
    assert set(action.choices) == set(cli.COMMANDS)


def test_a_command_imports_only_its_own_module():
    # `sudoku verify` starts without importing the other commands (the editor, the
    # dataset builder, the renderer ...); an unknown word still gets every command listed.
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, sudoku_model.cli as c; p = c.build_parser('verify');"
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules "
            "if m.startswith('sudoku_model.cli.') and m.rsplit('.', 1)[1] in c.COMMAND_MODULES))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert probe.stdout.strip() == "['verify']", probe.stdout + probe.stderr
    out = sudoku("nosuchcommand")
    assert out.returncode == 2 and "dedup" in out.stderr and "Traceback" not in out.stderr
