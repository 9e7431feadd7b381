"""Writing puzzles (and their solutions) as lines, blocks, CSV, JSON, JSONL, pencilmark
lines, PM grids or ISS strings (the puzzle only)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from typing import IO

from ..grid import Grid
from ..gridtext import DEFAULT_ALPHABET, Alphabet
from ..puzzle import Puzzle
from .jsonformat import puzzle_to_json
from .pencilmark import format_pencilmark_line, format_pmgrid
from .record import WRITABLE_FORMATS


def format_line(grid: Grid, *, blank: str = ".", alphabet: Alphabet = DEFAULT_ALPHABET) -> str:
    return grid.to_line(blank=blank, alphabet=alphabet)


def format_block(
    grid: Grid, *, blank: str = ".", separators: bool = True, alphabet: Alphabet = DEFAULT_ALPHABET
) -> str:
    """n lines of n cells; with ``separators``, ``|`` between boxes and a ``-+-`` line
    between bands."""
    return grid.to_block(blank=blank, separators=separators, alphabet=alphabet)


def write_records(
    records: Iterable[tuple[Puzzle, Grid | None]],
    fmt: str,
    out: IO[str],
    *,
    blank: str = ".",
    alphabet: Alphabet = DEFAULT_ALPHABET,
) -> int:
    """Write (puzzle, solution-or-None) pairs in a format; returns how many were written.

    ``pencilmark`` and ``pmgrid`` write each puzzle's candidates (a given is one
    candidate, an empty cell of a plain puzzle all n); a solution follows the line (as
    its comment) or the grid (a ``# solution`` line, which readers skip).

    Raises:
        ValueError: for a format that cannot be written.
    """
    if fmt not in WRITABLE_FORMATS:
        raise ValueError(f"cannot write format {fmt!r}; writable: {', '.join(WRITABLE_FORMATS)}")
    count = 0
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["puzzle", "solution"])
        for puzzle, solution in records:
            writer.writerow(
                [
                    format_pencilmark_line(puzzle, blank=blank, alphabet=alphabet)
                    if puzzle.is_pencilmark
                    else puzzle.givens.to_line(blank=blank, alphabet=alphabet),
                    solution.to_line(alphabet=alphabet) if solution else "",
                ]
            )
            count += 1
        return count
    if fmt == "json":
        items = [puzzle_to_json(p, solution=s, alphabet=alphabet) for p, s in records]
        json.dump(items, out, indent=1)
        out.write("\n")
        return len(items)
    first = True
    for puzzle, solution in records:
        if fmt == "iss":
            from .iss_write import puzzle_to_iss  # the ISS writer: imported when asked for

            out.write(puzzle_to_iss(puzzle) + "\n")
        elif fmt == "line":
            text = puzzle.givens.to_line(blank=blank, alphabet=alphabet)
            if solution is not None:
                text += " " + solution.to_line(alphabet=alphabet)
            out.write(text + "\n")
        elif fmt == "pencilmark":
            text = format_pencilmark_line(puzzle, blank=blank, alphabet=alphabet)
            if solution is not None:
                text += " " + solution.to_line(alphabet=alphabet)
            out.write(text + "\n")
        elif fmt == "pmgrid":
            if not first:
                out.write("\n")
            out.write(format_pmgrid(puzzle, alphabet=alphabet) + "\n")
            if solution is not None:  # a comment line: readers skip it
                out.write(f"# solution {solution.to_line(alphabet=alphabet)}\n")
        elif fmt == "block":
            if not first:
                out.write("\n")
            out.write(format_block(puzzle.givens, blank=blank, alphabet=alphabet) + "\n")
            if solution is not None:
                out.write("\n" + format_block(solution, alphabet=alphabet) + "\n")
        else:  # jsonl
            out.write(
                json.dumps(
                    puzzle_to_json(puzzle, solution=solution, alphabet=alphabet),
                    separators=(",", ":"),
                )
                + "\n"
            )
        first = False
        count += 1
    return count
