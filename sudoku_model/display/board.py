"""One board: the grid's lines (thin between cells, thick between boxes or jigsaw
regions), shaded windows and diagonals, the digits, the pencil marks and the captions, with
the rules beyond all-different drawn by :mod:`.decorations`."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..geometry import Shape
from ..grid import DEFAULT_ALPHABET, Alphabet
from ..pencil_marks import candidates, mark_boxes
from ..rules import AllDifferent, RuleSet
from .decorations import (
    _BAND,
    _CAGE_INSET,
    _cell_marks,
    _label_size,
    _marks_of,
    _rule_marks,
    line_legend,
)
from .drawing import PALETTE, Drawing, Palette, _Line, _Rect, _Text


def _default_cell_size(n: int) -> float:
    """Screen cell size in pixels: big for small grids, small enough that 25x25 fits."""
    if n <= 9:
        return 32.0
    if n <= 16:
        return 26.0
    return 22.0


def _region_labels(rules: RuleSet) -> list[int]:
    """The region (jigsaw region, else box) of each cell: thick lines go between them."""
    regions = rules.regions
    if regions is not None:
        return list(regions)
    shape = rules.shape
    return [shape.box_of(c) for c in range(shape.cell_count)]


def _variant_caption(rules: RuleSet) -> str | None:
    """Names of rules the grid lines cannot show (drawn rules need no caption)."""
    notes = {
        "anti-knight": "anti-knight: cells a knight's move apart differ",
        "anti-king": "anti-king: diagonally touching cells differ",
    }
    names = [notes[v] for v in rules.variants if v in notes]
    return "; ".join(names) if names else None


def board(
    rules: RuleSet,
    values: Sequence[int],
    *,
    givens: Sequence[int] | None = None,
    pencil_marks: bool = False,
    candidate_marks: Sequence[frozenset[int]] | None = None,
    highlight: Mapping[int, str] | None = None,
    cell_size: float | None = None,
    caption: str | None = None,
    alphabet: Alphabet = DEFAULT_ALPHABET,
    palette: Palette = PALETTE,
    margin: float | None = None,
) -> Drawing:
    """Draw one grid: ``values`` (0 = empty) under ``rules``.

    A cell whose value equals the ``givens`` value there is drawn bold (a given); other
    filled cells lighter (solved). Without ``givens`` every digit is drawn as a given.
    ``highlight`` maps cells to a fill colour. ``candidate_marks`` (one set per cell: a pencilmark
    puzzle's candidates) are drawn small in the empty cells, as the pencil marks that
    ``pencil_marks`` computes from the rules otherwise. The rules beyond all-different are drawn as
    :func:`sudoku_model.rule_marks.rule_marks` reads them (cages, thermometers, arrows,
    dots, signs, even/odd cells, clues outside the grid, which widen the margin on their
    side). A caption line is added under the grid for ``caption`` and for each rule that
    is not drawn (anti-knight, anti-king, negative constraints, non-consecutive).

    Raises:
        ValueError: when ``values`` (or ``givens``) do not have one entry per cell.
    """
    shape = rules.shape
    n = shape.size
    if len(values) != shape.cell_count or (givens is not None and len(givens) != shape.cell_count):
        raise ValueError(f"a {shape.name} board needs {shape.cell_count} values")
    cell = cell_size if cell_size is not None else _default_cell_size(n)
    pencil_marks = pencil_marks or candidate_marks is not None
    if pencil_marks and cell_size is None:
        cell *= 1.5  # room for the small digits
    pad = margin if margin is not None else max(4.0, cell * 0.25)
    side = n * cell
    marks = _marks_of(rules)
    left, top, right, bottom = (pad + cell * _BAND * b for b in marks.bands(n))
    caption_size = max(9.0, min(13.0, cell * 0.42))
    # wrapped to the board's width (DejaVu Sans averages about 0.52 em per character), so
    # a long rule caption is not cut off at the edge
    columns = max(24, int((side + left + right - pad) / (caption_size * 0.52)))
    captions = [
        line
        for c in (_variant_caption(rules), *line_legend(marks), *marks.captions, caption)
        if c
        for line in textwrap.wrap(c, columns)
    ]
    height = side + top + bottom + len(captions) * caption_size * 1.5
    d = Drawing(side + left + right, height)

    def x_of(col: float) -> float:
        return left + col * cell

    def y_of(row: float) -> float:
        return top + row * cell

    # background shading: windoku windows, then highlighted cells on top
    for rule in rules.rules:
        if isinstance(rule, AllDifferent) and rule.name == "windoku":
            for unit in rule.units:
                rows = [c // n for c in unit]
                cols = [c % n for c in unit]
                d.items.append(
                    _Rect(
                        x_of(min(cols)),
                        y_of(min(rows)),
                        (max(cols) - min(cols) + 1) * cell,
                        (max(rows) - min(rows) + 1) * cell,
                        palette.window,
                        "window",
                    )
                )
    for c, colour in (highlight or {}).items():
        r, k = divmod(c, n)
        d.items.append(_Rect(x_of(k), y_of(r), cell, cell, colour, "highlight"))
    # diagonals under the digits, found by their cells (an f-puzzles file may have one)
    main = tuple(i * n + i for i in range(n))
    anti = tuple(i * n + n - 1 - i for i in range(n))
    units = {tuple(sorted(u)) for u in rules.units}
    width = max(1.0, cell * 0.06)
    if main in units:
        d.items.append(
            _Line(x_of(0), y_of(0), x_of(n), y_of(n), width, palette.diagonal, "diagonal")
        )
    if tuple(sorted(anti)) in units:
        d.items.append(
            _Line(x_of(n), y_of(0), x_of(0), y_of(n), width, palette.diagonal, "diagonal")
        )
    _cell_marks(d, marks, n, cell, x_of, y_of, palette)
    _grid_lines(d, shape, _region_labels(rules), cell, x_of, y_of, palette)
    _rule_marks(d, marks, n, cell, x_of, y_of, palette)

    symbols = alphabet.symbols
    digit_size = cell * 0.6
    digit_row = 0.52
    # cage totals (and lunchbox totals) stand in top-left corners
    cornered = bool(marks.cages or marks.sum_lines or any(line.text for line in marks.lines))
    if cornered:
        # leave the top-left corner to the cage totals
        digit_size, digit_row = cell * 0.5, 0.58
    for c, v in enumerate(values):
        if not v:
            continue
        r, k = divmod(c, n)
        is_given = givens is None or givens[c] == v
        d.items.append(
            _Text(
                x_of(k + 0.55 if cornered else k + 0.5),
                y_of(r + digit_row),
                symbols[v - 1],
                digit_size,
                palette.given if is_given else palette.solved,
                is_given,
                "digit given" if is_given else "digit solved",
            )
        )
    if pencil_marks:
        # the cells with a cage total or sum-line total in their corner keep it free
        labelled = {c.cells[0] for c in marks.cages if c.corner is not None}
        labelled |= {line.cells[0] for line in marks.sum_lines}
        labelled |= {line.cells[0] for line in marks.lines if line.text is not None}
        band = _CAGE_INSET * 0.5 + _label_size(cell) * 1.15 / cell
        plain, below = mark_boxes(n, band if cornered else None)
        drawn = candidates(rules, values) if candidate_marks is None else candidate_marks
        for c, cands in enumerate(drawn):
            if values[c]:
                continue
            r, k = divmod(c, n)
            box = below if c in labelled else plain
            for digit in sorted(cands):
                x, y = box.centre(digit)
                d.items.append(
                    _Text(
                        x_of(k + x),
                        y_of(r + y),
                        symbols[digit - 1],
                        box.size * cell,
                        palette.pencil,
                        False,
                        "pencil",
                    )
                )
    y = side + top + bottom
    for text in captions:
        d.items.append(
            _Text(
                pad,
                y + caption_size * 0.6,
                text,
                caption_size,
                palette.caption,
                False,
                "caption",
                anchor="start",
            )
        )
        y += caption_size * 1.5
    return d


def _grid_lines(
    d: Drawing,
    shape: Shape,
    labels: Sequence[int],
    cell: float,
    x_of: Any,
    y_of: Any,
    palette: Palette,
) -> None:
    """Thin lines between all cells, thick ones between regions and around the grid.

    Thick segments are merged along each line so a 25x25 grid stays a small document.
    """
    n = shape.size
    thin = max(0.5, cell * 0.03)
    thick = max(1.5, cell * 0.09)
    for k in range(1, n):
        d.items.append(
            _Line(x_of(k), y_of(0), x_of(k), y_of(n), thin, palette.thin_line, "cell-line")
        )
        d.items.append(
            _Line(x_of(0), y_of(k), x_of(n), y_of(k), thin, palette.thin_line, "cell-line")
        )
    for k in range(1, n):
        # vertical line between columns k-1 and k: thick where the regions differ
        run_start = None
        for r in range(n + 1):
            differs = r < n and labels[r * n + k - 1] != labels[r * n + k]
            if differs and run_start is None:
                run_start = r
            elif not differs and run_start is not None:
                d.items.append(
                    _Line(
                        x_of(k),
                        y_of(run_start),
                        x_of(k),
                        y_of(r),
                        thick,
                        palette.thick_line,
                        "region-line",
                    )
                )
                run_start = None
        # horizontal line between rows k-1 and k
        run_start = None
        for col in range(n + 1):
            differs = col < n and labels[(k - 1) * n + col] != labels[k * n + col]
            if differs and run_start is None:
                run_start = col
            elif not differs and run_start is not None:
                d.items.append(
                    _Line(
                        x_of(run_start),
                        y_of(k),
                        x_of(col),
                        y_of(k),
                        thick,
                        palette.thick_line,
                        "region-line",
                    )
                )
                run_start = None
    corners = [(0, 0), (n, 0), (n, n), (0, n), (0, 0)]
    for (c1, r1), (c2, r2) in zip(corners, corners[1:]):
        d.items.append(
            _Line(x_of(c1), y_of(r1), x_of(c2), y_of(r2), thick, palette.thick_line, "border")
        )
