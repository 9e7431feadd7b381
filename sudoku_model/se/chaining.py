"""Chains as Sudoku Explainer searches and rates them.

A *potential* is a candidate assumed true ("on") or false ("off"), encoded as an int:
``((cell * 9 + digit - 1) << 1) | on``. A derived potential is a node ``(key, parents)``
whose parents are the nodes it follows from; SE's rating of a chain grows with the number
of distinct potentials among a conclusion's ancestors (its *complexity*), so the nodes
keep exactly the parents SE would record, in SE's search order.

Families (SE's producers, in SE's order):

- cycles and forcing chains: bidirectional X-, Y- and XY-cycles (6.5 / 7.0) and forcing
  X- and XY-chains (6.6 / 7.0), on the static grid;
- multiple chains: Nishio forcing chains (7.5), multiple (cell and region) forcing chains
  (8.0), dynamic forcing chains (8.5), dynamic forcing chains "+" (level 1, 9.0), which
  also use the intersections, pairs and X-wings that a dynamic chain's removals reveal,
  and the nested dynamic forcing chains (levels 2 to 5, 9.5 to 11.0), which also use the
  hints of a chaining rule on the chain's grid.

Every rating gets SE's length addition: 0.1 for each step of the sequence
4, 6, 8, 12, 16, 24, ... that ``complexity - 2`` exceeds.

The product searches every family in C (:mod:`.native`: sudoku_model/se/se_static_chains.c,
se_dynamic_chains.c and se_nested.c); the Python searches of the multiple chains and of
every static hint are their reference under tests/se_reference. Here: :mod:`.potentials`
(potentials, their links, the hint of a chain, its length addition and name) and
:mod:`.static_chains` (the first producer, which the product runs where the C search
outgrows its node pool).
"""

from __future__ import annotations

from .potentials import NAKED as NAKED
from .potentials import NO_CAUSE as NO_CAUSE

# The names of __all__, and (by alias, ``X as X``) the parts' other names that callers and
# tests use.
from .potentials import ChainBudgetExceeded, chain_step, length_addition, nested_suffix
from .potentials import Node as Node
from .potentials import _chain as _chain
from .potentials import _Hint as _Hint
from .static_chains import cycles_and_forcing_chains

__all__ = [
    "length_addition",
    "cycles_and_forcing_chains",
    "ChainBudgetExceeded",
    "nested_suffix",
    "chain_step",
]
