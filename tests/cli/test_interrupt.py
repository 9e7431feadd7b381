"""Interrupting the batch commands at random (seeded) moments, through real processes.

For ``verify``: SIGINT (sent to the whole process group, as a terminal's Ctrl-C is), SIGTERM
and SIGKILL, with and without ``--jobs 2``, native and pysat; then ``--resume`` must give
exactly the records of an uninterrupted run (same verdicts, same positions, no gap, no
duplicate, no torn line). After every run no process of its session is left, and the first
two signals exit 130/143 with the summary and without a traceback. ``generate`` and
``rate`` the same for SIGTERM.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudoku_model.data import bundled_path
from sudoku_model.verify import TIMING_FIELDS

CLI = [sys.executable, "-m", "sudoku_model.cli"]
SEED = 20240613
EXIT = {signal.SIGINT: 130, signal.SIGTERM: 143}


def session_processes(sid: int) -> list[int]:
    """Live processes of session ``sid`` (zombies excluded)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.append(int(entry))
    return found


def assert_no_orphans(sid: int) -> None:
    deadline = time.monotonic() + 3.0
    while session_processes(sid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not session_processes(sid), "processes left behind by the run"


def start(args: list[str]) -> subprocess.Popen[str]:
    # its own session: the whole group can be signalled, and what it leaves is found
    return subprocess.Popen(
        [*CLI, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def interrupt(proc: subprocess.Popen[str], sig: int, after: float, ready: Path) -> str:
    """Send ``sig`` ``after`` seconds once ``ready`` exists (the output is opened once the
    run is set up); SIGINT goes to the whole group, as from a terminal. Returns stderr."""
    deadline = time.monotonic() + 60
    while not ready.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(after)
    if proc.poll() is None:
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=120)
    assert_no_orphans(proc.pid)
    return err


def records(path: Path, killed: bool = False) -> list[dict]:
    """The records of an output file, without their timing fields. A torn last line fails,
    but after SIGKILL (``killed``): the kernel may end a write of several pages early when
    a fatal signal comes, and ``--resume`` drops that line; it is left out here."""
    text = path.read_text()
    if killed and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]
    assert not text or text.endswith("\n"), "torn last line"
    return [
        {k: v for k, v in json.loads(line).items() if k not in TIMING_FIELDS}
        for line in text.splitlines()
    ]


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One input per backend, long enough to be interrupted (a few seconds at one job),
    with a malformed line and a second copy of the first part (two equal inputs)."""
    root = tmp_path_factory.mktemp("interrupt")
    hard = bundled_path("forum-hardest-1106").read_text().splitlines()
    top = bundled_path("magictour-top1465").read_text().splitlines()
    made = {}
    for name, lines in (("native", hard * 12), ("pysat", top[:600])):
        lines = list(lines)
        lines.insert(len(lines) // 3, "not a puzzle at all")
        path = root / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n")
        made[name] = path
    return made


@pytest.fixture(scope="module")
def reference(inputs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("reference")
    want = {}
    for name, path in inputs.items():
        out = root / f"{name}.jsonl"
        run = subprocess.run(
            [*CLI, "verify", str(path), str(path), "--backend", name, "-o", str(out), "-q"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 2, run.stderr  # the malformed lines: input errors
        want[name] = records(out)
    return want


CASES = [
    (backend, jobs, sig)
    for backend in ("native", "pysat")
    for jobs in (1, 2)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)
]


@pytest.mark.parametrize("backend, jobs, sig", CASES)
def test_verify_interrupted_then_resumed_equals_one_run(
    tmp_path, inputs, reference, backend, jobs, sig
):
    rng = random.Random(f"{SEED}-{backend}-{jobs}-{sig}")
    path = inputs[backend]
    out = tmp_path / "out.jsonl"
    args = ["verify", str(path), str(path), "--backend", backend, "-o", str(out)]
    args += ["--jobs", str(jobs), "--chunk-size", "64"]
    proc = start(args)
    err = interrupt(proc, sig, rng.uniform(0.0, 0.8), out)
    assert "Traceback" not in err, err
    killed = sig == signal.SIGKILL and proc.returncode == -signal.SIGKILL
    if killed:
        pass
    elif sig != signal.SIGKILL and (proc.returncode in EXIT.values() or "INTERRUPTED" in err):
        assert proc.returncode == EXIT[sig], err
        assert "INTERRUPTED" in err and "total" in err, err
    else:  # the run was over before the signal came
        assert proc.returncode == 2, err
    first = records(out, killed) if out.exists() else []
    assert first == reference[backend][: len(first)]

    resumed = subprocess.run([*CLI, *args, "--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 2, resumed.stderr
    assert "Traceback" not in resumed.stderr
    got = records(out)
    keys = [(r["input"], r["position"]) for r in got]
    assert len(set(keys)) == len(keys), "duplicate records"
    assert got == reference[backend]


def test_verify_second_signal_is_harmless(tmp_path):
    # An input that lasts well past the signals (the shared pysat input can be done in
    # 0.3 s on a fast machine, before the first one comes): ten copies of top1465.
    long = tmp_path / "long.txt"
    long.write_text(bundled_path("magictour-top1465").read_text() * 10)
    out = tmp_path / "out.jsonl"
    proc = start(["verify", str(long), "--backend", "pysat", "-o", str(out)])
    deadline = time.monotonic() + 60
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGTERM)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGINT):
        time.sleep(0.02)  # one at a time: the kernel delivers pending signals by number
        if proc.poll() is None:
            os.kill(proc.pid, sig)
    _, err = proc.communicate(timeout=60)
    assert_no_orphans(proc.pid)
    # Python runs pending handlers in signal-number order: when the main thread was held up
    # past the second signal, SIGINT (2) may be the one recorded before SIGTERM (15)
    assert proc.returncode in (143, 130) and "Traceback" not in err, err
    assert "INTERRUPTED" in err
    assert records(out) is not None  # no torn line


def test_resume_refuses_the_output_of_another_input(tmp_path, inputs):
    out = tmp_path / "out.jsonl"
    subprocess.run([*CLI, "verify", "bundled:top95", "-o", str(out), "-q"], check=True, timeout=120)
    before = out.read_text()
    run = subprocess.run(
        [*CLI, "verify", "bundled:easy50", "-o", str(out), "--resume"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and "--resume" in run.stderr and "Traceback" not in run.stderr
    assert out.read_text() == before


@pytest.mark.parametrize(
    "args",
    [
        ["generate", "-n", "100000", "--box", "3x3", "-j", "2", "--seed", "1"],
        ["generate", "-n", "100000", "--box", "3x3", "--seed", "1"],
        ["rate", "bundled:magictour-top1465", "-j", "2"],
        ["rate", "bundled:magictour-top1465"],
    ],
    ids=["generate-j2", "generate", "rate-j2", "rate"],
)
def test_sigterm_stops_generate_and_rate(tmp_path, args):
    out = tmp_path / "out.txt"
    proc = start([*args, "-o", str(out)])
    # a record first (a busy machine may take seconds to start two workers), then the signal
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        if out.exists() and "\n" in out.read_text():
            break
        time.sleep(0.01)
    err = interrupt(proc, signal.SIGTERM, 0.2, out)
    assert proc.returncode == 143, err
    assert "Traceback" not in err, err
    summary = "interrupted" if args[0] == "generate" else "INTERRUPTED"
    assert summary in err, err
    text = out.read_text()
    assert text.endswith("\n") and text.count("\n") >= 1


def test_an_se_rating_interrupted_before_its_first_record_says_so_plainly(tmp_path):
    # Easter Monster takes about half a second on the SE scale: SIGINT, 0.1 s after the
    # output is opened, lands before any record
    path = tmp_path / "in.txt"
    path.write_text(
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1\n"
    )
    out = tmp_path / "out.jsonl"
    proc = start(["rate", str(path), "--scale", "se", "-o", str(out)])
    err = interrupt(proc, signal.SIGINT, 0.1, out)
    assert proc.returncode == 130, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("rated 0 puzzles (SE scale) in ") and last.endswith(" s; INTERRUPTED")
    assert path.read_text().startswith("1......."), "the input is intact"


@pytest.mark.slow
def test_cpsat_sigterm_then_resume(tmp_path):
    # long enough to outlast the signal on a fast machine (300 puzzles took 1.0 s, and the
    # signal came as the run exited)
    path = tmp_path / "in.txt"
    path.write_text("\n".join(bundled_path("magictour-top1465").read_text().splitlines()[:900]))
    full = tmp_path / "full.jsonl"
    subprocess.run(
        [*CLI, "verify", str(path), "--backend", "cpsat", "-o", str(full), "-q"],
        check=True,
        timeout=300,
    )
    out = tmp_path / "out.jsonl"
    args = ["verify", str(path), "--backend", "cpsat", "-o", str(out), "--chunk-size", "32"]
    proc = start(args)
    err = interrupt(proc, signal.SIGTERM, 0.5, out)
    assert proc.returncode in (0, 143) and "Traceback" not in err, err
    subprocess.run([*CLI, *args, "--resume", "-q"], check=True, timeout=300)
    assert records(out) == records(full)
