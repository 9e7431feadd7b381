"""The rule kinds: frozen dataclasses that check their own fields on construction, validate
against a grid (:meth:`validate`) and report what filled cells break (:meth:`violations`).

Backends encode these kinds, never rule names: :class:`AllDifferent` units,
:class:`Different` pairs, :class:`Relation` tables over pairs of cells, :class:`Domain`
sets of digits per cell, :class:`Sum` groups with a weighted total, :class:`Sandwich`
lines, and :class:`Table` lists of allowed digit tuples over small groups of cells (the
kind of every rule the others cannot state: between and lockout lines, quadruples, X-sums,
skyscrapers...).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..errors import ShapeError
from ..geometry import Shape

#: Rule kinds a backend may declare support for.
RULE_KINDS = ("all_different", "different", "relation", "domain", "sum", "sandwich", "table")


class RuleError(ShapeError):
    """A rule that cannot describe a puzzle: a cell outside the grid, a cage total no digits
    can reach, overlapping killer cages, a thermometer that is not a path... The message
    names the rule."""


#: The name of the :class:`Domain` rule that holds a pencilmark puzzle's candidates: each
#: cell with 2..n-1 candidates and its set (a cell with one candidate is a given, a cell
#: with all n is left out). See :meth:`sudoku_model.Puzzle.from_candidates`.
CANDIDATES_RULE = "candidates"


#: One broken constraint found by a rule's checker: the cells involved and what is wrong.
Violation = tuple[tuple[int, ...], str]


@dataclass(frozen=True)
class AllDifferent:
    """Each unit (a tuple of cells) holds pairwise different digits."""

    name: str
    units: tuple[tuple[int, ...], ...]
    kind: ClassVar[str] = "all_different"


@dataclass(frozen=True)
class Different:
    """Each pair of cells holds different digits."""

    name: str
    pairs: tuple[tuple[int, int], ...]
    kind: ClassVar[str] = "different"


def _as_cells(value: Iterable[int], what: str) -> tuple[int, ...]:
    cells = tuple(value)
    for c in cells:
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise RuleError(f"{what}: {c!r} is not a cell index")
    return cells


def _names(shape: Shape | None, cells: Iterable[int]) -> str:
    if shape is None:
        return ", ".join(f"cell {c}" for c in cells)
    return ", ".join(shape.cell_name(c) for c in cells)


def _check_in_grid(shape: Shape, name: str, cells: Iterable[int]) -> None:
    cc = shape.cell_count
    for c in cells:
        if not 0 <= c < cc:
            raise RuleError(f"rule {name!r} names cell {c}, outside the {shape.name} grid")


@dataclass(frozen=True)
class Relation:
    """For every ``(a, b)`` in ``pairs``, (digit at a, digit at b) is in ``allowed``.

    One table per rule, over digits 1..n; a pair is ordered (a thermometer's bulb side
    first, a greater-than sign's big side first). Lists are accepted and stored as tuples.

    >>> Relation("greater-than", ((0, 1),), frozenset({(2, 1)}))
    Relation(name='greater-than', pairs=((0, 1),), allowed=frozenset({(2, 1)}))

    Raises:
        RuleError: for a pair that is not two different cells, or an allowed entry that
            is not two digits >= 1.
    """

    name: str
    pairs: tuple[tuple[int, int], ...]
    allowed: frozenset[tuple[int, int]]
    kind: ClassVar[str] = "relation"

    def __post_init__(self) -> None:
        pairs = []
        for p in self.pairs:
            pair = _as_cells(p, f"rule {self.name!r}")
            if len(pair) != 2 or pair[0] == pair[1]:
                raise RuleError(f"rule {self.name!r}: {p!r} is not a pair of two different cells")
            pairs.append((pair[0], pair[1]))
        allowed = set()
        for entry in self.allowed:
            digits = tuple(entry)
            if len(digits) != 2 or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in digits
            ):
                raise RuleError(f"rule {self.name!r}: allowed entry {entry!r} is not two digits")
            allowed.add((digits[0], digits[1]))
        object.__setattr__(self, "pairs", tuple(pairs))
        object.__setattr__(self, "allowed", frozenset(allowed))

    def validate(self, shape: Shape) -> None:
        """Check the rule against a grid: cells inside, digits 1..n, some pair allowed.

        Raises:
            RuleError: naming the rule.
        """
        _check_in_grid(shape, self.name, (c for p in self.pairs for c in p))
        n = shape.size
        bad = sorted(e for e in self.allowed if max(e) > n)
        if bad:
            raise RuleError(f"rule {self.name!r} allows {bad[0]!r}, beyond the digits 1..{n}")
        if self.pairs and not self.allowed:
            raise RuleError(f"rule {self.name!r} allows no pair of digits 1..{n}")

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Each pair whose two filled cells hold a pair outside the table."""
        out: list[Violation] = []
        allowed = self.allowed
        for a, b in self.pairs:
            va, vb = values[a], values[b]
            if va and vb and (va, vb) not in allowed:
                out.append(((a, b), f"{self.name}: {_names(shape, (a, b))} hold {va}, {vb}"))
        return out


@dataclass(frozen=True)
class Domain:
    """Each listed cell's digit is in its set (even and odd cells).

    >>> Domain("even", ((0, frozenset({2, 4})),))
    Domain(name='even', cells=((0, frozenset({2, 4})),))

    Raises:
        RuleError: for a repeated cell, an empty set or a digit below 1.
    """

    name: str
    cells: tuple[tuple[int, frozenset[int]], ...]
    kind: ClassVar[str] = "domain"

    def __post_init__(self) -> None:
        entries = []
        seen: set[int] = set()
        for cell, digits in self.cells:
            (c,) = _as_cells((cell,), f"rule {self.name!r}")
            ds = frozenset(digits)
            if c in seen:
                raise RuleError(f"rule {self.name!r} lists cell {c} twice")
            if not ds:
                raise RuleError(f"rule {self.name!r} leaves cell {c} no digit")
            if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in ds):
                raise RuleError(f"rule {self.name!r}: {sorted(ds)!r} are not all digits >= 1")
            seen.add(c)
            entries.append((c, ds))
        object.__setattr__(self, "cells", tuple(entries))

    def validate(self, shape: Shape) -> None:
        """Check cells inside the grid and every set meeting 1..n.

        Raises:
            RuleError: naming the rule.
        """
        _check_in_grid(shape, self.name, (c for c, _ in self.cells))
        n = shape.size
        for c, ds in self.cells:
            if max(ds) > n:
                raise RuleError(
                    f"rule {self.name!r} allows digit {max(ds)} at {shape.cell_name(c)}, "
                    f"beyond 1..{n}"
                )

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Each filled cell whose digit is outside its set."""
        return [
            ((c,), f"{self.name}: {_names(shape, (c,))} holds {values[c]}")
            for c, ds in self.cells
            if values[c] and values[c] not in ds
        ]


@dataclass(frozen=True)
class SumGroup:
    """``sum(weight * digit)`` over ``cells`` equals ``total``; with ``distinct`` the
    cells' digits are pairwise different.

    Raises:
        RuleError: for no cells, a repeated cell, a weight count that differs from the
            cell count, or a zero weight.
    """

    cells: tuple[int, ...]
    weights: tuple[int, ...]
    total: int
    distinct: bool

    def __post_init__(self) -> None:
        cells = _as_cells(self.cells, "sum group")
        weights = tuple(self.weights)
        if not cells:
            raise RuleError("a sum group needs at least one cell")
        if len(set(cells)) != len(cells):
            raise RuleError(f"sum group {cells!r} repeats a cell")
        if len(weights) != len(cells):
            raise RuleError(
                f"sum group {cells!r} has {len(weights)} weights for {len(cells)} cells"
            )
        if not all(isinstance(w, int) and not isinstance(w, bool) and w for w in weights):
            raise RuleError(f"sum group {cells!r}: weights {weights!r} must be non-zero integers")
        if not isinstance(self.total, int) or isinstance(self.total, bool):
            raise RuleError(f"sum group {cells!r}: total {self.total!r} is not an integer")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "distinct", bool(self.distinct))

    def reachable(self, n: int) -> bool:
        """Whether digits 1..n can reach the total (exact for unit weights; otherwise
        distinctness is ignored, a necessary condition)."""
        k = len(self.cells)
        if self.distinct and k > n:
            return False
        if self.distinct and all(w == 1 for w in self.weights):
            return k * (k + 1) // 2 <= self.total <= k * (2 * n - k + 1) // 2
        sums = {0}
        for w in self.weights:
            sums = {s + w * d for s in sums for d in range(1, n + 1)}
        return self.total in sums

    def violations(self, values: Sequence[int], shape: Shape | None, name: str) -> list[Violation]:
        out: list[Violation] = []
        cells = self.cells
        if self.distinct:
            seen: dict[int, list[int]] = {}
            for c in cells:
                if values[c]:
                    seen.setdefault(values[c], []).append(c)
            for digit, where in seen.items():
                if len(where) > 1:
                    out.append(
                        (tuple(where), f"{name}: digit {digit} repeated ({_names(shape, where)})")
                    )
        if all(values[c] for c in cells):
            got = sum(w * values[c] for c, w in zip(cells, self.weights))
            if got != self.total:
                out.append(
                    (cells, f"{name}: {_names(shape, cells)} sum to {got}, not {self.total}")
                )
        return out


@dataclass(frozen=True)
class Sum:
    """Groups of cells with a fixed weighted digit sum (see :class:`SumGroup`).

    Killer cage: weights 1, distinct. Little killer / sum line: weights 1, not distinct.
    Arrow: shaft weights 1, circle weights -10**k (a two-cell circle reads as a two-digit
    number, its first cell the tens), total 0, not distinct.

    Raises:
        RuleError: naming the rule, for a bad group or two distinct groups (killer cages)
            that share a cell.
    """

    name: str
    groups: tuple[SumGroup, ...]
    kind: ClassVar[str] = "sum"

    def __post_init__(self) -> None:
        groups = tuple(self.groups)
        owner: dict[int, int] = {}
        for k, g in enumerate(groups):
            if not isinstance(g, SumGroup):
                raise RuleError(f"rule {self.name!r}: {g!r} is not a SumGroup")
            if g.distinct:
                for c in g.cells:
                    if c in owner:
                        raise RuleError(
                            f"rule {self.name!r}: cages {owner[c] + 1} and {k + 1} overlap "
                            f"at cell {c}"
                        )
                    owner[c] = k
        object.__setattr__(self, "groups", groups)

    def validate(self, shape: Shape) -> None:
        """Check cells inside the grid and every total reachable with digits 1..n.

        Raises:
            RuleError: naming the rule and the group.
        """
        n = shape.size
        for k, g in enumerate(self.groups):
            _check_in_grid(shape, self.name, g.cells)
            if not g.reachable(n):
                raise RuleError(
                    f"rule {self.name!r}: group {k + 1} ({_names(shape, g.cells)}) cannot "
                    f"reach total {g.total} with digits 1..{n}"
                )

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Repeats inside a distinct group, and complete groups with a wrong sum."""
        return [v for g in self.groups for v in g.violations(values, shape, self.name)]


def sandwich_sums(n: int) -> frozenset[int]:
    """The totals a sandwich clue can have on an n x n grid: sums of subsets of 2..n-1."""
    sums = {0}
    for d in range(2, n):
        sums |= {s + d for s in sums}
    return frozenset(sums)


@dataclass(frozen=True)
class Sandwich:
    """For each ``(cells, total)`` line (a full row or column, cells in order), the digits
    strictly between the 1 and the n sum to ``total`` (0 when they are adjacent).

    Each line must be an all-different unit of n cells of the rule set it joins (a row,
    column, box or region), so it holds one 1 and one n: :class:`RuleSet` refuses any
    other line with a :class:`RuleError`. The checker reports a full line without a 1 or
    an n (only a grid that breaks its unit has one).

    Raises:
        RuleError: naming the rule, for a line that repeats a cell or a negative total.
    """

    name: str
    lines: tuple[tuple[tuple[int, ...], int], ...]
    kind: ClassVar[str] = "sandwich"

    def __post_init__(self) -> None:
        lines = []
        for cells, total in self.lines:
            line = _as_cells(cells, f"rule {self.name!r}")
            if len(set(line)) != len(line):
                raise RuleError(f"rule {self.name!r}: line {line!r} repeats a cell")
            if not isinstance(total, int) or isinstance(total, bool) or total < 0:
                raise RuleError(f"rule {self.name!r}: total {total!r} is not a number >= 0")
            lines.append((line, total))
        object.__setattr__(self, "lines", tuple(lines))

    def validate(self, shape: Shape) -> None:
        """Check that every line has n cells inside the grid and a reachable total.

        Raises:
            RuleError: naming the rule.
        """
        n = shape.size
        reachable = sandwich_sums(n)
        for line, total in self.lines:
            _check_in_grid(shape, self.name, line)
            if len(line) != n:
                raise RuleError(f"rule {self.name!r}: a line has {len(line)} cells, not {n}")
            if total not in reachable:
                raise RuleError(
                    f"rule {self.name!r}: total {total} between {_names(shape, line[:1])} "
                    f"and {_names(shape, line[-1:])} cannot be reached with digits 2..{n - 1}"
                )

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Lines whose 1 and n are placed with every cell between them filled, and whose
        sum between is wrong."""
        out: list[Violation] = []
        for line, total in self.lines:
            n = len(line)
            digits = [values[c] for c in line]
            if 1 not in digits or n not in digits:
                if all(digits):  # a full line without its ends (a unit clash too)
                    missing = 1 if 1 not in digits else n
                    out.append(
                        (
                            line,
                            f"{self.name}: {_names(shape, (line[0], line[-1]))} line holds "
                            f"no {missing}, so it has no sandwich",
                        )
                    )
                continue
            i, j = sorted((digits.index(1), digits.index(n)))
            between = digits[i + 1 : j]
            if all(between) and sum(between) != total:
                out.append(
                    (
                        line,
                        f"{self.name}: {_names(shape, (line[0], line[-1]))} line sums to "
                        f"{sum(between)} between 1 and {n}, not {total}",
                    )
                )
        return out


#: The most digit tuples one :class:`Table` may list (its encodings grow with the list).
MAX_TABLE_ROWS = 200_000
#: The most cells in one scope of a :class:`Table`.
MAX_TABLE_ARITY = 25


@dataclass(frozen=True)
class Table:
    """For every scope (a tuple of cells) in ``scopes``, the digits its cells hold, in
    order, form one of the tuples in ``allowed``.

    One list of tuples per rule, shared by all of its scopes (a between line is one rule
    whose scopes are (end, end, middle cell) triples); every scope has the arity of the
    tuples. A constructor that builds the list says what the rule means; backends see only
    the list (positive table constraint). Lists are accepted and stored as tuples.

    >>> t = Table("quadruple", ((0, 1, 4, 5),), frozenset({(1, 2, 3, 4), (2, 1, 3, 4)}))
    >>> t.arity, len(t.allowed)
    (4, 2)

    Raises:
        RuleError: for a scope with repeated cells or of another arity than the tuples, a
            tuple that is not digits >= 1, more than :data:`MAX_TABLE_ROWS` tuples or a
            scope of more than :data:`MAX_TABLE_ARITY` cells.
    """

    name: str
    scopes: tuple[tuple[int, ...], ...]
    allowed: frozenset[tuple[int, ...]]
    kind: ClassVar[str] = "table"

    def __post_init__(self) -> None:
        scopes = tuple(_as_cells(scope, f"rule {self.name!r}") for scope in self.scopes)
        if len(self.allowed) > MAX_TABLE_ROWS:
            raise RuleError(
                f"rule {self.name!r} lists {len(self.allowed):,} tuples, more than "
                f"{MAX_TABLE_ROWS:,}"
            )
        # checked with set operations in C: a list holds up to MAX_TABLE_ROWS tuples
        raw = self.allowed
        allowed: frozenset[tuple[int, ...]] = (
            raw
            if isinstance(raw, frozenset) and all(type(e) is tuple for e in raw)
            else frozenset(tuple(e) for e in raw)
        )
        lengths = {len(e) for e in allowed}
        digits: set[object] = set().union(*allowed) if allowed else set()
        kinds = {type(d) for e in allowed for d in e}  # True == 1: sets alone miss a bool
        if 0 in lengths or kinds - {int} or not all(isinstance(d, int) and d >= 1 for d in digits):
            bad = next(
                e
                for e in allowed
                if not e
                or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in e)
            )
            raise RuleError(f"rule {self.name!r}: allowed entry {bad!r} is not digits")
        if len(lengths) > 1:
            raise RuleError(f"rule {self.name!r}: allowed tuples of different lengths")
        arity = next(iter(lengths)) if lengths else None
        for scope in scopes:
            if not scope or len(set(scope)) != len(scope):
                raise RuleError(f"rule {self.name!r}: scope {scope!r} repeats a cell or is empty")
            if len(scope) > MAX_TABLE_ARITY:
                raise RuleError(
                    f"rule {self.name!r}: a scope of {len(scope)} cells, more than "
                    f"{MAX_TABLE_ARITY}"
                )
            if arity is not None and len(scope) != arity:
                raise RuleError(
                    f"rule {self.name!r}: scope of {len(scope)} cells for tuples of {arity}"
                )
        if arity is None and len({len(scope) for scope in scopes}) > 1:
            raise RuleError(f"rule {self.name!r}: scopes of different lengths")
        object.__setattr__(self, "scopes", scopes)
        object.__setattr__(self, "allowed", allowed)

    @property
    def arity(self) -> int:
        """The number of cells of each scope (0 for a rule without scopes)."""
        return len(self.scopes[0]) if self.scopes else 0

    def validate(self, shape: Shape) -> None:
        """Check the rule against a grid: cells inside, digits 1..n, some tuple allowed.

        Raises:
            RuleError: naming the rule.
        """
        _check_in_grid(shape, self.name, (c for scope in self.scopes for c in scope))
        n = shape.size
        bad = sorted(e for e in self.allowed if max(e) > n)
        if bad:
            raise RuleError(f"rule {self.name!r} allows {bad[0]!r}, beyond the digits 1..{n}")
        if self.scopes and not self.allowed:
            raise RuleError(f"rule {self.name!r} allows no tuple of digits 1..{n}")

    def _supports(self) -> tuple[dict[int, int], ...]:
        """For each position of the tuples, each digit's tuples (those holding it there) as
        a bit mask over the tuples in one fixed order: a partly filled scope is matched by
        some tuple when the masks of its filled positions share a bit. Built on first use
        and kept with the rule (never pickled: :meth:`__getstate__`)."""
        index: tuple[dict[int, int], ...] | None = self.__dict__.get("_supports_index")
        if index is None:
            rows = list(self.allowed)
            built: list[dict[int, int]] = []
            for position in range(self.arity):
                members: dict[int, bytearray] = {}
                for i, row in enumerate(rows):
                    bits = members.get(row[position])
                    if bits is None:
                        bits = members[row[position]] = bytearray((len(rows) + 7) // 8)
                    bits[i >> 3] |= 1 << (i & 7)
                built.append({d: int.from_bytes(b, "little") for d, b in members.items()})
            index = tuple(built)
            self.__dict__["_supports_index"] = index  # a cache, not a field: frozen stays
        return index

    def __getstate__(self) -> dict[str, object]:
        """The fields only: the index of :meth:`_supports` is rebuilt where it is used."""
        return {k: v for k, v in self.__dict__.items() if k != "_supports_index"}

    def violations(self, values: Sequence[int], shape: Shape | None = None) -> list[Violation]:
        """Each scope whose cells are all filled with a tuple outside the list, or whose
        filled cells no allowed tuple matches."""
        out: list[Violation] = []
        allowed = self.allowed
        for scope in self.scopes:
            digits = tuple(values[c] for c in scope)
            if not any(digits):
                continue
            if all(digits):
                if digits in allowed:
                    continue
            else:
                supports = self._supports()
                common = -1
                for position, d in enumerate(digits):
                    if d:
                        common &= supports[position].get(d, 0)
                        if not common:
                            break
                if common:
                    continue
            shown = ", ".join(str(d) if d else "." for d in digits)
            out.append((scope, f"{self.name}: {_names(shape, scope)} hold {shown}"))
        return out


#: The kinds with a checker of their own (everything but the all-different families).
ConstraintRule = Relation | Domain | Sum | Sandwich | Table


Rule = AllDifferent | Different | Relation | Domain | Sum | Sandwich | Table
