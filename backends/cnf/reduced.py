"""The CNF of one puzzle with what its givens decide taken out (:class:`ReducedCNF`): the
encoding of a one-off large grid's search, beside the rule encodings of
:mod:`backends.cnf`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sudoku_model.errors import SudokuError
from sudoku_model.rules import RuleSet

__all__ = ["ReducedCNF", "Stopped"]


class Stopped(SudokuError):
    """``stop()`` answered true while a :class:`ReducedCNF` was built (its caller's budget
    ran out); always caught by that caller."""


class ReducedCNF:
    """The rules of one puzzle with what its givens decide taken out (Kwon & Jain 2006):
    a variable only for each (empty cell, digit no peer given holds), at-least-one and
    pairwise at-most-one per cell and per (unit, digit not given in the unit), "different"
    pairs on shared candidates. For a one-off large grid: a minimal 25x25 puzzle leaves
    about a fifth of the full encoding's 15,625 variables and a small part of its 752,500
    clauses, built in tens of milliseconds instead of loading the whole formula.

    Only units and "different" pairs (rules without :attr:`RuleSet.constraint_rules`).
    ``impossible`` is True when the givens leave some cell or some unit digit no place
    (no solution; ``clauses`` is then incomplete).
    """

    def __init__(
        self,
        rules: RuleSet,
        givens: Sequence[int],
        *,
        stop: Callable[[], bool] | None = None,
        level: str = "givens",
    ) -> None:
        """``stop()`` is asked every n cells and every unit; a true answer raises
        :class:`Stopped`. ``level`` (one of :data:`backends.preprocess.LEVELS`) narrows
        the candidates first with :func:`backends.preprocess.reduce_candidates`; the
        cells it decides then count as givens (:meth:`decode` fills them in,
        :meth:`blocking_clause` leaves them out: no solution differs there). The default,
        ``givens``, only takes out what a peer given holds: stronger levels were measured
        no faster on minimal 25x25 puzzles (``bench_large.py variants``).

        Raises:
            ValueError: ``level`` is not one of the levels.
        """
        n = rules.shape.size
        peers = rules.peers
        cand: list[tuple[int, ...]] = []
        contradiction = False
        if level != "givens":
            from ..preprocess import reduce_candidates

            reduced = reduce_candidates(rules, givens, level, stop=stop)
            givens = tuple(reduced.values)
            contradiction = reduced.contradiction
            for cell, value in enumerate(givens):
                mask = 0 if value else reduced.candidates[cell]
                cand.append(tuple(d for d in range(1, n + 1) if mask >> d & 1))
        else:
            full = frozenset(range(1, n + 1))
            for cell, value in enumerate(givens):
                if value:
                    cand.append(())
                    continue
                cand.append(tuple(sorted(full.difference([givens[p] for p in peers[cell]]))))
        self.givens = givens
        # var(cell, digit) = cell_var[cell] + index of digit among the cell's candidates
        self.candidates = cand
        var_of: list[dict[int, int]] = []
        top = 0
        clauses: list[list[int]] = []
        for cell, digits in enumerate(cand):
            if stop is not None and not cell % n and stop():
                raise Stopped
            table = {}
            for d in digits:
                top += 1
                table[d] = top
            var_of.append(table)
            if digits:
                lits = list(table.values())
                clauses.append(lits)
                clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
        self.impossible = contradiction or any(not c and not v for c, v in zip(cand, givens))
        full_units = set(rules.full_units)
        for unit in rules.units:
            if stop is not None and stop():
                raise Stopped
            placed = {givens[c] for c in unit if givens[c]}
            is_full = unit in full_units
            for d in range(1, n + 1):
                if d in placed:
                    continue
                lits = [var_of[c][d] for c in unit if d in var_of[c]]
                if is_full:
                    if not lits:  # the digit has no place left in this unit
                        self.impossible = True
                    clauses.append(lits)
                clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
        for a, b in rules.pairs:
            for d, va in var_of[a].items():
                vb = var_of[b].get(d)
                if vb is not None:
                    clauses.append([-va, -vb])
        self.var_of = var_of
        self.num_vars = top
        self.clauses = clauses
        # (var, cell, digit) of every variable, in variable order
        self.meaning = [(v, c, d) for c, table in enumerate(var_of) for d, v in table.items()]

    def decode(self, model: Sequence[int]) -> tuple[int, ...]:
        """The full grid of a model: the givens plus the true candidate of each cell."""
        values = list(self.givens)
        for v, c, d in self.meaning:
            if model[v - 1] > 0:
                values[c] = d
        return tuple(values)

    def blocking_clause(self, grid: Sequence[int], cells: Sequence[int] | None = None) -> list[int]:
        """ "Some empty cell (of ``cells``, default all) differs from ``grid``". Cells
        the givens (or a ``level``'s eliminations) decide are left out: no solution differs
        there, so the clause may be empty (no such solution)."""
        var_of = self.var_of
        givens = self.givens
        if cells is None:
            cells = [c for c, v in enumerate(givens) if not v]
        return [-var_of[c][grid[c]] for c in cells if not givens[c]]

    def phases_of(self, grid: Sequence[int]) -> list[int]:
        """Every variable's literal, positive where ``grid`` holds that digit."""
        return [v if grid[c] == d else -v for v, c, d in self.meaning]
