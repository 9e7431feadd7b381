"""Symmetric clue layouts: the orbits of a symmetry group of the square, in which the
removal pass takes clues away (see :mod:`sudoku_model.generate`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ..geometry import Shape
from ..grid import Grid


def _transforms(n: int) -> dict[str, Callable[[int, int], tuple[int, int]]]:
    m = n - 1
    return {
        "rot90": lambda r, c: (c, m - r),
        "rot180": lambda r, c: (m - r, m - c),
        "mirror": lambda r, c: (r, m - c),  # left-right
        "flip": lambda r, c: (m - r, c),  # top-bottom
        "diagonal": lambda r, c: (c, r),  # about the main diagonal
        "antidiagonal": lambda r, c: (m - c, m - r),
    }


#: Symmetry name -> the generating transforms of its group (positions only, not digits).
_SYMMETRY_GENERATORS: dict[str, tuple[str, ...]] = {
    "none": (),
    "rot180": ("rot180",),
    "rot90": ("rot90",),
    "mirror": ("mirror",),
    "flip": ("flip",),
    "diagonal": ("diagonal",),
    "antidiagonal": ("antidiagonal",),
    "biaxial": ("mirror", "flip"),  # both axes (implies rot180)
    "bidiagonal": ("diagonal", "antidiagonal"),  # both diagonals (implies rot180)
    "dihedral": ("rot90", "mirror"),  # all eight symmetries of the square
}

#: Names accepted by ``--symmetry``.
SYMMETRIES = tuple(_SYMMETRY_GENERATORS)


@lru_cache(maxsize=256)
def symmetry_orbits(shape: Shape, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The cells grouped into orbits of a symmetry group of the square (clue positions).

    ``none`` gives one orbit per cell; ``rot180`` pairs each cell with its image through
    the centre; ``dihedral`` uses all eight symmetries. Orbits are sorted by their first
    cell, each orbit's cells in increasing order.

    Raises:
        ValueError: for an unknown symmetry name, listing the known ones.
    """
    key = symmetry.strip().lower()
    if key not in _SYMMETRY_GENERATORS:
        raise ValueError(f"unknown symmetry {symmetry!r}; known: {', '.join(SYMMETRIES)}")
    n = shape.size
    maps = _transforms(n)
    generators = [maps[g] for g in _SYMMETRY_GENERATORS[key]]
    seen: set[int] = set()
    orbits = []
    for cell in range(n * n):
        if cell in seen:
            continue
        orbit = {cell}
        frontier = [divmod(cell, n)]
        while frontier:
            r, c = frontier.pop()
            for g in generators:
                r2, c2 = g(r, c)
                image = r2 * n + c2
                if image not in orbit:
                    orbit.add(image)
                    frontier.append((r2, c2))
        seen |= orbit
        orbits.append(tuple(sorted(orbit)))
    return tuple(orbits)


def is_symmetric(grid: Grid, symmetry: str) -> bool:
    """True when the filled cells of ``grid`` form a union of orbits of ``symmetry``."""
    values = grid.values
    return all(
        len({bool(values[c]) for c in orbit}) == 1
        for orbit in symmetry_orbits(grid.shape, symmetry)
    )
