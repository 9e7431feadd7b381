"""Rules as data.

Every rule is one of a few kinds, and backends encode kinds, never rule names:

* :class:`AllDifferent` - a list of units, each a tuple of cells that must hold different
  digits (rows, columns, boxes, diagonals, windoku windows, jigsaw regions). A unit of n
  cells also means "every digit once"; a shorter unit (a diagonal is always n long, but a
  user unit need not be) only means "no repeats".
* :class:`Different` - pairs of cells that must differ (anti-knight, anti-king).
* :class:`Relation` - ordered pairs of cells whose two digits must form an allowed pair of
  one table (kropki dots and their negative constraint, XV, thermometers, greater-than
  signs, non-consecutive).
* :class:`Domain` - cells whose digit must lie in a given set (even and odd cells; the
  candidates of a pencilmark puzzle, the rule named :data:`CANDIDATES_RULE`).
* :class:`Sum` - groups of cells whose weighted digit sum is fixed, optionally with
  distinct digits (killer cages, little killer and sum lines, arrows).
* :class:`Sandwich` - rows or columns where the digits strictly between the 1 and the n
  sum to a clue.

A :class:`RuleSet` is the shape plus an ordered tuple of rules. It is immutable and hashable
(backends key their long-lived solvers on it) and derives, once, the tables every solver
needs: all units, the extra pairs no unit already covers, and the peers of each cell.

>>> from sudoku_model.geometry import Shape
>>> rs = RuleSet.build(Shape(3, 3), variants=["diagonal"])
>>> [r.name for r in rs.rules]
['rows', 'columns', 'boxes', 'diagonals']
>>> len(rs.units), len(rs.peers[0])
(29, 26)

The package, one concern per module: :mod:`.kinds` (the rule kinds and their checks),
:mod:`.variants` (the all-different rules and the classic variants by name),
:mod:`.constraints` (the constructors of the constraint kinds, one per variant family),
:mod:`.tables` (the constructors of the rules stated as :class:`Table` lists: between and
lockout lines, quadruples, X-sums, skyscrapers...) and :mod:`.ruleset` (:class:`RuleSet`
and its derived tables).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .constraints import (
    anti_taxicab_rules,
    arrow_rule,
    double_arrow_rule,
    entropic_rule,
    equal_sums_rule,
    greater_than_rule,
    indexing_rules,
    killer_rule,
    kropki_rules,
    modular_rules,
    nonconsecutive_rule,
    palindrome_rule,
    parity_rule,
    region_sum_lines_rule,
    renban_rules,
    sandwich_rule,
    sum_lines_rule,
    thermometer_rule,
    weighted_sums_rule,
    whisper_rule,
    xv_rules,
    zipper_rule,
)
from .kinds import (
    CANDIDATES_RULE,
    RULE_KINDS,
    AllDifferent,
    Different,
    Domain,
    Relation,
    Rule,
    RuleError,
    Sandwich,
    Sum,
    SumGroup,
    Table,
    Violation,
)
from .kinds import ConstraintRule as ConstraintRule
from .kinds import sandwich_sums as sandwich_sums
from .ruleset import RuleSet
from .variants import VARIANTS
from .variants import anti_king_rule as anti_king_rule
from .variants import anti_knight_rule as anti_knight_rule
from .variants import boxes_rule as boxes_rule
from .variants import canonical_variant as canonical_variant
from .variants import columns_rule as columns_rule
from .variants import diagonals_rule as diagonals_rule
from .variants import regions_rule as regions_rule
from .variants import rows_rule as rows_rule
from .variants import windoku_rule as windoku_rule

if TYPE_CHECKING:  # imported on first use: the table kinds are needed by few puzzles
    from .tables import (
        between_rule,
        dutch_flatmates_rules,
        equality_cage_rules,
        global_entropy_rule,
        global_mod_rule,
        lockout_rules,
        look_and_say_rules,
        lunchbox_rules,
        quadruple_rules,
        rellik_cage_rules,
        segment_sum_rules,
        skyscraper_rules,
        value_indexing_rules,
        x_sum_rules,
    )


def __getattr__(name: str) -> Any:
    """The table kinds' constructors (the names of :mod:`.tables`), imported when first
    asked for: few puzzles need them, and every start-up would pay for the import."""
    tables = importlib.import_module(".tables", __name__)
    if name in tables.__all__:
        return vars(tables)[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CANDIDATES_RULE",
    "RULE_KINDS",
    "VARIANTS",
    "AllDifferent",
    "Different",
    "Domain",
    "Relation",
    "Rule",
    "RuleError",
    "RuleSet",
    "Sandwich",
    "Sum",
    "SumGroup",
    "Table",
    "Violation",
    "anti_taxicab_rules",
    "arrow_rule",
    "between_rule",
    "double_arrow_rule",
    "dutch_flatmates_rules",
    "entropic_rule",
    "equal_sums_rule",
    "equality_cage_rules",
    "global_entropy_rule",
    "global_mod_rule",
    "greater_than_rule",
    "indexing_rules",
    "killer_rule",
    "kropki_rules",
    "lockout_rules",
    "look_and_say_rules",
    "lunchbox_rules",
    "modular_rules",
    "nonconsecutive_rule",
    "palindrome_rule",
    "parity_rule",
    "quadruple_rules",
    "region_sum_lines_rule",
    "rellik_cage_rules",
    "renban_rules",
    "sandwich_rule",
    "segment_sum_rules",
    "skyscraper_rules",
    "sum_lines_rule",
    "thermometer_rule",
    "value_indexing_rules",
    "weighted_sums_rule",
    "whisper_rule",
    "x_sum_rules",
    "xv_rules",
    "zipper_rule",
]
