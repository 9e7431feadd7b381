"""Benchmark certificates: certify and check a sample of the 17-clue list on
``--jobs`` processes and extrapolate to the whole list; sizes per puzzle (plain and gzip);
check time per puzzle for 9x9, 16x16 and 25x25 with each checker (the native C checker,
the default, and dratify); where the check's time goes.

    python tests/benchmarks/bench_certificates.py [--sample 2000] [--jobs 2]
        [--skip-large] [--python-sample 200] [--checkers native,dratify]

Each collection is certified once; every checker then checks the same directory, the
checkers in alternation (native, dratify, native, dratify ... ``--rounds`` times) so that a
change of the machine's load hits them alike; the figure kept per checker is its median.

CPU times are summed over this process and its worker processes (``resource.getrusage``
of the children, read after the pool is joined), so they do not depend on what else runs on
a shared machine; wall times do, and are printed beside them. The whole list is 49,158
puzzles: the figures for it are the sample's per-puzzle CPU time times 49,158, divided by
the number of jobs (the work is embarrassingly parallel), and say so.
"""

from __future__ import annotations

import argparse
import gzip
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sudoku_model.certificates import certify_records, check_certificates, load_manifest
from sudoku_model.data import bundled_path
from sudoku_model.formats import Record, iter_records

WHOLE_LIST = 49_158
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measured(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, wall seconds, CPU seconds of this process and its reaped children)."""
    c0, w0 = cpu(), time.perf_counter()
    result = fn()
    return result, time.perf_counter() - w0, cpu() - c0


def sizes(root: Path) -> tuple[float, float, float, int]:
    """Per proved puzzle: plain bytes, gzip bytes (cnf + proof, each file gzipped), gzip
    bytes of the manifest; and the bytes of the shared rules files (gzipped)."""
    _, manifest = load_manifest(root)
    plain = packed = 0
    proved = 0
    for entry in manifest["puzzles"]:
        files = entry.get("files")
        if not files:
            continue
        proved += 1
        for info in files.values():
            data = (root / info["path"]).read_bytes()
            plain += len(data)
            packed += len(gzip.compress(data))
    shared = sum(len(gzip.compress((root / name).read_bytes())) for name in manifest["rules_files"])
    manifest_gz = len(gzip.compress((root / "manifest.json").read_bytes()))
    n = max(proved, 1)
    return plain / n, packed / n, manifest_gz / max(len(manifest["puzzles"]), 1), shared


def run(
    label: str,
    recs: list[Record],
    jobs: int,
    checkers: tuple[str, ...] = ("native", "dratify"),
    rounds: int = 1,
) -> dict[str, Any]:
    """Certify ``recs`` once, check the directory with each checker (``rounds`` times, in
    alternation); CPU figures per puzzle, the median over the rounds."""
    tmp = Path(tempfile.mkdtemp(prefix="bench_cert_"))
    out = tmp / "c"
    certifier, cw, cc = measured(lambda: certify_records(recs, out, jobs=jobs))
    n = len(recs)
    plain, packed, manifest_gz, shared = sizes(out)
    row: dict[str, Any] = {
        "label": label,
        "n": n,
        "counts": certifier.counts,
        "certify_cpu_ms": 1000 * cc / n,
        "certify_wall_s": cw,
        "plain_bytes": plain,
        "gzip_bytes": packed,
        "manifest_gzip_bytes": manifest_gz,
        "rules_gzip_bytes": shared,
        "check": {},
    }
    print(
        f"{label}: {n:,} puzzles {certifier.counts}, jobs {jobs}\n"
        f"  certify: {row['certify_cpu_ms']:.2f} ms CPU per puzzle (wall {cw:.1f} s)\n"
        f"  size per proved puzzle: {plain:,.0f} bytes plain, {packed:,.0f} bytes gzip "
        f"(cnf + proof), manifest {manifest_gz:,.0f} bytes gzip per puzzle; shared rules "
        f"CNF {shared:,} bytes gzip once",
        flush=True,
    )
    samples: dict[str, list[tuple[float, float, float]]] = {c: [] for c in checkers}
    for _ in range(rounds):
        for checker in checkers:
            checks, kw, kc = measured(
                lambda checker=checker: list(check_certificates(out, checker=checker, jobs=jobs))
            )
            invalid = [c.reason for c in checks if not c.valid]
            if invalid:
                sys.exit(f"{label}: {len(invalid)} certificates not valid, e.g. {invalid[0]}")
            median = statistics.median(c.seconds for c in checks)
            samples[checker].append((1000 * kc / n, 1000 * median, kw))
    for checker, got in samples.items():
        cpu_ms = statistics.median(g[0] for g in got)
        median_ms = statistics.median(g[1] for g in got)
        wall = statistics.median(g[2] for g in got)
        row["check"][checker] = {"cpu_ms": cpu_ms, "median_ms": median_ms, "wall_s": wall}
        print(
            f"  check ({checker}): {cpu_ms:.2f} ms CPU per puzzle, median of the in-worker "
            f"checks {median_ms:.2f} ms (wall {wall:.1f} s; median of {len(got)} rounds)",
            flush=True,
        )
    shutil.rmtree(tmp, ignore_errors=True)
    return row


def puzzle_25(seed: int, clues: int) -> Record:
    """A unique 25x25 puzzle: a random full grid, cells emptied in a random order while the
    native backend says the puzzle stays unique, down to ``clues`` (not minimal)."""
    from sudoku_model import Budget, Puzzle, RuleSet, Shape, get_backend
    from sudoku_model.grid import Grid

    rng = random.Random(seed)
    rules = RuleSet.classic(Shape(5, 5))
    native = get_backend("native")
    grid = native.random_solution(rules, rng)
    assert grid is not None
    values = list(grid.values)
    cells = list(range(625))
    rng.shuffle(cells)
    for c in cells:
        if sum(1 for v in values if v) <= clues:
            break
        digit, values[c] = values[c], 0
        puzzle = Puzzle(Grid(rules.shape, values), rules)
        if native.check_unique(puzzle, budget=Budget(seconds=5)).kind.value != "unique":
            values[c] = digit
    puzzle = Puzzle(Grid(rules.shape, values), rules)
    return Record("<generated 25x25>", 1, puzzle.givens.to_line(), puzzle, position=0)


def where_time_goes(recs: list[Record]) -> None:
    """One 9x9 check taken apart: what dratify spends per puzzle, by engine, and the
    native checker's call (its rules loaded once, before)."""
    import dratify

    from sudoku_model import certcnf
    from sudoku_model.drat import DratChecker
    from sudoku_model.solving import get_backend

    backend = get_backend("pysat")
    certs = [backend.certificate(r.puzzle.rules, r.puzzle.givens) for r in recs if r.puzzle]
    rules = certcnf.rule_clauses(certs[0].puzzle.rules)
    internal = [tuple(map(dratify.from_dimacs, c)) for c in rules]
    t: dict[str, float] = {"formula": 0.0, "python init": 0.0, "python steps": 0.0}
    t["rust (whole call)"] = 0.0
    t["native (whole call)"] = 0.0
    native = DratChecker(729, rules)
    for cert in certs:
        c0 = time.process_time()
        formula = dratify.CNF(729)
        formula.clauses = internal + [
            tuple(map(dratify.from_dimacs, c)) for c in cert.puzzle_clauses
        ]
        steps = dratify.parse_proof(cert.proof or "")
        c1 = time.process_time()
        checker = dratify.DRATChecker(formula)
        c2 = time.process_time()
        assert checker.check(steps).ok
        c3 = time.process_time()
        if dratify.native_available():
            assert dratify.check_proof(formula, steps, engine="native").ok
        c4 = time.process_time()
        assert native.check(cert.puzzle_clauses, (cert.proof or "").encode()).valid
        c5 = time.process_time()
        t["native (whole call)"] += c5 - c4
        t["formula"] += c1 - c0
        t["python init"] += c2 - c1
        t["python steps"] += c3 - c2
        t["rust (whole call)"] += c4 - c3
    n = len(certs)
    steps_per = statistics.mean(len((c.proof or "").splitlines()) for c in certs)
    print(
        f"where a 9x9 check goes ({n} puzzles, {len(rules):,} rule clauses, "
        f"{steps_per:.0f} proof lines on average), ms CPU per puzzle: "
        + ", ".join(f"{k} {1000 * v / n:.2f}" for k, v in t.items()),
        flush=True,
    )


def native_split(label: str, recs: list[Record]) -> None:
    """The native checker's cost taken apart: rebuilding the rules with the independent
    encoder and loading them into the checker (once per rule set), then each check."""
    from sudoku_model import certcnf
    from sudoku_model.drat import DratChecker
    from sudoku_model.solving import get_backend

    backend = get_backend("pysat")
    certs = [backend.certificate(r.puzzle.rules, r.puzzle.givens) for r in recs if r.puzzle]
    rules_of = certs[0].puzzle.rules
    c0 = time.process_time()
    rules = certcnf.rule_clauses(rules_of)
    c1 = time.process_time()
    checker = DratChecker(rules_of.shape.size**3, rules)
    c2 = time.process_time()
    results = [checker.check(c.puzzle_clauses, (c.proof or "").encode()) for c in certs]
    c3 = time.process_time()
    assert all(r.valid for r in results)
    print(
        f"  native checker, {label}: {len(rules):,} rule clauses, encoded in "
        f"{1000 * (c1 - c0):.0f} ms and loaded in {1000 * (c2 - c1):.0f} ms once; then "
        f"{1000 * (c3 - c2) / len(certs):.2f} ms CPU per check "
        f"({statistics.mean(r.lemmas for r in results):.0f} lemmas on average)",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=2000, help="17-clue puzzles (evenly spread)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--python-sample", type=int, default=200, help="also check with dratify-python")
    ap.add_argument("--skip-large", action="store_true", help="no 16x16 / 25x25")
    ap.add_argument("--checkers", default="native,dratify", help="comma list, the first is used")
    ap.add_argument("--rounds", type=int, default=3, help="checks per checker, alternated")
    opts = ap.parse_args()
    checkers = tuple(c.strip() for c in opts.checkers.split(",") if c.strip())
    first = checkers[0]

    import dratify

    from sudoku_model.certificates import _dratify_engine

    _dratify_engine("dratify")
    print(f"dratify {dratify.__version__}, Rust engine: {dratify.native_available()}")
    everything = list(iter_records(bundled_path("17-clue")))
    step = max(1, len(everything) // opts.sample)
    sample = everything[::step][: opts.sample]
    # CPU per puzzle from a one-job run (its worker thread is this process; worker
    # processes are children of the fork server, which getrusage does not see), then the
    # same sample on --jobs processes for the wall time.
    row = run("17-clue sample", sample, 1, checkers, opts.rounds)
    for checker in checkers:
        check_ms = row["check"][checker]["cpu_ms"]
        per_puzzle = row["certify_cpu_ms"] + check_ms
        whole = per_puzzle * WHOLE_LIST / 1000 / opts.jobs
        print(
            f"  extrapolated to the whole list ({WHOLE_LIST:,}) with {checker}: "
            f"{per_puzzle:.1f} ms CPU per puzzle x {WHOLE_LIST:,} / {opts.jobs} jobs = "
            f"{whole / 60:.1f} min (certify "
            f"{row['certify_cpu_ms'] * WHOLE_LIST / 1000 / opts.jobs / 60:.1f} + check "
            f"{check_ms * WHOLE_LIST / 1000 / opts.jobs / 60:.1f}); "
            f"{(row['gzip_bytes'] + row['manifest_gzip_bytes']) * WHOLE_LIST / 2**20:.0f} MiB gzip",
            flush=True,
        )
    if opts.jobs > 1:
        par = run(f"17-clue sample, {opts.jobs} jobs (wall time only)", sample, opts.jobs, (first,))
        wall = par["certify_wall_s"] + par["check"][first]["wall_s"]
        print(
            f"  wall {wall:.1f} s for {len(sample):,} ({first}): "
            f"{wall * WHOLE_LIST / len(sample) / 60:.1f} min for the whole list at this "
            "machine's current load",
            flush=True,
        )
    if opts.python_sample:
        small = sample[: opts.python_sample]
        where_time_goes(small[:50])
        run("17-clue, pure-Python checker", small, 1, ("dratify-python",))
    if opts.skip_large:
        return
    path16 = SHARED / "16x16-100.csv"
    if path16.exists():
        recs16 = list(iter_records(path16))[:10]
        run("16x16 (shared 16x16-100.csv, first 10)", recs16, 1, checkers, opts.rounds)
        native_split("16x16", recs16)
    rec25 = puzzle_25(7, 400)
    run("25x25 (generated, 400 clues)", [rec25], 1, checkers, opts.rounds)
    native_split("25x25", [rec25])


if __name__ == "__main__":
    main()
