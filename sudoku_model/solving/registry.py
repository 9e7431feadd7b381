"""The backend registry: names to factories, through the toolkit's own table, the
backends registered at run time and the ``sudoku_model.backends`` entry-point group."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..errors import BackendNotFoundError
from .contract import Backend

ENTRY_POINT_GROUP = "sudoku_model.backends"
#: The backend of the command line and of :func:`get_backend` without a name: the routing
#: policy ``auto`` (native, with SAT for what native answers slowly; ``backends/auto.py``).
DEFAULT_BACKEND = "auto"


# -- registry ------------------------------------------------------------------------------
_ALIASES = {"sat": "pysat", "cp-sat": "cpsat", "ortools": "cpsat", "c": "native"}


#: The toolkit's own backends, as pyproject.toml declares them in the entry-point group (a
#: test keeps the two equal). get_backend resolves these names without scanning every
#: installed distribution's entry points, which costs tens of milliseconds at each start of
#: the command line; other names (third-party backends) go through the scan.
_BUILTIN = {
    "auto": "sudoku_model.backends.auto:create",
    "native": "sudoku_model.backends.native:create",
    "pysat": "sudoku_model.backends.sat:create",
    "cpsat": "sudoku_model.backends.cpsat:create",
    "logic": "sudoku_model.backends.logic:create",
    "mip": "sudoku_model.backends.mip:create",
}


@lru_cache(maxsize=1)
def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _load_builtin(name: str) -> Callable[..., Backend]:
    import importlib

    module, _, attr = _BUILTIN[name].partition(":")
    factory: Callable[..., Backend] = getattr(importlib.import_module(module), attr)
    return factory


#: Backends registered at run time (:func:`register_backend`), by name.
_REGISTERED: dict[str, Callable[..., Backend]] = {}


def register_backend(name: str, factory: Callable[..., Backend]) -> None:
    """Register a backend factory under ``name`` for this process, beside the entry points
    (which it shadows): ``factory(sub, **options)`` is called as an entry point's is, with
    the part of the name after a colon (or None). For tests, notebooks and experiments; a
    package registers through the ``sudoku_model.backends`` entry-point group instead.

    The workflows' worker processes (:mod:`sudoku_model.executor`) register it again when
    ``factory`` can be pickled by reference (a module-level function or class of a module
    the workers can import); a lambda or a local function stays in this process: run such
    workflows with one job.

    Raises:
        ValueError: for an empty name or one with a colon.
    """
    key = name.strip().lower()
    if not key or ":" in key:
        raise ValueError(f"a backend name is a non-empty word without a colon, got {name!r}")
    _REGISTERED[key] = factory


def registered_backends() -> dict[str, Callable[..., Backend]]:
    """The backends of :func:`register_backend` in this process, by name."""
    return dict(_REGISTERED)


def unregister_backend(name: str) -> None:
    """Forget a backend of :func:`register_backend` (no error when there is none)."""
    _REGISTERED.pop(name.strip().lower(), None)


def available_backends() -> list[str]:
    """Names registered under the ``sudoku_model.backends`` entry-point group, the
    toolkit's own (even where the installed metadata predates one of them), and those of
    :func:`register_backend`."""
    return sorted(set(_entry_points()) | set(_BUILTIN) | set(_REGISTERED))


def get_backend(name: str = DEFAULT_BACKEND, **options: Any) -> Backend:
    """A new backend instance by name: ``auto`` (the default: the routing policy over the
    engines), ``native``, ``pysat`` / ``pysat:glucose4``, ``cpsat``, ``logic``,
    ``mip:highs`` (the ``mip`` extra).

    The part after a colon selects a sub-solver and is passed to the backend's factory.
    Names of :func:`register_backend` come first, then the toolkit's own (without
    scanning the installed entry points, which is slow), then the entry-point group.

    Raises:
        BackendNotFoundError: no backend of that name is registered.
        BackendUnavailableError: it is registered but its solver package is missing.
        ValueError: the sub-solver name is unknown to the backend.
    """
    base, _, sub = name.strip().partition(":")
    base = _ALIASES.get(base.lower(), base.lower())
    registered = _REGISTERED.get(base)
    if registered is not None:
        return registered(sub or None, **options)
    if base in _BUILTIN:
        return _load_builtin(base)(sub or None, **options)
    eps = _entry_points()
    if base not in eps:
        known = ", ".join(available_backends()) or "none (is the package installed?)"
        raise BackendNotFoundError(f"no backend named {name!r}; registered: {known}")
    factory: Callable[..., Backend] = eps[base].load()
    return factory(sub or None, **options)
