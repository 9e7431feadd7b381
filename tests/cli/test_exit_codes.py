"""One exit-code rule for every command (issue 13 item 16; README "Exit codes"):
0 fine, 1 the answer is "no", 2 usage or input error with any malformed record winning over
"no", 130 after SIGINT, 143 after SIGTERM."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_model.cli import main
from sudoku_model.cli.common import exit_code

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
UNSOLVABLE = "1.3..4.2.1.4..2."  # 4x4, no solution: a "no" for solve, verify, explain
CONTRADICTORY = "11.............."
MALFORMED = "12x4"

#: command -> (argument list with {input} and {out}, codes for the inputs
#: fine / no / malformed / malformed+no); None where the command has no such answer.
COMMANDS = {
    "show": (["show", "{input}"], (0, 0, 2, 2)),
    "solve": (["solve", "{input}"], (0, 1, 2, 2)),
    "count": (["count", "{input}", "--limit", "10"], (0, 0, 2, 2)),
    "convert": (["convert", "{input}", "--to", "jsonl", "-o", "{out}.jsonl"], (0, 0, 2, 2)),
    "verify": (["verify", "{input}", "-o", "{out}.jsonl"], (0, 1, 2, 2)),
    "explain": (["explain", "{input}"], (0, 1, 2, 2)),
    "rate": (["rate", "{input}", "-o", "{out}.jsonl"], (0, 0, 2, 2)),
    "render": (["render", "{input}", "--to", "{out}.svg"], (0, 0, 2, 2)),
    "compare": (["compare", "{input}", "--backends", "native,pysat"], (0, 0, 2, 2)),
}


def _file(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_file_commands_follow_the_rule(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, expected = COMMANDS[command]
    inputs = {
        "fine": _file(tmp_path, "fine.txt", [HARD]),
        "no": _file(tmp_path, "no.txt", [HARD, UNSOLVABLE]),
        "malformed": _file(tmp_path, "bad.txt", [HARD, MALFORMED]),
        "malformed+no": _file(tmp_path, "badno.txt", [UNSOLVABLE, MALFORMED, HARD]),
    }
    got = []
    for k, path in enumerate(inputs.values()):
        out = str(tmp_path / f"out{k}")
        code = main([a.format(input=path, out=out) for a in argv])
        err = capsys.readouterr().err
        assert "Traceback" not in err
        got.append(code)
    assert tuple(got) == expected, dict(zip(inputs, got))


@pytest.mark.parametrize(
    "argv,code",
    [
        (["check", ".2..3....1....4.", "1234341241232341"], 0),
        (["check", ".2..3....1....4.", "1234341241233241"], 1),
        (["check", ".2..3....1....4.", MALFORMED], 2),
        (["hint", HARD], 0),
        (["hint", CONTRADICTORY], 1),
        (["hint", MALFORMED], 2),
        (["cnf", HARD], 0),
        (["cnf", MALFORMED], 2),
        (["generate", "--seed", "1", "-q"], 0),
        (["generate", "--clues", "18", "--max-tries", "1", "--seed", "1", "-q"], 1),
        (["generate", "--from", MALFORMED, "-q"], 2),
        (["backends"], 0),
        (["solve", HARD, "--bakend", "native"], 2),
        (["solve", HARD, "--budget-seconds", "-1"], 2),
    ],
)
def test_single_puzzle_commands_follow_the_rule(
    argv: list[str], code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        got = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        got = int(exc.code or 0)
    assert got == code
    assert "Traceback" not in capsys.readouterr().err


def test_exit_code_rule() -> None:
    assert exit_code() == 0
    assert exit_code(noes=5) == 1
    assert exit_code(input_errors=1) == 2
    assert exit_code(input_errors=1, noes=5) == 2  # input errors win over "no"


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signals_exit_130_and_143(sig: int, code: int) -> None:
    # `solve -` answers each line as it comes and then waits for the next one: the signal
    # arrives while it waits on standard input. (A signal in the middle of a C search is
    # the backends' business, tested with them.)
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_model.cli", "solve", "-", "--format", "line"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(HARD + "\n")
        proc.stdin.flush()
        first = proc.stdout.readline()  # answered: start-up is over, the handler is in
        time.sleep(0.2)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert len(first.strip()) == 81
    assert proc.returncode == code, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("sudoku: ")
