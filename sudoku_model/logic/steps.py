"""One deduction of the logical solver: a :class:`Step`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tables import Tables

__all__ = ["Step"]


@dataclass(frozen=True)
class Step:
    """A deduction: what the technique saw and what it concluded.

    Attributes:
        technique: the technique's key (``hidden_single``, ``x_wing`` ...).
        placements: (cell, digit) pairs the step fills in.
        eliminations: (cell, digit) candidates the step removes.
        cells: the cells forming the pattern (the reason).
        units: indices of the units involved (names via ``RuleSet.unit_name``).
        digits: the digits the pattern is about.
        explanation: one line for a human, cells written ``r3c7``.
    """

    technique: str
    placements: tuple[tuple[int, int], ...]
    eliminations: tuple[tuple[int, int], ...]
    cells: tuple[int, ...]
    units: tuple[int, ...]
    digits: tuple[int, ...]
    explanation: str

    def to_json(self, tables: Tables) -> dict[str, Any]:
        """A JSON-ready dict with cells and units by name."""
        name = tables.cell_names
        return {
            "technique": self.technique,
            "placements": [[name[c], d] for c, d in self.placements],
            "eliminations": [[name[c], d] for c, d in self.eliminations],
            "cells": [name[c] for c in self.cells],
            "units": [tables.unit_names[u] for u in self.units],
            "digits": list(self.digits),
            "explanation": self.explanation,
        }


def elimination_text(tables: Tables, eliminations: list[tuple[int, int]]) -> str:
    """``r1c2<>5, r1c3<>5`` (cells in order, digits grouped)."""
    by_digit: dict[int, list[int]] = {}
    for c, d in eliminations:
        by_digit.setdefault(d, []).append(c)
    parts = []
    for d in sorted(by_digit):
        parts.append(f"{d} from {tables.cells_text(sorted(by_digit[d]))}")
    return "remove " + "; ".join(parts)
