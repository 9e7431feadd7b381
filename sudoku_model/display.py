"""Pictures of grids, puzzles and verdicts: SVG written here (no dependency), the same
drawing painted with matplotlib for PNG and PDF.

What the pictures show:

* givens in bold black, solved digits lighter (blue-grey, normal weight);
* thin lines between cells, thick lines around every box, or around every jigsaw region
  (a thick line wherever two neighbouring cells belong to different regions);
* diagonals as light lines, windoku windows shaded; rules that cannot be drawn on the grid
  (anti-knight, anti-king) are named in a caption under it;
* optional pencil marks: the digits no peer already holds, small, in each empty cell;
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
"""

from __future__ import annotations

import math
import os
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from .geometry import Shape
from .grid import DEFAULT_ALPHABET, Alphabet, Grid
from .rule_marks import OutsideClue, RuleMarks, rule_marks
from .rules import AllDifferent, RuleSet

if TYPE_CHECKING:  # pragma: no cover - imports for annotations only
    from .puzzle import Puzzle
    from .solving import Verdict

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
    "write_pages",
    "PAGE_SIZES",
    "candidates",
]


# -- colours and sizes ---------------------------------------------------------------------
@dataclass(frozen=True)
class Palette:
    """The colours of a picture (any SVG/matplotlib colour string)."""

    given: str = "#000000"
    solved: str = "#4a6fa5"  # lighter than the givens, still readable when printed
    pencil: str = "#8a8a8a"
    thin_line: str = "#9a9a9a"
    thick_line: str = "#000000"
    diagonal: str = "#b9cde6"
    window: str = "#e3ecf7"
    highlight: str = "#ffd966"  # cells where two witnesses differ
    conflict: str = "#f4a3a3"  # clashing givens
    caption: str = "#333333"
    background: str = "#ffffff"
    cage: str = "#222222"  # killer cage outlines and totals
    thermometer: str = "#c4c4c4"
    arrow: str = "#7a7a7a"
    parity: str = "#d6d6d6"  # even squares and odd circles
    mark: str = "#000000"  # dots, XV letters, greater-than signs
    clue: str = "#000000"  # numbers outside the grid, sum line totals
    sum_line: str = "#9fc5e8"


PALETTE = Palette()
FONT_FAMILY = "DejaVu Sans, Helvetica, Arial, sans-serif"

#: Page sizes in points (1/72 inch), portrait.
PAGE_SIZES: dict[str, tuple[float, float]] = {"a4": (595.0, 842.0), "letter": (612.0, 792.0)}


def _default_cell_size(n: int) -> float:
    """Screen cell size in pixels: big for small grids, small enough that 25x25 fits."""
    if n <= 9:
        return 32.0
    if n <= 16:
        return 26.0
    return 22.0


# -- the drawing: a list of primitives, painted as SVG or with matplotlib -------------------
@dataclass(frozen=True)
class _Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    css: str


@dataclass(frozen=True)
class _Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float
    color: str
    css: str


@dataclass(frozen=True)
class _Text:
    x: float
    y: float
    text: str
    size: float
    color: str
    bold: bool
    css: str
    anchor: str = "middle"  # "middle" or "start"


@dataclass(frozen=True)
class _Circle:
    cx: float
    cy: float
    r: float
    fill: str  # "none" for an outline
    stroke: str  # "none" for a plain disc
    width: float
    css: str


@dataclass(frozen=True)
class _Path:
    """Polylines (one per subpath), each closed or open, stroked, dashed when ``dash`` > 0
    (dash and gap of that length), with round ends and joins when ``round``."""

    subpaths: tuple[tuple[tuple[float, float], ...], ...]
    closed: bool
    fill: str
    stroke: str
    width: float
    css: str
    dash: float = 0.0
    round: bool = False


_Item = _Rect | _Line | _Text | _Circle | _Path


def _shifted(it: _Item, dx: float, dy: float) -> _Item:
    """The same shape moved by (dx, dy)."""
    if isinstance(it, _Rect):
        return replace(it, x=it.x + dx, y=it.y + dy)
    if isinstance(it, _Line):
        return replace(it, x1=it.x1 + dx, y1=it.y1 + dy, x2=it.x2 + dx, y2=it.y2 + dy)
    if isinstance(it, _Text):
        return replace(it, x=it.x + dx, y=it.y + dy)
    if isinstance(it, _Circle):
        return replace(it, cx=it.cx + dx, cy=it.cy + dy)
    return replace(
        it, subpaths=tuple(tuple((x + dx, y + dy) for x, y in sub) for sub in it.subpaths)
    )


def _path_data(path: _Path) -> str:
    parts = []
    for sub in path.subpaths:
        parts.append(
            " ".join(f"{'M' if k == 0 else 'L'}{_num(x)} {_num(y)}" for k, (x, y) in enumerate(sub))
        )
        if path.closed:
            parts.append("Z")
    return " ".join(parts)


@dataclass
class Drawing:
    """Shapes in a ``width`` x ``height`` box (y grows downward), in drawing units
    (pixels on screen, points on a page)."""

    width: float
    height: float
    items: list[_Item] = field(default_factory=list)

    def place(self, other: Drawing, dx: float, dy: float) -> None:
        """Copy ``other``'s shapes into this drawing, shifted by (dx, dy)."""
        self.items.extend(_shifted(it, dx, dy) for it in other.items)

    def to_svg(self, *, background: str | None = PALETTE.background, units: str = "") -> str:
        """The drawing as a standalone SVG document (well-formed XML, one ``<text>`` per
        digit, pencil-mark digit or caption line).

        ``units`` is appended to the outer width/height (``"pt"`` for a printed page).
        """
        w, h = _num(self.width), _num(self.height)
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}{units}" '
            f'height="{h}{units}" viewBox="0 0 {w} {h}" '
            f"font-family={quoteattr(FONT_FAMILY)}>"
        ]
        if background:
            out.append(
                f'<rect class="background" x="0" y="0" width="{w}" height="{h}" '
                f'fill="{background}"/>'
            )
        for it in self.items:
            if isinstance(it, _Rect):
                out.append(
                    f'<rect class="{it.css}" x="{_num(it.x)}" y="{_num(it.y)}" '
                    f'width="{_num(it.w)}" height="{_num(it.h)}" fill="{it.fill}"/>'
                )
            elif isinstance(it, _Line):
                out.append(
                    f'<line class="{it.css}" x1="{_num(it.x1)}" y1="{_num(it.y1)}" '
                    f'x2="{_num(it.x2)}" y2="{_num(it.y2)}" stroke="{it.color}" '
                    f'stroke-width="{_num(it.width)}" stroke-linecap="square"/>'
                )
            elif isinstance(it, _Circle):
                out.append(
                    f'<circle class="{it.css}" cx="{_num(it.cx)}" cy="{_num(it.cy)}" '
                    f'r="{_num(it.r)}" fill="{it.fill}" stroke="{it.stroke}" '
                    f'stroke-width="{_num(it.width)}"/>'
                )
            elif isinstance(it, _Path):
                dash = f' stroke-dasharray="{_num(it.dash)} {_num(it.dash)}"' if it.dash else ""
                ends = (
                    ' stroke-linecap="round" stroke-linejoin="round"'
                    if it.round
                    else ' stroke-linejoin="miter"'
                )
                out.append(
                    f'<path class="{it.css}" d="{_path_data(it)}" fill="{it.fill}" '
                    f'stroke="{it.stroke}" stroke-width="{_num(it.width)}"{dash}{ends}/>'
                )
            else:
                weight = ' font-weight="bold"' if it.bold else ""
                out.append(
                    f'<text class="{it.css}" x="{_num(it.x)}" y="{_num(it.y)}" '
                    f'font-size="{_num(it.size)}" fill="{it.color}"{weight} '
                    f'text-anchor="{it.anchor}" dominant-baseline="central">'
                    f"{escape(it.text)}</text>"
                )
        out.append("</svg>")
        return "\n".join(out)

    def paint(self, ax: Any) -> None:
        """Paint the drawing on a matplotlib ``Axes`` whose data units are drawing units
        (x from 0 to width, y from height down to 0) and 1 unit = 1 point.

        Shapes are stacked in list order, as in the SVG; a run of lines of one width and
        colour becomes one collection so a 25x25 grid stays quick to paint.
        """
        from matplotlib.collections import LineCollection
        from matplotlib.patches import Circle, PathPatch, Rectangle
        from matplotlib.path import Path as MplPath

        z = 0
        run: list[Any] = []
        run_style: tuple[float, str] | None = None

        def flush() -> None:
            nonlocal run, run_style
            if run and run_style is not None:
                ax.add_collection(
                    LineCollection(
                        run,
                        linewidths=run_style[0],
                        colors=run_style[1],
                        capstyle="projecting",
                        zorder=z,
                    )
                )
            run, run_style = [], None

        for it in self.items:
            z += 1
            if isinstance(it, _Line):
                if run_style != (it.width, it.color):
                    flush()
                    run_style = (it.width, it.color)
                run.append([(it.x1, it.y1), (it.x2, it.y2)])
                continue
            flush()
            if isinstance(it, _Rect):
                ax.add_patch(
                    Rectangle(
                        (it.x, it.y), it.w, it.h, facecolor=it.fill, edgecolor="none", zorder=z
                    )
                )
            elif isinstance(it, _Circle):
                ax.add_patch(
                    Circle(
                        (it.cx, it.cy),
                        it.r,
                        facecolor=it.fill,
                        edgecolor=it.stroke,
                        linewidth=it.width if it.stroke != "none" else 0.0,
                        zorder=z,
                    )
                )
            elif isinstance(it, _Path):
                vertices: list[tuple[float, float]] = []
                codes: list[Any] = []  # matplotlib's path codes are numpy integers
                for sub in it.subpaths:
                    vertices.extend(sub)
                    codes.extend([MplPath.MOVETO] + [MplPath.LINETO] * (len(sub) - 1))
                    if it.closed:
                        vertices.append(sub[0])
                        codes.append(MplPath.CLOSEPOLY)
                patch = PathPatch(
                    MplPath(vertices, codes),
                    facecolor=it.fill,
                    edgecolor=it.stroke,
                    linewidth=it.width,
                    capstyle="round" if it.round else "butt",
                    joinstyle="round" if it.round else "miter",
                    zorder=z,
                )
                if it.dash:
                    # matplotlib scales dash lengths by the line width; undo it
                    patch.set_linestyle((0.0, (it.dash / it.width, it.dash / it.width)))
                ax.add_patch(patch)
            else:
                ax.text(
                    it.x,
                    it.y,
                    it.text,
                    fontsize=it.size,
                    color=it.color,
                    fontweight="bold" if it.bold else "normal",
                    ha="center" if it.anchor == "middle" else "left",
                    va="center",
                    zorder=z,
                )
        flush()


def _num(x: float) -> str:
    """A short, exact-enough number for SVG attributes."""
    r = round(x, 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


class SVG(str):
    """An SVG document as a string that Jupyter displays as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the SVG to a file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(str(self))


# -- one board -----------------------------------------------------------------------------
def candidates(rules: RuleSet, values: Sequence[int]) -> list[frozenset[int]]:
    """For each empty cell, the digits no peer holds and the even/odd cells and the
    relations (dots, signs, thermometers) allow on their own (empty set for filled cells).

    >>> from sudoku_model import Grid, RuleSet
    >>> g = Grid.parse(".2..3....1....4.")
    >>> sorted(candidates(RuleSet.classic(g.shape), g.values)[0])
    [1, 4]
    """
    n = rules.shape.size
    peers = rules.peers
    allowed = (
        rules.candidate_digits
        if rules.constraint_rules
        else (frozenset(range(1, n + 1)),) * len(values)
    )
    out: list[frozenset[int]] = []
    for cell, v in enumerate(values):
        if v:
            out.append(frozenset())
        else:
            out.append(allowed[cell] - {values[p] for p in peers[cell]})
    return out


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
    ``highlight`` maps cells to a fill colour. The rules beyond all-different are drawn as
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
        for c in (_variant_caption(rules), *marks.captions, caption)
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
    if marks.cages or marks.sum_lines:
        # leave the top-left corner to the cage totals
        digit_size, digit_row = cell * 0.5, 0.58
    for c, v in enumerate(values):
        if not v:
            continue
        r, k = divmod(c, n)
        is_given = givens is None or givens[c] == v
        d.items.append(
            _Text(
                x_of(k + 0.55 if marks.cages or marks.sum_lines else k + 0.5),
                y_of(r + digit_row),
                symbols[v - 1],
                digit_size,
                palette.given if is_given else palette.solved,
                is_given,
                "digit given" if is_given else "digit solved",
            )
        )
    if pencil_marks:
        per_row = math.ceil(math.sqrt(n))
        sub = cell / per_row
        for c, cands in enumerate(candidates(rules, values)):
            r, k = divmod(c, n)
            for digit in sorted(cands):
                i, j = divmod(digit - 1, per_row)
                d.items.append(
                    _Text(
                        x_of(k) + (j + 0.5) * sub,
                        y_of(r) + (i + 0.55) * sub,
                        symbols[digit - 1],
                        sub * 0.8,
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


# -- the rules beyond all-different: cages, thermometers, arrows, dots, clues ---------------
#: Width, in cells, of the band outside the grid that holds sandwich and little killer clues.
_BAND = 0.8
#: How far a cage outline stands inside its cells' borders, in cells.
_CAGE_INSET = 0.1


@lru_cache(maxsize=256)
def _marks_of(rules: RuleSet) -> RuleMarks:
    # A page of killer puzzles asks for each rule set twice (layout, then drawing).
    return rule_marks(rules)


def _cell_marks(
    d: Drawing, marks: RuleMarks, n: int, cell: float, x_of: Any, y_of: Any, palette: Palette
) -> None:
    """Even cells as grey squares, odd cells as grey circles, under the grid lines."""
    for m in marks.cells:
        r, c = divmod(m.cell, n)
        if m.look == "even":
            side = cell * 0.72
            d.items.append(
                _Rect(
                    x_of(c + 0.5) - side / 2,
                    y_of(r + 0.5) - side / 2,
                    side,
                    side,
                    palette.parity,
                    "even",
                )
            )
        else:
            d.items.append(
                _Circle(
                    x_of(c + 0.5), y_of(r + 0.5), cell * 0.36, palette.parity, "none", 0.0, "odd"
                )
            )


def _cage_loops(cells: Iterable[int], n: int) -> list[list[tuple[int, int]]]:
    """The corners (x = column, y = row, in cells) of each closed outline of a set of cells,
    clockwise on screen with the cells on the right of each edge; a hole gives a loop of its
    own, and two cells touching only at a corner keep separate corners there."""
    inside = {divmod(c, n) for c in cells}
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}  # start -> directions
    for r, c in inside:
        if (r - 1, c) not in inside:
            edges.setdefault((c, r), []).append((1, 0))
        if (r, c + 1) not in inside:
            edges.setdefault((c + 1, r), []).append((0, 1))
        if (r + 1, c) not in inside:
            edges.setdefault((c + 1, r + 1), []).append((-1, 0))
        if (r, c - 1) not in inside:
            edges.setdefault((c, r + 1), []).append((0, -1))
    loops = []
    while edges:
        start = min(edges)
        point, direction = start, edges[start][0]
        loop: list[tuple[int, int]] = []
        while True:
            outgoing = edges[point]
            outgoing.remove(direction)
            if not outgoing:
                del edges[point]
            loop.append(point)
            point = (point[0] + direction[0], point[1] + direction[1])
            choices = edges.get(point)
            if not choices:
                break
            dx, dy = direction
            # at a corner where two cells touch diagonally, turn into the cell we came along
            for turn in ((-dy, dx), (dx, dy), (dy, -dx)):
                if turn in choices:
                    direction = turn
                    break
        corners = [
            p for k, p in enumerate(loop) if _turns(loop[k - 1], p, loop[(k + 1) % len(loop)])
        ]
        loops.append(corners)
    return loops


def _turns(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> bool:
    return (b[0] - a[0]) * (c[1] - b[1]) != (b[1] - a[1]) * (c[0] - b[0])


def _inset(loop: Sequence[tuple[int, int]], by: float) -> list[tuple[float, float]]:
    """A clockwise rectilinear loop moved ``by`` cells toward its inside (the right of each
    edge): every corner moves along both edges' inward normals."""
    out = []
    k = len(loop)
    for i, (x, y) in enumerate(loop):
        px, py = loop[i - 1]
        nx, ny = loop[(i + 1) % k]
        ux, uy = _sign(x - px), _sign(y - py)
        vx, vy = _sign(nx - x), _sign(ny - y)
        out.append((x + by * (-uy - vy), y + by * (ux + vx)))
    return out


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


def _corner_label(
    d: Drawing, x: float, y: float, text: str, size: float, color: str, css: str, palette: Palette
) -> None:
    """A small number whose top-left corner is (x, y), on a patch of background that
    interrupts the lines beneath it."""
    width = len(text) * size * 0.62 + size * 0.3
    d.items.append(_Rect(x, y, width, size * 1.15, palette.background, f"{css}-background"))
    d.items.append(
        _Text(x + size * 0.15, y + size * 0.6, text, size, color, False, css, anchor="start")
    )


def _rule_marks(
    d: Drawing, marks: RuleMarks, n: int, cell: float, x_of: Any, y_of: Any, palette: Palette
) -> None:
    """Everything of :func:`rule_marks` but the even/odd cells, over the grid lines and
    under the digits: tubes and lines first, then cages, then the marks on edges, then the
    numbers outside the grid."""

    def centre(c: int) -> tuple[float, float]:
        r, k = divmod(c, n)
        return x_of(k + 0.5), y_of(r + 0.5)

    for t in marks.thermometers:
        points = tuple(centre(c) for c in t.cells)
        d.items.append(
            _Path(
                (points,), False, "none", palette.thermometer, cell * 0.3, "thermometer", round=True
            )
        )
        if t.bulb:
            x, y = points[0]
            d.items.append(
                _Circle(x, y, cell * 0.38, palette.thermometer, "none", 0.0, "thermometer-bulb")
            )
    for line in marks.sum_lines:
        points = tuple(centre(c) for c in line.cells)
        if len(points) == 1:
            points = (points[0], points[0])
        d.items.append(
            _Path((points,), False, "none", palette.sum_line, cell * 0.12, "sum-line", round=True)
        )
    for arrow in marks.arrows:
        _arrow(d, arrow.circle, arrow.shaft, n, cell, centre, palette)
    size = max(5.0, cell * 0.26)
    for cage in marks.cages:
        loops = [
            tuple((x_of(x), y_of(y)) for x, y in _inset(loop, _CAGE_INSET))
            for loop in _cage_loops(cage.cells, n)
        ]
        d.items.append(
            _Path(
                tuple(loops),
                True,
                "none",
                palette.cage,
                max(0.6, cell * 0.035),
                "cage",
                dash=max(1.5, cell * 0.08),
            )
        )
        if cage.total is not None:
            r, c = divmod(cage.cells[0], n)
            at = _CAGE_INSET * 0.5
            _corner_label(
                d,
                x_of(c + at),
                y_of(r + at),
                str(cage.total),
                size,
                palette.cage,
                "cage-total",
                palette,
            )
    for line in marks.sum_lines:
        r, c = divmod(line.cells[0], n)
        _corner_label(
            d,
            x_of(c + 0.05),
            y_of(r + 0.05),
            str(line.total),
            size,
            palette.clue,
            "sum-line-total",
            palette,
        )
    for mark in marks.edges:
        (xa, ya), (xb, yb) = centre(mark.a), centre(mark.b)
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        if mark.look in ("white-dot", "black-dot"):
            white = mark.look == "white-dot"
            d.items.append(
                _Circle(
                    mx,
                    my,
                    cell * 0.12,
                    palette.background if white else palette.mark,
                    palette.mark,
                    max(0.5, cell * 0.03),
                    "kropki-white" if white else "kropki-black",
                )
            )
        elif mark.look in ("X", "V"):
            side = cell * 0.3
            d.items.append(
                _Rect(mx - side / 2, my - side / 2, side, side, palette.background, "xv-background")
            )
            d.items.append(_Text(mx, my, mark.look, cell * 0.3, palette.mark, True, "xv"))
        else:
            # the sign opens toward the bigger digit (cell a) and points at the smaller one
            ux, uy = _sign(xb - xa), _sign(yb - ya)
            tip = (mx + ux * cell * 0.1, my + uy * cell * 0.1)
            back = (mx - ux * cell * 0.1, my - uy * cell * 0.1)
            spread = cell * 0.17
            arms = (
                (back[0] - uy * spread, back[1] + ux * spread),
                tip,
                (back[0] + uy * spread, back[1] - ux * spread),
            )
            d.items.append(
                _Path((arms,), False, "none", palette.mark, max(0.8, cell * 0.045), "greater-than")
            )
    for clue in marks.outside:
        _outside_clue(d, clue, n, cell, x_of, y_of, palette)


def _arrow(
    d: Drawing,
    circle: Sequence[int],
    shaft: Sequence[int],
    n: int,
    cell: float,
    centre: Any,
    palette: Palette,
) -> None:
    """The circle (a pill around two neighbouring cells) and one path for the shaft and
    its head, the shaft leaving the circle toward its first cell."""
    width = max(0.8, cell * 0.045)
    radius = cell * 0.4
    circles = [centre(c) for c in circle]
    (r0, c0), (r1, c1) = divmod(circle[0], n), divmod(circle[-1], n)
    if len(circle) == 2 and abs(r0 - r1) + abs(c0 - c1) == 1:
        d.items.append(
            _Path(
                (_pill(circles[0], circles[1], radius),),
                True,
                "none",
                palette.arrow,
                width,
                "arrow-circle",
            )
        )
    else:
        for x, y in circles:
            d.items.append(_Circle(x, y, radius, "none", palette.arrow, width, "arrow-circle"))
    points = [centre(c) for c in shaft]
    fx, fy = points[0]
    sx, sy = min(circles, key=lambda p: (p[0] - fx) ** 2 + (p[1] - fy) ** 2)
    dist = math.hypot(fx - sx, fy - sy) or 1.0
    start = (sx + (fx - sx) / dist * radius, sy + (fy - sy) / dist * radius)
    (px, py), (ex, ey) = ([start, *points])[-2:]
    length = math.hypot(ex - px, ey - py) or 1.0
    ux, uy = (ex - px) / length, (ey - py) / length
    tip = (ex + ux * cell * 0.2, ey + uy * cell * 0.2)
    head = []
    for angle in (0.6, -0.6):
        cos, sin = math.cos(angle), math.sin(angle)
        hx, hy = ux * cos - uy * sin, ux * sin + uy * cos
        head.append((tip[0] - hx * cell * 0.25, tip[1] - hy * cell * 0.25))
    d.items.append(
        _Path(
            (tuple([start, *points, tip]), (head[0], tip, head[1])),
            False,
            "none",
            palette.arrow,
            width,
            "arrow",
            round=True,
        )
    )


def _pill(
    a: tuple[float, float], b: tuple[float, float], radius: float
) -> tuple[tuple[float, float], ...]:
    """A closed outline around two circle centres: two half circles joined by lines."""
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    points = []
    steps = 12
    for centre_point, start in ((b, angle - math.pi / 2), (a, angle + math.pi / 2)):
        for k in range(steps + 1):
            t = start + math.pi * k / steps
            points.append(
                (centre_point[0] + radius * math.cos(t), centre_point[1] + radius * math.sin(t))
            )
    return tuple(points)


def _outside_clue(
    d: Drawing, clue: OutsideClue, n: int, cell: float, x_of: Any, y_of: Any, palette: Palette
) -> None:
    """A number in the band outside the grid; a little killer total with a small arrow
    along its diagonal."""
    band = cell * _BAND

    def at(index: int, to: Any) -> float:
        if index < 0:
            return float(to(0) - band / 2)
        if index >= n:
            return float(to(n) + band / 2)
        return float(to(index + 0.5))

    x, y = at(clue.col, x_of), at(clue.row, y_of)
    size = cell * 0.4
    if clue.direction is None:
        d.items.append(_Text(x, y, clue.text, size, palette.clue, False, "sandwich-clue"))
        return
    dr, dc = clue.direction
    ux, uy = dc / math.sqrt(2), dr / math.sqrt(2)
    d.items.append(
        _Text(
            x - ux * cell * 0.12,
            y - uy * cell * 0.12,
            clue.text,
            size * 0.9,
            palette.clue,
            False,
            "little-killer-clue",
        )
    )
    start = (x + ux * cell * 0.22, y + uy * cell * 0.22)
    tip = (x + ux * cell * 0.46, y + uy * cell * 0.46)
    head = []
    for angle in (0.6, -0.6):
        cos, sin = math.cos(angle), math.sin(angle)
        hx, hy = ux * cos - uy * sin, ux * sin + uy * cos
        head.append((tip[0] - hx * cell * 0.12, tip[1] - hy * cell * 0.12))
    d.items.append(
        _Path(
            ((start, tip), (head[0], tip, head[1])),
            False,
            "none",
            palette.clue,
            max(0.6, cell * 0.03),
            "little-killer-arrow",
            round=True,
        )
    )


def _side_by_side(drawings: Sequence[Drawing], gap: float) -> Drawing:
    out = Drawing(
        sum(d.width for d in drawings) + gap * (len(drawings) - 1), max(d.height for d in drawings)
    )
    x = 0.0
    for d in drawings:
        out.place(d, x, 0.0)
        x += d.width + gap
    return out


def _with_caption(
    d: Drawing, text: str, *, size: float = 12.0, palette: Palette = PALETTE
) -> Drawing:
    out = Drawing(max(d.width, len(text) * size * 0.55 + 8), d.height + size * 1.6)
    out.place(d, 0.0, 0.0)
    out.items.append(
        _Text(
            6.0,
            d.height + size * 0.7,
            text,
            size,
            palette.caption,
            False,
            "caption",
            anchor="start",
        )
    )
    return out


# -- the objects ---------------------------------------------------------------------------
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
    from .puzzle import Puzzle
    from .solving import Verdict

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


# -- pages for printing --------------------------------------------------------------------
def _book_columns(per_page: int) -> int:
    """Columns of boards on a portrait page: 1 -> 1, 2 -> 1, 4/6 -> 2, 9/12 -> 3."""
    if per_page <= 2:
        return 1
    return max(1, round(math.sqrt(per_page * 0.72)))


def book_pages(
    items: Iterable[tuple[Puzzle, Grid | None, str]],
    *,
    per_page: int = 6,
    page: str = "a4",
    solutions: bool = False,
    pencil_marks: bool = False,
    title: str | None = None,
) -> list[Drawing]:
    """Lay puzzles out on pages for a puzzle book: ``per_page`` boards per page, each
    labelled, and with ``solutions`` the same boards solved on pages after the puzzles.

    ``items`` are (puzzle, solution or None, label). A puzzle without a solution is drawn
    unsolved on the solution page, labelled so. ``page`` is ``a4``, ``letter`` or
    ``board`` (each board on its own page of exactly its size).

    Raises:
        ValueError: for an unknown page size or a ``per_page`` below 1.
    """
    if per_page < 1:
        raise ValueError(f"per_page must be at least 1, got {per_page}")
    entries = list(items)
    if page == "board":
        pages = [
            _with_caption(_puzzle_drawing(p, pencil_marks=pencil_marks), label)
            for p, _, label in entries
        ]
        if solutions:
            pages += [
                _with_caption(
                    _puzzle_drawing(p, solution=s),
                    f"{label}: solution" if s is not None else f"{label}: no solution",
                )
                for p, s, label in entries
            ]
        return pages
    if page not in PAGE_SIZES:
        raise ValueError(f"unknown page size {page!r}; known: board, {', '.join(PAGE_SIZES)}")
    width, height = PAGE_SIZES[page]
    chunks = [entries[i : i + per_page] for i in range(0, len(entries), per_page)]
    pages = [
        _page(
            chunk,
            width,
            height,
            per_page,
            solved=False,
            pencil_marks=pencil_marks,
            heading=title,
            number=k + 1,
        )
        for k, chunk in enumerate(chunks)
    ]
    if solutions:
        heading = f"{title}: solutions" if title else "Solutions"
        pages += [
            _page(
                chunk,
                width,
                height,
                per_page,
                solved=True,
                pencil_marks=False,
                heading=heading,
                number=len(chunks) + k + 1,
            )
            for k, chunk in enumerate(chunks)
        ]
    return pages


def _page(
    chunk: Sequence[tuple[Puzzle, Grid | None, str]],
    width: float,
    height: float,
    per_page: int,
    *,
    solved: bool,
    pencil_marks: bool,
    heading: str | None,
    number: int,
) -> Drawing:
    margin = 36.0  # half an inch
    head = 28.0 if heading else 0.0
    foot = 18.0
    label_size = 10.0
    cols = _book_columns(per_page)
    rows = math.ceil(per_page / cols)
    slot_w = (width - 2 * margin) / cols
    slot_h = (height - 2 * margin - head - foot) / rows
    page = Drawing(width, height)
    if heading:
        page.items.append(
            _Text(width / 2, margin + 8, heading, 16.0, PALETTE.given, True, "heading")
        )
    for i, (puzzle, solution, label) in enumerate(chunk):
        n = puzzle.size
        left, top, right, bottom = _marks_of(puzzle.rules).bands(n)
        # leave room for the label and a caption line under the board, and for the clues
        # outside the grid
        cell = min(
            slot_w * 0.9 / (n + 0.5 + _BAND * (left + right)),
            (slot_h - 2.6 * label_size - 6) / (n + 0.5 + _BAND * (top + bottom)),
        )
        if solved:
            drawing = _puzzle_drawing(puzzle, solution=solution, cell_size=cell, margin=cell * 0.25)
            text = label if solution is not None else f"{label} (no solution found)"
        else:
            drawing = _puzzle_drawing(
                puzzle, pencil_marks=pencil_marks, cell_size=cell, margin=cell * 0.25
            )
            text = label
        r, c = divmod(i, cols)
        x = margin + c * slot_w + (slot_w - drawing.width) / 2
        y = margin + head + r * slot_h
        page.items.append(
            _Text(
                x + cell * 0.25,
                y + label_size * 0.6,
                text,
                label_size,
                PALETTE.caption,
                False,
                "label",
                anchor="start",
            )
        )
        page.place(drawing, x, y + label_size * 1.4)
    page.items.append(
        _Text(
            width / 2, height - margin / 2, str(number), 9.0, PALETTE.caption, False, "page-number"
        )
    )
    return page


def page_files(path: str | os.PathLike[str], pages: int) -> list[str]:
    """The files :func:`write_pages` writes ``pages`` pages to: ``path`` for one page or a
    PDF, else ``NAME-1.svg``, ``NAME-2.svg`` ..."""
    path = os.fspath(path)
    stem, ext = os.path.splitext(path)
    if pages == 1 or ext.lower() == ".pdf":
        return [path]
    return [f"{stem}-{k + 1}{ext}" for k in range(pages)]


def write_pages(pages: Sequence[Drawing], path: str | os.PathLike[str]) -> list[str]:
    """Write pages to ``path`` by its extension and return the files written.

    ``.pdf``: one document, one page each (matplotlib). ``.svg`` and ``.png``: one file per
    page; with several pages they are numbered ``NAME-1.svg``, ``NAME-2.svg`` ...

    Raises:
        ValueError: for another extension or no pages.
        ImportError: for PNG/PDF without matplotlib (naming the ``notebooks`` extra).
    """
    path = os.fspath(path)
    stem, ext = os.path.splitext(path)
    ext = ext.lower()
    if ext not in (".svg", ".png", ".pdf"):
        raise ValueError(f"{path}: the picture format comes from the extension: .svg, .png or .pdf")
    if not pages:
        raise ValueError("nothing to draw")
    if ext == ".pdf":
        figure_class = _figure_class()
        from matplotlib.backends.backend_pdf import PdfPages

        with PdfPages(path) as pdf:
            for page in pages:
                pdf.savefig(_figure(figure_class, page))
        return [path]
    names = page_files(path, len(pages))
    if ext == ".svg":
        for page, name in zip(pages, names):
            with open(name, "w", encoding="utf-8") as f:
                f.write(
                    page.to_svg(
                        units="pt" if page.width in {w for w, _ in PAGE_SIZES.values()} else ""
                    )
                )
        return names
    figure_class = _figure_class()
    for page, name in zip(pages, names):
        _figure(figure_class, page).savefig(name, dpi=150)
    return names


def _figure_class() -> Any:
    # Figure objects, not pyplot: no global backend switch (a notebook keeps its inline
    # plots) and no figure left open.
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ImportError(
            "PNG and PDF pictures need matplotlib: pip install 'sudoku-model[notebooks]'"
        ) from exc
    return Figure


def _figure(figure_class: Any, drawing: Drawing) -> Any:
    """A figure of the drawing's size in points, painted 1 unit = 1 point."""
    fig = figure_class(figsize=(drawing.width / 72.0, drawing.height / 72.0))
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, drawing.width)
    ax.set_ylim(drawing.height, 0)
    ax.set_axis_off()
    fig.patch.set_facecolor(PALETTE.background)
    drawing.paint(ax)
    return fig
