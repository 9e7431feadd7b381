"""``sudoku generate --unbiased``: weighted minimal 9x9 puzzles from the importance sampler
of :mod:`sudoku_model.unbiased` (each with the log of its weight), and the weighted
estimate of the clue-count distribution of all minimal puzzles, with 95% intervals and the
published figures, on stderr."""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import sys
import time
from typing import IO, TYPE_CHECKING, Any

from .common import EXIT_OK, CliError, budget_from, get_backend_or_exit, open_output

if TYPE_CHECKING:
    from ..gridtext import Alphabet
    from ..unbiased import WeightedPuzzle

#: Options of ``generate`` that have no meaning for the sampler: (dest, flag, default).
_REFUSED: tuple[tuple[str, str, Any], ...] = (
    ("symmetry", "--symmetry", "none"),
    ("clues", "--clues", None),
    ("pattern", "--pattern", None),
    ("start", "--from", None),
    ("regions", "--regions", None),
    ("level", "--level", None),
    ("max_tries", "--max-tries", None),
    ("box", "--box", None),
    ("size", "--size", None),
    ("variant", "--variant", []),
)


def run_unbiased(args: argparse.Namespace) -> int:
    """Write the weighted puzzles of ``--count`` grids' tries (``--count`` puzzles at
    most), then the estimate on stderr. Exit 0, or 130/143 when interrupted."""
    import os

    from ..executor import Interrupted, stop_on_signals
    from ..geometry import Shape
    from ..grid import ALPHABETS, DEFAULT_ALPHABET
    from ..rules import RuleSet
    from ..unbiased import TRIES_PER_GRID, estimate, weighted_puzzles

    for dest, flag, default in _REFUSED:
        if getattr(args, dest, default) not in (default, None):
            raise CliError(f"--unbiased samples minimal classic 9x9 puzzles: no {flag}")
    if args.jobs != 1:
        raise CliError("--unbiased runs in one process (--jobs 1)")
    if args.count < 0:
        raise CliError(f"--count must be non-negative, got {args.count}")
    rules = RuleSet.classic(Shape(3, 3))
    if args.to is None:  # generate's --to: line unless asked (jsonl is killer's default)
        args.to = "line"
    backend = get_backend_or_exit(args.backend)
    budget = budget_from(args)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big") >> 1
    if args.seed is None and not args.quiet:
        print(f"seed: {seed}", file=sys.stderr)
    alphabet = ALPHABETS[args.alphabet] if args.alphabet else DEFAULT_ALPHABET
    made: list[WeightedPuzzle] = []
    grids = 0
    code = EXIT_OK
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        out = open_output(args.output) if args.output else sys.stdout
        if out is not sys.stdout:
            stack.callback(out.close)
        table = csv.writer(out, lineterminator="\n") if args.to == "csv" else None
        if table is not None:
            table.writerow(["puzzle", "solution", "clues", "log_weight", "grid"])
        try:
            with stop_on_signals(linger=True):
                for drawn in weighted_puzzles(rules, seed=seed, backend=backend, budget=budget):
                    if len(made) >= args.count:
                        break
                    grids = drawn.grid + 1
                    made.append(drawn)
                    _write(out, table, args, drawn, alphabet)
        except Interrupted as exc:
            code = exc.exit_code
            print(f"sudoku generate: interrupted after {len(made)} puzzles", file=sys.stderr)
        finally:
            if args.to == "json":
                items = [_record(d, args.solutions, alphabet) for d in made]
                out.write(json.dumps(items, indent=1) + "\n")
            out.flush()
    if not args.quiet and made:
        seconds = time.perf_counter() - start
        print(
            f"sampled {len(made)} weighted minimal puzzles (seed {seed}, {grids} grids) in "
            f"{seconds:.2f} s; statistics over them must be weighted by exp(log_weight):",
            file=sys.stderr,
        )
        # the last grid may be cut short by --count: its tries are not all counted
        print(estimate(made, tries=grids * TRIES_PER_GRID).table(), file=sys.stderr)
    return code


def _record(drawn: WeightedPuzzle, solutions: bool, alphabet: Alphabet) -> dict[str, Any]:
    from ..formats import puzzle_to_json

    d = puzzle_to_json(
        drawn.puzzle, solution=drawn.solution if solutions else None, alphabet=alphabet
    )
    d.update(clues=drawn.clues, log_weight=round(drawn.log_weight, 6), grid=drawn.grid)
    return d


def _write(
    out: IO[str], table: Any, args: argparse.Namespace, d: WeightedPuzzle, alphabet: Alphabet
) -> None:
    from ..formats import format_block

    text = d.puzzle.givens.to_line(alphabet=alphabet)
    solution = d.solution.to_line(alphabet=alphabet) if args.solutions else ""
    note = f"{d.clues} clues, minimal, log weight {d.log_weight:.4f}"
    if table is not None:
        table.writerow([text, solution, d.clues, f"{d.log_weight:.6f}", d.grid])
    elif args.to == "jsonl":
        out.write(json.dumps(_record(d, args.solutions, alphabet), separators=(",", ":")) + "\n")
    elif args.to == "block":
        out.write(f"# {note}\n{format_block(d.puzzle.givens, alphabet=alphabet)}\n\n")
    elif args.to == "line":
        line = text + (" " + solution if solution else "")
        out.write(line + ("\n" if args.plain else f"  # {note}\n"))
