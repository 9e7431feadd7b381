"""The backend registry: built-in names resolve without the entry-point scan, and the
built-in table is the one pyproject.toml declares (so the two cannot drift apart)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sudoku_model import solving
from sudoku_model.errors import BackendNotFoundError
from sudoku_model.solving import registry

ROOT = Path(__file__).resolve().parents[2]


def test_builtin_table_is_pyprojects_entry_points() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["entry-points"][solving.ENTRY_POINT_GROUP]
    assert declared == registry._BUILTIN


def test_builtin_table_matches_the_installed_entry_points() -> None:
    eps = registry._entry_points()
    for name, target in registry._BUILTIN.items():
        assert name in eps, f"{name}: reinstall the package (its metadata predates it)"
        assert eps[name].value == target


def test_a_builtin_name_does_not_scan_the_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    def scan() -> dict[str, object]:
        raise AssertionError("scanned")

    monkeypatch.setattr(registry, "_entry_points", scan)
    for name in ("auto", "native", "c", "pysat:glucose4", "cpsat", "logic"):
        assert solving.get_backend(name) is not None
    with pytest.raises(AssertionError, match="scanned"):
        solving.get_backend("no-such-backend")


def test_an_unknown_name_is_refused_with_the_known_ones() -> None:
    with pytest.raises(BackendNotFoundError, match="native"):
        solving.get_backend("no-such-backend")
