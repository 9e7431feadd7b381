"""The notebooks run top to bottom from a clean kernel, with small parameters and no network,
and are committed with their outputs stripped.

The kernel is the interpreter running the tests (``sys.executable``), whatever ``python3``
kernel spec the machine has: the installed spec says ``python``, which is whatever comes
first on PATH. ``SUDOKU_NOTEBOOK_SCALE`` (default 0.5 here) scales the notebooks' samples.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")
pytest.importorskip("pandas")

from jupyter_client.kernelspec import KernelSpec, KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402
from nbclient import NotebookClient  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = [
    "backends.ipynb",
    "encodings.ipynb",
    "verification.ipynb",
    "generation.ipynb",
    "minimal_puzzles.ipynb",
    "portfolio.ipynb",
]
#: Per notebook; each takes well under a minute at the default scale.
TIMEOUT_SECONDS = 120


class _ThisInterpreter(KernelSpecManager):
    """Kernel specs that all start ipykernel in the interpreter running the tests."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return KernelSpec(
            argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            display_name="Python 3 (tests)",
            language="python",
            resource_dir=str(NOTEBOOKS),
        )


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_top_to_bottom(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    monkeypatch.setenv("SUDOKU_NOTEBOOK_SCALE", os.environ.get("SUDOKU_NOTEBOOK_SCALE", "0.5"))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    km = KernelManager(kernel_name="python3", kernel_spec_manager=_ThisInterpreter())
    client = NotebookClient(
        nb,
        km=km,
        timeout=TIMEOUT_SECONDS,
        allow_errors=False,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError with the cell and traceback on failure
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert code_cells and all(c.execution_count for c in code_cells)
    # each notebook shows at least one picture (a plot or a drawn puzzle)
    mimes = {m for c in code_cells for out in c.get("outputs", []) for m in out.get("data", {})}
    assert mimes & {"image/png", "image/svg+xml"}


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_committed_without_outputs(name: str) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, (
                f"{name}: run `python notebooks/strip_outputs.py` before committing"
            )
    first = next(c for c in nb.cells if c.cell_type == "code")
    assert "SUDOKU_NOTEBOOK_SCALE" in first.source  # parameters come first
