"""Strip outputs, execution counts and run metadata from the notebooks before committing.

python notebooks/strip_outputs.py            # every notebook in this folder
python notebooks/strip_outputs.py X.ipynb    # some of them
python notebooks/strip_outputs.py --check    # exit 1 if any notebook has outputs
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

#: Notebook-level metadata worth keeping; the rest (widgets, execution times) is run noise.
KEEP_METADATA = ("kernelspec", "language_info")


def strip(nb: nbformat.NotebookNode) -> bool:
    """Strip a notebook in place; True when something changed."""
    changed = False
    for cell in nb.cells:
        if cell.cell_type == "code":
            if cell.outputs or cell.execution_count is not None:
                cell.outputs = []
                cell.execution_count = None
                changed = True
        if cell.get("metadata"):
            cell.metadata = {}
            changed = True
    extra = [k for k in nb.metadata if k not in KEEP_METADATA]
    for key in extra:
        del nb.metadata[key]
    if "language_info" in nb.metadata and set(nb.metadata.language_info) != {"name"}:
        nb.metadata.language_info = {"name": nb.metadata.language_info.get("name", "python")}
        changed = True
    return changed or bool(extra)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [Path(a) for a in argv if a != "--check"] or sorted(
        Path(__file__).resolve().parent.glob("*.ipynb")
    )
    dirty = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if strip(nb):
            dirty.append(path)
            if not check:
                nbformat.write(nb, path)
    for path in dirty:
        print(f"{'has outputs' if check else 'stripped'}: {path}")
    return 1 if check and dirty else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
