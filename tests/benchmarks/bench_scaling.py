"""How `sudoku verify` scales with --jobs and --dask local: throughput, speed-up, CPU, memory.

    python tests/benchmarks/bench_scaling.py --backend native --seconds 10 --dask local
        [--cores N] [--jobs-list 1,2] [--input FILE | --copies N | --lines N]
        [--repeat 3] [--settings "--jobs 1" "--dask local"] [--overhead] [--by-process]

Each setting runs the CLI in a subprocess of its own session, as a user does (interpreter
start-up and worker start-up included), on the same input, writing JSONL to a temporary
file; every run must give the same verdict counts. Columns: wall seconds (median of
``--repeat``; with ``--repeat`` above 1 the settings alternate, round after round, so that
a change in the machine's load hits them alike), puzzles per second, speed-up over the first
setting (and, with ``--repeat`` above 1, round by round: each run against the first
setting's run of the same round), CPU seconds of the whole session (the CLI, its workers,
the fork server of Dask's workers and their children: sampled every 0.05 s from /proc), the
largest resident memory of the CLI process alone and of its whole session. On a shared
machine the CPU column is the figure to compare; wall ratios only beside the load average
printed with them.

``--old TREE`` runs every setting also on another checkout (``PYTHONPATH=TREE``: a
``git worktree add /tmp/old main`` with its extension built, or ``git archive`` plus the
built ``native_backtrack/*.so``), old and new alternating. ``--idle`` measures the CPU an
idle LocalCluster burns per second (Dask's periodic work, paid by every run).

Input: ``forum-hardest-1106`` (375 hard puzzles) repeated to take about ``--seconds`` at
one job (measured first: one copy and four copies, the difference gives the cost of a copy
without start-up); ``--copies`` fixes the number instead; ``--lines N`` takes the first N
lines of the 17-clue list repeated (easy puzzles: the per-record cost of reading, writing
and moving records dominates; the 1,000,000-line memory test); ``--input`` any file.

``--by-process`` adds the session's CPU split by process: the CLI (with its threads: the
scheduler's and the client's event loop of a LocalCluster run there), the fork server of
Dask's workers, the workers, the resource tracker; the difference between ``--jobs 2``
and ``--dask local`` shows where Dask's cost goes.

``--steady`` runs every setting on the input and on its first half too: the difference
gives the steady throughput (puzzles per second once the workers run) and the fixed cost
of a run (interpreter, worker and cluster start-up, shut-down), reported apart; the
speed-up of the steady rates is what more cores buy on a long run.

``--cores N`` (default: this machine's) sets ``--jobs-list 1,N`` and N Dask workers.
Targets: on 2 cores ``--jobs 2`` >= 1.8x ``--jobs 1`` for native and pysat and
``--dask local`` >= 1.7x; on 16 cores (``--cores 16``) >= 12x. ``--overhead`` measures the
cost of one task (a Dask round trip and a process-pool task), which sets
``sudoku_model.verify.TASK_SECONDS``.

Commands used for the recorded figures (tests/benchmarks/README.md; on 16 cores add
``--cores 16``: ``--jobs 1`` and ``--jobs 16``, 16 Dask workers):

    python tests/benchmarks/bench_scaling.py --backend native --seconds 20 --dask local \
        --repeat 3 --steady
    python tests/benchmarks/bench_scaling.py --backend pysat --seconds 20 --dask local \
        --repeat 3 --steady
    python tests/benchmarks/bench_scaling.py --backend native --lines 1000000 \\
        --settings "--jobs 1" "--dask local"
    python tests/benchmarks/bench_scaling.py --backend native --copies 160 --repeat 3 \\
        --settings "--jobs 1" "--dask local --jobs 2" --old /tmp/old
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from sudoku_model.data import bundled_path

CLI = [sys.executable, "-m", "sudoku_model.cli"]


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (``[1]`` the parent,
    ``[3]`` the session, ``[11]`` and ``[12]`` user and system ticks).

    Raises:
        OSError: for a process that is gone."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rindex(")") + 2 :].split()


def _session(sid: int) -> dict[int, tuple[float, float]]:
    """``pid: (CPU seconds of the process itself, resident MB)`` for every live (or not yet
    reaped) process of session ``sid``."""
    found = {}
    page, tick = os.sysconf("SC_PAGE_SIZE"), os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = _stat(entry)
            if int(fields[3]) == sid:
                rss = int(Path(f"/proc/{entry}/statm").read_text().split()[1]) * page / 2**20
                found[int(entry)] = ((int(fields[11]) + int(fields[12])) / tick, rss)
        except (OSError, ValueError, IndexError):
            continue
    return found


class Run(NamedTuple):
    wall: float
    cpu: float
    rss: float
    tree_rss: float
    counts: dict[str, int]
    roles: dict[str, float]  # CPU seconds by role (see _role)


def _role(pid: int, sid: int) -> str:
    """What a process of the session started by the CLI (``sid``) is: ``cli``, ``fork
    server`` (a child of the CLI running multiprocessing's fork server), ``worker`` (a
    child of the fork server, or of the CLI otherwise: a pool worker or a Dask worker
    process), ``resource tracker``, or ``other``."""
    if pid == sid:
        return "cli"
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        parent = int(_stat(pid)[1])
    except (OSError, ValueError, IndexError):
        return "other"
    if "resource_tracker" in cmd:
        return "resource tracker"
    if "forkserver" in cmd and parent == sid:
        return "fork server"
    return "worker"


def run(
    source: str, backend: str, extra: list[str], out: str, env: dict[str, str] | None = None
) -> Run:
    """One run: wall, CPU of the session, RSS of the CLI and of its tree, verdict counts.

    CPU: every process of the session is sampled every 0.05 s from /proc (the fork server
    of Dask's workers and the workers are not children this process could reap), the CLI
    itself once more as a zombie, before it is reaped; the tails of the other processes
    (their last 0.05 s) escape the count."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*CLI, "verify", os.path.abspath(source), "--backend", backend, "-o", out, "-q", *extra],
        # not in a checkout: python -m puts the working directory first on sys.path
        cwd=os.path.dirname(os.path.abspath(out)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=env,
    )
    peak = [0.0]
    cpu: dict[int, float] = {}
    roles: dict[int, str] = {}
    done = threading.Event()

    def sample() -> None:
        while True:
            now = _session(proc.pid)
            for pid, (seconds, _) in now.items():
                cpu[pid] = max(cpu.get(pid, 0.0), seconds)
                if pid not in roles:
                    roles[pid] = _role(pid, proc.pid)
            peak[0] = max(peak[0], sum(rss for _, rss in now.values()))
            if done.is_set() and not now:
                return
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert proc.stderr is not None
    err = proc.stderr.read()
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)  # a zombie: its stat is final
    wall = time.perf_counter() - start
    for pid, (seconds, _) in _session(proc.pid).items():
        cpu[pid] = max(cpu.get(pid, 0.0), seconds)
    _, status, usage = os.wait4(proc.pid, 0)
    done.set()
    sampler.join(10.0)  # until the session's last process (a fork server) is gone
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"failed ({code}): {' '.join(extra)}\n{err}")
    with open(out, encoding="utf-8") as f:
        counts = Counter(map(_verdict, f))
    by_role: dict[str, float] = {}
    for pid, seconds in cpu.items():
        role = roles.get(pid, "other")
        by_role[role] = by_role.get(role, 0.0) + seconds
    return Run(
        wall,
        sum(cpu.values()),
        usage.ru_maxrss / 1024,
        peak[0],
        dict(sorted(counts.items())),
        by_role,
    )


def _verdict(line: str) -> str:
    start = line.index('"verdict":"') + 11
    return line[start : line.index('"', start)]


def hard_lines() -> list[str]:
    return [
        s
        for s in bundled_path("forum-hardest-1106").read_text().splitlines()
        if s.strip() and not s.startswith("#")
    ]


def make_input(path: str, copies: int) -> int:
    lines = hard_lines()
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write("\n".join(lines) + "\n")
    return len(lines) * copies


def make_lines(path: str, n: int) -> int:
    with gzip.open(bundled_path("17-clue"), "rt", encoding="utf-8") as f:
        lines = [s.rstrip("\n") for s in f if s.strip() and not s.startswith("#")]
    with open(path, "w", encoding="utf-8") as f:
        left = n
        while left > 0:
            part = lines[:left]
            f.write("\n".join(part) + "\n")
            left -= len(part)
    return n


def calibrate(tmp: str, backend: str, seconds: float) -> int:
    """Copies of the hard list that take about ``seconds`` with one job."""
    small, big = os.path.join(tmp, "one.txt"), os.path.join(tmp, "four.txt")
    make_input(small, 1)
    make_input(big, 4)
    out = os.path.join(tmp, "calibrate.jsonl")
    t1 = run(small, backend, ["--jobs", "1"], out).wall
    t4 = run(big, backend, ["--jobs", "1"], out).wall
    per_copy = max((t4 - t1) / 3, 1e-3)
    return max(1, round(seconds / per_copy))


def task_overhead(workers: int) -> None:
    """The cost of one task of ~2,000 short strings each way: wall per task and CPU of this
    process per task, for Dask (LocalCluster) and the process pool."""
    from sudoku_model.executor import Executor

    payload = ["x" * 100] * 2000
    for kind in ("dask", "processes"):
        ex = Executor(kind=kind, jobs=workers, dask="local" if kind == "dask" else None)
        list(ex.map(len, [payload] * (4 * workers)))  # the workers are up and warm
        ex = Executor(kind=kind, jobs=workers, dask="local" if kind == "dask" else None)
        n = 300
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in ex.map(str, (payload for _ in range(n))):
            pass
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{kind:<10} {1000 * wall / n:6.2f} ms wall/task  {1000 * cpu / n:6.2f} ms CPU/task")


def _tree_cpu(root: int) -> float:
    """CPU seconds of process ``root`` and its live descendants (their own time)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, cpu = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = _stat(entry)
            except OSError:
                continue
            parent[int(entry)] = int(fields[1])
            cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    total = 0.0
    for pid in cpu:
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        total += cpu[pid] if p == root else 0.0
    return total


def idle_cost(workers: int, seconds: float = 10.0) -> None:
    """CPU per second of an idle LocalCluster as the executor starts it (scheduler and
    nannies in this process, the workers and their fork server): what Dask's periodic
    work costs a run, whatever the run does."""
    from sudoku_model.executor import Executor

    ex = Executor(kind="dask", jobs=workers, dask="local")
    list(ex.map(abs, range(4 * workers)))  # started, handed over (and closed)
    ex = Executor(kind="dask", jobs=workers, dask="local")
    while not ex._cluster_up():  # the next task would go to the cluster
        time.sleep(0.05)
    time.sleep(1.0)
    cpu, wall = _tree_cpu(os.getpid()), time.perf_counter()
    time.sleep(seconds)
    cpu, wall = _tree_cpu(os.getpid()) - cpu, time.perf_counter() - wall
    ex.close()
    print(f"idle LocalCluster, {workers} workers: {1000 * cpu / wall:.0f} ms CPU per second")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", type=int, help="sets --jobs-list 1,N and N Dask workers")
    ap.add_argument("--jobs-list", default=None, help="comma-separated --jobs values")
    ap.add_argument("--backend", default="native")
    ap.add_argument("--input", help="puzzle file (default: the hard list repeated)")
    ap.add_argument("--seconds", type=float, default=10.0, help="target one-job run time")
    ap.add_argument("--copies", type=int, help="copies of the hard list (skips calibration)")
    ap.add_argument("--lines", type=int, help="N lines of the 17-clue list, repeated")
    ap.add_argument("--dask", help="also run with --dask ADDRESS (e.g. local)")
    ap.add_argument("--dask-workers", type=int, help="--jobs for the Dask run (workers)")
    ap.add_argument(
        "--settings", nargs="+", help='explicit settings instead, e.g. "--jobs 1" "--dask local"'
    )
    ap.add_argument("--repeat", type=int, default=1, help="rounds (median; settings alternate)")
    ap.add_argument(
        "--old",
        metavar="TREE",
        help="also run every setting on another checkout (PYTHONPATH=TREE, its extension "
        "built), alternating old and new: e.g. git worktree add /tmp/old main",
    )
    ap.add_argument("--overhead", action="store_true", help="measure the cost of one task")
    ap.add_argument(
        "--idle", action="store_true", help="measure the CPU an idle LocalCluster burns"
    )
    ap.add_argument(
        "--steady", action="store_true", help="also run on half the input: steady rate, fixed cost"
    )
    ap.add_argument(
        "--by-process",
        action="store_true",
        help="also the CPU of the session by process role (cli, fork server, workers)",
    )
    args = ap.parse_args()
    cores = args.cores or os.cpu_count() or 1
    if args.overhead:
        task_overhead(cores)
        return
    if args.idle:
        idle_cost(cores)
        return
    jobs_list = [int(j) for j in (args.jobs_list or f"1,{cores}").split(",") if j.strip()]

    with tempfile.TemporaryDirectory(prefix="bench_scaling_") as tmp:
        if args.input:
            source = args.input
            with open(source, encoding="utf-8", errors="replace") as f:
                puzzles = sum(1 for line in f if line.strip() and not line.startswith("#"))
        elif args.lines:
            source = os.path.join(tmp, "lines.txt")
            puzzles = make_lines(source, args.lines)
        else:
            copies = args.copies or calibrate(tmp, args.backend, args.seconds)
            source = os.path.join(tmp, "hard.txt")
            puzzles = make_input(source, copies)
        plain: list[tuple[str, list[str]]]
        if args.settings:
            plain = [(s, shlex.split(s)) for s in args.settings]
        else:
            plain = [(f"--jobs {j}", ["--jobs", str(j)]) for j in dict.fromkeys(jobs_list)]
            if args.dask:
                extra = ["--dask", args.dask, "--jobs", str(args.dask_workers or cores)]
                plain.append((" ".join(extra), extra))
        settings: list[tuple[str, list[str], dict[str, str] | None]] = []
        for name, extra in plain:
            if args.old:
                old_env = {**os.environ, "PYTHONPATH": os.path.abspath(args.old)}
                settings.append((f"old {name}", extra, old_env))
                settings.append((f"new {name}", extra, None))
            else:
                settings.append((name, extra, None))
        half, half_puzzles = os.path.join(tmp, "half.txt"), 0
        if args.steady:
            with open(source, encoding="utf-8") as f, open(half, "w", encoding="utf-8") as g:
                for line in f:
                    if half_puzzles >= puzzles // 2:
                        break
                    g.write(line)
                    half_puzzles += bool(line.strip()) and not line.startswith("#")
        print(
            f"backend {args.backend}, {puzzles:,} puzzles, {os.cpu_count()} cores here, "
            f"median of {args.repeat}, load average {os.getloadavg()[0]:.1f} at the start"
        )
        out = os.path.join(tmp, "out.jsonl")
        runs: dict[str, list[Run]] = {name: [] for name, _, _ in settings}
        reference = None
        halves: dict[str, list[float]] = {name: [] for name, _, _ in settings}
        for _ in range(args.repeat):
            for name, extra, env in settings:
                if args.steady:
                    halves[name].append(run(half, args.backend, extra, out, env).wall)
                r = run(source, args.backend, extra, out, env)
                runs[name].append(r)
                if reference is None:
                    reference = r.counts
                elif r.counts != reference:
                    sys.exit(f"{name}: verdicts {r.counts} differ from {reference}")
        print(
            f"{'setting':<24} {'seconds':>8} {'puzzles/s':>10} {'speed-up':>9} "
            f"{'CPU s':>7} {'RSS MB':>7} {'tree MB':>8}  (all walls)"
        )
        base = None
        for name, _, _ in settings:
            walls = [r.wall for r in runs[name]]
            wall = statistics.median(walls)
            cpu = statistics.median(r.cpu for r in runs[name])
            rss = max(r.rss for r in runs[name])
            tree = max(r.tree_rss for r in runs[name])
            rate = puzzles / wall
            base = base or rate
            print(
                f"{name:<24} {wall:8.2f} {rate:10,.0f} {rate / base:8.2f}x {cpu:7.1f} "
                f"{rss:7.0f} {tree:8.0f}  ({', '.join(f'{w:.2f}' for w in walls)})"
            )
        if args.repeat > 1:
            # each round against the first setting's run of the same round: a drift of the
            # machine's speed between rounds (this VM's vCPUs drift by 10-20%) cancels out
            print("speed-up round by round (against the first setting in the same round):")
            first = runs[settings[0][0]]
            for name, _, _ in settings[1:]:
                ratios = [f.wall / r.wall for f, r in zip(first, runs[name], strict=True)]
                print(
                    f"{name:<24} median {statistics.median(ratios):.2f}x  "
                    f"({', '.join(f'{x:.2f}' for x in ratios)})"
                )
        if args.by_process:
            print("CPU seconds by process (median of the rounds; the CLI with its threads):")
            names = ["cli", "fork server", "worker", "resource tracker", "other"]
            print(f"{'setting':<24} " + " ".join(f"{n:>16}" for n in names))
            for name, _, _ in settings:
                cells = [statistics.median(r.roles.get(n, 0.0) for r in runs[name]) for n in names]
                print(f"{name:<24} " + " ".join(f"{c:16.2f}" for c in cells))
        if args.steady:
            print(f"steady ({puzzles - half_puzzles:,} puzzles more than the half input):")
            print(f"{'setting':<24} {'puzzles/s':>10} {'speed-up':>9} {'fixed s':>8}")
            base = None
            for name, _, _ in settings:
                full = statistics.median(r.wall for r in runs[name])
                part = statistics.median(halves[name])
                rate = (puzzles - half_puzzles) / max(full - part, 1e-9)
                base = base or rate
                fixed = full - puzzles / rate
                print(f"{name:<24} {rate:10,.0f} {rate / base:8.2f}x {fixed:8.2f}")
        load = os.getloadavg()[0]
        print(f"verdicts: {json.dumps(reference)}; load average {load:.1f} at the end")


if __name__ == "__main__":
    main()
