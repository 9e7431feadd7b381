"""Shared test options and fixtures.

``--backend NAME`` (repeatable, or a comma list) chooses the backends the contract suite
runs against: ``pytest tests/backends --backend=pysat:glucose4``. Without it, every
registered backend whose factory loads is used; one that does not load is skipped with the
reason (an explicitly named one that does not load is an error).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from _pytest.doctest import DoctestModule

from sudoku_model.solving import Backend, available_backends, get_backend


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> object:
    """Nothing under ``tests/`` is collected for ``--doctest-modules``: the test modules
    hold no doctests, and the benchmark scripts under ``tests/benchmarks`` must not be
    imported by a test run at all (they are run by hand)."""
    collected = yield
    return [c for c in collected or [] if not isinstance(c, DoctestModule)]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        action="append",
        default=[],
        metavar="NAME",
        help="backend(s) for the backend contract tests (repeatable or comma list; "
        "default: every registered backend that loads)",
    )


def _requested(config: pytest.Config) -> list[str]:
    names: list[str] = []
    for value in config.getoption("--backend") or []:
        names.extend(x.strip() for x in value.split(",") if x.strip())
    return list(dict.fromkeys(names))


@cache
def load_backend(name: str) -> Backend:
    """One instance per name for the whole session (SAT engines stay loaded)."""
    return get_backend(name)


def _load_error(name: str) -> str | None:
    try:
        load_backend(name)
    except Exception as exc:  # noqa: BLE001 - any failure to load is a reason to skip
        return f"backend {name} does not load: {type(exc).__name__}: {exc}"
    return None


def selected_backends(config: pytest.Config) -> list[tuple[str, str | None]]:
    """(name, reason it cannot run or None) for each backend under test."""
    requested = _requested(config)
    if requested:
        return [(name, None) for name in requested]  # load errors surface in the tests
    return [(name, _load_error(name)) for name in available_backends()]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend_name" in metafunc.fixturenames:
        params = [
            pytest.param(name, id=name, marks=pytest.mark.skip(reason=reason) if reason else ())
            for name, reason in selected_backends(metafunc.config)
        ]
        metafunc.parametrize("backend_name", params)


@pytest.fixture
def backend(backend_name: str) -> Backend:
    """The backend under test (shared across tests of the session)."""
    return load_backend(backend_name)


@pytest.fixture(scope="session")
def loadable_backends(pytestconfig: pytest.Config) -> list[Backend]:
    """Every backend that loads among those selected; when fewer than two are selected,
    every registered backend that loads (a differential test needs two)."""
    chosen = [name for name, reason in selected_backends(pytestconfig) if reason is None]
    if len(chosen) < 2:
        extra = [name for name in available_backends() if _load_error(name) is None]
        chosen = list(dict.fromkeys(chosen + extra))
    return [load_backend(name) for name in chosen]


_SIGNALS_AT_START = {
    s: __import__("signal").getsignal(s)
    for s in (__import__("signal").SIGINT, __import__("signal").SIGTERM)
}


@pytest.fixture(autouse=True)
def _signal_handlers_restored() -> object:
    """Every test starts with the session's SIGINT/SIGTERM handlers. A command run in this
    process that received a signal leaves both ignored on purpose (``stop_on_signals(linger
    =True)``: the process is about to exit); ignored signals are inherited by every child
    process a later test starts, whose interrupt test would then wait in vain."""
    import signal

    yield
    for s, h in _SIGNALS_AT_START.items():
        if signal.getsignal(s) is not h:
            signal.signal(s, h)
