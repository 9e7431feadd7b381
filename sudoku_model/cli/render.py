"""``sudoku render PUZZLE|FILE --to FILE.svg|png|pdf``: pictures for printing, a page of
puzzles as in a puzzle book, solutions on pages of their own."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import (
    CliError,
    Outcome,
    add_backend_option,
    add_input_options,
    budget_from,
    check_output_path,
    get_backend_or_exit,
    iter_inputs,
    refuse_output_over_inputs,
    require_matplotlib,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render",
        help="draw puzzles as SVG, PNG or PDF pages for printing",
        description="Draw the puzzles of PUZZLE|FILE|bundled:NAME on pages (PER_PAGE boards "
        "per page, each labelled), givens in bold, boxes, jigsaw regions, "
        "diagonals, windoku windows, killer cages, thermometers, arrows, dots, "
        "XV, greater-than signs, even/odd cells, sandwich and little killer clues "
        "drawn. With --solutions, the solutions "
        "follow on pages of their own (taken from the input when it carries "
        "them, else found with --backend). PDF: one document; SVG and PNG: one "
        "file per page (NAME-1.svg, NAME-2.svg ... when there are several). "
        "SVG needs nothing extra; PNG and PDF need matplotlib (the notebooks "
        "extra).",
    )
    p.add_argument("input", metavar="PUZZLE|FILE")
    p.add_argument(
        "--to",
        required=True,
        metavar="FILE.svg|png|pdf",
        dest="output",
        help="output file; the format comes from the extension",
    )
    p.add_argument(
        "--solutions", action="store_true", help="add pages with the solutions after the puzzles"
    )
    p.add_argument(
        "--per-page",
        type=int,
        metavar="N",
        help="boards per page (default 6; 1 for a single puzzle)",
    )
    p.add_argument(
        "--page",
        choices=["a4", "letter", "board"],
        default="a4",
        help="page size; 'board' = each board alone, cropped (default a4)",
    )
    p.add_argument("--first", type=int, metavar="N", help="only the first N puzzles")
    p.add_argument("--title", metavar="TEXT", help="heading on every page")
    p.add_argument(
        "--pencil-marks",
        action="store_true",
        help="write the candidates in empty cells of the puzzles",
    )
    add_backend_option(p)
    p.add_argument(
        "--budget-seconds",
        type=float,
        metavar="S",
        help="time limit per puzzle when solving for --solutions (default 60)",
    )
    add_input_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..display import book_pages, page_files, write_pages

    if not args.output.lower().endswith((".svg", ".png", ".pdf")):
        raise CliError(
            f"--to {args.output}: the format comes from the extension: .svg, .png or .pdf"
        )
    if (args.per_page is not None and args.per_page < 1) or (
        args.first is not None and args.first < 1
    ):
        raise CliError("--per-page and --first must be at least 1")
    if not args.output.lower().endswith(".svg"):
        require_matplotlib(f"--to {args.output}")
    check_output_path(args.output)
    refuse_output_over_inputs(args.output, [args.input])
    if args.solutions:
        get_backend_or_exit(args.backend)  # an unknown --backend fails before any work
        budget_from(args)
    outcome = Outcome()
    items: list[tuple[Any, Any, str]] = []
    for rec in iter_inputs(args.input, args):
        if args.first is not None and len(items) >= args.first:
            break
        if rec.error is not None:
            outcome.malformed(rec.error)
            continue
        label = f"{len(items) + 1}"
        if rec.comment:
            label += f"  {rec.comment}"
        items.append((rec.puzzle, rec.solution, label))
    if not items:
        raise CliError(f"{args.input}: no puzzle to draw")
    if args.solutions:
        items = _with_solutions(items, args)
    per_page = args.per_page if args.per_page is not None else (1 if len(items) == 1 else 6)
    pages = book_pages(
        items,
        per_page=per_page,
        page=args.page,
        solutions=args.solutions,
        pencil_marks=args.pencil_marks,
        title=args.title,
    )
    for name in page_files(args.output, len(pages)):  # NAME-1.svg ... too
        refuse_output_over_inputs(name, [args.input])
    try:
        written = write_pages(pages, args.output)
    except ImportError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
    print(f"{len(items)} puzzle(s) on {len(pages)} page(s): {', '.join(written)}")
    return outcome.code


def _with_solutions(items, args):  # type: ignore[no-untyped-def]
    """Fill in the solutions the input did not carry (checked when it did)."""
    backend = None
    budget = budget_from(args)
    out = []
    for puzzle, solution, label in items:
        if solution is not None and not puzzle.is_solution(solution):
            print(
                f"sudoku: puzzle {label.split()[0]}: the solution in the input does not "
                "solve it; solving instead",
                file=sys.stderr,
            )
            solution = None
        if solution is None:
            if backend is None:
                backend = get_backend_or_exit(args.backend)
            result = backend.solve(puzzle, budget=budget)
            solution = result.solution
            if solution is None:
                print(f"sudoku: puzzle {label.split()[0]}: {result.status}", file=sys.stderr)
        out.append((puzzle, solution, label))
    return out
