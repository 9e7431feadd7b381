"""The certificate encoding, rebuilt from the puzzle alone: short on purpose, to be audited.

This module is the trusted side of ``sudoku check-certificate``. It shares no code with
the solvers or their encoder (``backends/cnf.py``): it imports nothing of ``backends``
and only reads the rules as data (all-different units, different pairs). Everything
a certificate checker must believe about the CNF is here.

Encoding ``sudoku-cert-1`` for an n x n grid (README, "Certificates"):

* variable ``x(c, d) = c * n + d`` for cell ``c = r * n + col`` (0-based row and column)
  and digit ``d`` in 1..n: cell (r, col) holds d <=> variable ``r*n*n + col*n + d``;
* every cell holds a digit: ``x(c,1) | ... | x(c,n)``;
* no cell holds two: ``-x(c,d) | -x(c,e)`` for d < e;
* all-different unit U, digit d, cells a < b of U: ``-x(a,d) | -x(b,d)``;
* all-different unit of exactly n cells, digit d: ``OR x(c,d) for c in U``;
* different pair (a, b), digit d: ``-x(a,d) | -x(b,d)``;
* each given g at cell c: the unit clause ``x(c,g)``;
* ``unique`` only: the blocking clause of the solution S, ``OR -x(c,S[c])`` over the cells
  that are not givens.

A formula is a *set* of clauses, each a set of literals: clause order, literal order and
repeated clauses do not change what it means, so they are compared as such.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import SudokuError
from .rules import AllDifferent, Different, RuleSet

__all__ = [
    "ENCODING",
    "KNOWN_KINDS",
    "DimacsError",
    "blocking_clause",
    "candidate_clauses",
    "given_clauses",
    "normalize",
    "parse_dimacs",
    "rule_clauses",
    "solution_problem",
    "uncertifiable",
]

ENCODING = "sudoku-cert-1"
#: Rule kinds this encoder knows; a puzzle with any other kind cannot be certified.
KNOWN_KINDS = {"all_different": AllDifferent, "different": Different}

Clause = tuple[int, ...]


class DimacsError(SudokuError, ValueError):
    """A DIMACS file that cannot be read: the message names the line."""


def uncertifiable(rules: RuleSet) -> str | None:
    """None when every rule is of a kind this encoder knows, else why not."""
    unknown = sorted(
        {r.kind for r in rules.rules if KNOWN_KINDS.get(r.kind) is not type(r)}, key=str
    )
    if unknown:
        return (
            f"rule kind(s) {', '.join(unknown)} cannot be certified: the certificate "
            "encoding knows all-different units and different pairs only"
        )
    return None


def rule_clauses(rules: RuleSet) -> list[Clause]:
    """The rule part of the encoding (see the module docstring), in a fixed order.

    Raises:
        ValueError: for a rule of a kind this encoder does not know.
    """
    reason = uncertifiable(rules)
    if reason is not None:
        raise ValueError(reason)
    n = rules.shape.size
    cells = range(n * n)
    digits = range(1, n + 1)
    out: list[Clause] = []
    for c in cells:
        out.append(tuple(c * n + d for d in digits))
        out += [(-(c * n + d), -(c * n + e)) for d in digits for e in digits if d < e]
    for rule in rules.rules:
        if isinstance(rule, AllDifferent):
            for unit in rule.units:
                for d in digits:
                    out += [(-(a * n + d), -(b * n + d)) for a in unit for b in unit if a < b]
                    if len(unit) == n:
                        out.append(tuple(c * n + d for c in unit))
        elif isinstance(rule, Different):
            for a, b in rule.pairs:
                out += [(-(a * n + d), -(b * n + d)) for d in digits]
        else:  # uncertifiable() refused every other kind above
            raise ValueError(f"rule {rule.name!r} ({rule.kind}) cannot be certified")
    return out


def given_clauses(n: int, givens: Sequence[int]) -> list[Clause]:
    """One unit clause per given (0 = empty cell)."""
    return [(c * n + g,) for c, g in enumerate(givens) if g]


def candidate_clauses(n: int, candidates: Sequence[frozenset[int]]) -> list[Clause]:
    """One negative unit clause per eliminated candidate of a cell that is neither a
    given nor free: a pencilmark puzzle's candidates (``Puzzle.candidates``), in cell and
    digit order."""
    return [
        (-(c * n + d),)
        for c, ds in enumerate(candidates)
        if 1 < len(ds) < n
        for d in range(1, n + 1)
        if d not in ds
    ]


def blocking_clause(n: int, givens: Sequence[int], solution: Sequence[int]) -> Clause:
    """ "Some non-given cell differs from the solution"."""
    return tuple(-(c * n + s) for c, (g, s) in enumerate(zip(givens, solution)) if not g)


def normalize(clauses: Iterable[Sequence[int]]) -> set[Clause]:
    """Clauses as a set of sorted, duplicate-free literal tuples (their meaning)."""
    return {tuple(sorted(set(c))) for c in clauses}


def parse_dimacs(text: str, name: str) -> tuple[int, list[Clause]]:
    """``(declared variables, clauses)`` of DIMACS CNF text; the header must match.

    Raises:
        DimacsError: a missing or repeated header, a token that is not an integer, a
            literal above the declared variables, a clause without its closing 0, or a
            clause count that differs from the header's.
    """
    header: tuple[int, int] | None = None
    clauses: list[Clause] = []
    current: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0] == "c":
            continue
        if fields[0] == "p":
            if header is not None or len(fields) != 4 or fields[1] != "cnf":
                raise DimacsError(f"{name}:{number}: bad or repeated header {line!r}")
            try:
                header = (int(fields[2]), int(fields[3]))
            except ValueError:
                raise DimacsError(f"{name}:{number}: bad header {line!r}") from None
            continue
        if header is None:
            raise DimacsError(f"{name}:{number}: clause before the 'p cnf' header")
        for token in fields:
            try:
                lit = int(token)
            except ValueError:
                raise DimacsError(f"{name}:{number}: {token!r} is not a literal") from None
            if lit == 0:
                clauses.append(tuple(current))
                current = []
            elif abs(lit) > header[0]:
                raise DimacsError(
                    f"{name}:{number}: literal {lit} above the {header[0]} declared variables"
                )
            else:
                current.append(lit)
    if header is None:
        raise DimacsError(f"{name}: no 'p cnf' header")
    if current:
        raise DimacsError(f"{name}: the last clause has no closing 0")
    if len(clauses) != header[1]:
        raise DimacsError(
            f"{name}: the header declares {header[1]} clauses, the file has {len(clauses)}"
        )
    return header[0], clauses


def solution_problem(
    rules: RuleSet,
    givens: Sequence[int],
    grid: Sequence[int],
    candidates: Sequence[frozenset[int]] | None = None,
) -> str | None:
    """None when ``grid`` solves the puzzle (every cell 1..n, givens kept, every cell
    one of its ``candidates`` when given, every rule kept), else the first problem, in
    words."""
    n = rules.shape.size
    if len(grid) != n * n:
        return f"the grid has {len(grid)} cells, not {n * n}"
    for c, (g, v) in enumerate(zip(givens, grid)):
        if not 1 <= v <= n:
            return f"cell {c} holds {v}, not a digit 1..{n}"
        if g and g != v:
            return f"cell {c} holds {v} but its given is {g}"
        if candidates is not None and v not in candidates[c]:
            return f"cell {c} holds {v}, not one of its candidates {sorted(candidates[c])}"
    for rule in rules.rules:
        if isinstance(rule, AllDifferent):
            for unit in rule.units:
                if len({grid[c] for c in unit}) != len(unit):
                    return f"a digit repeats in {rule.name} unit {list(unit)}"
        elif isinstance(rule, Different):
            for a, b in rule.pairs:
                if grid[a] == grid[b]:
                    return f"cells {a} and {b} ({rule.name}) both hold {grid[a]}"
    return None
