"""Bundled puzzle collections (provenance in README.md beside this file).

>>> sorted(BUNDLED)[:3]
['17-clue', 'counts-43', 'easy50']
>>> bundled_path("top95").name
'top95.txt'
>>> resolve_input("bundled:top95")[1], resolve_input("my/puzzles.txt")
('top95', ('my/puzzles.txt', None))
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["BUNDLED", "DATA_DIR", "bundled_path", "resolve_input"]

DATA_DIR = Path(__file__).resolve().parent

#: Name -> (file name, number of puzzles).
BUNDLED: dict[str, tuple[str, int]] = {
    "17-clue": ("17-clue.txt.gz", 49158),
    "magictour-top1465": ("magictour-top1465.txt", 1465),
    "forum-hardest-1106": ("forum-hardest-1106.txt", 375),
    "top95": ("top95.txt", 95),
    "hardest": ("hardest.txt", 11),
    "easy50": ("easy50.txt", 50),
    "counts-43": ("counts-43.txt", 43),
}


def bundled_path(name: str) -> Path:
    """The path of a bundled collection by name (``top95``, ``17-clue`` ...).

    Raises:
        KeyError: for an unknown name, listing the known ones.
    """
    key = name.removesuffix(".txt.gz").removesuffix(".txt")
    if key not in BUNDLED:
        raise KeyError(f"no bundled collection {name!r}; bundled: {', '.join(sorted(BUNDLED))}")
    return DATA_DIR / BUNDLED[key][0]


def resolve_input(text: str, *, bare_names: bool = False) -> tuple[str | Path, str | None]:
    """The file behind an input argument, and the bundled collection it names (or None):
    ``bundled:NAME`` is a bundled collection; with ``bare_names``, so is a plain ``NAME``
    of one when no file of that name exists; anything else is a path, returned as given.
    The one resolver of the command line and :func:`sudoku_model.compare.load_puzzles`.

    Raises:
        KeyError: for ``bundled:NAME`` with an unknown name, listing the known ones.
    """
    if text.startswith("bundled:"):
        name = text.split(":", 1)[1]
        return bundled_path(name), name.removesuffix(".txt.gz").removesuffix(".txt")
    if bare_names and not os.path.exists(text):
        key = text.removesuffix(".txt.gz").removesuffix(".txt")
        if key in BUNDLED:
            return bundled_path(key), key
    return text, None
