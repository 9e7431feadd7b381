"""``sudoku dataset build`` and ``sudoku dataset check``: research data sets with labels
and splits that no equivalence class crosses (:mod:`sudoku_model.dataset`)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from typing import Any

from .common import (
    EXIT_NO,
    EXIT_OK,
    CliError,
    Outcome,
    add_budget_options,
    add_input_options,
    budget_from,
    get_backend_or_exit,
    iter_inputs,
    prefetch,
    refuse_output_over_inputs,
)

#: Problems printed per reason by ``dataset check`` (the count of the rest follows).
SHOWN_PER_REASON = 10


def register(sub: argparse._SubParsersAction) -> None:
    from ..mlformats import LAYOUTS

    p = sub.add_parser(
        "dataset",
        help="build or check a labelled research data set with train/validation/test splits",
        description="Build a data set of labelled puzzles (solution, clues, level, backtrack "
        "count, canonical form) in train/validation/test splits that no equivalence class "
        "crosses, or check one.",
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    b = verbs.add_parser(
        "build",
        help="generate or read puzzles, label them, split them and write the data set",
        description="Generate (-n N, optionally --unbiased) or read (--from FILE) puzzles, "
        "label them, split them by equivalence class and write DIR: one file per split in "
        "the chosen layout, one labels file per split, manifest.json. Puzzles that are not "
        "unique or whose published solution is wrong are dropped and counted in the "
        "manifest. Exit 0; 2 on bad options or malformed input records (reported as "
        "file:line:col; the data set is still written without them).",
    )
    b.add_argument("directory", metavar="DIR", help="output directory (created)")
    b.add_argument("-n", "--count", type=int, metavar="N", help="puzzles to generate (or read)")
    b.add_argument(
        "--unbiased",
        action="store_true",
        help="generate with the unbiased sampler (weighted puzzles: a log_weight label)",
    )
    b.add_argument(
        "--from",
        dest="inputs",
        action="append",
        default=[],
        metavar="FILE",
        help="read puzzles from FILE (repeatable) instead of generating",
    )
    b.add_argument("--seed", type=int, help="seed of the whole build (default: random, printed)")
    b.add_argument(
        "--layout",
        default="quiz-answer",
        choices=list(LAYOUTS),
        help="ML layout of the split files (default quiz-answer)",
    )
    b.add_argument(
        "--split",
        default="0.8,0.1,0.1",
        metavar="TRAIN,VALIDATION,TEST",
        help="split ratios (default 0.8,0.1,0.1; a 0 leaves that split out)",
    )
    b.add_argument(
        "--stratify",
        default="none",
        choices=["none", "clues", "level"],
        help="split each clue count (or level) in the ratios (default none)",
    )
    b.add_argument(
        "--no-levels", action="store_true", help="skip the logic grader (no level labels)"
    )
    b.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="worker processes")
    b.add_argument(
        "--backend",
        default="native",
        metavar="NAME",
        help="backend answering uniqueness (default native; the guesses label is always native's)",
    )
    b.add_argument("--overwrite", action="store_true", help="write into a non-empty DIR")
    b.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    add_input_options(b)
    add_budget_options(b)
    b.set_defaults(func=run_build)

    c = verbs.add_parser(
        "check",
        help="verify a data set: answers unique and right, labels, splits, hashes",
        description="Check DIR: every file's sha256 against the manifest, every answer is "
        "the unique solution, the labels agree (clues, guesses recomputed, canonical form, "
        "with --levels the level), no equivalence class crosses splits. Exit 0 when it "
        "passes, 1 with the reasons when it does not, 2 for malformed files "
        "(file:line:col).",
    )
    c.add_argument("directory", metavar="DIR")
    c.add_argument("--levels", action="store_true", help="grade again and compare the levels")
    c.add_argument(
        "--backend", default="native", metavar="NAME", help="backend answering uniqueness"
    )
    add_budget_options(c)
    c.set_defaults(func=run_check)
    p.set_defaults(func=lambda args: _usage(p))


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_usage(sys.stderr)
    print("sudoku dataset: name a verb: build or check", file=sys.stderr)
    return 2


def _ratios(text: str) -> tuple[float, float, float]:
    try:
        parts = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise CliError(f"--split wants three numbers like 0.8,0.1,0.1, got {text!r}") from None
    if len(parts) != 3 or any(not 0 <= x <= 1 for x in parts) or abs(sum(parts) - 1) > 1e-9:
        raise CliError(f"--split wants three ratios in 0..1 that sum to 1, got {text!r}")
    if parts[0] <= 0:
        raise CliError("--split: the train ratio must be positive")
    return parts[0], parts[1], parts[2]


def run_build(args: argparse.Namespace) -> int:
    from ..dataset import SPLITS, Candidate, build_dataset, derived_seed, labelled_puzzles
    from ..executor import Interrupted, stop_on_signals

    ratios = _ratios(args.split)
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, got {args.jobs}")
    if args.count is not None and args.count < 0:
        raise CliError(f"--count must be non-negative, got {args.count}")
    if args.inputs and args.unbiased:
        raise CliError("--unbiased generates: it does not combine with --from")
    if not args.inputs and args.count is None:
        raise CliError("say what to put in the data set: -n N (generate) or --from FILE")
    if os.path.exists(args.directory):
        if not os.path.isdir(args.directory):
            raise CliError(f"{args.directory}: exists and is not a directory")
        if os.listdir(args.directory) and not args.overwrite:
            raise CliError(f"{args.directory}: not empty (--overwrite to write into it)")
    else:
        parent = os.path.dirname(os.path.abspath(args.directory))
        if not os.path.isdir(parent):
            raise CliError(f"{args.directory}: cannot create: {parent} does not exist")
        if not os.access(parent, os.W_OK):
            raise CliError(f"{args.directory}: cannot create: {parent} is not writable")
    refuse_output_over_inputs(args.directory, args.inputs, directory=True)
    get_backend_or_exit(args.backend)
    budget = budget_from(args)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big") >> 1
    if args.seed is None and not args.quiet:
        print(f"seed: {seed}", file=sys.stderr)
    seeds = {k: derived_seed(seed, k) for k in ("generate", "split", "guesses")}
    outcome = Outcome()
    source: dict[str, Any]
    if args.inputs:
        # every input opened (and its first record read) before any work
        streams = [prefetch(iter_inputs(name, args)) for name in args.inputs]

        def read() -> Iterator[Candidate]:
            taken = 0
            for name, records in zip(args.inputs, streams):
                origin = os.path.basename(name) if not name.startswith("bundled:") else name
                for rec in records:
                    if args.count is not None and taken >= args.count:
                        return
                    if rec.error is not None:
                        outcome.malformed(rec.error)
                        continue
                    taken += 1
                    yield Candidate(
                        rec.puzzle, rec.solution, None, origin, f"{rec.source}:{rec.line}"
                    )

        made: Any = labelled_puzzles(
            read(),
            guess_seed=seeds["guesses"],
            backend=args.backend,
            budget=budget,
            levels=not args.no_levels,
            jobs=args.jobs,
        )
        source = {"kind": "files", "files": list(args.inputs), "count": args.count}
    else:
        kind = "unbiased" if args.unbiased else "generate"
        made = labelled_puzzles(
            kind,
            count=args.count,
            make_seed=seeds["generate"],
            guess_seed=seeds["guesses"],
            backend=args.backend,
            budget=budget,
            levels=not args.no_levels,
            jobs=args.jobs,
        )
        source = {"kind": kind, "count": args.count}
    start = time.perf_counter()
    try:
        with stop_on_signals(linger=True):
            labelled = list(made)
    except Interrupted as exc:
        print("sudoku dataset build: interrupted; nothing written", file=sys.stderr)
        return exc.exit_code
    seconds = time.perf_counter() - start
    manifest = build_dataset(
        args.directory,
        labelled,
        layout=args.layout,
        ratios=ratios,
        seed=seed,
        seeds=seeds,
        stratify=args.stratify,
        source=source,
    )
    if not args.quiet:
        counts = ", ".join(
            f"{name} {manifest['splits'][name]['count']}"
            for name in SPLITS
            if name in manifest["splits"]
        )
        dropped = manifest["dropped"]
        note = "; dropped " + ", ".join(f"{k} {v}" for k, v in dropped.items()) if dropped else ""
        print(
            f"wrote {args.directory}: {manifest['count']} puzzles ({counts}) in {seconds:.1f} s"
            f"{note}",
            file=sys.stderr,
        )
    return outcome.code


def run_check(args: argparse.Namespace) -> int:
    from ..dataset import check_dataset

    if not os.path.isdir(args.directory):
        raise CliError(f"{args.directory}: no such directory")
    get_backend_or_exit(args.backend)
    budget = budget_from(args)
    try:
        report = check_dataset(
            args.directory, backend=args.backend, budget=budget, levels=args.levels
        )
    except FileNotFoundError as exc:
        raise CliError(f"{exc.filename}: {exc.strerror}") from None
    for error in report.malformed:
        print(str(error), file=sys.stderr)
    if report.malformed:
        print(
            f"sudoku dataset check: {len(report.malformed)} malformed records: not checked",
            file=sys.stderr,
        )
        return 2
    shown: dict[str, int] = {}
    for problem in report.problems:
        shown[problem.reason] = shown.get(problem.reason, 0) + 1
        if shown[problem.reason] <= SHOWN_PER_REASON:
            print(f"{problem.where}: {problem.reason}: {problem.detail}")
    total = sum(report.counts.values())
    splits = ", ".join(f"{k} {v}" for k, v in report.counts.items())
    if report.problems:
        reasons = ", ".join(f"{k} {v}" for k, v in report.reasons().items())
        print(f"FAILED: {args.directory}: {reasons} ({total} puzzles: {splits})")
        return EXIT_NO
    print(f"ok: {args.directory}: {total} puzzles ({splits}), every check passed")
    return EXIT_OK
