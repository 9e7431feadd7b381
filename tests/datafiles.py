"""Where the tests find their data files.

Every file the tests read that may be redistributed is in ``tests/data`` (its README gives
the source and licence of each). Two files are GPL-licensed (HoDoKu project data) and stay
outside the repository: they are looked for in the folder ``$SUDOKU_EXTERNAL_DATA`` names,
else in ``shared/data`` beside the clone (or beside a folder above it). Only the tests that
read them skip, with a reason naming the file, when they are absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEST_DATA = ROOT / "tests" / "data"

# the files that may not be copied into the repository (GPL-3.0)
EXTERNAL_FILES = ("hardest-1106-ratings.csv", "hodoku-reglib-1.3.txt")


def data_file(name: str) -> Path:
    """The path of ``tests/data/NAME``; raises FileNotFoundError when it is missing (every
    file there is part of the repository, so a missing one is a broken checkout)."""
    path = TEST_DATA / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing from the checkout")
    return path


def _external_folder() -> Path | None:
    named = os.environ.get("SUDOKU_EXTERNAL_DATA")
    if named is not None:
        return Path(named)
    for parent in ROOT.parents:
        if (parent / "shared" / "data").is_dir():
            return parent / "shared" / "data"
    return None


def external_data(name: str) -> Path | None:
    """The path of a GPL-licensed data file kept outside the repository, or None when it
    is not on this machine. Raises ValueError for a name that is not such a file."""
    if name not in EXTERNAL_FILES:
        raise ValueError(f"{name} is not an external data file; put it in tests/data")
    folder = _external_folder()
    path = folder / name if folder is not None else None
    return path if path is not None and path.exists() else None


def needs_external(name: str) -> pytest.MarkDecorator:
    """A skip mark for a test that reads the GPL-licensed file NAME (see external_data)."""
    return pytest.mark.skipif(
        external_data(name) is None,
        reason=f"needs {name} (GPL-3.0, not in the repository): put it in "
        "$SUDOKU_EXTERNAL_DATA or ../shared/data",
    )


def hardest_rows() -> list[list[str]]:
    """The rows of the forum's hardest list (``hardest-1106-ratings.csv``, see
    external_data), split at its commas, its two header lines left out: puzzle, label,
    poster, q1, q2, ER, EP, ED (the ratings may be empty), ... Raises FileNotFoundError
    when the file is not on this machine (a test that calls it carries needs_external)."""
    path = external_data("hardest-1106-ratings.csv")
    if path is None:
        raise FileNotFoundError("hardest-1106-ratings.csv is not on this machine")
    return [line.split(",") for line in path.read_text().splitlines()[2:]]


def shared_data(relative: str) -> Path | None:
    """The path of a file under the shared data folder (``$SUDOKU_EXTERNAL_DATA`` or
    ``shared/data`` beside the clone), e.g. ``pencilmark/gurobi_hard-50.txt``, or None
    when it is not on this machine (the tests that read it skip)."""
    folder = _external_folder()
    path = folder / relative if folder is not None else None
    return path if path is not None and path.exists() else None


#: The pencilmark sets (t-dillon/pencilmark_sudoku, ``hard/``) kept outside the
#: repository, in ``pencilmark/`` of the external data folder: one 729-character line a
#: puzzle, every one unique.
PENCILMARK_SETS = ("gurobi_hard-50.txt", "minisat_bt_020-029k-200.txt", "minisat_bt_1m+-20.txt")


def pencilmark_set(name: str) -> Path | None:
    """The path of a pencilmark set (:data:`PENCILMARK_SETS`), or None when it is not on
    this machine. Raises ValueError for another name."""
    if name not in PENCILMARK_SETS:
        raise ValueError(f"{name} is not a pencilmark set")
    return shared_data(f"pencilmark/{name}")
