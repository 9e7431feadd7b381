"""Pictures of grids, puzzles and verdicts: SVG written here (no dependency), the same
drawing painted with matplotlib for PNG and PDF.

What the pictures show:

* givens in bold black, solved digits lighter (blue-grey, normal weight);
* thin lines between cells, thick lines around every box, or around every jigsaw region
  (a thick line wherever two neighbouring cells belong to different regions);
* diagonals as light lines, windoku windows shaded; rules that cannot be drawn on the grid
  (anti-knight, anti-king) are named in a caption under it;
* optional pencil marks: the candidates the rules leave each empty cell
  (:mod:`sudoku_model.pencil_marks`), small, below the corner total of a cage or sum line;
* for a ``multiple`` verdict, the two witnesses side by side with the cells where they differ
  highlighted; for a ``contradictory`` one, the clashing givens highlighted.

Jupyter shows :class:`~sudoku_model.Grid`, :class:`~sudoku_model.Puzzle` and
:class:`~sudoku_model.Verdict` objects through their ``_repr_svg_`` / ``_repr_html_``, which
call :func:`grid_svg`, :func:`puzzle_svg` and :func:`verdict_svg` here. For options, call
:func:`draw`, which returns an :class:`SVG` string that Jupyter also displays:

>>> from sudoku_model import Puzzle
>>> svg = draw(Puzzle.parse(".2..3....1....4."), pencil_marks=False)
>>> svg.count("<text"), svg.startswith("<svg")
(4, True)

Printing (``sudoku render``) lays several boards out on pages (:func:`book_pages`) and writes
them with :func:`write_pages`: SVG by this module, PNG and PDF through matplotlib (imported
only then; it comes with the ``notebooks`` extra).

The package, one concern per module: :mod:`.drawing` (shapes, SVG and matplotlib
painting, colours), :mod:`.board` (one grid with its digits, lines and pencil marks),
:mod:`.decorations` (the rules beyond all-different: cages, thermometers, arrows, dots,
outside clues), :mod:`.pictures` (grids, puzzles and verdicts as SVG and HTML) and
:mod:`.pages` (puzzle-book pages and the files they are written to).
"""

from __future__ import annotations

from ..pencil_marks import candidates
from .board import board
from .drawing import PALETTE, SVG, Drawing, Palette
from .pages import PAGE_SIZES, book_pages, page_files, write_pages
from .pictures import (
    draw,
    grid_html,
    grid_svg,
    puzzle_html,
    puzzle_svg,
    verdict_html,
    verdict_svg,
)

__all__ = [
    "SVG",
    "Drawing",
    "Palette",
    "PALETTE",
    "draw",
    "grid_svg",
    "puzzle_svg",
    "verdict_svg",
    "grid_html",
    "puzzle_html",
    "verdict_html",
    "board",
    "book_pages",
    "page_files",
    "write_pages",
    "PAGE_SIZES",
    "candidates",
]
