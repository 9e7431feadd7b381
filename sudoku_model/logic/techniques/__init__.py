"""The techniques of the logical solver, as data, in order of difficulty.

Each technique is a function ``(CandidateGrid) -> Step | None`` that finds one deduction
without applying it. :data:`TECHNIQUES` lists them with their level and per-step score
(scores follow the spirit of Sudoku Explainer ratings: singles ~1, locked candidates
~2.6, pairs ~3, fish and wings 3.2-5.2, chains 4.5-7).

Where each is defined:

* singles, hidden subsets, locked candidates, colouring and X-chains need units of n cells
  (every digit once), so they use :attr:`RuleSet.full_units`;
* naked subsets work in every all-different unit (killer cages included);
* the techniques of :mod:`.killer` reason on relation, sum, sandwich and table rules;
* fish use the row and column units (present in every rule set ``RuleSet.build`` makes);
* wings and chains use "sees" = :attr:`RuleSet.peers`, so Different pairs (anti-knight,
  anti-king) count.

No default technique assumes the puzzle has a unique solution, so every step is true of
every solution, and counting after logic gives the puzzle's own count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import CandidateGrid
from ..steps import Step
from .chains import simple_colouring, x_chain, xy_chain
from .fish import jellyfish, swordfish, x_wing
from .intersections import locked_claiming, locked_pointing
from .killer import (
    cage_combination,
    cage_unit_overlap,
    innies_outies,
    relation_pruning,
    sandwich_bounds,
    sum_bounds,
    table_pruning,
)
from .singles import hidden_single, naked_single
from .subsets import hidden_pair, hidden_quad, hidden_triple, naked_pair, naked_quad, naked_triple
from .wings import xy_wing, xyz_wing

__all__ = ["Technique", "TECHNIQUES", "TECHNIQUES_BY_KEY", "LEVELS", "SINGLES", "select_techniques"]

#: Difficulty levels, easiest first; ``extreme`` means the techniques were not enough.
#: The bands follow the usual grader families: easy = singles; medium = intersections,
#: pairs and naked triples; hard = larger subsets, X-Wing, Swordfish, XY/XYZ-Wing and
#: simple colouring; expert = Jellyfish and chains. (With X-Wing and hidden triples alone
#: in "hard", under 1% of generated minimal 9x9 puzzles graded hard.)
LEVELS = ("easy", "medium", "hard", "expert", "extreme")


@dataclass(frozen=True)
class Technique:
    """A named deduction rule with its difficulty."""

    key: str
    title: str
    find: Callable[[CandidateGrid], Step | None]
    level: str
    score: float
    assumes_uniqueness: bool = False

    def __repr__(self) -> str:
        return f"<Technique {self.key} ({self.level}, {self.score})>"


TECHNIQUES: tuple[Technique, ...] = (
    Technique("naked_single", "naked single", naked_single, "easy", 1.0),
    Technique("hidden_single", "hidden single", hidden_single, "easy", 1.2),
    # Relation, sum, sandwich and table rules (killer cages, dots, arrows...); they return at
    # once on rule sets without such rules. Scores placed among the classic ones by how
    # much they ask of a solver: pairs and cages first, bounds and the 45 rule next.
    Technique("relation_pruning", "relation pruning", relation_pruning, "easy", 1.4),
    Technique("cage_combination", "cage combinations", cage_combination, "easy", 1.5),
    Technique("table_pruning", "table pruning", table_pruning, "easy", 1.6),
    Technique("sum_bounds", "sum bounds", sum_bounds, "medium", 2.0),
    Technique("sandwich_bounds", "sandwich bounds", sandwich_bounds, "medium", 2.2),
    Technique("innies_outies", "innies and outies (45 rule)", innies_outies, "medium", 2.5),
    Technique("locked_pointing", "locked candidates (pointing)", locked_pointing, "medium", 2.6),
    Technique("cage_unit_overlap", "cage-unit overlap", cage_unit_overlap, "medium", 2.7),
    Technique("locked_claiming", "locked candidates (claiming)", locked_claiming, "medium", 2.8),
    Technique("naked_pair", "naked pair", naked_pair, "medium", 3.0),
    Technique("hidden_pair", "hidden pair", hidden_pair, "medium", 3.4),
    Technique("naked_triple", "naked triple", naked_triple, "medium", 3.6),
    Technique("hidden_triple", "hidden triple", hidden_triple, "hard", 4.0),
    Technique("x_wing", "X-Wing", x_wing, "hard", 3.2),
    Technique("naked_quad", "naked quad", naked_quad, "hard", 5.0),
    Technique("hidden_quad", "hidden quad", hidden_quad, "hard", 5.4),
    Technique("swordfish", "Swordfish", swordfish, "hard", 3.8),
    Technique("xy_wing", "XY-Wing", xy_wing, "hard", 4.2),
    Technique("xyz_wing", "XYZ-Wing", xyz_wing, "hard", 4.4),
    Technique("simple_colouring", "simple colouring", simple_colouring, "hard", 4.5),
    Technique("jellyfish", "Jellyfish", jellyfish, "expert", 5.2),
    Technique("x_chain", "X-chain", x_chain, "expert", 6.6),
    Technique("xy_chain", "XY-chain", xy_chain, "expert", 6.8),
)

TECHNIQUES_BY_KEY: dict[str, Technique] = {t.key: t for t in TECHNIQUES}

#: Naked and hidden singles only.
SINGLES: tuple[Technique, ...] = TECHNIQUES[:2]


def select_techniques(
    keys: Sequence[str] | None = None, *, allow_uniqueness: bool = False
) -> tuple[Technique, ...]:
    """Techniques by key, in difficulty order (all default ones when ``keys`` is None).

    Raises:
        ValueError: for an unknown key, listing the known ones; for a technique that
            assumes uniqueness when ``allow_uniqueness`` is False.
    """
    if keys is None:
        return tuple(t for t in TECHNIQUES if allow_uniqueness or not t.assumes_uniqueness)
    wanted = set()
    for key in keys:
        k = key.strip().lower().replace("-", "_").replace(" ", "_")
        if k not in TECHNIQUES_BY_KEY:
            raise ValueError(f"unknown technique {key!r}; known: {', '.join(TECHNIQUES_BY_KEY)}")
        if TECHNIQUES_BY_KEY[k].assumes_uniqueness and not allow_uniqueness:
            raise ValueError(f"technique {k} assumes a unique solution; allow it explicitly")
        wanted.add(k)
    return tuple(t for t in TECHNIQUES if t.key in wanted)
