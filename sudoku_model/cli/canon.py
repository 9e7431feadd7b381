"""``sudoku canon``, ``sudoku dedup`` and ``sudoku same``: canonical forms (minlex) and
isomorph detection (see :mod:`sudoku_model.canon`)."""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any

from .common import (
    EXIT_NO,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    add_backend_option,
    add_budget_options,
    add_input_options,
    budget_from,
    check_output_path,
    get_backend_or_exit,
    iter_inputs,
    open_output,
    refuse_output_over_inputs,
)

DEDUP_HELP = """\
Group equivalent puzzles across FILEs (equivalent: one becomes the other by transposing,
permuting bands, rows in a band, stacks, columns in a stack, and relabelling digits).
Streams: memory grows with the number of classes (one compact key each), never with the
number of lines.

Outputs:
  -o OUT        one representative per class, the first member met, written as a puzzle
                line (in the alphabet it was read in) the moment it is first seen.
  --report REP  one line per puzzle read, in input order, tab-separated:
                  CLASS <TAB> SOURCE:LINE <TAB> KIND
                CLASS numbers the classes 1, 2, 3 ... in order of first appearance; KIND is
                "first" for the representative and "duplicate" for every later member.
                `sort -s -n -k1,1 REP` lists each class with its members together.
                A puzzle whose canonical form was not found within the budget (large,
                sparse grids) is written to OUT as well and reported as
                  ? <TAB> SOURCE:LINE <TAB> unknown
  stderr        a summary: puzzles read, classes, duplicates, malformed records.

Exit 0; 1 when some puzzle was left undecided by the budget; 2 when a record is malformed
(reported as file:line:col, the others still processed) or a puzzle has variant rules.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "canon",
        help="canonical form (minlex) of each puzzle, with its automorphism count",
        description="Print, for each puzzle of PUZZLE|FILE|bundled:NAME|-, its canonical form "
        "(the lexicographically smallest line over transposition, band, row, stack and column "
        "permutations, digits relabelled in order of first appearance, blank smallest) and "
        "the number of automorphisms: `CANONICAL COUNT`. With --grid, the canonical form "
        "of the puzzle's solution instead (a puzzle without exactly one solution prints its "
        "verdict and makes the exit code 1). A puzzle whose canonical form is not found within "
        "the budget (large sparse grids) prints `unknown` and makes the exit code 1.",
    )
    p.add_argument("input", metavar="PUZZLE|FILE")
    p.add_argument("--grid", action="store_true", help="canonicalise the unique solution")
    p.add_argument("-o", "--output", default="-", metavar="OUT", help="output file (default -)")
    add_backend_option(p)
    add_budget_options(p)
    add_input_options(p)
    p.set_defaults(func=run_canon)

    p = sub.add_parser(
        "dedup",
        help="group equivalent puzzles across files, one representative per class",
        description=DEDUP_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("inputs", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", default="-", metavar="OUT", help="representatives")
    p.add_argument("--report", metavar="REP", help="class of every puzzle (see above)")
    add_budget_options(p)
    add_input_options(p)
    p.set_defaults(func=run_dedup)

    p = sub.add_parser(
        "same",
        help="are two puzzles equivalent, and by which transformation",
        description="Say whether A and B (puzzles, or files holding one puzzle each) are "
        "equivalent, and print a transformation that maps A onto B: transpose first, then "
        "output row i is input row rows[i], column j is column cols[j], digits relabelled. "
        "Exit 0 when they are, 1 when they are not (or when the budget ran out first).",
    )
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    add_budget_options(p)
    add_input_options(p)
    p.set_defaults(func=run_same)


def _refuse_variants(args: argparse.Namespace) -> None:
    if getattr(args, "variant", None):
        raise CliError(
            "canonical forms are defined for classic rules only: --variant "
            f"{','.join(args.variant)} has a smaller symmetry group"
        )


def _write(out: IO[str], text: str, name: str) -> None:
    try:
        out.write(text)
    except BrokenPipeError:
        raise  # the reader left (`| head`): main() exits quietly
    except OSError as exc:
        raise CliError(f"{name}: cannot write: {exc.strerror or exc}") from None


def _close(out: IO[Any], name: str) -> None:
    try:
        if out is sys.stdout:
            out.flush()
        else:
            out.close()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise CliError(f"{name}: cannot write: {exc.strerror or exc}") from None


def run_canon(args: argparse.Namespace) -> int:
    from ..canon import CanonBudgetError, CanonVariantError, canonical
    from ..canon_candidates import canonical_candidates
    from ..puzzle import Puzzle

    _refuse_variants(args)
    budget = budget_from(args)
    backend = get_backend_or_exit(args.backend) if args.grid else None
    refuse_output_over_inputs(args.output, [args.input])
    out = open_output(args.output)
    code = EXIT_OK
    try:
        for rec in iter_inputs(args.input, args):
            if rec.error is not None:
                print(str(rec.error), file=sys.stderr)
                code = EXIT_USAGE
                continue
            target = rec.puzzle
            if backend is not None:
                verdict = backend.check_unique(rec.puzzle, budget=budget)
                if verdict.solution is None or str(verdict.kind) != "unique":
                    _write(out, f"{verdict.kind}\n", args.output)
                    code = max(code, EXIT_NO)
                    continue
                target = verdict.solution
            try:
                if isinstance(target, Puzzle) and target.is_pencilmark:
                    line, count = canonical_candidates(target, budget=budget)
                    _write(out, f"{line} {count}\n", args.output)
                    continue
                c = canonical(target, budget=budget)
            except CanonVariantError as exc:
                print(f"{rec.source}:{rec.line}: {exc}", file=sys.stderr)
                code = EXIT_USAGE
                continue
            except CanonBudgetError as exc:
                print(f"{rec.source}:{rec.line}: {exc}", file=sys.stderr)
                _write(out, "unknown\n", args.output)
                code = max(code, EXIT_NO)
                continue
            _write(out, f"{c.grid.to_line(alphabet=rec.alphabet)} {c.automorphisms}\n", args.output)
    finally:
        _close(out, args.output)
    return code


def _key(values: tuple[int, ...]) -> int:
    """A compact exact key of a canonical grid: its values as one integer (about 64 bytes
    for 9x9, against 130 for the line as a string)."""
    return int.from_bytes(bytes(values), "big")


def _dedup_key(puzzle: Any, budget: Any) -> int | str:
    """The class key of a puzzle: its canonical grid as an integer, or a pencilmark
    puzzle's canonical candidates line."""
    from ..canon import canonical
    from ..canon_candidates import canonical_candidates

    if puzzle.is_pencilmark:
        return canonical_candidates(puzzle, budget=budget)[0]
    return _key(canonical(puzzle, budget=budget).grid.values)


def _puzzle_line(puzzle: Any, alphabet: Any) -> str:
    """The line dedup writes: the givens, or a pencilmark puzzle's candidates line."""
    from ..formats.pencilmark import format_pencilmark_line

    if puzzle.is_pencilmark:
        return format_pencilmark_line(puzzle, alphabet=alphabet)
    return str(puzzle.givens.to_line(alphabet=alphabet))


def run_dedup(args: argparse.Namespace) -> int:
    from ..canon import CanonBudgetError, CanonVariantError

    _refuse_variants(args)
    budget = budget_from(args)
    if args.report:
        check_output_path(args.report)
    for path in (args.output, args.report):
        refuse_output_over_inputs(path, args.inputs)
    out = open_output(args.output)
    report = open_output(args.report) if args.report else None
    classes: dict[int | str, int] = {}
    read = errors = undecided = 0
    code = EXIT_OK
    try:
        for name in args.inputs:
            for rec in iter_inputs(name, args):
                if rec.error is not None:
                    print(str(rec.error), file=sys.stderr)
                    errors += 1
                    code = EXIT_USAGE
                    continue
                read += 1
                try:
                    key = _dedup_key(rec.puzzle, budget)
                except CanonVariantError as exc:
                    print(f"{rec.source}:{rec.line}: {exc}", file=sys.stderr)
                    errors += 1
                    code = EXIT_USAGE
                    continue
                except CanonBudgetError as exc:
                    # kept as a representative of its own: a puzzle is never dropped unproven
                    print(f"{rec.source}:{rec.line}: {exc}", file=sys.stderr)
                    undecided += 1
                    code = max(code, EXIT_NO)
                    line = _puzzle_line(rec.puzzle, rec.alphabet)
                    _write(out, line + "\n", args.output)
                    if report is not None:
                        _write(report, f"?\t{rec.source}:{rec.line}\tunknown\n", args.report)
                    continue
                number = classes.get(key)
                kind = "duplicate"
                if number is None:
                    number = classes[key] = len(classes) + 1
                    kind = "first"
                    line = _puzzle_line(rec.puzzle, rec.alphabet)
                    _write(out, line + "\n", args.output)
                if report is not None:
                    _write(report, f"{number}\t{rec.source}:{rec.line}\t{kind}\n", args.report)
    finally:
        _close(out, args.output)
        if report is not None:
            _close(report, args.report)
    print(
        f"sudoku dedup: {read} puzzles, {len(classes)} classes, "
        f"{read - len(classes) - undecided} duplicates, {errors} malformed"
        + (f", {undecided} undecided (budget spent; kept)" if undecided else ""),
        file=sys.stderr,
    )
    return code


def _one(arg: str, args: argparse.Namespace, what: str) -> Any:
    records = list(iter_inputs(arg, args))
    if len(records) != 1:
        raise CliError(f"{what} {arg!r}: expected one puzzle, found {len(records)}")
    rec = records[0]
    if rec.error is not None:
        raise rec.error
    return rec.puzzle


def run_same(args: argparse.Namespace) -> int:
    from ..canon import CanonBudgetError, CanonVariantError, equivalence

    _refuse_variants(args)
    budget = budget_from(args)
    a = _one(args.a, args, "A")
    b = _one(args.b, args, "B")
    if a.shape != b.shape:
        print(f"different: A is {a.shape.name}, B is {b.shape.name}")
        return EXIT_NO
    try:
        link = equivalence(a, b, budget=budget)
    except CanonVariantError as exc:
        raise CliError(str(exc)) from None
    except CanonBudgetError as exc:
        print(f"unknown: {exc}")
        return EXIT_NO
    if link is None:
        print("different")
        return EXIT_NO
    print(f"same: {link.describe()}")
    return EXIT_OK
