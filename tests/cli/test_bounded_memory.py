"""Readers stay in bounded memory whatever the input: a 100 MB line and a small gzip bomb
(a few hundred KB that expand to hundreds of MB on one line) are each one malformed record
(file:line:col), read past in pieces, and the good puzzles after them are still answered,
in under 200 MB of peak RSS for the whole ``sudoku`` process. The peak is measured by a
wrapper process around the command (``RUSAGE_CHILDREN`` of the wrapper holds only it)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from sudoku_model.formats import iter_records
from sudoku_model.textlines import MAX_LINE

GOOD = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
]
ROOT = Path(__file__).resolve().parents[2]
LIMIT_KB = 200 * 1024

_WRAPPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(done.stdout)
sys.stderr.write(done.stderr)
print(f"PEAK-KB {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}", file=sys.stderr)
sys.exit(done.returncode)
"""


def _measured(argv: list[str]) -> tuple[int, str, int]:
    """Exit code, stderr and peak RSS (KB) of ``sudoku ARGV`` in a process of its own."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _WRAPPER, sys.executable, "-m", "sudoku_model.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    err, _, peak = done.stderr.rpartition("PEAK-KB ")
    return done.returncode, err, int(peak)


def _long_line_file(path: Path, size: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(GOOD[0] + "\n")
        chunk = "1" * (1 << 20)
        for _ in range(size >> 20):
            f.write(chunk)
        f.write("\n" + GOOD[1] + "\n" + GOOD[2] + "\n")


def _gzip_bomb(path: Path, size: int) -> None:
    """A gzip file of a good puzzle, ``size`` zeros on one line, two good puzzles."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [z.compress((GOOD[0] + "\n").encode())]
    block = b"0" * (1 << 20)
    for _ in range(size >> 20):
        parts.append(z.compress(block))
    parts.append(z.compress(("\n" + GOOD[1] + "\n" + GOOD[2] + "\n").encode()))
    parts.append(z.flush())
    path.write_bytes(b"".join(parts))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("bounded")
    line = d / "long-line.txt"
    _long_line_file(line, 100 << 20)
    bomb = d / "bomb.txt.gz"
    _gzip_bomb(bomb, 300 << 20)
    assert bomb.stat().st_size < 400_000  # a small file...
    return {"line": line, "bomb": bomb}


@pytest.mark.parametrize("kind", ["line", "bomb"])
@pytest.mark.parametrize("command", ["convert", "verify"])
def test_a_huge_line_is_one_malformed_record_in_bounded_memory(
    kind: str, command: str, inputs: dict[str, Path], tmp_path: Path
) -> None:
    path = inputs[kind]
    out = tmp_path / "out.txt"
    if command == "convert":
        argv = ["convert", str(path), "--to", "line", "-o", str(out)]
    else:
        argv = ["verify", str(path), "-o", str(out), "-q"]
    code, err, peak_kb = _measured(argv)
    assert code == 2, err
    assert f"{path}:2:{MAX_LINE + 1}: a line of " in err, err[-2000:]
    assert "longer than any puzzle can be" in err and "Traceback" not in err
    lines = out.read_text(encoding="utf-8").splitlines()
    if command == "convert":
        assert lines == GOOD  # every good puzzle, the one after the long line included
    else:
        records = [json.loads(ln) for ln in lines]
        assert [r["verdict"] for r in records] == ["unique", "malformed", "unique", "unique"]
        assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert peak_kb < LIMIT_KB, f"peak RSS {peak_kb / 1024:.0f} MB"


def test_a_long_line_in_every_reader_is_one_record(tmp_path: Path) -> None:
    # the same through the library, for each format that reads line by line
    long = "x" * (MAX_LINE + 10)
    jsonl = [json.dumps({"puzzle": p}) for p in GOOD]
    cases = {
        "line": [GOOD[0], long, GOOD[1]],
        "block": [GOOD[0], "", long, "", GOOD[1]],
        "csv": ["puzzle", GOOD[0], long, GOOD[1]],
        "jsonl": [jsonl[0], long, jsonl[1]],
    }
    for fmt, lines in cases.items():
        path = tmp_path / f"f-{fmt}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        for src in (path, [ln + "\n" for ln in lines]):
            records = list(iter_records(src, fmt=fmt))
            assert [r.ok for r in records] == [True, False, True], (fmt, records)
            bad = records[1]
            assert bad.line == lines.index(long) + 1 and bad.position == 1
            assert "longer than any puzzle can be" in str(bad.error) and len(bad.text) < 300


def test_a_json_document_has_a_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sudoku_model import ParseError
    from sudoku_model.formats import jsonformat  # the JSON reader reads the limit there

    monkeypatch.setattr(jsonformat, "MAX_JSON_CHARS", 10_000)
    path = tmp_path / "big.json"
    path.write_text(json.dumps([{"puzzle": GOOD[0]}] * 500, indent=1), encoding="utf-8")
    with pytest.raises(ParseError, match="JSON document of more than 10,000 characters") as info:
        list(iter_records(path))
    assert "JSONL" in str(info.value)
    path.write_text(json.dumps([GOOD[0]] * 20000), encoding="utf-8")  # one long line
    monkeypatch.undo()
    with pytest.raises(ParseError, match="in a JSON document: longer than any"):
        list(iter_records(path))


def test_gzip_data_is_read_piecewise() -> None:
    # the bomb's ratio: what the test above relies on
    data = gzip.compress(b"0" * (8 << 20), 9)
    assert len(data) < 10_000
