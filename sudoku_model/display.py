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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape, quoteattr

from .geometry import Shape
from .grid import DEFAULT_ALPHABET, Alphabet, Grid
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


_Item = _Rect | _Line | _Text


@dataclass
class Drawing:
    """Shapes in a ``width`` x ``height`` box (y grows downward), in drawing units
    (pixels on screen, points on a page)."""

    width: float
    height: float
    items: list[_Item] = field(default_factory=list)

    def place(self, other: Drawing, dx: float, dy: float) -> None:
        """Copy ``other``'s shapes into this drawing, shifted by (dx, dy)."""
        for it in other.items:
            if isinstance(it, _Rect):
                self.items.append(_Rect(it.x + dx, it.y + dy, it.w, it.h, it.fill, it.css))
            elif isinstance(it, _Line):
                self.items.append(
                    _Line(
                        it.x1 + dx, it.y1 + dy, it.x2 + dx, it.y2 + dy, it.width, it.color, it.css
                    )
                )
            else:
                self.items.append(
                    _Text(
                        it.x + dx, it.y + dy, it.text, it.size, it.color, it.bold, it.css, it.anchor
                    )
                )

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
        (x from 0 to width, y from height down to 0) and 1 unit = 1 point."""
        from matplotlib.collections import LineCollection
        from matplotlib.patches import Rectangle

        for it in self.items:
            if isinstance(it, _Rect):
                ax.add_patch(
                    Rectangle(
                        (it.x, it.y), it.w, it.h, facecolor=it.fill, edgecolor="none", zorder=1
                    )
                )
        segments: dict[tuple[float, str], list] = {}
        for it in self.items:
            if isinstance(it, _Line):
                segments.setdefault((it.width, it.color), []).append(
                    [(it.x1, it.y1), (it.x2, it.y2)]
                )
        # thin lines first, so thick box borders are painted over them
        for (width, color), segs in sorted(segments.items(), key=lambda kv: kv[0][0]):
            ax.add_collection(
                LineCollection(
                    segs, linewidths=width, colors=color, capstyle="projecting", zorder=2
                )
            )
        for it in self.items:
            if isinstance(it, _Text):
                ax.text(
                    it.x,
                    it.y,
                    it.text,
                    fontsize=it.size,
                    color=it.color,
                    fontweight="bold" if it.bold else "normal",
                    ha="center" if it.anchor == "middle" else "left",
                    va="center",
                    zorder=3,
                )


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
    """For each empty cell, the digits no peer holds (empty set for filled cells).

    >>> from sudoku_model import Grid, RuleSet
    >>> g = Grid.parse(".2..3....1....4.")
    >>> sorted(candidates(RuleSet.classic(g.shape), g.values)[0])
    [1, 4]
    """
    n = rules.shape.size
    peers = rules.peers
    everything = frozenset(range(1, n + 1))
    out: list[frozenset[int]] = []
    for cell, v in enumerate(values):
        if v:
            out.append(frozenset())
        else:
            out.append(everything - {values[p] for p in peers[cell]})
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
    ``highlight`` maps cells to a fill colour. A caption line is added under the grid for
    ``caption`` and for rules that are not drawn (anti-knight, anti-king).

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
    captions = [c for c in (_variant_caption(rules), caption) if c]
    caption_size = max(9.0, min(13.0, cell * 0.42))
    height = side + 2 * pad + len(captions) * caption_size * 1.5
    d = Drawing(side + 2 * pad, height)

    def x_of(col: float) -> float:
        return pad + col * cell

    def y_of(row: float) -> float:
        return pad + row * cell

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
    # diagonals under the digits
    if any(isinstance(r, AllDifferent) and r.name == "diagonals" for r in rules.rules):
        width = max(1.0, cell * 0.06)
        d.items.append(
            _Line(x_of(0), y_of(0), x_of(n), y_of(n), width, palette.diagonal, "diagonal")
        )
        d.items.append(
            _Line(x_of(n), y_of(0), x_of(0), y_of(n), width, palette.diagonal, "diagonal")
        )
    _grid_lines(d, shape, _region_labels(rules), cell, x_of, y_of, palette)

    symbols = alphabet.symbols
    digit_size = cell * 0.6
    for c, v in enumerate(values):
        if not v:
            continue
        r, k = divmod(c, n)
        is_given = givens is None or givens[c] == v
        d.items.append(
            _Text(
                x_of(k + 0.5),
                y_of(r + 0.52),
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
    y = side + 2 * pad
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
        # leave room for the label and a caption line under the board
        room = min(slot_w * 0.9, slot_h - 2.6 * label_size - 6)
        cell = room / (n + 0.5)
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
    names = [path] if len(pages) == 1 else [f"{stem}-{k + 1}{ext}" for k in range(len(pages))]
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
