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
#: The adapters and the C backtracker keep their folders at the top of the repository and
#: are installed under the package (``sudoku_model.backends``, ``sudoku_model.native_backtrack``;
#: in the source tree ``sudoku_model/backends`` and ``sudoku_model/native_backtrack`` link
#: to those folders): they are layers of their own, not modules of the core.
MOUNTED = FORBIDDEN


def is_solver_module(name: str) -> bool:
    """Whether an imported module name is an adapter or the C backtracker."""
    parts = name.split(".")
    return parts[0] in FORBIDDEN or (
        parts[0] == "sudoku_model" and parts[1:2] != [] and parts[1] in MOUNTED
    )


def package_modules() -> list[Path]:
    """Every Python module of the package itself (not the mounted adapters and C wrapper)."""
    return sorted(
        p
        for p in PACKAGE.rglob("*.py")
        if p.relative_to(PACKAGE).parts[0] not in MOUNTED and "__pycache__" not in p.parts
    )


#: Modules allowed one named import, with the reason.
EXCEPTIONS = {
    # `sudoku cnf` writes the PySAT backend's encoding as DIMACS: a command about that
    # backend's encoder, not a workflow that solves; its option lists are the encoder's
    # names (a module without imports, so that the command line starts fast).
    ("cli/cnf.py", "sudoku_model.backends.cnf"),
    ("cli/cnf.py", "sudoku_model.backends.encodings"),
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
    modules = package_modules()
    assert len(modules) > 30
    found = []
    for path in modules:
        rel = path.relative_to(PACKAGE).as_posix()
        for line, name in imported_modules(ast.parse(path.read_text(), str(path))):
            if is_solver_module(name) and (rel, name) not in EXCEPTIONS:
                found.append(f"sudoku_model/{rel}:{line}: imports {name}")
    assert not found, "\n".join(found)


def test_the_scan_sees_imports_inside_functions() -> None:
    tree = ast.parse(
        "def f():\n    import native_backtrack as nb\n"
        "    from sudoku_model.backends.native import create\n"
        "    importlib.import_module('native_backtrack')\n"
    )
    assert [name for _, name in imported_modules(tree)] == [
        "native_backtrack",
        "sudoku_model.backends.native",
        "native_backtrack",
    ]


#: The compiled modules inside the package, each beside the one module that imports it:
#: C that is no solver lives with the Python it serves (DESIGN.md section 1b).
COMPILED = {
    "sudoku_model._minlex": "canon.py",  # sudoku_model/minlex.c
    "sudoku_model._columns": "records.py",  # sudoku_model/columns.c
    "sudoku_model._drat": "drat.py",  # sudoku_model/drat.c
    "sudoku_model.se._core": "se/native.py",  # the C files of sudoku_model/se/
}
#: Builds of the same C with test hooks: for tests and benchmarks, never the product.
TEST_BUILDS = ("sudoku_model._drat_testing", "sudoku_model.native_backtrack._testing")


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
    inside = {
        name for name in built if name.startswith("sudoku_model.") and not is_solver_module(name)
    }
    assert inside == set(COMPILED) | {
        n for n in TEST_BUILDS if n.startswith("sudoku_model.") and not is_solver_module(n)
    }
    assert set(TEST_BUILDS) <= set(built)
    for name, user in COMPILED.items():  # the C lies in the folder of its one importer
        sources = {Path(src).parent for src in built[name]["sources"]}
        assert sources == {Path("sudoku_model", user).parent}, name
    found = []
    for path in package_modules():
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


def _sources(name: str) -> list[Path]:
    """The files of workflow ``name``: its module, or every module of its package."""
    module = PACKAGE / f"{name}.py"
    return [module] if module.exists() else sorted((PACKAGE / name).rglob("*.py"))


def test_verify_and_generate_find_no_method_by_getattr() -> None:
    # fast paths are declared (Capabilities.fast_paths), never discovered
    for name in ("verify", "generate"):
        paths = _sources(name)
        assert paths, name
        for path in paths:
            tree = ast.parse(path.read_text())
            calls = [
                node.lineno
                for node in ast.walk(tree)
                if isinstance(node, ast.Call)
                and getattr(node.func, "id", None) in ("getattr", "hasattr")
            ]
            assert calls == [] or name == "generate" and _only_dataclass_fields(tree), (
                path.name,
                calls,
            )


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
    """Lines of a module of the package that import ``sudoku_model.formats``, in any
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
        # a module, or a package whose every module is read
        folder = PACKAGE / name
        paths = sorted(folder.rglob("*.py")) if folder.is_dir() else [PACKAGE / f"{name}.py"]
        for path in paths:
            tree = ast.parse(path.read_text(), str(path))
            rel = path.relative_to(PACKAGE).as_posix()
            found += [f"sudoku_model/{rel}:{line}" for line in formats_imports(tree)]
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


# -- the backend contract: declared, never probed (DESIGN.md section 3) ---------------------
ROOT = PACKAGE.parent
BACKENDS = ROOT / "backends"


def product_modules() -> list[Path]:
    """Every Python module of the product: the package, the adapters, the C wrapper."""
    return package_modules() + sorted(
        p
        for folder in (BACKENDS, ROOT / "native_backtrack")
        for p in folder.rglob("*.py")
        if "__pycache__" not in p.parts
    )


def _contract_names() -> set[str]:
    """Attribute names of the contract (Backend, Capabilities, RemovalOracle), less the
    generic ones (``close``, ``name``...) that other objects have too."""
    import dataclasses

    from sudoku_model.solving import Backend, Capabilities, RemovalOracle

    names = {n for cls in (Backend, RemovalOracle) for n in vars(cls) if not n.startswith("__")}
    names |= {f.name for f in dataclasses.fields(Capabilities)}
    return names - {"close", "name", "version", "stats", "rules", "solution", "budget"}


#: A first argument that names a backend, an engine, an oracle or a router.
BACKENDISH = ("backend", "engine", "oracle", "router", "fallback")


def backend_probes(tree: ast.AST, contract: set[str]) -> list[str]:
    """``getattr``/``hasattr`` calls on a backend: the first argument names one (see
    :data:`BACKENDISH`), or the attribute asked for is a name of the contract."""
    found = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in LOOKUPS
            and node.args
        ):
            continue
        target = ast.unparse(node.args[0]).lower()
        attr = node.args[1] if len(node.args) > 1 else None
        named = isinstance(attr, ast.Constant) and attr.value in contract
        if named or any(word in target for word in BACKENDISH):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_getattr_or_hasattr_on_a_backend_anywhere_in_the_product() -> None:
    contract = _contract_names()
    assert {"sub_solvers", "verify_plain_lines", "certifies", "bulk_verify"} <= contract
    found = []
    for path in product_modules():
        tree = ast.parse(path.read_text(), str(path))
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}:{hit}" for hit in backend_probes(tree, contract)]
    assert not found, "probes a backend instead of reading its capabilities:\n" + "\n".join(found)


def test_the_probe_scan_sees_a_probe() -> None:
    contract = _contract_names()
    tree = ast.parse(
        "variants = getattr(backend, 'sub_solvers', None)\n"
        "if hasattr(b, 'verify_plain_lines'): pass\n"
        "getattr(self._engine, 'anything')\n"
        "getattr(args, 'json', False)\n"  # not a backend
    )
    assert [hit.split(":")[0] for hit in backend_probes(tree, contract)] == ["1", "2", "3"]


#: The backend modules that are adapters (each has a ``create`` factory registered as an
#: entry point); the others (cnf, encodings, preprocess, threads) are their helpers.
def adapters() -> dict[str, ast.AST]:
    """Each adapter's source as one tree (an adapter that is a package: all its modules)."""
    out: dict[str, ast.AST] = {}
    for path in sorted(BACKENDS.iterdir()):
        if path.suffix == ".py":
            files = [path]
        elif (path / "__init__.py").is_file():
            files = sorted(path.rglob("*.py"))
        else:
            continue
        body = [node for f in files for node in ast.parse(f.read_text(), str(f)).body]
        if any(isinstance(n, ast.FunctionDef) and n.name == "create" for n in body):
            out[path.stem] = ast.Module(body=body, type_ignores=[])
    return out


#: The routing policy: the one backend that composes others (by name, through the
#: registry), and the one that may import an adapter (native, the engine it starts with).
POLICY = "auto"


def registry_lookups(tree: ast.AST) -> list[int]:
    """Lines that name ``get_backend`` (an import of it, a call, ``solving.get_backend``)."""
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and any(a.name == "get_backend" for a in node.names)
            or (isinstance(node, ast.Name) and node.id == "get_backend")
            or (isinstance(node, ast.Attribute) and node.attr == "get_backend")
        ):
            lines.append(node.lineno)
    return sorted(set(lines))


def test_no_adapter_calls_get_backend() -> None:
    found = adapters()
    assert {"native", "sat", "cpsat", "logic", POLICY} <= set(found)
    calls = {name: registry_lookups(tree) for name, tree in found.items() if name != POLICY}
    calls = {name: lines for name, lines in calls.items() if lines}
    assert not calls, f"adapters that look other backends up (routing is {POLICY}'s): {calls}"
    assert registry_lookups(found[POLICY]), "the policy composes its engines by name"


def test_the_lookup_scan_sees_every_spelling() -> None:
    tree = ast.parse(
        "def f():\n"
        "    from sudoku_model.solving import get_backend\n"
        "    return get_backend('pysat')\n"
        "g = solving.get_backend\n"
    )
    assert registry_lookups(tree) == [2, 3, 4]


def test_no_adapter_imports_another_adapter() -> None:
    found = adapters()
    bad = []
    for name, tree in found.items():
        for line, module in imported_modules(tree) + _relative_imports(tree):
            other = module.removeprefix("backends.").split(".")[0]
            if other in found and other != name and name != POLICY:
                bad.append(f"backends/{name}.py:{line}: imports {module}")
    assert not bad, "\n".join(bad)


def _relative_imports(tree: ast.AST) -> list[tuple[int, str]]:
    return [
        (node.lineno, f"backends.{node.module}")
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
    ]


# -- one executor policy ---------------------------------------------------------------------
#: Modules that still pick an executor kind by hand, until verify's rework moves them to
#: executor.executor_for (then this set is empty and stays so).
EXECUTOR_PENDING: set[str] = set()
POOLS = ("Executor", "ThreadPoolExecutor", "ProcessPoolExecutor")


def executors_built(tree: ast.AST) -> list[int]:
    """Lines that build an executor or a pool by hand (``Executor(...)``, a
    ``concurrent.futures`` pool, ``multiprocessing.Pool``)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in POOLS or (name == "Pool" and "multiprocessing" in ast.unparse(func)):
                lines.append(node.lineno)
    return lines


def test_every_workflow_gets_its_executor_from_the_policy() -> None:
    found = []
    for path in package_modules():
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "executor.py" or rel in EXECUTOR_PENDING:
            continue
        lines = executors_built(ast.parse(path.read_text(), str(path)))
        found += [f"sudoku_model/{rel}:{line}" for line in lines]
    assert not found, "build an executor by hand (use executor.executor_for):\n" + "\n".join(found)


def test_the_executor_scan_sees_every_spelling() -> None:
    tree = ast.parse(
        "a = Executor(kind='threads')\n"
        "b = futures.ThreadPoolExecutor(4)\n"
        "c = multiprocessing.Pool(2)\n"
        "d = executor_for(jobs=2)\n"
    )
    assert executors_built(tree) == [1, 2, 3]


# -- errors ------------------------------------------------------------------------------------
#: Exceptions that are no error: a signal received, carried like KeyboardInterrupt.
SIGNALS = {("executor.py", "Interrupted"), ("cli/common.py", "Terminated")}
#: Until verify's rework gives it the SudokuError base (then this set is empty).
ERRORS_PENDING: set[tuple[str, str]] = set()


def test_every_public_exception_is_a_sudoku_error() -> None:
    import importlib

    from sudoku_model.errors import SudokuError

    bad = []
    for path in product_modules():
        rel_root = path.relative_to(ROOT).with_suffix("")
        parts = list(rel_root.parts)
        if parts[0] in MOUNTED:  # installed under the package
            parts.insert(0, "sudoku_model")
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] == "__main__":
            continue
        tree = ast.parse(path.read_text(), str(path))
        classes = [n.name for n in tree.body if isinstance(n, ast.ClassDef)]
        if not classes:
            continue
        module = importlib.import_module(".".join(parts))
        rel = path.relative_to(PACKAGE).as_posix() if path.is_relative_to(PACKAGE) else ""
        for name in classes:
            cls = getattr(module, name)
            if not (isinstance(cls, type) and issubclass(cls, BaseException)):
                continue
            if name.startswith("_") or (rel, name) in SIGNALS | ERRORS_PENDING:
                continue  # private: control flow caught inside its module
            if not issubclass(cls, SudokuError):
                bad.append(f"{rel_root.as_posix()}.py: {name}")
    assert not bad, "exceptions outside SudokuError:\n" + "\n".join(bad)


def test_nothing_imports_the_folders_by_their_top_level_names() -> None:
    # The wheel installs the adapters and the C backtracker as sudoku_model.backends and
    # sudoku_model.native_backtrack only: an import of a top-level ``backends`` or
    # ``native_backtrack`` would work in the source tree and fail once installed.
    found = []
    for path in product_modules() + sorted((ROOT / "tests").rglob("*.py")):
        for line, name in imported_modules(ast.parse(path.read_text(), str(path))):
            if name.split(".")[0] in FORBIDDEN:
                found.append(f"{path.relative_to(ROOT).as_posix()}:{line}: imports {name}")
    assert not found, "\n".join(found)
