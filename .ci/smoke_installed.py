"""Run every ``sudoku`` subcommand once against an installed (non-editable) toolkit.

CI builds a wheel, installs it into a fresh virtual environment and runs this script with
that environment's Python from a scratch directory, so nothing is imported from the source
tree: a subpackage or data file the wheel leaves out (as ``sudoku_model.logic`` once was)
fails here. Each command must exit with the code it documents and print no traceback.
The list of commands comes from the installed parser, so a new subcommand without a smoke
case fails too.

Usage: ``python .ci/smoke_installed.py [REPO_ROOT]`` (the root is only used to check that
the package is not imported from it). Exit 0 when every case passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SMALL = ".2..3....1....4."
SMALL_SOLUTION = "1234341241232341"


def cases(work: Path) -> list[tuple[str, list[str], int]]:
    """(command name, arguments, expected exit code): at least one per subcommand."""
    bad = work / "bad.txt"
    bad.write_text(HARD + "\n12x" + "." * 78 + "\n")
    out = work / "out"
    out.mkdir()
    return [
        ("backends", ["backends"], 0),
        ("show", ["show", "bundled:hardest"], 0),
        ("show", ["show", str(bad)], 2),  # a malformed line: file:line:col, exit 2
        ("check", ["check", SMALL, SMALL_SOLUTION], 0),
        ("convert", ["convert", "bundled:hardest", "--to", "jsonl", "-o", str(out / "h.jsonl")], 0),
        ("solve", ["solve", "bundled:hardest"], 0),
        ("count", ["count", "bundled:counts-43", "--limit", "1000"], 0),
        ("cnf", ["cnf", HARD, "-o", str(out / "p.cnf")], 0),
        ("generate", ["generate", "-n", "2", "--seed", "1", "-q", "-o", str(out / "g.txt")], 0),
        (
            "generate --unbiased",
            ["generate", "--unbiased", "-n", "2", "--seed", "1", "-q", "-o", str(out / "u.txt")],
            0,
        ),
        (
            "generate --variant killer",
            ["generate", "--variant", "killer", "--seed", "1", "-q", "-o", str(out / "k.jsonl")],
            0,
        ),
        ("verify", ["verify", "bundled:hardest", "-o", str(out / "v.jsonl")], 0),
        ("explain", ["explain", HARD], 0),
        ("hint", ["hint", HARD], 0),
        ("rate", ["rate", "bundled:hardest", "-o", str(out / "r.jsonl")], 0),
        (
            "rate --scale se",
            ["rate", "bundled:easy50", "--scale", "se", "-o", str(out / "se.jsonl")],
            0,
        ),
        (
            "compare",
            ["compare", "bundled:hardest", "--backends", "native,pysat,cpsat,logic"],
            0,
        ),
        ("render", ["render", "bundled:hardest", "--first", "2", "--to", str(out / "b.svg")], 0),
        ("canon", ["canon", "bundled:hardest"], 0),
        ("dedup", ["dedup", "bundled:hardest", "bundled:hardest", "-o", str(out / "d.txt")], 0),
        ("same", ["same", HARD, HARD], 0),
        (
            "dataset",
            [
                "dataset",
                "build",
                str(out / "ds"),
                "-n",
                "12",
                "--seed",
                "1",
                "-q",
                "--layout",
                "source-question-answer-rating",
            ],
            0,
        ),
        ("dataset", ["dataset", "check", str(out / "ds")], 0),
        (
            "convert",
            ["convert", "bundled:hardest", "--to", "quiz-answer", "-o", str(out / "h.qa")],
            0,
        ),
        # certificates: written by verify, re-checked without trusting the solver
        ("verify", ["verify", "bundled:hardest", "-q", "--certify", str(out / "certs")], 0),
        ("check-certificate", ["check-certificate", str(out / "certs")], 0),
    ]


def smoke_edit(exe: Path, work: Path) -> list[str]:
    """``sudoku edit`` serves until stopped, so it is not a run-to-exit case: start it with
    --no-browser --port 0, read the URL it prints, fetch the page and one API call, then
    stop it with SIGTERM (exit 143). Returns the problems found."""
    import re
    import signal
    import urllib.request

    problems: list[str] = []
    proc = subprocess.Popen(
        [str(exe), "edit", HARD, "--no-browser", "--port", "0"],
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": "", "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        match = re.search(r"http://127\.0\.0\.1:\d+/", proc.stdout.readline())
        if match is None:
            problems.append("printed no URL")
            return problems
        url = match.group(0)
        with urllib.request.urlopen(url, timeout=60) as page:
            if b"editor.js" not in page.read():
                problems.append("the page does not load editor.js")
        with urllib.request.urlopen(url + "static/editor.js", timeout=60) as script:
            if b"export function mount" not in script.read():
                problems.append("editor.js is not the editor")
        givens = [0 if ch == "." else int(ch) for ch in HARD]
        call = urllib.request.Request(
            url + "api/status",
            data=json.dumps({"puzzle": {"size": 9, "givens": givens}}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(call, timeout=60) as answer:
            reply = json.loads(answer.read())
        if reply.get("count_text") != "1":
            problems.append(f"status answered {reply}")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    if proc.returncode != 143:
        problems.append(f"exit {proc.returncode} after SIGTERM, expected 143")
    if "Traceback" in err:
        problems.append("printed a traceback")
    return problems


#: Commands that do not run to an exit: (name, function(exe, work) -> problems).
SPECIAL_CASES = {"edit": smoke_edit}


def subcommands() -> list[str]:
    from sudoku_model.cli import build_parser

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def top_level_problems() -> list[str]:
    """The wheel claims one top-level import name, ``sudoku_model``: its RECORD lists no
    other package or module at the top of site-packages, and the adapters and the C
    backtracker import as ``sudoku_model.backends`` and ``sudoku_model.native_backtrack``."""
    import importlib
    from importlib.metadata import distribution

    problems = []
    files = distribution("sudoku-model").files or []
    tops = {
        f.parts[0].split(".")[0]
        for f in files
        if not f.parts[0].endswith((".dist-info", ".data")) and f.parts[0] != ".."
    }
    if tops != {"sudoku_model"}:
        problems.append(f"the wheel installs top-level names {sorted(tops)}, not only sudoku_model")
    for name in ("backends", "native_backtrack"):
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        problems.append(f"a top-level module {name!r} is importable after the install")
    for name in (
        "sudoku_model.backends.native",
        "sudoku_model.backends.sat",
        "sudoku_model.native_backtrack._core",
        "sudoku_model.native_backtrack._bulk",
        "sudoku_model.backends.sat._satread",
        "sudoku_model._minlex",
        "sudoku_model._columns",
        "sudoku_model._drat",
        "sudoku_model.se._core",
    ):
        try:
            importlib.import_module(name)
        except ImportError as exc:
            problems.append(f"{name} does not import: {exc}")
    return problems


def main() -> int:
    import sudoku_model

    failures: list[str] = []
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else None
    installed = Path(sudoku_model.__file__).resolve()
    if root is not None and root in installed.parents:
        failures.append(f"sudoku_model is imported from the source tree ({installed})")
    failures.extend(top_level_problems())
    for data in ("DESIGN.md", "data/README.md", "logic/techniques/__init__.py"):
        if not (installed.parent / data).is_file():
            failures.append(f"the installed package lacks {data}")
    exe = Path(sys.executable).parent / "sudoku"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        planned = cases(work)
        missing = sorted(set(subcommands()) - {name for name, _, _ in planned} - set(SPECIAL_CASES))
        if missing:
            failures.append(f"no smoke case for: {', '.join(missing)}")
        for _, argv, expected in planned:
            start = time.perf_counter()
            proc = subprocess.run(
                [str(exe), *argv],
                cwd=work,
                capture_output=True,
                text=True,
                timeout=300,
                env={**os.environ, "PYTHONPATH": ""},
            )
            seconds = time.perf_counter() - start
            shown = " ".join(argv)
            problems = []
            if proc.returncode != expected:
                problems.append(f"exit {proc.returncode}, expected {expected}")
            if "Traceback" in proc.stdout + proc.stderr:
                problems.append("printed a traceback")
            print(f"smoke: {'FAIL' if problems else 'ok  '} {seconds:6.2f} s  sudoku {shown}")
            if problems:
                tail = (proc.stderr or proc.stdout).strip().splitlines()[-15:]
                failures.append(
                    f"sudoku {shown}: {'; '.join(problems)}\n    " + "\n    ".join(tail)
                )
        for name, smoke in SPECIAL_CASES.items():
            start = time.perf_counter()
            problems = smoke(exe, work)
            seconds = time.perf_counter() - start
            print(f"smoke: {'FAIL' if problems else 'ok  '} {seconds:6.2f} s  sudoku {name}")
            failures.extend(f"sudoku {name}: {problem}" for problem in problems)
        listing = subprocess.run(
            [str(exe), "backends", "--json"], capture_output=True, text=True, timeout=300
        )
        for line in listing.stdout.splitlines():
            row = json.loads(line)
            if not row["available"]:
                failures.append(f"backend {row['name']} unavailable: {row.get('error')}")
    for failure in failures:
        print(f"smoke: FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
