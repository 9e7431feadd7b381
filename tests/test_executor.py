"""The one executor (sudoku_model.executor): order, laziness, errors, signals, start method."""

from __future__ import annotations

import math
import os
import signal
import threading
import time

import pytest

from sudoku_model.executor import (
    Executor,
    Interrupted,
    check_dask_address,
    chunks,
    stop_on_signals,
    stop_requested,
)


def test_chunks_grow_to_their_size_and_keep_every_item():
    got = list(chunks(range(1000), 64))
    assert [len(c) for c in got[:4]] == [4, 8, 16, 32]
    assert max(len(c) for c in got) == 64
    assert [x for c in got for x in c] == list(range(1000))
    assert list(chunks([], 8)) == []
    with pytest.raises(ValueError):
        list(chunks([1], 0))


@pytest.mark.parametrize("kind, jobs", [("serial", 1), ("threads", 3), ("processes", 2)])
def test_results_come_in_input_order(kind, jobs):
    items = list(range(40))
    with Executor(kind=kind, jobs=jobs) as ex:
        got = list(ex.map(math.factorial, items))
    assert got == [(i, math.factorial(i)) for i in items]


def test_processes_start_from_a_fork_server_where_there_is_one():
    import multiprocessing

    from sudoku_model.executor import _start_method

    want = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    assert _start_method() == want


@pytest.mark.parametrize("kind, jobs", [("serial", 1), ("threads", 2), ("processes", 2)])
def test_input_is_read_lazily(kind, jobs):
    pulled = 0

    def items():
        nonlocal pulled
        for i in range(10_000):
            pulled += 1
            yield i

    ex = Executor(kind=kind, jobs=jobs)
    stream = ex.map(abs, items())
    next(stream)
    assert pulled <= ex.width + 1
    stream.close()  # stops the workers


def test_an_error_in_the_work_reaches_the_caller_and_stops_the_workers():
    ex = Executor(kind="threads", jobs=2)
    with pytest.raises(ValueError, match="math domain error"):
        list(ex.map(math.sqrt, [4, 1, -1, 9]))
    with pytest.raises(RuntimeError):  # closed: one run per executor
        list(ex.map(abs, [1]))


def test_bad_kind_or_jobs_are_refused():
    with pytest.raises(ValueError):
        Executor(kind="fibres")
    with pytest.raises(ValueError):
        Executor(kind="threads", jobs=0)


def slow_identity(x: int) -> int:
    time.sleep(0.05 if x < 3 else 5.0)
    return x


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_run_keeps_finished_results_and_calls_the_hooks(sig, code):
    stopped = threading.Event()
    got = []
    start = time.monotonic()
    with stop_on_signals():
        threading.Timer(0.5, os.kill, (os.getpid(), sig)).start()
        with pytest.raises(Interrupted) as info:
            for _, r in Executor(kind="threads", jobs=2).map(
                slow_identity, range(6), on_stop=[stopped.set]
            ):
                got.append(r)
        assert stop_requested() == sig
    assert stop_requested() is None
    assert info.value.exit_code == code
    assert got == [0, 1, 2] and stopped.is_set()
    assert time.monotonic() - start < 3.0  # it did not wait for the 5 s items
    assert signal.getsignal(sig) in (signal.default_int_handler, signal.SIG_DFL)


def test_on_wait_is_called_while_an_item_takes_long():
    ticks = []
    with Executor(kind="serial") as ex:
        list(ex.map(time.sleep, [0.45], on_wait=lambda: ticks.append(1)))
    assert len(ticks) >= 2


def test_dask_addresses_are_checked_at_once():
    assert check_dask_address("local") == "local"
    for bad in ("", "bogus", "tcp://host", "tcp://:80", "127.0.0.1:8786"):
        with pytest.raises(ValueError):
            check_dask_address(bad)
    start = time.monotonic()
    with pytest.raises(ConnectionError, match="cannot reach the Dask scheduler"):
        check_dask_address("tcp://127.0.0.1:1")
    assert time.monotonic() - start < 5
