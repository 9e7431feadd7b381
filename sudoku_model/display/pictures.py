"""Pictures of the objects: a grid, a puzzle (solved, or with pencil marks) and a verdict
(the two witnesses of ``multiple`` side by side, the clashing givens of ``contradictory``
highlighted), as SVG and as the HTML that Jupyter shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import quoteattr

from ..grid import Grid
from ..rules import RuleSet
from .board import board
from .drawing import PALETTE, SVG, Drawing, _side_by_side, _with_caption

if TYPE_CHECKING:  # pragma: no cover - imports for annotations only
    from ..puzzle import Puzzle
    from ..solving import Verdict


def _grid_drawing(
    grid: Grid, *, rules: RuleSet | None = None, pencil_marks: bool = False, **options: Any
) -> Drawing:
    return board(
        rules or RuleSet.classic(grid.shape), grid.values, pencil_marks=pencil_marks, **options
    )


def _puzzle_drawing(
    puzzle: Puzzle, *, solution: Grid | None = None, pencil_marks: bool = False, **options: Any
) -> Drawing:
    values = solution.values if solution is not None else puzzle.givens.values
    if puzzle.is_pencilmark:
        # the candidates are the clues: drawn small in each empty cell (the rules beside
        # them drawn as usual)
        from ..puzzle import rules_without_candidates

        return board(
            rules_without_candidates(puzzle.rules),
            values,
            givens=puzzle.givens.values,
            candidate_marks=puzzle.candidates if solution is None else None,
            **options,
        )
    return board(
        puzzle.rules,
        values,
        givens=puzzle.givens.values,
        pencil_marks=pencil_marks and solution is None,
        **options,
    )


def _seconds_text(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def _verdict_drawing(verdict: Verdict, **options: Any) -> Drawing:
    kind = str(verdict.kind)
    head = f"{kind} ({verdict.backend}, {_seconds_text(verdict.seconds)})"
    puzzle = verdict.puzzle
    if puzzle is None:
        return _with_caption(Drawing(200.0, 4.0), f"{head}: {verdict.error or 'no puzzle'}")
    if kind == "multiple" and len(verdict.witnesses) >= 2:
        differing = verdict.differing_cells
        marks = {c: PALETTE.highlight for c in differing}
        boards = [
            _puzzle_drawing(puzzle, solution=w, highlight=marks, **options)
            for w in verdict.witnesses[:2]
        ]
        gap = boards[0].width * 0.08
        return _with_caption(
            _side_by_side(boards, gap),
            f"{head}: two solutions, differing in {len(differing)} highlighted cells",
        )
    if kind == "unique" and verdict.solution is not None:
        return _with_caption(_puzzle_drawing(puzzle, solution=verdict.solution, **options), head)
    if kind == "contradictory":
        clashing = {c for conflict in puzzle.conflicts() for c in conflict.cells}
        drawing = _puzzle_drawing(
            puzzle, highlight={c: PALETTE.conflict for c in clashing}, **options
        )
        reason = "; ".join(verdict.conflicts[:2]) if verdict.conflicts else ""
        return _with_caption(drawing, f"{head}: {reason}" if reason else head)
    return _with_caption(_puzzle_drawing(puzzle, **options), head)


def draw(
    obj: Grid | Puzzle | Verdict,
    *,
    solution: Grid | None = None,
    pencil_marks: bool = False,
    **options: Any,
) -> SVG:
    """A picture of a grid, a puzzle (with ``solution`` filled in lighter, or pencil marks
    in its empty cells) or a verdict, as an :class:`SVG` string Jupyter displays.

    Options are those of :func:`board` (``cell_size``, ``highlight``, ``caption``,
    ``alphabet``, ``palette``; ``rules`` for a bare grid).

    Raises:
        TypeError: for anything else.
    """
    from ..puzzle import Puzzle
    from ..solving import Verdict

    if isinstance(obj, Verdict):
        drawing = _verdict_drawing(obj, **options)
    elif isinstance(obj, Puzzle):
        drawing = _puzzle_drawing(obj, solution=solution, pencil_marks=pencil_marks, **options)
    elif isinstance(obj, Grid):
        drawing = _grid_drawing(obj, pencil_marks=pencil_marks, **options)
    else:
        raise TypeError(f"cannot draw {type(obj).__name__}; expected Grid, Puzzle or Verdict")
    return SVG(drawing.to_svg())


def grid_svg(grid: Grid) -> str:
    """SVG of a grid (classic rules of its shape; every digit drawn as a given)."""
    return draw(grid)


def puzzle_svg(puzzle: Puzzle) -> str:
    """SVG of a puzzle: its givens in bold, its rules drawn."""
    return draw(puzzle)


def verdict_svg(verdict: Verdict) -> str:
    """SVG of a verdict: the solution when unique, both witnesses when multiple."""
    return draw(verdict)


def _html(svg: str, title: str) -> str:
    return (
        f'<div class="sudoku-model" title={quoteattr(title)} '
        f'style="display:inline-block">{svg}</div>'
    )


def grid_html(grid: Grid) -> str:
    return _html(grid_svg(grid), f"{grid.shape.name} grid")


def puzzle_html(puzzle: Puzzle) -> str:
    return _html(puzzle_svg(puzzle), f"{puzzle.shape.name} puzzle, {puzzle.clues} clues")


def verdict_html(verdict: Verdict) -> str:
    return _html(verdict_svg(verdict), f"verdict: {verdict.kind}")
