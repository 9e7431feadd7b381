"""Who may import whom (DESIGN.md section 1): the package ``sudoku_model`` imports no solver.
Every module of it is read with ``ast`` (imports inside functions included) and none may
import ``native_backtrack`` or ``backends``: the workflows reach solvers only through the
registry and the declared backend contract. Its own compiled modules (no solvers) are
imported only by the module each serves."""

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


#: The compiled modules inside the package, each beside the one module that imports it:
#: C that is no solver lives with the Python it serves (DESIGN.md section 1b).
COMPILED = {
    "sudoku_model._minlex": "canon.py",  # sudoku_model/minlex.c
    "sudoku_model._drat": "drat.py",  # sudoku_model/drat.c
    "sudoku_model.se._core": "se/native.py",  # sudoku_model/se/se_core.c
}
#: Builds of the same C with test hooks: for tests and benchmarks, never the product.
TEST_BUILDS = ("sudoku_model._drat_testing", "native_backtrack._testing")


def absolute_imports(tree: ast.AST, package: str) -> list[tuple[int, str]]:
    """Every module a file of ``package`` imports, relative imports resolved, and for
    ``from X import name`` also ``X.name`` (which may be a module)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return out


def test_compiled_modules_are_imported_only_by_the_module_they_serve() -> None:
    import tomllib

    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
    built = {ext["name"]: ext for ext in pyproject["tool"]["setuptools"]["ext-modules"]}
    inside = {name for name in built if name.startswith("sudoku_model.")}
    assert inside == set(COMPILED) | {n for n in TEST_BUILDS if n.startswith("sudoku_model.")}
    assert set(TEST_BUILDS) <= set(built)
    for name, user in COMPILED.items():  # the C lies in the folder of its one importer
        sources = {Path(src).parent for src in built[name]["sources"]}
        assert sources == {Path("sudoku_model", user).parent}, name
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        dotted = "sudoku_model." + rel[: -len(".py")].replace("/", ".")
        package = dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]
        for line, name in absolute_imports(ast.parse(path.read_text(), str(path)), package):
            if name in TEST_BUILDS or (name in COMPILED and COMPILED[name] != rel):
                found.append(f"sudoku_model/{rel}:{line}: imports {name}")
    assert not found, "\n".join(found)


def test_the_import_resolver_sees_relative_imports() -> None:
    tree = ast.parse("from . import _core as _c\nfrom .._drat import Formula\n")
    assert absolute_imports(tree, "sudoku_model.se") == [
        (1, "sudoku_model.se"),
        (1, "sudoku_model.se._core"),
        (2, "sudoku_model._drat"),
        (2, "sudoku_model._drat.Formula"),
    ]


LOOKUPS = ("getattr", "hasattr")


def test_verify_and_generate_find_no_method_by_getattr() -> None:
    # fast paths are declared (Capabilities.fast_paths), never discovered
    for name in ("verify.py", "generate.py"):
        tree = ast.parse((PACKAGE / name).read_text())
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
