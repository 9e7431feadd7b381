"""Who may import whom (DESIGN.md section 1): the package ``sudoku_model`` imports no solver.
Every module of it is read with ``ast`` (imports inside functions included) and none may
import ``native_backtrack`` or ``backends``: the workflows reach solvers only through the
registry and the declared backend contract."""

from __future__ import annotations

import ast
from pathlib import Path

import sudoku_model

FORBIDDEN = ("native_backtrack", "backends")
PACKAGE = Path(sudoku_model.__file__).parent

#: Modules allowed one named import, with the reason.
EXCEPTIONS = {
    # `sudoku cnf` writes the PySAT backend's encoding as DIMACS: a command about that
    # backend's encoder, not a workflow that solves.
    ("cli/cnf.py", "backends.cnf"),
    # Canonical forms are no solver: the C minlex is an optional accelerator beside an
    # exact pure-Python search (the same answers, tested against each other).
    ("canon.py", "native_backtrack"),
    # check-certificate's default DRAT checker is C code in that package, and no solver:
    # native_backtrack/drat.c shares no code with the backtracker (a test says so).
    ("certificates.py", "native_backtrack"),
    # The SE rater's technique searches in C (native_backtrack/se_core.c) are no solver:
    # an accelerator beside the Python techniques, compared with them hint for hint.
    ("se/native.py", "native_backtrack"),
}


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            # importlib.import_module("native_backtrack") is an import too
            if node.args and isinstance(node.args[0], ast.Constant):
                out.append((node.lineno, str(node.args[0].value)))
    return out


def test_the_package_imports_no_solver() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 30
    found = []
    for path in modules:
        rel = path.relative_to(PACKAGE).as_posix()
        for line, name in imported_modules(ast.parse(path.read_text(), str(path))):
            top = name.split(".")[0]
            if top in FORBIDDEN and (rel, name) not in EXCEPTIONS:
                found.append(f"sudoku_model/{rel}:{line}: imports {name}")
    assert not found, "\n".join(found)


def test_the_scan_sees_imports_inside_functions() -> None:
    tree = ast.parse(
        "def f():\n    import native_backtrack as nb\n"
        "    from backends.native import create\n"
        "    importlib.import_module('native_backtrack')\n"
    )
    assert [name for _, name in imported_modules(tree)] == [
        "native_backtrack",
        "backends.native",
        "native_backtrack",
    ]


LOOKUPS = ("getattr", "hasattr")


def test_verify_and_generate_find_no_method_by_getattr() -> None:
    # fast paths are declared (Capabilities.fast_paths), never discovered
    for path in [*sorted((PACKAGE / "verify").glob("*.py")), PACKAGE / "generate.py"]:
        name = path.name
        tree = ast.parse(path.read_text())
        calls = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in ("getattr", "hasattr")
        ]
        assert calls == [] or name == "generate.py" and _only_dataclass_fields(tree), (name, calls)


def _only_dataclass_fields(tree: ast.AST) -> bool:
    # GenerationSpec validates its own fields with getattr(self, name): not a capability
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in LOOKUPS:
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Name) and first.id == "self"):
                return False
    return True


#: The core: the modules a Grid and a Puzzle are made of. None imports ``formats`` (which
#: reads records built of them), so the core has no import cycle; the text of a grid's
#: cells is ``gridtext``, below ``grid``.
CORE = ("geometry", "grid", "gridtext", "rules", "puzzle", "errors")


def formats_imports(tree: ast.AST) -> list[int]:
    """Lines of a top-level package module that import ``sudoku_model.formats``, in any
    spelling (relative or absolute, the module or a name from it, inside functions too)."""
    target = "sudoku_model.formats"
    lines = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = "sudoku_model" + (f".{base}" if base else "")
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant):
                names = [str(node.args[0].value)]
        if any(n == target or n.startswith(target + ".") for n in names):
            lines.append(node.lineno)
    return lines


def test_the_core_does_not_import_formats() -> None:
    found = []
    for name in CORE:
        path = PACKAGE / f"{name}.py"
        tree = ast.parse(path.read_text(), str(path))
        found += [f"sudoku_model/{name}.py:{line}" for line in formats_imports(tree)]
    assert not found, "imports sudoku_model.formats:\n" + "\n".join(found)


def test_the_formats_scan_sees_every_spelling() -> None:
    tree = ast.parse(
        "from .formats import parse_grid\n"
        "def f():\n"
        "    from . import formats\n"
        "    import sudoku_model.formats\n"
        "    from sudoku_model.formats import Record\n"
        "    importlib.import_module('sudoku_model.formats')\n"
        "    from . import grid, gridtext\n"
        "    from .formatting import x\n"
    )
    assert formats_imports(tree) == [1, 3, 4, 5, 6]
