"""A :class:`Puzzle` is givens on a shape under a :class:`~sudoku_model.rules.RuleSet`.

>>> p = Puzzle.parse(".2..3....1....4.")
>>> p.shape, p.clues, p.conflicts()
(Shape(2, 2), 4, [])
>>> p.check(Grid.parse("1234341241232341")).ok
True
>>> report = p.check(Grid.parse("1234341241233241"))
>>> report.ok, [problem.kind for problem in report.problems]
(False, ['duplicate', 'duplicate'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .geometry import Shape, shape_for_cell_count
from .grid import Grid
from .rules import CANDIDATES_RULE, AllDifferent, Different, Domain, RuleSet

__all__ = ["CheckReport", "Conflict", "Problem", "Puzzle", "rules_without_candidates"]


@dataclass(frozen=True)
class Conflict:
    """Cells holding the same ``digit`` where ``rule`` forbids it, or (``digit`` 0, with a
    ``message``) cells that break a relation, domain, sum or sandwich rule."""

    rule: str
    unit: str
    cells: tuple[int, ...]
    digit: int
    message: str = ""

    def describe(self, shape: Shape) -> str:
        if self.message:
            return self.message
        names = ", ".join(shape.cell_name(c) for c in self.cells)
        return f"digit {self.digit} repeated in {self.unit} ({names})"


@dataclass(frozen=True)
class Problem:
    """One reason a grid is not a solution: ``kind`` is ``duplicate``, ``empty``,
    ``given-changed`` or ``rule`` (a relation, domain, sum or sandwich rule broken)."""

    kind: str
    cells: tuple[int, ...]
    message: str


@dataclass(frozen=True)
class CheckReport:
    """The answer of :meth:`Puzzle.check`: ``ok`` and, if not, every problem found."""

    ok: bool
    problems: tuple[Problem, ...]

    def __bool__(self) -> bool:
        return self.ok


class Puzzle:
    """Givens plus rules. Immutable and hashable.

    Args:
        givens: the clues (0 = empty).
        rules: the rule set; classic rows/columns/boxes of the givens' shape by default.

    Raises:
        ValueError: when the rules are for another shape.
    """

    __slots__ = ("_hash", "givens", "rules")

    givens: Grid
    rules: RuleSet
    _hash: int | None

    def __init__(self, givens: Grid, rules: RuleSet | None = None) -> None:
        if rules is None:
            rules = RuleSet.classic(givens.shape)
        elif rules.shape != givens.shape:
            raise ValueError(f"rules for {rules.shape.name} given with a {givens.shape.name} grid")
        object.__setattr__(self, "givens", givens)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "_hash", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Puzzle is immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (Puzzle, (self.givens, self.rules))

    @classmethod
    def parse(
        cls,
        text: str,
        *,
        shape: Shape | None = None,
        variants: Iterable[str] = (),
        regions: Sequence[int] | None = None,
    ) -> Puzzle:
        """Read the givens from a line or block of cells and attach rules.

        Raises:
            ParseError: on unreadable text.
            ValueError: on an unknown variant.
        """
        givens = Grid.parse(text, shape=shape)
        return cls(givens, RuleSet.build(givens.shape, variants, regions))

    @classmethod
    def empty(cls, shape: Shape, rules: RuleSet | None = None) -> Puzzle:
        return cls(Grid.empty(shape), rules)

    @classmethod
    def from_candidates(
        cls,
        sets: Sequence[Iterable[int]],
        *,
        shape: Shape | None = None,
        rules: RuleSet | None = None,
    ) -> Puzzle:
        """A pencilmark puzzle: each cell (row-major) may hold only the digits of its set.

        A cell with one candidate becomes a given; the cells with 2..n-1 candidates go,
        with their sets, into one :class:`~sudoku_model.rules.Domain` rule named
        :data:`~sudoku_model.rules.CANDIDATES_RULE`, after ``rules`` (classic rules by
        default); cells with all n candidates are left out (no rule when none is needed).

        >>> p = Puzzle.from_candidates([{1, 2}, {1, 2, 3, 4}, {3}] + [range(1, 5)] * 13)
        >>> p.givens.values[:3], p.candidates[0], p.is_pencilmark
        ((0, 0, 3), frozenset({1, 2}), True)

        Raises:
            ValueError: for a number of sets that is not the shape's cell count, a cell
                with no candidate or a digit outside 1..n (naming the cell), or rules
                that already hold a candidates rule.
            ShapeError: when no shape is given and the count is not a supported grid.
        """
        if shape is None:
            shape = rules.shape if rules is not None else shape_for_cell_count(len(sets))
        if len(sets) != shape.cell_count:
            raise ValueError(
                f"{len(sets)} candidate sets for a {shape.name} grid of {shape.cell_count} cells"
            )
        if rules is None:
            rules = RuleSet.classic(shape)
        elif _candidates_rule(rules) is not None:
            raise ValueError(f"the rules already hold a {CANDIDATES_RULE!r} rule")
        n = shape.size
        values = [0] * shape.cell_count
        restricted: list[tuple[int, frozenset[int]]] = []
        for cell, raw in enumerate(sets):
            digits = frozenset(raw)
            if not digits:
                raise ValueError(f"{shape.cell_name(cell)} has no candidate")
            bad: list[object] = [
                d
                for d in digits
                if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= n
            ]
            if bad:
                raise ValueError(
                    f"{shape.cell_name(cell)}: candidate {bad[0]!r} is not a digit 1..{n}"
                )
            if len(digits) == 1:
                (values[cell],) = digits
            elif len(digits) < n:
                restricted.append((cell, digits))
        givens = Grid(shape, values)
        if restricted:
            rules = rules.with_rules([Domain(CANDIDATES_RULE, tuple(restricted))])
        return cls(givens, rules)

    # -- basics ------------------------------------------------------------------------
    @property
    def shape(self) -> Shape:
        return self.givens.shape

    @property
    def size(self) -> int:
        return self.givens.shape.size

    @property
    def clues(self) -> int:
        return self.givens.clues

    @property
    def is_classic(self) -> bool:
        return self.rules.is_classic

    @property
    def is_pencilmark(self) -> bool:
        """True when the rules hold a candidates rule (:meth:`from_candidates`)."""
        return _candidates_rule(self.rules) is not None

    @property
    def candidates(self) -> tuple[frozenset[int], ...]:
        """Each cell's candidates, row-major: the given's digit, else the set of the
        candidates rule, else every digit 1..n (other rules are not applied)."""
        n = self.size
        full = frozenset(range(1, n + 1))
        out = [frozenset((v,)) if v else full for v in self.givens.values]
        rule = _candidates_rule(self.rules)
        if rule is not None:
            for cell, digits in rule.cells:
                if not self.givens.values[cell]:
                    out[cell] = digits
        return tuple(out)

    def with_givens(self, givens: Grid) -> Puzzle:
        """The same rules with other givens."""
        return Puzzle(givens, self.rules)

    def to_line(self, **kwargs: object) -> str:
        return self.givens.to_line(**kwargs)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return self.givens.to_line()

    def __repr__(self) -> str:
        if self.rules.is_classic:
            return f"Puzzle({self.givens!r})"
        return f"Puzzle({self.givens!r}, {self.rules!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Puzzle):
            return NotImplemented
        return self.givens == other.givens and self.rules == other.rules

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((self.givens, self.rules))
            object.__setattr__(self, "_hash", h)
        return h

    # -- Jupyter (drawing code is imported only when a notebook asks) -------------------
    def _repr_svg_(self) -> str:
        from .display import puzzle_svg

        return puzzle_svg(self)

    def _repr_html_(self) -> str:
        from .display import puzzle_html

        return puzzle_html(self)

    # -- semantics ---------------------------------------------------------------------
    def conflicts(self) -> list[Conflict]:
        """Givens that already break a rule (empty list when none do)."""
        return _duplicates(self.rules, self.givens.values)

    @property
    def is_contradictory(self) -> bool:
        """True when :meth:`conflicts` is not empty (computed without listing them)."""
        return self.rules.has_clash(self.givens.values)

    def check(self, grid: Grid) -> CheckReport:
        """Say whether ``grid`` is a solution of this puzzle, and if not, where not.

        Reports every changed given, every empty cell, every repeated digit and every
        broken relation, domain, sum or sandwich rule (killer cages, dots, arrows...).

        Raises:
            ValueError: when the grid has another shape.
        """
        if grid.shape != self.shape:
            raise ValueError(f"a {grid.shape.name} grid cannot solve a {self.shape.name} puzzle")
        shape = self.shape
        problems: list[Problem] = []
        changed = tuple(
            i for i, (g, v) in enumerate(zip(self.givens.values, grid.values)) if g and g != v
        )
        if changed:
            problems.append(
                Problem(
                    "given-changed",
                    changed,
                    "givens changed at " + ", ".join(shape.cell_name(c) for c in changed),
                )
            )
        empty = tuple(grid.empty_cells())
        if empty:
            problems.append(Problem("empty", empty, f"{len(empty)} cells empty"))
        for c in _duplicates(self.rules, grid.values):
            kind = "rule" if c.message else "duplicate"
            problems.append(Problem(kind, c.cells, c.describe(shape)))
        return CheckReport(not problems, tuple(problems))

    def is_solution(self, grid: Grid) -> bool:
        """True when ``grid`` is complete, keeps the givens and breaks no rule."""
        return grid.shape == self.shape and self.check(grid).ok


def _candidates_rule(rules: RuleSet) -> Domain | None:
    """The rule named :data:`CANDIDATES_RULE` (a pencilmark puzzle's), or None."""
    for rule in rules.constraint_rules:
        if isinstance(rule, Domain) and rule.name == CANDIDATES_RULE:
            return rule
    return None


def rules_without_candidates(rules: RuleSet) -> RuleSet:
    """The rules less the candidates rule of a pencilmark puzzle (``RuleSet.classic``
    itself when only the classic rules remain; ``rules`` when there is none)."""
    kept = [r for r in rules.rules if not (isinstance(r, Domain) and r.name == CANDIDATES_RULE)]
    if len(kept) == len(rules.rules):
        return rules
    classic = RuleSet.classic(rules.shape)
    if tuple(kept) == classic.rules and rules.variants == ("classic",):
        return classic
    return RuleSet(rules.shape, kept, rules.variants)


def _duplicates(rules: RuleSet, values: Sequence[int]) -> list[Conflict]:
    out: list[Conflict] = []
    unit_index = 0
    for rule in rules.rules:
        if isinstance(rule, AllDifferent):
            for unit in rule.units:
                seen: dict[int, list[int]] = {}
                for c in unit:
                    v = values[c]
                    if v:
                        seen.setdefault(v, []).append(c)
                for digit, cells in seen.items():
                    if len(cells) > 1:
                        out.append(
                            Conflict(rule.name, rules.unit_name(unit_index), tuple(cells), digit)
                        )
                unit_index += 1
        elif isinstance(rule, Different):
            for a, b in rule.pairs:
                if values[a] and values[a] == values[b]:
                    out.append(Conflict(rule.name, f"{rule.name} pair", (a, b), values[a]))
        else:
            for where, message in rule.violations(values, rules.shape):
                out.append(Conflict(rule.name, rule.name, where, 0, message))
    return out
