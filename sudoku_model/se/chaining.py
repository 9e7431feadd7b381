"""Chains as Sudoku Explainer searches and rates them.

A *potential* is a candidate assumed true ("on") or false ("off"), encoded as an int:
``((cell * 9 + digit - 1) << 1) | on``. A derived potential is a node ``(key, parents)``
whose parents are the nodes it follows from; SE's rating of a chain grows with the number
of distinct potentials among a conclusion's ancestors (its *complexity*), so the nodes
keep exactly the parents SE would record, in SE's search order.

Families (SE's producers, in SE's order):

- :func:`cycles_and_forcing_chains`: bidirectional X-, Y- and XY-cycles (6.5 / 7.0) and
  forcing X- and XY-chains (6.6 / 7.0), on the static grid;
- :func:`multiple_chains` with ``nishio``, ``multiple``, ``dynamic`` and ``level``:
  Nishio forcing chains (7.5), multiple (cell and region) forcing chains (8.0), dynamic
  forcing chains (8.5) and dynamic forcing chains "+" (level 1, 9.0), which also use the
  intersections, pairs and X-wings that a dynamic chain's removals reveal.

Every rating gets SE's length addition: 0.1 for each step of the sequence
4, 6, 8, 12, 16, 24, ... that ``complexity - 2`` exceeds.

The searches live in three modules: :mod:`.potentials` (potentials, their links, the
complexity and the hint of a chain), :mod:`.static_chains` (the first producer) and
:mod:`.dynamic_chains` (the multiple-chain producers and their nesting levels); this
module keeps their names together.
"""

from __future__ import annotations

from .dynamic_chains import Advanced as Advanced
from .dynamic_chains import PlusRule as PlusRule
from .dynamic_chains import _chain_rule_parents as _chain_rule_parents
from .dynamic_chains import _do_chaining as _do_chaining
from .dynamic_chains import _Multiple as _Multiple
from .dynamic_chains import _nested_advanced as _nested_advanced
from .dynamic_chains import _static_chaining as _static_chaining

# The names of __all__, and (by alias, ``X as X``) the parts' other names that callers and
# tests use.
from .dynamic_chains import multiple_chains, nested_suffix
from .potentials import NAKED as NAKED
from .potentials import NO_CAUSE as NO_CAUSE
from .potentials import ChainBudgetExceeded, chain_step, length_addition
from .potentials import Node as Node
from .potentials import _chain as _chain
from .potentials import _Hint as _Hint
from .static_chains import _reversed_cycle as _reversed_cycle
from .static_chains import _static_tables as _static_tables
from .static_chains import cycles_and_forcing_chains

__all__ = [
    "length_addition",
    "cycles_and_forcing_chains",
    "multiple_chains",
    "ChainBudgetExceeded",
    "nested_suffix",
    "chain_step",
]
