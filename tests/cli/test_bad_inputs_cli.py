"""The bad-input corpus (``tests/bad_inputs.py``) through every subcommand that reads
puzzles (issue 13, "Tests"): the exit code follows the documented rule (2 whenever the input
holds a malformed record or is refused as a whole), every malformed record is reported as
``file:line:col: message``, nothing prints a traceback, and every good puzzle is still
answered. In-process (``sudoku_model.cli.main``): a subprocess per case would be slow."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sudoku_model.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bad_inputs import BadInput, write_bad_inputs  # noqa: E402

_CORPUS: dict[str, Any] = {}


def _corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, BadInput]:
    if "cases" not in _CORPUS:
        cases = write_bad_inputs(tmp_path_factory.mktemp("bad-inputs"))
        _CORPUS["cases"] = {case.name: case for case in cases}
    cases: dict[str, BadInput] = _CORPUS["cases"]
    return cases


def _case_kinds() -> dict[str, bool]:
    """Case name -> whether the file holds bad input (malformed records, or refused whole);
    writing the corpus once here lists the cases for the test ids."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        return {case.name: case.raises or case.bad != 0 for case in write_bad_inputs(tmp)}


CASE_IS_BAD = _case_kinds()
CASE_NAMES = list(CASE_IS_BAD)


def _options(case: BadInput) -> list[str]:
    flags = {"fmt": "--format", "alphabet": "--alphabet", "box": "--box", "size": "--size"}
    out: list[str] = []
    for key, value in case.options.items():
        if key in flags:
            out += [flags[key], str(value)]
    return out


# Each command: (argv builder, counter of good answers from (stdout, output file text)).
Counter = Callable[[str, str], int]


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip()]


def _answers_not_failures(stdout: str, _: str) -> int:
    return sum(1 for ln in _lines(stdout) if not ln.startswith(("malformed:", "unsupported:", "{")))


def _json_not_malformed(text: str) -> int:
    return sum(1 for ln in _lines(text) if json.loads(ln).get("verdict") != "malformed")


def _first_number(pattern: str) -> Counter:
    def count(stdout: str, _: str) -> int:
        match = re.search(pattern, stdout)
        return int(match.group(1)) if match else 0

    return count


COMMANDS: dict[str, tuple[list[str], Counter]] = {
    "show": (
        ["show", "{input}"],
        # a puzzle's header line ("# file:3  9x9 ..."), not the rule lines under its grid
        lambda out, _: sum(1 for ln in out.splitlines() if re.match(r"# .*:\d+  ", ln)),
    ),
    "solve": (["solve", "{input}", "--output", "line"], _answers_not_failures),
    "count": (["count", "{input}", "--limit", "2"], _answers_not_failures),
    "convert": (
        ["convert", "{input}", "--to", "jsonl", "-o", "{out}"],
        lambda _, file: len(_lines(file)),
    ),
    "verify": (
        ["verify", "{input}", "-o", "{out}", "-q"],
        lambda _, file: _json_not_malformed(file),
    ),
    "explain": (
        ["explain", "{input}", "--json"],
        lambda out, _: sum(1 for ln in _lines(out) if "source" in json.loads(ln)),
    ),
    "rate": (["rate", "{input}", "-o", "{out}"], lambda _, file: _json_not_malformed(file)),
    "render": (["render", "{input}", "--to", "{out}.svg"], _first_number(r"^(\d+) puzzle")),
    "compare": (
        ["compare", "{input}", "--backends", "native"],
        _first_number(r"^solve on (\d+) puzzles"),
    ),
}

#: commands whose answer can be "no" (exit 1) on good input: a non-unique puzzle
CAN_SAY_NO = {"solve", "verify", "explain"}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _located(err: str, case: BadInput) -> bool:
    return re.search(re.escape(str(case.path)) + r":\d+:\d+: ", err) is not None


@pytest.mark.parametrize(
    "name,command",
    [pytest.param(n, c, id=f"{n}-{c}") for n in CASE_NAMES for c in sorted(COMMANDS)],
)
def test_file_commands_on_the_bad_input_corpus(
    name: str,
    command: str,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    case = _corpus(tmp_path_factory)[name]
    template, answered = COMMANDS[command]
    out = tmp_path / "out.jsonl"
    argv = [a.format(input=case.path, out=out) for a in template] + _options(case)
    code, stdout, err = _run(argv, capsys)
    assert "Traceback" not in stdout + err
    if case.raises:
        assert code == 2, err
        assert str(case.path) in err, err
        return
    produced = out.read_text(encoding="utf-8") if out.exists() else ""
    if case.bad != 0:  # a known number of malformed records, or at least one
        assert code == 2, err
        assert _located(err, case), err
    elif case.good == 0:
        assert code == 2, err
    else:
        assert code in ((0, 1) if command in CAN_SAY_NO else (0,)), err
    assert answered(stdout, produced) == case.good, err[-2000:]


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, id=n) for n in CASE_NAMES],
)
def test_single_puzzle_commands_on_the_bad_input_corpus(
    name: str, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    # hint and check take one puzzle: every corpus file holds several or none, so each is
    # refused with one line; cnf encodes the first record (--index 1) and reads no further.
    case = _corpus(tmp_path_factory)[name]
    solution = "1" * 81
    for argv in (["hint", str(case.path)], ["check", str(case.path), solution]):
        code, stdout, err = _run(argv + _options(case), capsys)
        assert code == 2 and "Traceback" not in stdout + err, (argv, err)
        assert len(_lines(err)) <= 3, err  # a message (and its quoted excerpt), no dump
    code, stdout, err = _run(["cnf", str(case.path), *_options(case)], capsys)
    assert "Traceback" not in stdout + err
    if case.raises or case.good == 0:
        assert code == 2, err
    elif code == 0:
        assert stdout.startswith("c ") and "\np cnf " in stdout
    else:
        assert code == 2 and _located(err, case), err
