"""``sudoku generate --pencilmark``: minimal pencilmark puzzles (candidates as clues), one
candidate line each (729 characters at 9x9: character 9*cell+d is the digit d+1 while it is
a candidate, ``.`` once eliminated), annotated with the eliminations and minimality unless
``--plain``; ``--solutions`` adds the solution after the line."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from .common import EXIT_OK, CliError, budget_from, open_output

#: Options of `sudoku generate` that mean nothing for pencilmark puzzles, by destination.
_REFUSED = {
    "symmetry": "--symmetry",
    "pattern": "--pattern",
    "start": "--from",
    "regions": "--regions",
    "level": "--level",
    "max_cage": "--max-cage",
}


def run_pencilmark(args: argparse.Namespace) -> int:
    """Write ``args.count`` pencilmark puzzles; CliError for an option they cannot take."""
    from ..generate.pencilmark import PencilmarkGenerationError, generate_pencilmark_batch
    from ..geometry import Shape
    from ..rules import RuleSet
    from .common import get_backend_or_exit, input_options

    for dest, flag in _REFUSED.items():
        value = getattr(args, dest, None)
        if value not in (None, False, "none"):
            raise CliError(f"{flag} does not apply to --pencilmark")
    if args.count < 0:
        raise CliError(f"--count must be non-negative, got {args.count}")
    if args.jobs != 1:
        raise CliError("--pencilmark runs in one process (--jobs 1)")
    if args.to not in (None, "line"):
        raise CliError("--pencilmark writes candidate lines (--to line)")
    opts = input_options(args)
    shape = opts["shape"] or Shape(3, 3)
    if any(v != "classic" for v in opts["variants"]) or shape.size > 9:
        raise CliError("--pencilmark makes classic puzzles of at most 9x9")
    if args.clues is not None and args.clues < 0:
        raise CliError(f"--clues must be non-negative, got {args.clues}")
    budget = budget_from(args)
    backend = get_backend_or_exit(args.backend)
    rules = RuleSet.classic(shape)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big") >> 1
    if args.seed is None and not args.quiet:
        print(f"seed: {seed}", file=sys.stderr)
    with contextlib.ExitStack() as stack:
        out = open_output(args.output) if args.output else sys.stdout
        if out is not sys.stdout:
            stack.callback(out.close)
        try:
            for made in generate_pencilmark_batch(
                rules,
                args.count,
                seed=seed,
                eliminations=args.clues,
                backend=backend,
                budget=budget,
            ):
                text = made.line()
                if args.solutions:
                    text += " " + made.solution.to_line()
                if not args.plain:
                    text += f"  # {made.describe()}"
                out.write(text + "\n")
        except PencilmarkGenerationError as exc:
            raise CliError(str(exc)) from None
    return EXIT_OK
