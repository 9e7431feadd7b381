"""``Backend.interrupt()`` ends a search in flight, in another thread or in the main thread,
within 0.5 s with ``SearchInterrupted`` (never a verdict), for every installed backend; the
backend works again after ``clear_interrupt()``. A real SIGINT / SIGTERM ends the command
line's ``count`` within 0.5 s, with no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudoku_model import Budget, Puzzle, Shape, available_backends, get_backend
from sudoku_model.errors import SearchInterrupted
from sudoku_model.solving import Backend

# every test here asserts a latency in wall-clock seconds
pytestmark = pytest.mark.timing

# pysat:minisat22 stands for the solvers PySAT can interrupt, pysat (CaDiCaL) for the others.
NAMES = [
    name
    for name in ["native", "pysat", "pysat:minisat22", "cpsat", "logic", "mip"]
    if name.partition(":")[0] in available_backends()
]
EMPTY16 = Puzzle.empty(Shape(4, 4))
LONG = Budget(seconds=30)


@pytest.fixture(params=NAMES)
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    b = get_backend(request.param)
    # a first call builds the solver, so that the timing below is the search's
    b.count(EMPTY16, limit=1)
    yield b
    b.clear_interrupt()
    close = getattr(b, "close", None)
    if close is not None:
        close()


def _count_forever(backend: Backend) -> None:
    backend.count(EMPTY16, limit=10**9, budget=LONG)


def test_interrupt_from_another_thread(backend: Backend) -> None:
    outcome: list[BaseException | None] = []

    def work() -> None:
        try:
            _count_forever(backend)
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(0.3)
    asked = time.perf_counter()
    backend.interrupt()
    worker.join(5)
    took = time.perf_counter() - asked
    assert not worker.is_alive()
    assert isinstance(outcome[0], SearchInterrupted), outcome
    assert took < 0.5, took
    # every later call is refused until the flag is cleared; then it works again
    with pytest.raises(SearchInterrupted):
        backend.solve(EMPTY16)
    backend.clear_interrupt()
    assert backend.check_unique(Puzzle.parse("1.3..4.2.1.3..2.")).kind.value == "unique"


def test_interrupt_of_a_search_in_the_main_thread(backend: Backend) -> None:
    timer = threading.Timer(0.3, backend.interrupt)
    timer.start()
    start = time.perf_counter()
    with pytest.raises(SearchInterrupted):
        _count_forever(backend)
    took = time.perf_counter() - start - 0.3
    timer.join()
    assert took < 0.5, took
    backend.clear_interrupt()
    assert backend.count(Puzzle.empty(Shape(2, 2)), limit=300).count == 288


def test_a_signal_handler_may_interrupt(backend: Backend) -> None:
    # What a workflow does: its SIGALRM/SIGINT handler calls interrupt().
    previous = signal.signal(signal.SIGALRM, lambda *_: backend.interrupt())
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        start = time.perf_counter()
        with pytest.raises(SearchInterrupted):
            _count_forever(backend)
        took = time.perf_counter() - start - 0.3
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert took < 0.5, took


# -- real signals through the command line ---------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]


def _started(proc: subprocess.Popen, seconds: float) -> None:
    # The CLI imports, parses and reaches the search well within this delay.
    time.sleep(seconds)
    assert proc.poll() is None, proc.communicate()


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_the_command_line_count_promptly(name: str, signum: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_model.cli", "count", "." * 256, "--limit", "100000000"]
        + ["--backend", name],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONFAULTHANDLER": ""},
    )
    try:
        _started(proc, 2.5)
        sent = time.perf_counter()
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=10)
        took = time.perf_counter() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in err, err
    assert took < 0.5, (took, err)
    assert proc.returncode in (130, 143, -signum), (proc.returncode, err)


_WITH_HANDLER = """
import signal, sys
from sudoku_model import Puzzle, Shape, get_backend
from sudoku_model.solving import Budget
def stop(signum, frame):
    sys.exit(128 + signum)
signal.signal(signal.SIGTERM, stop)
backend = get_backend(sys.argv[1])
print("started", flush=True)
backend.count(Puzzle.empty(Shape(4, 4)), limit=10**9, budget=Budget(seconds=60))
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_a_python_sigterm_handler_runs_during_a_search(name: str) -> None:
    # SIGTERM's default action needs nothing from us; a program that handles it (as the
    # command line's executor does) needs the search to let its handler run.
    proc = subprocess.Popen(
        [sys.executable, "-c", _WITH_HANDLER, name],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "started\n"
        _started(proc, 1.0)
        sent = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        took = time.perf_counter() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in err, err
    assert proc.returncode == 143, (proc.returncode, err)
    assert took < 0.5, took
