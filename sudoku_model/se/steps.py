"""One step of the SE rater: what it removes or places, and its SE rating."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .state import BIT, State, cell_name

__all__ = ["SEStep", "apply_step"]


@dataclass(frozen=True)
class SEStep:
    """A deduction with Sudoku Explainer's name and rating.

    Attributes:
        technique: SE's name of the technique (``Hidden Single``, ``X-Wing``,
            ``Forcing Chain`` ...).
        rating: SE's rating of this step (length additions included for chains).
        eliminations: (cell, digit) candidates the step removes, cells 0..80.
        placement: (cell, digit) the step places, or None.
        cells: the cells of the pattern (for the explanation).
        complexity: for chains, the number of nodes SE counts (0 otherwise).
        regions: for intersections, subsets and fish, the regions of the pattern (base
            region(s) first, then cover region(s)); what a dynamic chain "+" needs to
            name the removals a pattern depends on. Empty for other techniques.
    """

    technique: str
    rating: float
    eliminations: tuple[tuple[int, int], ...] = ()
    placement: tuple[int, int] | None = None
    cells: tuple[int, ...] = ()
    complexity: int = 0
    sort_key: int = field(default=0, compare=False)
    regions: tuple[int, ...] = field(default=(), compare=False)

    @property
    def er(self) -> float:
        """The rating rounded to one decimal, as SE prints it."""
        return round(self.rating + 1e-9, 1)

    def describe(self) -> str:
        """``Hidden Single (1.5): r3c7=4`` or ``X-Wing (3.2): r1c5<>7, r4c5<>7``."""
        parts = []
        if self.placement is not None:
            c, d = self.placement
            parts.append(f"{cell_name(c)}={d}")
        elim = ", ".join(f"{cell_name(c)}<>{d}" for c, d in sorted(self.eliminations))
        if elim:
            parts.append(elim)
        return f"{self.technique} ({self.er:.1f}): {'; '.join(parts)}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: technique, rating, eliminations and placement by cell name."""
        out: dict[str, Any] = {"technique": self.technique, "rating": self.er}
        if self.placement is not None:
            out["placement"] = [cell_name(self.placement[0]), self.placement[1]]
        if self.eliminations:
            out["eliminations"] = [[cell_name(c), d] for c, d in sorted(self.eliminations)]
        return out


def apply_step(state: State, step: SEStep) -> None:
    """Carry out a step on ``state``: remove its eliminations, then place its value
    (SE applies an indirect hint's removals before the value it implies)."""
    cands = state.cands
    for c, d in step.eliminations:
        cands[c] &= ~BIT[d]
    if step.placement is not None:
        state.place(*step.placement)
