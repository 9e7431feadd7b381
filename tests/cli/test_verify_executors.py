"""`sudoku verify` writes the same bytes however it runs: in this process (serial), on
threads (--jobs 2, native), on worker processes (--jobs 2 --minimal) and on a Dask
LocalCluster (--dask local), where the workers parse, verify and format and this process
only reads lines and writes text. Malformed lines, several inputs (line and block format,
a literal puzzle), published solutions, CSV, a resume into each other's output, and a
Dask run stopped by SIGTERM / SIGINT (exit 143 / 130, no traceback, nothing left running,
a clean prefix of the full output that --resume completes)."""

from __future__ import annotations

import csv
import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_model.data import bundled_path

pytest.importorskip("dask.distributed")

CLI = [sys.executable, "-m", "sudoku_model.cli"]


def sudoku(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300)


def untimed(text: str, fmt: str) -> list[str]:
    """The records without their timing fields (``seconds`` and ``stats``, which differ
    from run to run), every other byte kept."""
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(text)))
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for row in rows:
            writer.writerow(row if row == rows[0] else [*row[:29], "", "", *row[31:]])
        assert rows[0][29:31] == ["seconds", "stats"]
        return out.getvalue().splitlines()
    lines = text.splitlines()
    assert all(line.endswith("}}") for line in lines)  # the stats object ends each record
    return [re.sub(r',"seconds":[-0-9.e]+', "", line[: line.rindex(',"stats":')]) for line in lines]


def summary(stderr: str) -> str:
    """The standard error without the lines that name the output and say how long the run
    took."""
    return "\n".join(
        line for line in stderr.splitlines() if " verified in " not in line and " -> " not in line
    )


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A line-format file with every kind of record (and lines that hold none), a
    block-format file, a literal puzzle."""
    root = tmp_path_factory.mktemp("executors")
    c43 = [line.split(":") for line in bundled_path("counts-43").read_text().splitlines()]
    hard = [s for s in bundled_path("hardest").read_text().splitlines() if s.strip()]
    unique = [(p, s[0]) for p, c, *s in c43 if c == "1"]
    lines = ["# a comment, then a blank line", ""]
    for k in range(200):
        p, c, *_ = c43[k % len(c43)]
        lines.append(p)
        if k % 17 == 0:
            lines.append(f"not a puzzle {k}")
        if k % 41 == 0:
            lines.append("+-------+-------+-------+")  # a separator: no record
            lines.append("7" * 500)  # malformed, quoted by excerpt
    puzzle, solution = unique[0]
    wrong = solution[:-2] + solution[-1] + solution[-2]
    lines += [f"{puzzle}:1:{solution}", f"{puzzle}:1:{wrong}", "11" + puzzle[2:]]
    lines += hard
    first = root / "mixed.txt"
    first.write_text("\n".join(lines) + "\n")
    second = root / "blocks.txt"
    second.write_text(
        "\n\n".join("\n".join(p[r * 9 : r * 9 + 9] for r in range(9)) for p, _ in unique[:5])
        + "\n\nnot\na block\n"
    )
    return [str(first), str(second), unique[1][0]]


RUNS = {
    "serial": ["--jobs", "1"],
    "threads": ["--jobs", "2"],
    "dask": ["--dask", "local", "--jobs", "2", "--chunk-size", "7"],
    "dask-auto": ["--dask", "local", "--jobs", "2"],
}


@pytest.fixture(scope="module")
def runs(inputs: list[str], tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("runs")
    done = {}
    for fmt in ("jsonl", "csv"):
        for name, extra in RUNS.items():
            if fmt == "csv" and name in ("threads", "dask-auto"):
                continue
            out = root / f"{name}.{fmt}"
            proc = sudoku("verify", *inputs, "-o", str(out), *extra)
            done[name, fmt] = (proc, out.read_text())
    return done


@pytest.mark.slow  # a long sweep: the slow set (.ci/run runs it)
@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_serial_threads_and_dask_write_the_same_bytes(runs, fmt):
    base, text = runs["serial", fmt]
    assert base.returncode == 2, base.stderr  # malformed lines: an input error
    want = untimed(text, fmt)
    assert len(want) > 230 + (fmt == "csv")
    verdicts = text.count("malformed"), text.count("multiple"), text.count("contradictory")
    assert all(verdicts)  # every kind of record is there
    for name in RUNS:
        if (name, fmt) not in runs:
            continue
        proc, got = runs[name, fmt]
        assert proc.returncode == base.returncode, (name, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert untimed(got, fmt) == want, name
        assert summary(proc.stderr) == summary(base.stderr), name


def test_worker_processes_write_the_same_bytes(inputs, tmp_path):
    # --minimal sends native to worker processes (the removal oracle holds the GIL)
    few = tmp_path / "few.txt"
    few.write_text("\n".join(Path(inputs[0]).read_text().splitlines()[:80]) + "\n")
    outs = []
    for extra in (["--jobs", "1"], ["--jobs", "2"], ["--jobs", "2", "--chunk-size", "5"]):
        out = tmp_path / f"m{len(outs)}.jsonl"
        proc = sudoku("verify", str(few), inputs[2], "--minimal", "-o", str(out), *extra)
        assert proc.returncode == 2, proc.stderr
        outs.append(untimed(out.read_text(), "jsonl"))
    assert outs[0] == outs[1] == outs[2]
    assert '"redundant_clues"' in "".join(outs[0])


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_dask_resumes_a_serial_output_and_the_other_way_round(runs, inputs, tmp_path, fmt):
    _, full = runs["serial", fmt]
    lines = full.splitlines(keepends=True)
    # the second resumes inside the second input
    for keep, extra in (
        (150, ["--dask", "local", "--jobs", "2"]),
        (len(lines) - 4, ["--jobs", "1"]),
    ):
        part = tmp_path / f"part{keep}.{fmt}"
        # a prefix of the other kind's output, and a torn line: a write cut short
        source = full if extra[0] == "--dask" else runs["dask", fmt][1]
        part.write_text("".join(source.splitlines(keepends=True)[:keep]) + lines[keep][:30])
        proc = sudoku("verify", *inputs, "-o", str(part), "--resume", *extra)
        assert proc.returncode == 2, proc.stderr
        assert "resumed" in proc.stderr
        assert untimed(part.read_text(), fmt) == untimed(full, fmt)


def session_processes(sid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if fields[0] != "Z" and int(fields[3]) == sid:
                found.append(int(entry))
    return found


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_dask_run_stopped_by_a_signal_then_resumed(tmp_path, sig):
    hard = [s for s in bundled_path("forum-hardest-1106").read_text().splitlines() if s.strip()]
    lines = hard * 20
    lines.insert(500, "not a puzzle")
    source = tmp_path / "hard.txt"
    source.write_text("\n".join(lines) + "\n")
    full = tmp_path / "full.jsonl"
    assert sudoku("verify", str(source), "-o", str(full)).returncode == 2
    part = tmp_path / "part.jsonl"
    args = ["verify", str(source), "-o", str(part), "--dask", "local", "--jobs", "2"]
    spill = tmp_path / "tmp"  # where the workers leave big results: removed at the end
    spill.mkdir()
    env = {**os.environ, "TMPDIR": str(spill)}
    proc = subprocess.Popen(
        [*CLI, *args], stderr=subprocess.PIPE, text=True, start_new_session=True, env=env
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if part.exists() and part.read_text().count("\n") >= 100:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the run ended before the signal"
    if sig == signal.SIGINT:
        os.killpg(proc.pid, sig)  # as a terminal's Ctrl-C: the workers get it too
    else:
        os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + sig, err
    assert "INTERRUPTED" in err and "Traceback" not in err, err
    deadline = time.monotonic() + 5
    while session_processes(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not session_processes(proc.pid), "Dask processes left behind"
    assert not list(spill.glob("sudoku-dask-*")), "a folder of results left behind"
    written = part.read_text()
    assert written.endswith("\n")
    want = untimed(full.read_text(), "jsonl")
    assert 100 <= written.count("\n") < len(want)
    assert untimed(written, "jsonl") == want[: written.count("\n")]
    resumed = sudoku(*args, "--resume")
    assert resumed.returncode == 2, resumed.stderr
    assert untimed(part.read_text(), "jsonl") == want
