"""One executor for every batch workflow (verify, generate, rate): ordered, streaming,
bounded, interruptible.

:class:`Executor` runs ``fn(item)`` for each item of an iterable and yields
``(item, result)`` in input order. It pulls items lazily, keeps at most :attr:`Executor.width`
in flight (so memory stays constant however long the input) and works in one of four ways:

``serial``
    one worker thread, one item at a time (the main thread stays free to notice a signal
    while a C search runs; a search in the main thread would delay the handler until the
    search returns);
``threads``
    ``jobs`` daemon threads, for work whose core releases the GIL (a backend that declares
    :attr:`~sudoku_model.solving.Capabilities.releases_gil`, such as native): no pickling,
    the main thread reads and formats while the C calls run;
``processes``
    ``jobs`` worker processes, for everything else (Python-heavy work, solvers that hold the
    GIL);
``dask``
    chunks sent to a Dask scheduler (an address, or ``local``: a LocalCluster on loopback
    with one single-threaded worker process per core), at most two per worker thread in
    flight, submitted as results are consumed. A LocalCluster starts in a thread while the
    first tasks run here, in one worker thread (its start, seconds on a busy machine, is
    no longer dead time); its workers fork from a fork server that imported the package
    and distributed once (:func:`_dask_forkserver_preload`).

Which kind runs a workflow is decided in one place, :func:`choose_kind` (and
:func:`executor_for`, which builds the executor it chose), from the backends' declared
:class:`~sudoku_model.solving.Capabilities` and the options: no workflow or command picks
a kind by hand. The editor's requests run in :func:`request_pool`.

Chunking (:func:`chunks`) amortises the cost of a task (a hop to a thread, a pickle to a
process, a round trip to Dask): items travel in lists, the first ones small so that every
worker starts at once and the first results show up quickly, then of the full size.

Start method of worker processes: ``forkserver`` where the platform has it, else ``spawn``.
Not ``fork``: forking copies a parent that may run threads (the PySAT watchdog, the thread
workers of this module, a notebook kernel, Dask), which can deadlock the child, and it
copies the parent's signal handlers and open output files into every worker. A fork
server is a clean single-threaded process that imports the package once
(:data:`PRELOAD`); workers forked from it start in milliseconds with nothing of the
parent's state. The price is that ``fn``, its items and the initializer must be picklable,
which Dask needs anyway: one rule for all process-based kinds.

Signals, in one place (:func:`stop_on_signals`): inside that context SIGINT and SIGTERM
only record the signal (a second one is ignored: no traceback while the first is being
handled). The executor's wait loop notices it within :data:`POLL_SECONDS`, calls the
``on_stop`` hooks (typically ``backend.interrupt()``, so a search in a thread ends at
once), yields the results already complete at the head of the queue (in order: nothing
computed is lost, nothing is duplicated), drops the items in flight, stops the workers
(processes are terminated, never left behind; worker processes ignore SIGINT, die quietly
on SIGTERM and die with their parent even after a SIGKILL) and raises :class:`Interrupted`
carrying the exit status (130 for SIGINT, 143 for SIGTERM). Output written between items
is therefore never torn, and the caller prints its summary and returns the status.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from .solving import Capabilities

__all__ = [
    "Executor",
    "choose_kind",
    "executor_for",
    "request_pool",
    "Interrupted",
    "KINDS",
    "POLL_SECONDS",
    "PRELOAD",
    "check_dask_address",
    "chunks",
    "stop_on_signals",
    "stop_requested",
]

T = TypeVar("T")
R = TypeVar("R")

#: The ways an :class:`Executor` runs its work.
KINDS = ("serial", "threads", "processes", "dask")
#: How often a waiting executor looks at the stop flag and calls ``on_wait``.
POLL_SECONDS = 0.1
#: The same, while a LocalCluster starts and this process works meanwhile.
HANDOVER_POLL_SECONDS = 0.02
#: Modules the fork server imports once, so that every worker starts with them loaded (the
#: first makes the fork server, hence every worker from birth, ignore SIGINT).
PRELOAD = (
    "sudoku_model._forkserver",
    "sudoku_model.verify",
    "sudoku_model.generate",
    "sudoku_model.formats",
)
#: Dask settings of our client (and of a LocalCluster's scheduler). Dask keeps the last
#: 1,000 messages under 1 MB that each of its batched connections sent, "for developers":
#: the client's and the scheduler's copies of every task, so that the memory of this
#: process grew with every task until 1,000 of them (0.3 MB per 1,000 records on the
#: 17-clue list; 741 MB for 1,000,000 records with smaller tasks). No log: the memory of
#: a run stays flat.
CLIENT_CONFIG: dict[str, Any] = {"distributed.admin.low-level-log-length": 0}
#: Dask settings of a LocalCluster (its scheduler, nannies and workers). With Dask's
#: defaults an idle 2-worker cluster burns 108 ms of CPU per second of wall time (each
#: worker samples its stacks every 10 ms for the dashboard's profile, event-loop watchdogs
#: tick every 20 ms, work stealing every 100 ms, system monitors every 0.5 s): 10 % of a
#: core, more on a busy machine where a run lasts longer. With these, 13 ms
#: (tests/benchmarks/bench_scaling.py --idle).
LOCAL_CLUSTER_CONFIG: dict[str, Any] = {
    **CLIENT_CONFIG,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "10s",
    # one task per worker thread at a time and equal workers: nothing to steal
    "distributed.scheduler.work-stealing": False,
}
#: A LocalCluster's worker leaves a result of this many bytes or more (pickled) in a file
#: of a temporary folder this process made, and sends only its name: Dask's round trip
#: moved the 1.5 MB of records of each verify task through two sockets and this process's
#: event loop (0.6 s of this process's CPU for 180,000 records, on a 2-core machine where
#: every core also runs a worker). The same machine, so the same files; not for a
#: scheduler given by address, whose workers may be elsewhere.
SPILL_BYTES = 64 * 1024
#: Seconds allowed to reach a Dask scheduler before giving up with a clear message.
DASK_CONNECT_SECONDS = 10.0


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal; ``exit_code`` is 128 + the signal number (130 for
    SIGINT, 143 for SIGTERM). A ``KeyboardInterrupt`` so that code which does not know it
    still treats it as Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by signal {signum}")
        self.signum = signum
        self.exit_code = 128 + signum


# -- the stop flag and the signal handlers ---------------------------------------------------
@dataclass
class _StopFlag:
    signum: int | None = None
    depth: int = 0


_STOP = _StopFlag()


def stop_requested() -> int | None:
    """The signal that asked the current run to stop (inside :func:`stop_on_signals`), or
    None."""
    return _STOP.signum


def _record_signal(signum: int, frame: Any) -> None:
    # Only a flag: raising here could tear a line being written, and a second signal
    # must not raise during the clean-up of the first.
    if _STOP.signum is None:
        _STOP.signum = signum


@contextlib.contextmanager
def stop_on_signals(*, linger: bool = False) -> Iterator[None]:
    """Within this context SIGINT and SIGTERM ask executors to stop cleanly (see the module
    docstring) instead of raising wherever the main thread happens to be.

    Outside the main thread (where Python cannot install handlers) it changes nothing.
    Handlers are restored on exit; nested uses share one flag. With ``linger=True`` (a
    command about to exit) both signals are ignored from then on once one was received, so
    that a second signal cannot kill the process while it prints its summary and exits.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    if _STOP.depth == 0:
        _STOP.signum = None
    _STOP.depth += 1
    for s in previous:
        signal.signal(s, _record_signal)
    try:
        yield
    finally:
        _STOP.depth -= 1
        for s, h in previous.items():
            if linger and _STOP.signum is not None:
                # ignored, not recorded: Python resets its own handlers to the default
                # (death) while the interpreter shuts down, but leaves SIG_IGN alone
                h = signal.SIG_IGN
            signal.signal(s, h if h is not None else signal.SIG_DFL)
        if _STOP.depth == 0:
            _STOP.signum = None


# -- chunking ------------------------------------------------------------------------------
def chunks(items: Iterable[T], size: int, *, first: int | None = None) -> Iterator[list[T]]:
    """Lists of consecutive items: the first of ``first`` items (default ``size // 16``, at
    least 1), each next one twice as long, up to ``size``. Reads ``items`` lazily.

    >>> [len(c) for c in chunks(range(100), 32, first=4)]
    [4, 8, 16, 32, 32, 8]

    Raises:
        ValueError: for a size below 1.
    """
    if size < 1:
        raise ValueError(f"chunk size must be at least 1, got {size}")
    want = max(1, min(size, size // 16 if first is None else first))
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= want:
            yield chunk
            chunk = []
            want = min(size, 2 * want)
    if chunk:
        yield chunk


# -- worker processes ----------------------------------------------------------------------
def _worker_start(
    parent: int,
    init: Callable[..., Any] | None,
    args: tuple[Any, ...],
    registered: dict[str, Callable[..., Any]] | None = None,
) -> None:  # pragma: no cover - runs in the worker processes
    # The parent handles Ctrl-C (the terminal sends it to the whole process group) and
    # stops the workers with SIGTERM: the default action, death without a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # A parent killed outright closes the result pipe: the worker's next write then ends
    # it silently (SIGPIPE) instead of printing a BrokenPipeError traceback.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    _die_with_parent(parent)
    if registered:
        from .solving import register_backend

        for name, factory in registered.items():
            register_backend(name, factory)
    if init is not None:
        init(*args)


def _picklable_registrations() -> dict[str, Callable[..., Any]]:
    """The backends of :func:`~sudoku_model.solving.register_backend` whose factories can
    reach a worker process (pickled by reference: a module-level function or class of an
    importable module); workers register them again before their first task."""
    import pickle

    from .solving import registered_backends

    sendable = {}
    for name, factory in registered_backends().items():
        try:
            pickle.dumps(factory)
        except Exception:  # a lambda or a local function: stays in this process
            continue
        sendable[name] = factory
    return sendable


def _die_with_parent(parent: int) -> None:  # pragma: no cover - worker side
    """Make this worker end when the process that started the pool dies, even by SIGKILL
    (which no handler sees): the kernel's parent-death signal on Linux, and everywhere a
    daemon thread that looks at the parent four times a second."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    ppid = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.25)
            if os.getppid() != ppid or not _alive(parent):
                os._exit(1)

    threading.Thread(target=watch, name="sudoku-parent-watch", daemon=True).start()


def _alive(pid: int) -> bool:  # pragma: no cover - worker side
    # A parent killed outright stays a zombie until its own parent reaps it, and a zombie
    # still answers kill(pid, 0): look at its state where /proc says it.
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return stat[stat.rindex(b")") + 2 : stat.rindex(b")") + 3] not in (b"Z", b"X")
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _call_pickled(blob: bytes) -> Any:  # pragma: no cover - runs on Dask workers
    import pickle  # here, as below: pickle and socket are 5 ms of every start-up

    fn, item, spill = pickle.loads(blob)
    result = fn(item)
    if spill is None:
        return result
    data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    if len(data) < SPILL_BYTES:
        return result
    global _spilled
    _spilled += 1
    path = os.path.join(spill, f"{os.getpid()}-{_spilled}")
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError:  # a full disk, a folder removed by a run that is ending: send it
        with contextlib.suppress(OSError):
            os.unlink(path)
        return result
    return _Spilled(path)


class _Spilled(NamedTuple):
    """A task's result, pickled in the file at ``path``, left there by a worker of a
    LocalCluster (see :data:`SPILL_BYTES`)."""

    path: str

    def load(self) -> Any:
        """The result (the file is removed)."""
        import pickle

        with open(self.path, "rb") as f:
            data = f.read()
        os.unlink(self.path)
        return pickle.loads(data)


_spilled = 0  # results spilled by this worker process (file names)


def _start_method() -> str:
    import multiprocessing

    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


# -- thread workers ------------------------------------------------------------------------
class _Job:
    """The outcome of one item given to :class:`_Threads`: the part of
    ``concurrent.futures.Future`` the executor uses (importing that module, and logging
    with it, took 5 ms of every ``sudoku verify`` start)."""

    __slots__ = ("_done", "_value", "_error")

    def __init__(self) -> None:
        self._done = threading.Event()
        self._value: Any = None
        self._error: BaseException | None = None

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None) -> bool:
        """True once the item is done (waiting at most ``timeout`` seconds)."""
        return self._done.wait(timeout)

    def result(self) -> Any:
        """The value of ``fn(item)``, or its exception raised here (once done).

        Raises:
            BaseException: whatever ``fn`` raised.
        """
        if self._error is not None:
            raise self._error
        return self._value


class _Threads:
    """Daemon threads fed from a queue: a search still running when the run stops never
    keeps the process alive (``concurrent.futures`` joins its threads at exit)."""

    def __init__(self, n: int) -> None:
        import queue

        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._work, name=f"sudoku-worker-{i}", daemon=True)
            for i in range(n)
        ]
        for t in self._threads:
            t.start()

    def _work(self) -> None:
        while True:
            task = self._queue.get()
            if task is None:
                return
            job, fn, item = task
            try:
                job._value = fn(item)
            except BaseException as exc:  # handed to the consumer, which decides
                job._error = exc
            finally:
                job._done.set()

    def submit(self, fn: Callable[[Any], Any], item: Any) -> _Job:
        job = _Job()
        self._queue.put((job, fn, item))
        return job

    def close(self, *, wait: float | None) -> None:
        for _ in self._threads:
            self._queue.put(None)
        deadline = None if wait is None else time.monotonic() + wait
        for t in self._threads:
            t.join(None if deadline is None else max(0.0, deadline - time.monotonic()))


# -- the executor --------------------------------------------------------------------------
@dataclass
class _Pending(Generic[T]):
    item: T
    handle: Any
    extra: Any = None


@dataclass
class Executor:
    """Runs ``fn(item)`` over a stream of items, in order, bounded, interruptible.

    Args:
        kind: one of :data:`KINDS` (see the module docstring).
        jobs: worker threads or processes (``serial`` uses 1; ``dask local`` starts this
            many workers, one per core when ``jobs`` is 1).
        dask: the scheduler address for ``kind="dask"`` (``tcp://host:port`` or ``local``).
        initializer, initargs: run once in each worker process (``processes`` only), for
            state that is expensive to send with every item.

    Create it (which starts the workers or connects to Dask) before opening any output:
    a scheduler that cannot be reached fails here. Use it once, with :meth:`map`, or as a
    context manager.

    >>> with Executor(kind="threads", jobs=2) as ex:
    ...     [r for _, r in ex.map(abs, [-1, -2, 3])]
    [1, 2, 3]

    Raises:
        ValueError: for an unknown kind, ``jobs`` below 1, or a bad Dask address.
        ImportError: for ``dask`` without the ``dask`` extra.
        ConnectionError: when the Dask scheduler cannot be reached.
    """

    kind: str = "serial"
    jobs: int = 1
    dask: str | None = None
    #: With ``dask="local"``, run the first tasks in this process while the cluster starts.
    #: Only for work that releases the GIL (native): a search that holds it (PySAT) starves
    #: the thread that starts the cluster, which then comes up only when the run is over.
    work_while_starting: bool = True
    initializer: Callable[..., Any] | None = None
    initargs: tuple[Any, ...] = ()
    width: int = field(init=False, default=1)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown executor kind {self.kind!r}; known: {', '.join(KINDS)}")
        if self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, got {self.jobs}")
        self._pool: Any = None
        self._client: Any = None
        self._cluster: Any = None
        self._local: _Threads | None = None  # runs tasks while a LocalCluster starts
        self._spill: str | None = None  # where a LocalCluster's workers leave big results
        self._closed = False
        if self.kind == "serial":
            self.jobs = 1
            self._pool = _Threads(1)
            self.width = 1
        elif self.kind == "threads":
            self._pool = _Threads(self.jobs)
            self.width = 2 * self.jobs
        elif self.kind == "processes":
            import multiprocessing

            context = multiprocessing.get_context(_start_method())
            if context.get_start_method() == "forkserver":
                _start_fork_server(list(PRELOAD))
            self._pool = context.Pool(
                self.jobs,
                initializer=_worker_start,
                initargs=(
                    os.getpid(),
                    self.initializer,
                    self.initargs,
                    _picklable_registrations(),
                ),
            )
            self.width = 2 * self.jobs
        else:
            self._connect_dask()

    def _connect_dask(self) -> None:
        address = check_dask_address(self.dask)
        if address == "local":
            # Checked here, imported by the start thread: dask.distributed alone takes half
            # a second of CPU to import.
            if not all(_importable(name) for name in ("dask", "distributed")):
                raise ImportError("--dask needs the 'dask' extra: pip install 'sudoku-model[dask]'")
            self._start_local_cluster()
            return
        try:
            from dask.distributed import Client
        except ImportError:
            raise ImportError(
                "--dask needs the 'dask' extra: pip install 'sudoku-model[dask]'"
            ) from None
        import dask

        try:
            with dask.config.set(CLIENT_CONFIG):
                self._client = Client(address, timeout=DASK_CONNECT_SECONDS)
        except (OSError, TimeoutError) as exc:
            raise ConnectionError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        self.width = max(2, 2 * sum(self._client.nthreads().values()))

    def _start_local_cluster(self) -> None:
        """Start the LocalCluster in a thread of its own and, until its workers are ready
        (1.5-5 s on a busy 2-core machine: a fork server imports distributed and this
        package, the workers fork from it and connect), run the tasks in this process on
        one worker thread.
        The hand-over keeps the order: the queue of :meth:`map` holds either kind of
        future, and only new tasks go to the cluster once it is up."""
        self._local = _Threads(1)
        import tempfile

        self._spill = tempfile.mkdtemp(prefix="sudoku-dask-")
        self.width = 2  # one task running here, one ready behind it
        self._ready = threading.Event()
        self._start_error: BaseException | None = None
        self._start_reported = False
        self._handed_over = False
        workers = self.jobs if self.jobs > 1 else (os.cpu_count() or 1)

        def start() -> None:
            try:
                import dask
                from dask.distributed import Client, LocalCluster

                method = _start_method()
                settings = {
                    **LOCAL_CLUSTER_CONFIG,
                    "distributed.worker.multiprocessing-method": method,
                }
                with dask.config.set(settings):
                    if method == "forkserver":
                        _dask_forkserver_preload()
                    cluster = LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",
                        dashboard_address=None,
                        # no dashboard; its HTTP server (health checks) on a free port, not
                        # 8787, which another cluster on this machine may hold (a warning)
                        scheduler_kwargs={"dashboard_address": ":0"},
                        silence_logs=50,  # logging.CRITICAL: the cluster's chatter is not ours
                        # no memory monitor (our tasks are small; nothing to spill)
                        memory_limit=0,
                    )
                    self._cluster = cluster
                    client = Client(cluster, timeout=60)
                self._client = client
                # A terminal's Ctrl-C reaches the whole process group: our workers leave it
                # to this process (which stops them) instead of printing a traceback each;
                # and they import the work's modules now, not in their first task.
                client.run(_prepare_dask_worker)
            except BaseException as exc:  # reported by map, which then works here
                self._start_error = exc
            finally:
                self._ready.set()

        self._starter = threading.Thread(target=start, name="sudoku-dask-start", daemon=True)
        self._starter.start()

    def _cluster_up(self) -> bool:
        """Whether tasks go to Dask now (see :meth:`_start_local_cluster`)."""
        if self._local is None:
            return True
        if not self._ready.is_set():
            return False
        if self._start_error is not None:
            if not self._start_reported:
                # Work already written stays good and the rest is done here: slower, not
                # wrong, so a warning rather than an error in the middle of the output.
                self._start_reported = True
                print(
                    f"sudoku: the local Dask cluster did not start "
                    f"({type(self._start_error).__name__}: {self._start_error}); "
                    "working in this process",
                    file=sys.stderr,
                    flush=True,
                )
            return False
        if not self._handed_over:
            self._handed_over = True
            self.width = max(2, 2 * sum(self._client.nthreads().values()))
        return True

    # -- running -------------------------------------------------------------------------
    def _submit(self, fn: Callable[[Any], Any], item: Any) -> Any:
        if self.kind == "processes":
            return self._pool.apply_async(fn, (item,))
        if self.kind == "dask":
            if not self._cluster_up():
                assert self._local is not None
                return self._local.submit(fn, item)
            # Pickled here, once: Dask would otherwise walk every record of a chunk (tuples
            # and lists) looking for futures to substitute.
            import pickle

            blob = pickle.dumps((fn, item, self._spill), protocol=pickle.HIGHEST_PROTOCOL)
            return self._client.submit(_call_pickled, blob, pure=False)
        return self._pool.submit(fn, item)

    def _ready_now(self, handle: Any) -> bool:
        if self.kind == "processes":
            return bool(handle.ready())
        return bool(handle.done())

    def _wait(self, handle: Any, seconds: float) -> bool:
        if self.kind == "processes":
            handle.wait(seconds)
            return bool(handle.ready())
        if self.kind == "dask" and not isinstance(handle, _Job):
            from dask.distributed import wait

            with contextlib.suppress(TimeoutError):
                wait(handle, timeout=seconds)
            return bool(handle.done())
        return bool(handle.wait(seconds))

    def _result(self, handle: Any) -> Any:
        if self.kind == "processes":
            return handle.get()
        result = handle.result()
        return result.load() if result.__class__ is _Spilled else result

    def map(
        self,
        fn: Callable[[T], R],
        items: Iterable[T],
        *,
        on_wait: Callable[[], None] | None = None,
        on_stop: Sequence[Callable[[], None]] = (),
    ) -> Iterator[tuple[T, R]]:
        """Yield ``(item, fn(item))`` for every item, in the order of ``items``.

        ``items`` is read lazily, at most :attr:`width` ahead of the results consumed.
        ``on_wait`` is called every :data:`POLL_SECONDS` while the next result is not ready
        (a progress line that must say something even when a single item takes long);
        every :data:`HANDOVER_POLL_SECONDS` while a LocalCluster starts and this process
        works meanwhile (it looks that often whether the cluster is up).
        Inside :func:`stop_on_signals`, a signal stops the run: the ``on_stop`` hooks are
        called, the results already complete at the head are yielded, and
        :class:`Interrupted` is raised. The executor is closed when the iteration ends,
        however it ends.

        Raises:
            Interrupted: after a signal (see above).
            Exception: whatever ``fn`` raised for an item (after closing the workers).
        """
        if self._closed:
            raise RuntimeError("this executor is closed: make one per run")
        pending: deque[_Pending[T]] = deque()
        source = iter(items)
        exhausted = False
        clean = False
        try:
            while True:
                while not exhausted and len(pending) < self.width:
                    self._check_stop(pending, on_stop)
                    try:
                        item = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    self._await_cluster(pending, on_stop, on_wait)
                    pending.append(_Pending(item, self._submit(fn, item)))
                if not pending:
                    break
                head = pending[0]
                widened = False
                while not self._wait(head.handle, self._poll_seconds()):
                    self._check_stop(pending, on_stop)
                    if on_wait is not None:
                        on_wait()
                    if not exhausted and self._widened(len(pending)):
                        widened = True  # the cluster came up: feed its workers now
                        break
                if widened:
                    continue
                self._check_stop(pending, on_stop)
                pending.popleft()
                yield head.item, self._result(head.handle)
            clean = True
        except Interrupted:
            # Results complete at the head are work done: hand them over, in order.
            while pending and self._ready_now(pending[0].handle):
                head = pending.popleft()
                try:
                    result = self._result(head.handle)
                except BaseException:
                    break  # an interrupted item: no result, and none after it
                yield head.item, result
            raise
        finally:
            self.close(kill=not clean)

    def _poll_seconds(self) -> float:
        """How long to wait for a result before looking again: shorter while a
        LocalCluster starts, so that its workers get tasks as soon as it is up."""
        if self._local is not None and not self._handed_over and self._start_error is None:
            return HANDOVER_POLL_SECONDS
        return POLL_SECONDS

    def _widened(self, in_flight: int) -> bool:
        """Whether more items may be submitted now than when ``in_flight`` were: a
        LocalCluster that came up while this process worked on its first tasks (without
        this, its workers idled until the task at the head was done, 0.125 s on average,
        up to a whole task)."""
        if self._local is None or self._handed_over or not self._ready.is_set():
            return False
        return self._cluster_up() and in_flight < self.width

    def _await_cluster(
        self,
        pending: deque[_Pending[Any]],
        on_stop: Sequence[Callable[[], None]],
        on_wait: Callable[[], None] | None,
    ) -> None:
        """Without :attr:`work_while_starting`, wait for the LocalCluster (a signal still
        stops the run) instead of running tasks in this process meanwhile."""
        if self._local is None or self.work_while_starting or self._ready.is_set():
            return
        while not self._ready.wait(POLL_SECONDS):
            self._check_stop(pending, on_stop)
            if on_wait is not None:
                on_wait()

    def _check_stop(
        self, pending: deque[_Pending[Any]], on_stop: Sequence[Callable[[], None]]
    ) -> None:
        signum = _STOP.signum
        if signum is None:
            return
        for hook in on_stop:
            with contextlib.suppress(Exception):  # a hook must not hide the interruption
                hook()
        raise Interrupted(signum)

    def close(self, *, kill: bool = False) -> None:
        """Stop the workers: let them finish (``kill=False``) or stop them now (threads
        are given a moment to notice an interrupted search; processes are terminated).
        Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.kind in ("serial", "threads"):
            self._pool.close(wait=1.0 if kill else None)
        elif self.kind == "processes":
            if kill:
                self._pool.terminate()
            else:
                self._pool.close()
            self._pool.join()
        else:
            if self._local is not None:
                self._local.close(wait=1.0 if kill else None)
                # a run shorter than the cluster's start: wait for it, to stop its workers
                self._starter.join()
            try:
                if self._client is not None:
                    self._client.close()
            finally:
                try:
                    if self._cluster is not None:
                        self._cluster.close()
                finally:
                    if self._spill is not None:  # results of tasks nobody waited for
                        import shutil

                        shutil.rmtree(self._spill, ignore_errors=True)

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(kill=exc[0] is not None)


def _importable(name: str) -> bool:
    """Whether ``import name`` would find the module, without importing it."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # ValueError: blocked by a None in sys.modules
        return False


def _dask_forkserver_preload() -> None:
    """Make the LocalCluster's worker processes start from a fork server that imported
    distributed and this package once (under ``distributed.worker.multiprocessing-method``
    = ``forkserver``): a worker then starts in milliseconds, where a spawned one imports
    everything again (0.6-0.9 s of CPU each, every run: on 16 cores, 10-15 s of CPU).
    A fork server already running in this process keeps the modules it has: slower, not
    wrong."""
    import distributed.utils

    # distributed's own list would import numpy and pandas into this process (30 MB,
    # half a second) just to see whether they are there; the flag tells it the list is set
    distributed.utils._forkserver_preload_set = True
    _start_fork_server([*PRELOAD, "distributed", "sudoku_model.cli"])


def _start_fork_server(preload: list[str]) -> None:
    """Set the fork server's preload and start it, unless one runs already (it then keeps
    the modules it has). It starts with SIGINT blocked, a mask it keeps across its exec: a
    Ctrl-C that reaches the process group while it imports ``sudoku_model`` waits until
    :mod:`sudoku_model._forkserver` (first in :data:`PRELOAD`) ignores the signal and
    unblocks it, instead of ending the fork server with a KeyboardInterrupt traceback. The
    calling thread's own mask is restored (a SIGINT that came meanwhile is then handled).
    """
    import multiprocessing
    import multiprocessing.forkserver
    import multiprocessing.resource_tracker

    multiprocessing.get_context("forkserver").set_forkserver_preload(preload)
    # the fork server needs the resource tracker, whose start unblocks SIGINT when it is
    # done: started first, it is running before the signal is blocked
    multiprocessing.resource_tracker.ensure_running()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _prepare_dask_worker() -> None:  # pragma: no cover - runs in the Dask workers' main thread
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    import importlib

    for name in PRELOAD[1:]:
        importlib.import_module(name)


def check_dask_address(address: str | None) -> str:
    """Check a ``--dask`` value and, for a TCP address, that something listens there, in at
    most a few seconds (the Dask client alone retries for its whole timeout before failing).

    Returns:
        ``"local"`` or the address.

    Raises:
        ValueError: for a value that is neither ``local`` nor ``scheme://host:port``.
        ConnectionError: when nothing accepts a connection at a ``tcp://`` address.
    """
    if not address:
        raise ValueError("--dask needs a scheduler address (tcp://host:port) or 'local'")
    if address == "local":
        return address
    scheme, sep, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    if not sep or not colon or not host or not port.isdigit() or not scheme.isalnum():
        raise ValueError(
            f"--dask {address!r}: expected 'local' or a scheduler address like tcp://127.0.0.1:8786"
        )
    if scheme == "tcp":
        try:
            import socket

            with socket.create_connection((host.strip("[]"), int(port)), timeout=3.0):
                pass
        except OSError as exc:
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise ConnectionError(
                f"cannot reach the Dask scheduler at {address}: {reason}"
            ) from None
    return address


# -- the one executor policy -----------------------------------------------------------------
def choose_kind(
    capabilities: Iterable[Capabilities] = (),
    *,
    jobs: int = 1,
    dask: str | None = None,
    fast_path: str | None = None,
    python_work: bool = False,
    threads: bool | None = None,
    in_process: bool = False,
) -> str:
    """The :data:`KINDS` entry that runs a workflow: the one policy of the toolkit.

    ``dask`` when a scheduler is given. Otherwise threads when the work releases the GIL:
    every backend of the run (``capabilities``, at least one) declares ``releases_gil``
    and, when the work runs through a primitive (``fast_path``, e.g.
    ``"check_unique_batch"``), declares that primitive in ``fast_paths``, and the work
    does no Python-heavy part of its own (``python_work``: a removal loop, a cross-check,
    a rating); ``threads=False`` forbids threads. Else processes; either way ``serial``
    (one worker thread) when ``jobs`` is 1. ``in_process``: the results must stay objects
    of this process (no processes, no Dask: ``serial`` where processes would run).

    >>> choose_kind(jobs=4, python_work=True)
    'processes'

    Raises:
        ValueError: for ``jobs`` below 1, or Dask with ``in_process``.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if dask:
        if in_process:
            raise ValueError("this run keeps its results in this process: it cannot use Dask")
        return "dask"
    caps = list(capabilities)
    gil_free = (
        bool(caps)
        and not python_work
        and all(c.releases_gil and (fast_path is None or fast_path in c.fast_paths) for c in caps)
    )
    if jobs == 1:
        return "serial"
    if gil_free and threads is not False:
        return "threads"
    return "serial" if in_process else "processes"


def executor_for(
    capabilities: Iterable[Capabilities] = (),
    *,
    jobs: int = 1,
    dask: str | None = None,
    fast_path: str | None = None,
    python_work: bool = False,
    threads: bool | None = None,
    in_process: bool = False,
    initializer: Callable[..., Any] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Executor:
    """The :class:`Executor` of :func:`choose_kind`'s choice (same arguments), started;
    with Dask it works while a LocalCluster starts only when every backend releases the
    GIL (``Executor.work_while_starting``). ``initializer`` and ``initargs`` go to worker
    processes (ignored by the other kinds).

    Raises:
        ValueError: as :func:`choose_kind`, or for a bad Dask address.
        ImportError: for Dask without the ``dask`` extra.
        ConnectionError: when the Dask scheduler cannot be reached.
    """
    caps = list(capabilities)
    kind = choose_kind(
        caps,
        jobs=jobs,
        dask=dask,
        fast_path=fast_path,
        python_work=python_work,
        threads=threads,
        in_process=in_process,
    )
    return Executor(
        kind=kind,
        jobs=jobs,
        dask=dask,
        work_while_starting=all(c.releases_gil for c in caps),
        initializer=initializer if kind == "processes" else None,
        initargs=initargs if kind == "processes" else (),
    )


def request_pool(workers: int = 4, *, name: str) -> ThreadPoolExecutor:
    """The pool that answers interactive requests (the editor widget's): ``workers``
    threads, each request a short call of the editor's API whose searches stop through
    the backends' ``interrupt()``; threads, because the requests share the editor's
    state, which a process could not.

    Raises:
        ValueError: for ``workers`` below 1.
    """
    from concurrent.futures import ThreadPoolExecutor

    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
