"""`sudoku verify FILE --backend native -o out.jsonl` end to end against a tdoku anchor.

    python tests/benchmarks/bench_verify_e2e.py [--tdoku /path/to/libtdoku_shared.so]
        [--puzzles /work/shared/data/17-clue.txt] [--rounds 5] [--seed 1] [--old]
        [--python LABEL=PYTHON ...]

Every contender is a subprocess that reads the same file and writes its answers to a file:
- ``ours j1`` / ``ours j2``: ``python -m sudoku_model.cli verify FILE --backend native
  -o OUT -q --jobs 1|2`` (interpreter start-up included: it is part of end to end;
  bytecode compiled once, as an installed package has it: a warm-up run of each
  contender comes first);
- ``old j1`` (with ``--old``): the same with the bulk path switched off (the general path
  of before the bulk path), for old-vs-new;
- ``LABEL j1`` / ``LABEL j2`` / ``LABEL start-up`` (with ``--python LABEL=PYTHON``,
  repeatable): the same commands
  run by another interpreter, e.g. the venv of another checkout or of a non-editable
  install (``pip install .``), for old-vs-new or editable-vs-installed in one run;
- ``tdoku``: a small C program of ours (below, compiled with ``cc`` into a temporary
  folder and linked against the library given by ``--tdoku``) that reads the file, asks
  TdokuSolverDpllTriadSimd for up to 2 solutions per puzzle and writes one line per
  puzzle (the puzzle and its count);
- ``ours start-up``: ours on a file of one puzzle (the fixed cost inside every figure).
The puzzles are random symmetry transformations of the list (seeded: rows within bands,
bands, columns within stacks, stacks, transposition, digits), written once to a plain
81-character-a-line file. Runs are interleaved (every round runs each contender once, in
a shuffled order). Figures: the median CPU time (user + system, from wait4) of the child,
and its median wall time; ratios against tdoku. On a busy machine wall time is noisy; CPU
time is what one core costs; ``--jobs 2`` is judged by wall time on two free cores.
Without ``--tdoku`` only our figures are shown.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HARNESS = r"""
#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

int main(int argc, char **argv)
{
    if (argc != 3) return 2;
    FILE *in = fopen(argv[1], "r"), *out = fopen(argv[2], "w");
    if (!in || !out) return 2;
    char line[4096], solution[82];
    while (fgets(line, sizeof line, in)) {
        size_t len = strcspn(line, "\r\n");
        if (len != 81) continue;
        line[81] = '\n';
        size_t guesses = 0;
        size_t count = TdokuSolverDpllTriadSimd(line, 2, 0, solution, &guesses);
        fprintf(out, "%.81s:%zu\n", line, count);
    }
    fclose(in);
    return fclose(out) ? 1 : 0;
}
"""


def transformed(lines: list[str], rng: random.Random) -> list[str]:
    """Each puzzle under a random validity-preserving symmetry of the 9x9 grid."""
    out = []
    for line in lines:
        bands = rng.sample(range(3), 3)
        rows = [3 * b + r for b in bands for r in rng.sample(range(3), 3)]
        stacks = rng.sample(range(3), 3)
        cols = [3 * s + c for s in stacks for c in rng.sample(range(3), 3)]
        digits = [0, *rng.sample(range(1, 10), 9)]
        transpose = rng.random() < 0.5
        cells = []
        for r in rows:
            for c in cols:
                ch = line[9 * c + r] if transpose else line[9 * r + c]
                cells.append("." if ch in ".0" else str(digits[int(ch)]))
        out.append("".join(cells))
    return out


#: The children may write and read compiled bytecode, as an installed package has it
#: (with PYTHONDONTWRITEBYTECODE set, every start would compile our sources again: ~0.1 s).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str], cwd: str) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds); exits on a failure. Children run in
    ``cwd`` (a scratch folder): run from a checkout, ``python -m`` would import the
    checkout's sources instead of those installed for the interpreter."""
    if "-o" in cmd:  # a fresh output each time: verify refuses to overwrite records
        with contextlib.suppress(FileNotFoundError):
            os.remove(cmd[cmd.index("-o") + 1])
    start = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, cwd=cwd
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{err.decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime, wall


OLD = (
    "import sys; import sudoku_model.verify as v; "
    'getattr(v, "bulk", v)._bulk_backend = lambda *a, **k: None; '
    "from sudoku_model.cli import run; sys.argv[0] = 'sudoku'; sys.exit(run())"
)


def _load() -> str:
    """The 1, 5 and 15 minute load averages (timings on a busy machine say so)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tdoku", help="path of libtdoku_shared.so (optional)")
    ap.add_argument("--puzzles", default="/work/shared/data/17-clue.txt")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument(
        "--only",
        metavar="WORD",
        help="time only the contenders whose name holds WORD (e.g. start-up), and tdoku",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--old", action="store_true", help="also time the general path (the bulk path switched off)"
    )
    ap.add_argument(
        "--python",
        action="append",
        default=[],
        metavar="LABEL=PYTHON",
        help="also time verify run by this interpreter (another checkout's venv, a "
        "non-editable install); repeatable",
    )
    opts = ap.parse_args()
    if not os.path.exists(opts.puzzles):
        sys.exit(f"{opts.puzzles}: no such file (give --puzzles)")
    with open(opts.puzzles) as f:
        lines = [s.strip() for s in f if len(s.strip()) == 81 and not s.startswith("#")]
    tmp = tempfile.mkdtemp(prefix="bench_verify_e2e_")
    try:
        puzzles = os.path.join(tmp, "puzzles.txt")
        with open(puzzles, "w") as f:
            f.write("\n".join(transformed(lines, random.Random(opts.seed))) + "\n")
        one = os.path.join(tmp, "one.txt")
        with open(one, "w") as f:
            f.write(lines[0] + "\n")
        out = os.path.join(tmp, "out")
        cli = [sys.executable, "-m", "sudoku_model.cli", "verify"]
        tail = ["--backend", "native", "-o", out, "-q"]
        contenders: dict[str, list[str]] = {
            "ours j1": [*cli, puzzles, *tail, "--jobs", "1"],
            "ours j2": [*cli, puzzles, *tail, "--jobs", "2"],
            "ours start-up": [*cli, one, *tail],
        }
        if opts.old:
            contenders["old j1"] = [sys.executable, "-c", OLD, "verify", puzzles, *tail]
        for spec in opts.python:
            label, sep, python = spec.partition("=")
            if not sep or not label or not python:
                sys.exit(f"--python {spec!r}: give LABEL=PYTHON")
            other = [python, "-m", "sudoku_model.cli", "verify"]
            contenders[f"{label} j1"] = [*other, puzzles, *tail, "--jobs", "1"]
            contenders[f"{label} j2"] = [*other, puzzles, *tail, "--jobs", "2"]
            contenders[f"{label} start-up"] = [*other, one, *tail]
        if opts.tdoku:
            lib = os.path.abspath(opts.tdoku)
            src = os.path.join(tmp, "harness.c")
            exe = os.path.join(tmp, "harness")
            with open(src, "w") as f:
                f.write(HARNESS)
            cc = os.environ.get("CC", "cc")
            subprocess.run(
                [cc, "-O2", "-o", exe, src, lib, f"-Wl,-rpath,{os.path.dirname(lib)}"],
                check=True,
            )
            contenders["tdoku"] = [exe, puzzles, out]
        if opts.only:
            contenders = {k: c for k, c in contenders.items() if opts.only in k or k == "tdoku"}
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in contenders}
        load0 = _load()
        for cmd in contenders.values():  # warm-up: bytecode written, files in the page cache
            run(cmd, tmp)
        rng = random.Random(opts.seed)
        for _ in range(opts.rounds):
            order = list(contenders)
            rng.shuffle(order)
            for name in order:
                times[name].append(run(contenders[name], tmp))
        print(f"{len(lines):,} puzzles of {opts.puzzles}, transformed (seed {opts.seed}); ")
        print(f"median of {opts.rounds} interleaved runs; CPU = user + system of the child")
        anchor = times.get("tdoku")
        cpu0 = statistics.median(c for c, _ in anchor) if anchor else None
        wall0 = statistics.median(w for _, w in anchor) if anchor else None
        for name, runs in times.items():
            cpu = statistics.median(c for c, _ in runs)
            wall = statistics.median(w for _, w in runs)
            row = f"{name:<16} CPU {cpu:6.3f} s  wall {wall:6.3f} s"
            if cpu0 and wall0:
                row += f"   CPU {cpu / cpu0:5.2f}x tdoku  wall {wall / wall0:5.2f}x tdoku"
            print(row, flush=True)
        print(f"load average before / after: {load0} / {_load()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
