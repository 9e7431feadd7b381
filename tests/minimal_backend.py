"""A backend written from the contract alone: the template for a new backend (a z3
adapter, say; ``sudoku_model/DESIGN.md``, "Adding a backend", says the rest).

It is a pure-Python backtracker that implements only what
:class:`~sudoku_model.solving.Backend` requires, and the tests run every workflow with it
(``tests/test_minimal_backend.py``) and the contract suite against it. Copy it, replace
the search, keep the shape:

1. **A name and capabilities, as data.** ``name`` is what ``get_backend`` is called with
   and what answers carry. :class:`~sudoku_model.solving.Capabilities` declares the rule
   kinds and sizes (anything else is refused before a search, with the reason), the
   budgets honoured, and every optional path: ``fast_paths`` (primitives overridden),
   ``releases_gil`` (threads may run the searches), ``bulk_verify``, ``certifies``,
   ``sub_solvers``. Leave an optional path undeclared and the generic default runs (or,
   for certificates, :class:`~sudoku_model.errors.NotSupported` says why not); workflows
   read these fields and never probe methods.
2. **One method, ``_search(puzzle, *, limit, budget) -> SearchOutcome``**: up to ``limit``
   solutions of a puzzle whose givens do not clash (the base class answers clashing ones),
   ``complete`` when the search space was exhausted, ``stopped_by_budget`` when the budget
   ended it (then the verdict is ``unknown``, never an exception), counters under the
   stable keys (``nodes``...). The base class builds ``solve``, ``count``, ``solutions``,
   ``check_unique`` and every primitive on it.
3. **Interruption.** Poll ``self._check_interrupt()`` in long loops (here every 256
   nodes): after :meth:`~sudoku_model.solving.Backend.interrupt` it raises
   :class:`~sudoku_model.errors.SearchInterrupted`. A solver that can be stopped from
   outside overrides ``interrupt()`` to stop it too (calling ``super().interrupt()``).
4. **Resources.** Override ``close()`` to free solvers and caches (this one holds none).
5. **A factory**, ``create(sub, **options)``: the part of the name after a colon and the
   options of ``get_backend``; refuse what it does not know with ``ValueError``. Register
   it in your package's ``pyproject.toml``::

       [project.entry-points."sudoku_model.backends"]
       z3 = "sudoku_z3.backend:create"

   (tests and notebooks may use :func:`sudoku_model.solving.register_backend` instead, as
   the tests of this one do). Import the solver package lazily, in the factory, and raise
   :class:`~sudoku_model.errors.BackendUnavailableError` naming what to install when it
   is missing.

A module of its own (importable as ``minimal_backend`` once ``tests/`` is on ``sys.path``),
so that its factory :func:`create` pickles by reference and the executor's worker processes
can register it again.
"""

from __future__ import annotations

import time
from typing import Any

from sudoku_model import Puzzle
from sudoku_model.grid import Grid
from sudoku_model.rules import RULE_KINDS
from sudoku_model.solving import Backend, Budget, Capabilities, SearchOutcome

NAME = "minimal"


class MinimalBackend(Backend):
    """Depth-first search on candidate bitmasks, the cell with fewest candidates first."""

    name = NAME
    # Every optional path left at its default: no fast paths (the generic primitives run),
    # holds the GIL (workflows use processes), no bulk verify, no certificates, no
    # sub-solvers, no routing.
    capabilities = Capabilities(
        frozenset(RULE_KINDS),
        min_size=4,
        max_size=16,
        budgets=("seconds", "nodes"),
        notes="tests only: a plain Python backtracker",
    )

    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        rules = puzzle.rules
        n = puzzle.size
        full = (1 << n) - 1
        peers = [tuple(p) for p in rules.peers]
        values = list(puzzle.givens.values)
        deadline = budget.deadline(time.perf_counter())
        found: list[Grid] = []
        nodes = 0
        stopped = False
        # Relation, domain, sum and sandwich rules: a branch dies as soon as the filled
        # cells break one (the rules' own checkers, so this backend is an oracle that
        # shares no encoding with the solvers it is compared with).
        broken = rules.violations if rules.constraint_rules else None

        def candidates(cell: int) -> int:
            used = 0
            for p in peers[cell]:
                if values[p]:
                    used |= 1 << (values[p] - 1)
            return full & ~used

        def walk() -> bool:
            """False when the search must stop (limit reached or budget spent)."""
            nonlocal nodes, stopped
            nodes += 1
            if nodes % 256 == 0:
                self._check_interrupt()  # raises SearchInterrupted after interrupt()
            if (budget.nodes is not None and nodes > budget.nodes) or (
                deadline is not None and nodes % 256 == 0 and time.perf_counter() > deadline
            ):
                stopped = True
                return False
            best, best_mask, best_count = -1, 0, n + 1
            for cell, v in enumerate(values):
                if not v:
                    mask = candidates(cell)
                    count = mask.bit_count()
                    if count < best_count:
                        best, best_mask, best_count = cell, mask, count
                        if count <= 1:
                            break
            if best < 0:
                found.append(Grid._trusted(puzzle.shape, tuple(values)))
                return len(found) < limit
            while best_mask:
                bit = best_mask & -best_mask
                best_mask ^= bit
                values[best] = bit.bit_length()
                if broken is not None and broken(values):
                    continue
                if not walk():
                    values[best] = 0
                    return False
            values[best] = 0
            return True

        complete = walk()
        stats: dict[str, Any] = {"nodes": nodes}
        return SearchOutcome(found, complete, stats, stopped_by_budget=stopped)


def create(sub: str | None = None, **options: Any) -> MinimalBackend:
    """The factory registered under :data:`NAME` (as an entry point's would be called).

    Raises:
        ValueError: for a sub-solver name or an option (this backend takes none).
    """
    if sub:
        raise ValueError(f"the {NAME} backend has no sub-solver; got {sub!r}")
    if options:
        raise ValueError(f"unknown option(s) for the {NAME} backend: {', '.join(sorted(options))}")
    return MinimalBackend()
