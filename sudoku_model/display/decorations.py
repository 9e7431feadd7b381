"""The rules beyond all-different, drawn on a board as
:func:`sudoku_model.rule_marks.rule_marks` reads them: even and odd cells, thermometers,
sum lines, arrows, killer cages and their totals, the marks between two cells (kropki
dots, XV, greater-than signs), the clues outside the grid (sandwich, little killer) and the
variant lines (whispers, renban, palindromes...) with the legend that names their colours."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from ..rule_marks import Line, OutsideClue, Quadruple, RuleMarks, rule_marks
from ..rules import RuleSet
from .drawing import Drawing, Palette, _Circle, _Path, _Rect, _Text

#: Width, in cells, of the band outside the grid that holds sandwich and little killer clues.
_BAND = 0.8
#: How far a cage outline stands inside its cells' borders, in cells.
_CAGE_INSET = 0.1


#: How each look of :class:`~sudoku_model.rule_marks.Line` is drawn: the palette colour,
#: the width in cells, and the colour's name in the legend.
_LINE_STYLES: dict[str, tuple[Callable[[Palette], str], float, str]] = {
    "whisper": (lambda p: p.whisper, 0.22, "green lines"),
    "dutch-whisper": (lambda p: p.dutch_whisper, 0.22, "orange lines"),
    "renban": (lambda p: p.renban, 0.28, "purple lines"),
    "palindrome": (lambda p: p.palindrome, 0.22, "grey lines"),
    "entropic": (lambda p: p.entropic, 0.22, "teal lines"),
    "modular": (lambda p: p.modular, 0.22, "gold lines"),
    "region-sum": (lambda p: p.region_sum, 0.12, "blue lines"),
    "zipper": (lambda p: p.zipper, 0.22, "lavender lines"),
    "double-arrow": (lambda p: p.double_arrow, 0.06, "grey lines circled at both ends"),
    "equal-sum": (lambda p: p.equal_sum, 0.12, "red lines"),
    "between": (lambda p: p.between, 0.12, "grey lines circled at both ends"),
    "lockout": (lambda p: p.lockout, 0.12, "blue lines with diamonds at both ends"),
    "segment-sum": (lambda p: p.segment_sum, 0.18, "blue lines"),
    "lunchbox": (lambda p: p.lunchbox, 0.18, "violet lines, total at the first cell"),
    "value-indexing": (lambda p: p.value_indexing, 0.18, "apricot lines from the value cell"),
}


def line_legend(marks: RuleMarks) -> list[str]:
    """One caption per kind of variant line drawn: its name, colour and rule (``German
    whispers (green lines): neighbours on a line differ by at least 5``)."""
    out = []
    for look, label in marks.legend():
        name, _, rule = label.partition(": ")
        out.append(f"{name} ({_LINE_STYLES[look][2]}): {rule}")
    return out


def _variant_line(d: Drawing, line: Line, cell: float, centre: Any, palette: Palette) -> None:
    """One variant line through its cells' centres (a double arrow with a circle at each
    end, the line stopping at the circles)."""
    colour_of, width, _ = _LINE_STYLES[line.look]
    colour = colour_of(palette)
    css = f"line-{line.look}"
    points = tuple(centre(c) for c in line.cells)
    if len(points) == 1:
        points = (points[0], points[0])
    d.items.append(_Path((points,), False, "none", colour, cell * width, css, round=True))
    if line.look == "lockout":
        for x, y in (points[0], points[-1]):
            r = cell * 0.36
            diamond = ((x, y - r), (x + r, y), (x, y + r), (x - r, y))
            d.items.append(
                _Path(
                    (diamond,),
                    True,
                    palette.background,
                    colour,
                    max(0.8, cell * 0.05),
                    css + "-end",
                )
            )
    if line.look in ("double-arrow", "between"):
        for x, y in (points[0], points[-1]):
            d.items.append(
                _Circle(
                    x,
                    y,
                    cell * 0.38,
                    palette.background,
                    colour,
                    max(0.8, cell * 0.05),
                    f"{css}-end",
                )
            )


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


def _label_size(cell: float) -> float:
    """The font size of the totals in cage and sum-line corners."""
    return max(5.0, cell * 0.26)


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

    for variant_line in marks.lines:
        _variant_line(d, variant_line, cell, centre, palette)
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
    size = _label_size(cell)
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
        corner = cage.corner
        if corner is not None:
            r, c = divmod(cage.cells[0], n)
            at = _CAGE_INSET * 0.5
            _corner_label(
                d,
                x_of(c + at),
                y_of(r + at),
                corner,
                size,
                palette.cage,
                "cage-total" if cage.look == "killer" else f"cage-{cage.look}",
                palette,
            )
    for labelled in marks.lines:
        if labelled.text is not None:
            r, c = divmod(labelled.cells[0], n)
            _corner_label(
                d,
                x_of(c + 0.05),
                y_of(r + 0.05),
                labelled.text,
                size,
                palette.clue,
                "line-text",
                palette,
            )
    for quad in marks.quadruples:
        _quadruple(d, quad, n, cell, x_of, y_of, palette)
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


def _quadruple(
    d: Drawing, quad: Quadruple, n: int, cell: float, x_of: Any, y_of: Any, palette: Palette
) -> None:
    """A white circle on the corner the 2x2 square shares, its digits in one row (up to
    two) or two rows (three or four)."""
    r, c = divmod(quad.corner, n)
    x, y = x_of(c + 1), y_of(r + 1)
    width = max(0.6, cell * 0.03)
    d.items.append(_Circle(x, y, cell * 0.27, palette.background, palette.mark, width, "quadruple"))
    digits = [str(v) for v in quad.digits]
    rows = [digits] if len(digits) <= 2 else [digits[:2], digits[2:]]
    size = cell * (0.2 if len(rows) == 1 else 0.17)
    for i, row in enumerate(rows):
        dy = 0.0 if len(rows) == 1 else (i - 0.5) * size * 1.05
        d.items.append(
            _Text(x, y + dy, " ".join(row), size, palette.mark, False, "quadruple-digits")
        )


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
        d.items.append(_Text(x, y, clue.text, size, palette.clue, False, f"{clue.look}-clue"))
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
