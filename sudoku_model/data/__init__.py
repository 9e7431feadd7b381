"""Bundled puzzle collections (provenance in README.md beside this file).

>>> sorted(BUNDLED)[:3]
['17-clue', 'counts-43', 'easy50']
>>> bundled_path("top95").name
'top95.txt'
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["BUNDLED", "DATA_DIR", "bundled_path"]

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
