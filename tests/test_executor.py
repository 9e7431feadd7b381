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


FORK_SERVER_SCRIPT = """
import multiprocessing, multiprocessing.forkserver as fs, os, pathlib, signal, sys, time
from sudoku_model import executor
executor._start_fork_server(["slow_preload", "sudoku_model._forkserver"])
pid = fs._forkserver._forkserver_pid
flag = pathlib.Path(sys.argv[1], "importing")
deadline = time.monotonic() + 60
while not flag.exists() and time.monotonic() < deadline:
    time.sleep(0.005)
assert flag.exists(), "the fork server did not import slow_preload"
os.kill(pid, signal.SIGINT)  # while the fork server imports its preload
with multiprocessing.get_context("forkserver").Pool(1) as pool:  # after its preload
    worker = pool.apply(os.getpid)
status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
print(fs._forkserver._forkserver_pid == pid, worker != pid,
      int(status["SigIgn"], 16) >> 1 & 1, int(status["SigBlk"], 16) >> 1 & 1)
"""


@pytest.mark.skipif(
    not os.path.exists("/proc/self/status")
    or "forkserver" not in __import__("multiprocessing").get_all_start_methods(),
    reason="needs a fork server and /proc",
)
def test_a_sigint_while_the_fork_server_imports_waits_instead_of_ending_it(tmp_path):
    # A terminal's Ctrl-C reaches the fork server too; one that lands while it imports
    # its preload must neither end it nor print a traceback: it is held (blocked) until
    # sudoku_model._forkserver ignores SIGINT, which then unblocks it.
    import subprocess
    import sys

    (tmp_path / "slow_preload.py").write_text(
        f"import pathlib, time\npathlib.Path({str(tmp_path / 'importing')!r}).touch()\n"
        "time.sleep(1.0)\n"
    )
    # the fork server finds slow_preload on the PYTHONPATH it inherits
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-c", FORK_SERVER_SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    # the same fork server, alive, made a worker; it ignores SIGINT and blocks nothing
    assert proc.stdout.split() == ["True", "True", "1", "0"], proc.stdout


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


def _pid_after_a_while(item: int) -> tuple[int, int]:
    time.sleep(0.02)
    return item, os.getpid()


def test_a_local_cluster_works_here_while_it_starts_then_hands_over_in_order():
    pytest.importorskip("dask.distributed")
    ex = Executor(kind="dask", dask="local", jobs=2)
    assert ex.width == 2  # before the workers are up: one task here, one waiting
    got = []
    with ex:
        for item, (echo, pid) in ex.map(_pid_after_a_while, range(1_000_000)):
            got.append((item, echo, pid))
            if pid != os.getpid() and len({p for _, _, p in got[-20:]} - {os.getpid()}) == 2:
                # Dask keeps no copy of the tasks sent (its "recent messages" logs held
                # up to 1,000 tasks, so memory grew with every task)
                scheduler = ex._cluster.scheduler
                logs = [ex._client.scheduler_comm.recent_message_log]
                logs += [c.recent_message_log for c in scheduler.stream_comms.values()]
                assert len(logs) == 3 and not any(logs)
                # released as they are consumed (the release travels in batches: a few late)
                assert len(scheduler.tasks) <= 2 * ex.width
                break  # both workers answered
            assert len(got) < 6000, "the cluster did not take over in two minutes"
    assert [(i, e) for i, e, _ in got] == [(i, i) for i in range(len(got))]
    here = [pid == os.getpid() for _, _, pid in got]
    assert here[0], "the first tasks run in this process"
    first_remote = here.index(False)
    assert not any(here[first_remote:]), "once handed over, nothing runs here"
    assert ex.width == 4  # two tasks in flight per worker thread


def _wait_for_the_cluster(item: tuple[int, int, str]) -> bool:
    """The first item waits (here, while the cluster starts) until a Dask worker has run
    a later one; later items, run by a worker, say so."""
    index, parent, marker = item
    if os.getpid() != parent:
        with open(marker, "a"):
            pass
        return True
    if index > 0:
        return False
    deadline = time.monotonic() + 90
    while not os.path.exists(marker) and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.path.exists(marker)


def test_a_cluster_that_comes_up_gets_work_before_the_task_here_ends(tmp_path):
    # The hand-over used to wait for the task at the head of the queue (running here)
    # to end: the new workers idled meanwhile, up to a whole task.
    pytest.importorskip("dask.distributed")
    marker = str(tmp_path / "a-worker-ran")
    items = [(i, os.getpid(), marker) for i in range(6)]
    with Executor(kind="dask", dask="local", jobs=2) as ex:
        results = [r for _, r in ex.map(_wait_for_the_cluster, items)]
    assert results[0], "the workers got no task while the first one ran here"
    assert results[2:] == [True] * 4


def test_work_that_holds_the_gil_waits_for_the_local_cluster():
    # A search holding the GIL here would starve the thread that starts the cluster
    # (PySAT: the cluster came up only when a 15 s run was over); so nothing runs here.
    pytest.importorskip("dask.distributed")
    ex = Executor(kind="dask", dask="local", jobs=2, work_while_starting=False)
    with ex:
        got = list(ex.map(_pid_after_a_while, range(12)))
    assert [e for _, (e, _) in got] == list(range(12))
    assert os.getpid() not in {pid for _, (_, pid) in got}


def _sized_result(item: int) -> tuple[int, bytes]:
    return item, bytes([item % 256]) * (item * 1024)


@pytest.mark.parametrize("stop_early", [False, True])
def test_a_local_clusters_big_results_come_back_through_files_that_are_removed(
    monkeypatch, stop_early
):
    pytest.importorskip("dask.distributed")
    from sudoku_model import executor

    loaded = []
    real_load = executor._Spilled.load
    monkeypatch.setattr(executor._Spilled, "load", lambda s: loaded.append(s) or real_load(s))
    sizes = [1, 200, 3, 70, 100, 2, 64, 65] * 3  # KiB; spilled from 64 on
    ex = Executor(kind="dask", dask="local", jobs=2, work_while_starting=False)
    got = []
    with ex:
        folder = ex._spill
        assert folder is not None and os.path.isdir(folder)
        for item, result in ex.map(_sized_result, sizes):
            got.append((item, result))
            if stop_early and len(got) == 5:
                break  # results of tasks in flight are left in the folder
    assert not os.path.exists(folder)
    assert got == [(s, _sized_result(s)) for s in sizes[: len(got)]]
    assert len(loaded) == sum(s >= 64 for s in sizes[: len(got)])


def test_a_result_that_cannot_be_left_in_a_file_is_sent_as_it_is(tmp_path):
    import pickle

    from sudoku_model.executor import _call_pickled, _Spilled

    big = _sized_result(100)
    left = _call_pickled(pickle.dumps((_sized_result, 100, str(tmp_path))))
    assert isinstance(left, _Spilled) and os.path.dirname(left.path) == str(tmp_path)
    assert left.load() == big and not list(tmp_path.iterdir())
    gone = str(tmp_path / "removed")  # the run is ending: its folder is gone
    assert _call_pickled(pickle.dumps((_sized_result, 100, gone))) == big
    assert _call_pickled(pickle.dumps((_sized_result, 1, str(tmp_path)))) == _sized_result(1)
    assert not list(tmp_path.iterdir())


def test_verify_lets_only_gil_free_backends_work_while_the_cluster_starts():
    from sudoku_model.verify import releases_gil

    assert releases_gil("native")
    assert not releases_gil("pysat")
    assert not releases_gil("native", ("pysat",))


def test_a_local_cluster_that_does_not_start_leaves_the_work_here(monkeypatch, capsys):
    pytest.importorskip("dask.distributed")
    import sudoku_model.executor as executor

    # a start method multiprocessing does not know: the cluster's own start fails
    monkeypatch.setattr(executor, "_start_method", lambda: "no-such-method")
    with Executor(kind="dask", dask="local", jobs=2) as ex:
        ex._ready.wait(60)  # the start has failed: every task from now on asks
        got = [r for _, r in ex.map(_pid_after_a_while, range(30))]
    assert got == [(i, os.getpid()) for i in range(30)]
    err = capsys.readouterr().err
    assert err.count("the local Dask cluster did not start") == 1
    assert "working in this process" in err


# -- verify's text tasks: the workers parse, verify and format ----------------------------
LINES = [
    "# a comment",
    "",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......  x",
    "+-------+-------+-------+",  # a separator line: no record
    "-" * 81,  # reads as an empty grid: a record
    "garbage",
    "1" * 300,  # malformed, quoted by excerpt
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
]


def test_unparsed_lines_parse_into_the_records_iter_records_gives():
    from sudoku_model.formats import RawLine, iter_records

    parsed = list(iter_records(LINES, fmt="line"))
    raw = list(iter_records(LINES, fmt="line", raw=True))
    assert all(type(r) is RawLine for r in raw) and len(raw) == len(parsed) == 5
    assert [r.position for r in raw] == list(range(5))
    # one by one, and as a run of lines, as a worker gets them
    assert repr([r.reader.record(r) for r in raw]) == repr(parsed)
    run = raw[0].reader.records([(r.line, r.text) for r in raw[1:]], 1)
    assert repr(run) == repr(parsed[1:])


def test_other_formats_are_not_left_unparsed():
    from sudoku_model.formats import RawLine, Record, iter_records

    assert all(type(r) is RawLine for r in iter_records([LINES[2], LINES[7]], raw=True))
    block = ["1.3.", "..1.", ".1..", "4..1"]
    assert all(type(r) is Record for r in iter_records(block, raw=True))


def test_text_tasks_keep_inputs_apart_and_records_in_a_row():
    from sudoku_model.formats import iter_records
    from sudoku_model.verify import VerifyConfig
    from sudoku_model.verify.text import _TaskSizer, _text_tasks

    def items():
        for index in range(2):
            for item in iter_records(LINES, fmt="line", raw=True):
                yield index, item
        yield 2, next(iter(iter_records(LINES[2:3])))  # a parsed record

    tasks = list(_text_tasks(items(), VerifyConfig(), "jsonl", _TaskSizer("dask", 3)))
    shape = [(t.input, t.first, len(t.texts), len(t.records)) for t in tasks]
    assert shape == [(0, 0, 3, 0), (0, 3, 2, 0), (1, 0, 3, 0), (1, 3, 2, 0), (0, 0, 0, 1)]
    assert tasks[-1].inputs == [2] and tasks[-1].reader is None
    assert sum(t.nbytes for t in tasks[:2]) == sum(len(s) + 1 for s in LINES[2:] if s[0] != "+")


def test_task_sizes_follow_the_measured_cost_of_a_record():
    from sudoku_model.verify import (
        MAX_TASK_RECORDS,
        TASK_SECONDS,
        TextChunk,
        VerifySummary,
    )
    from sudoku_model.verify.text import _TaskSizer

    sizer = _TaskSizer("dask", None)
    assert [sizer.size() for _ in range(6)] == [16, 32, 64, 128, 256, 256]  # probing
    sizer.observe(TextChunk("", 100, VerifySummary(), [], cpu=100 * 50e-6))
    assert sizer.size() == int(TASK_SECONDS["dask"] / 50e-6)
    for _ in range(10):  # a moving average: cheap records for a while
        sizer.observe(TextChunk("", 100, VerifySummary(), [], cpu=100 * 1e-9))
    assert sizer.size() == MAX_TASK_RECORDS
    assert _TaskSizer("processes", 7).size() == 7


def test_text_chunks_carry_their_counts_and_what_to_tell_the_user():
    from sudoku_model.formats import iter_records
    from sudoku_model.solving import VerdictKind
    from sudoku_model.verify import VerifyConfig
    from sudoku_model.verify.text import _text_task, _TextTask

    raw = list(iter_records(LINES, fmt="line", raw=True))
    task = _TextTask(
        VerifyConfig(),
        "jsonl",
        raw[0].reader,
        4,
        0,
        [r.line for r in raw],
        [r.text for r in raw],
        [],
        [],
        0,
    )
    chunk = _text_task(task)
    assert chunk.count == 5 and chunk.text.count("\n") == 5
    assert chunk.summary.counts[VerdictKind.MALFORMED] == 2
    assert [what for what, _ in chunk.notes] == ["malformed", "malformed"]
    assert chunk.notes[0][1].startswith("<stream>:6:")
    assert '"input":4,"position":4,' in chunk.text.splitlines()[-1]
