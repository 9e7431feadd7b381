"""sudoku_model.widgets without anywidget: the module imports, ``Editor`` is its
module-level class, and making one says what to install."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
sys.modules["anywidget"] = None  # as if not installed: importing it raises ImportError
import sudoku_model.widgets as widgets
from sudoku_model.widgets import Editor
assert not widgets.HAVE_ANYWIDGET
assert Editor.__module__ == "sudoku_model.widgets" and Editor.__qualname__ == "Editor"
try:
    Editor()
except ImportError as exc:
    print("refused:", exc)
"""


def test_widgets_import_without_anywidget() -> None:
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == (
        "refused: the notebook editor needs anywidget: pip install 'sudoku-model[editor]'"
    )
