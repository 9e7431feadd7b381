"""Pages for printing (``sudoku render``): boards laid out on a4 or letter pages for a
puzzle book (:func:`book_pages`), written by :func:`write_pages` as SVG here and as PNG or
PDF through matplotlib (imported only then; it comes with the ``notebooks`` extra)."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .decorations import _BAND, _marks_of
from .drawing import PALETTE, Drawing, _Text, _with_caption
from .pictures import _puzzle_drawing

if TYPE_CHECKING:  # pragma: no cover - imports for annotations only
    from ..grid import Grid
    from ..puzzle import Puzzle

#: Page sizes in points (1/72 inch), portrait.
PAGE_SIZES: dict[str, tuple[float, float]] = {"a4": (595.0, 842.0), "letter": (612.0, 792.0)}


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
