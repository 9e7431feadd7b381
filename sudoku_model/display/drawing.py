"""Drawings: shapes in a box (rectangles, lines, texts, circles, paths) written as a
standalone SVG document or painted on a matplotlib ``Axes``, the colours they are drawn in,
and drawings put side by side or over a caption."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from xml.sax.saxutils import escape, quoteattr


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
    # the variant lines, in the colours the setters' tools use
    whisper: str = "#5fcf5f"  # green
    dutch_whisper: str = "#ff9933"  # orange
    renban: str = "#d77fe8"  # purple
    palindrome: str = "#b3b3b3"  # grey
    entropic: str = "#45b8b8"  # teal
    modular: str = "#e0bb3a"  # gold
    region_sum: str = "#3d9df0"  # blue
    zipper: str = "#c7b3f2"  # lavender
    double_arrow: str = "#8c8c8c"  # grey, thin, a circle at each end
    equal_sum: str = "#ef8a8a"  # light red
    between: str = "#a0a0a0"  # grey, circles at both ends
    lockout: str = "#7fb2e6"  # light blue, diamonds at both ends
    segment_sum: str = "#6fa8dc"  # blue
    lunchbox: str = "#b58bd1"  # violet
    value_indexing: str = "#f2a65a"  # apricot


PALETTE = Palette()
FONT_FAMILY = "DejaVu Sans, Helvetica, Arial, sans-serif"


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


# -- drawings put together -----------------------------------------------------------------
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
