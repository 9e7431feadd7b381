"""The :class:`RuleSet`: a shape and an ordered tuple of rules, immutable and hashable,
with the tables every solver needs derived once (units, extra pairs, peers, candidate
digits) and the checks that span several rules (clashes, violations, sandwich lines)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cached_property, lru_cache
from itertools import compress

from ..errors import ShapeError
from ..geometry import Shape, peers_of_units
from .kinds import (
    AllDifferent,
    ConstraintRule,
    Different,
    Domain,
    Relation,
    Rule,
    RuleError,
    Sandwich,
    Sum,
    Table,
    Violation,
)
from .variants import (
    VARIANTS,
    anti_king_rule,
    anti_knight_rule,
    boxes_rule,
    canonical_variant,
    columns_rule,
    diagonals_rule,
    regions_rule,
    rows_rule,
    windoku_rule,
)


class RuleSet:
    """A shape and its rules; immutable, hashable, with derived tables cached.

    Build one with :meth:`classic` or :meth:`build`; puzzles that share rules should share
    the object (``classic`` is cached), so backends reuse their encoded models.
    """

    __slots__ = ("__dict__", "_hash", "_key", "rules", "shape", "variants")

    def __init__(
        self, shape: Shape, rules: Sequence[Rule], variants: Sequence[str] = ("classic",)
    ) -> None:
        cc = shape.cell_count
        for rule in rules:
            cells: Iterable[int]
            if isinstance(rule, AllDifferent):
                cells = (c for u in rule.units for c in u)
                if any(len(set(u)) != len(u) or len(u) > shape.size for u in rule.units):
                    raise ShapeError(
                        f"rule {rule.name!r} has a unit with repeated cells "
                        f"or more than {shape.size} cells"
                    )
            elif isinstance(rule, Different):
                cells = (c for p in rule.pairs for c in p)
            elif isinstance(rule, (Relation, Domain, Sum, Sandwich, Table)):
                rule.validate(shape)
                continue
            else:
                raise TypeError(f"not a rule: {rule!r}")
            if any(not 0 <= c < cc for c in cells):
                raise ShapeError(f"rule {rule.name!r} names a cell outside the grid")
        _check_sandwich_lines(shape, rules)
        self.shape = shape
        self.rules = tuple(rules)
        self.variants = tuple(variants)
        self._key = (shape.box_rows, shape.box_cols, self.rules)
        self._hash = hash(self._key)

    # -- construction ------------------------------------------------------------------
    @staticmethod
    @lru_cache(maxsize=64)
    def classic(shape: Shape) -> RuleSet:
        """Rows, columns and boxes (cached: every classic puzzle of a shape shares it)."""
        return RuleSet(shape, (rows_rule(shape), columns_rule(shape), boxes_rule(shape)))

    @staticmethod
    def build(
        shape: Shape, variants: Iterable[str] = (), regions: Sequence[int] | None = None
    ) -> RuleSet:
        """Classic rules plus variants, by name.

        ``jigsaw`` (or passing ``regions``) replaces the boxes with the given regions.

        Raises:
            ValueError: for an unknown variant or a jigsaw without regions.
            ShapeError: for regions that do not tile the grid.
        """
        names = [canonical_variant(v) for v in variants]
        names = [v for v in dict.fromkeys(names) if v != "classic"]
        if regions is not None and "jigsaw" not in names:
            names.insert(0, "jigsaw")
        if not names:
            return RuleSet.classic(shape)
        if "jigsaw" in names and regions is None:
            raise ValueError("the jigsaw variant needs regions (one label per cell)")
        rules: list[Rule] = [rows_rule(shape), columns_rule(shape)]
        if "jigsaw" in names:
            assert regions is not None
            rules.append(regions_rule(shape, regions))
        else:
            rules.append(boxes_rule(shape))
        makers: dict[str, Callable[[Shape], Rule]] = {
            "diagonal": diagonals_rule,
            "windoku": windoku_rule,
            "anti-knight": anti_knight_rule,
            "anti-king": anti_king_rule,
        }
        order = ["diagonal", "windoku", "anti-knight", "anti-king"]
        for name in order:
            if name in names:
                rules.append(makers[name](shape))
        return RuleSet(shape, rules, variants=[v for v in VARIANTS if v in names])

    # -- identity ----------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, RuleSet):
            return NotImplemented
        return self._hash == other._hash and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        extra = [r.name for r in self.constraint_rules]
        return f"<RuleSet {self.shape.name} {'+'.join([*self.variants, *extra])}>"

    def with_rules(self, rules: Iterable[Rule]) -> RuleSet:
        """These rules plus ``rules`` (killer cages, dots...), same shape and variants.

        Raises:
            RuleError: for a rule that does not fit the shape.
        """
        return RuleSet(self.shape, (*self.rules, *rules), self.variants)

    def __reduce__(self) -> tuple[object, ...]:
        if self.is_classic:
            return (RuleSet.classic, (self.shape,))
        return (RuleSet, (self.shape, self.rules, self.variants))

    @property
    def is_classic(self) -> bool:
        return (
            self.variants == ("classic",)
            and len(self.rules) == 3
            and self.rules == RuleSet.classic(self.shape).rules
        )

    @property
    def kinds(self) -> frozenset[str]:
        """The rule kinds used (what a backend must support)."""
        return frozenset(r.kind for r in self.rules)

    @property
    def regions(self) -> tuple[int, ...] | None:
        """The jigsaw region label of each cell, or None when the boxes are used."""
        for rule in self.rules:
            if isinstance(rule, AllDifferent) and rule.name == "regions":
                labels = [0] * self.shape.cell_count
                for k, unit in enumerate(rule.units):
                    for c in unit:
                        labels[c] = k
                return tuple(labels)
        return None

    # -- derived tables ----------------------------------------------------------------
    @cached_property
    def constraint_rules(self) -> tuple[ConstraintRule, ...]:
        """The rules with a checker of their own (relations, domains, sums, sandwiches,
        tables), in rule order; the all-different families are :attr:`units` and
        :attr:`pairs`."""
        return tuple(
            r for r in self.rules if isinstance(r, (Relation, Domain, Sum, Sandwich, Table))
        )

    @cached_property
    def base(self) -> RuleSet:
        """This rule set without its :attr:`constraint_rules` (itself when it has none).

        Equal bases are one shared object (the classic rules are ``RuleSet.classic``), so
        its cached tables and a backend's solver loaded with it serve every killer or
        variant puzzle on top of it.
        """
        if not self.constraint_rules:
            return self
        kept = tuple(r for r in self.rules if isinstance(r, (AllDifferent, Different)))
        return _interned(RuleSet(self.shape, kept, self.variants))

    @cached_property
    def candidate_digits(self) -> tuple[frozenset[int], ...]:
        """For each cell, the digits the domain and relation rules alone leave it (arc
        consistency over those rules; all-different, sums and sandwiches ignored).

        A thermometer's bulb cannot hold n, a black kropki dot's cells hold no 5, 7 or 9 on
        a 9x9 grid: encoders write these as unit facts. An empty set means no solution.
        """
        n = self.shape.size
        full = frozenset(range(1, n + 1))
        domains = [set(full) for _ in range(self.shape.cell_count)]
        arcs: list[tuple[int, int, frozenset[tuple[int, int]], bool]] = []
        for rule in self.constraint_rules:
            if isinstance(rule, Domain):
                for c, ds in rule.cells:
                    domains[c] &= ds
            elif isinstance(rule, Relation):
                for a, b in rule.pairs:
                    arcs.append((a, b, rule.allowed, True))
                    arcs.append((b, a, rule.allowed, False))
        by_cell: dict[int, list[int]] = {}
        for k, (_, b, _, _) in enumerate(arcs):
            by_cell.setdefault(b, []).append(k)
        pending = list(range(len(arcs)))
        queued = set(pending)
        while pending:
            k = pending.pop()
            queued.discard(k)
            a, b, allowed, forward = arcs[k]
            other = domains[b]
            keep = {
                d
                for d in domains[a]
                if any(((d, e) if forward else (e, d)) in allowed for e in other)
            }
            if keep != domains[a]:
                domains[a] = keep
                for j in by_cell.get(a, ()):
                    if j not in queued:
                        queued.add(j)
                        pending.append(j)
        return tuple(frozenset(d) for d in domains)

    def violations(self, values: Sequence[int]) -> list[Violation]:
        """What the filled cells already break in :attr:`constraint_rules` (repeats in
        units and pairs are :meth:`has_clash`'s and ``Puzzle.conflicts``'s)."""
        return [v for r in self.constraint_rules for v in r.violations(values, self.shape)]

    # The tables below depend on the all-different and "different" rules alone, which a
    # rule set shares with its base: a killer or variant puzzle reuses the base's tables
    # (computing them anew costs ~0.5 ms per 9x9 rule set, as much as a uniqueness check).
    @cached_property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every all-different unit of every rule, in rule order."""
        if self.constraint_rules:
            return self.base.units
        return tuple(u for r in self.rules if isinstance(r, AllDifferent) for u in r.units)

    @cached_property
    def full_units(self) -> tuple[tuple[int, ...], ...]:
        """The units of exactly n cells: each holds every digit once."""
        if self.constraint_rules:
            return self.base.full_units
        n = self.shape.size
        return tuple(u for u in self.units if len(u) == n)

    @cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """Pairs from :class:`Different` rules that no unit already covers, sorted."""
        if self.constraint_rules:
            return self.base.pairs
        unit_peers = self._unit_peers
        out = set()
        for r in self.rules:
            if isinstance(r, Different):
                for a, b in r.pairs:
                    if a != b and b not in unit_peers[a]:
                        out.add((min(a, b), max(a, b)))
        return tuple(sorted(out))

    @cached_property
    def _unit_peers(self) -> tuple[frozenset[int], ...]:
        if self.constraint_rules:
            return self.base._unit_peers
        return peers_of_units(self.shape.cell_count, self.units)

    @cached_property
    def peers(self) -> tuple[frozenset[int], ...]:
        """For each cell, every other cell that must hold a different digit."""
        if self.constraint_rules:
            return self.base.peers
        acc = [set(p) for p in self._unit_peers]
        for a, b in self.pairs:
            acc[a].add(b)
            acc[b].add(a)
        return tuple(frozenset(s) for s in acc)

    @cached_property
    def units_of_cell(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into :attr:`units`) of the units holding it."""
        if self.constraint_rules:
            return self.base.units_of_cell
        acc: list[list[int]] = [[] for _ in range(self.shape.cell_count)]
        for k, unit in enumerate(self.units):
            for c in unit:
                acc[c].append(k)
        return tuple(tuple(a) for a in acc)

    @cached_property
    def _pair_partners(self) -> tuple[tuple[int, ...], ...]:
        if self.constraint_rules:
            return self.base._pair_partners
        acc: list[list[int]] = [[] for _ in range(self.shape.cell_count)]
        for a, b in self.pairs:
            acc[a].append(b)
        return tuple(tuple(a) for a in acc)

    def has_clash(self, values: Sequence[int]) -> bool:
        """True when the values (0 = empty) put one digit twice where a rule forbids it.

        The fast yes/no behind :meth:`sudoku_model.Puzzle.conflicts`: a bitmask per unit,
        visiting only the filled cells (~5 us for a 9x9 puzzle with 25 givens).
        """
        if self.constraint_rules and self.violations(values):
            return True
        units_of = self.units_of_cell
        partners = self._pair_partners if self.pairs else None
        masks = [0] * len(self.units)
        for cell in compress(range(len(values)), values):
            v = values[cell]
            bit = 1 << v
            for u in units_of[cell]:
                m = masks[u]
                if m & bit:
                    return True
                masks[u] = m | bit
            if partners is not None:
                for other in partners[cell]:
                    if values[other] == v:
                        return True
        return False

    def unit_name(self, index: int) -> str:
        """A readable name for unit ``index``: ``row 3``, ``box 5``, ``diagonal 1`` ..."""
        k = index
        for r in self.rules:
            if isinstance(r, AllDifferent):
                if k < len(r.units):
                    singular = {
                        "rows": "row",
                        "columns": "column",
                        "boxes": "box",
                        "diagonals": "diagonal",
                        "windoku": "window",
                        "regions": "region",
                    }.get(r.name, r.name)
                    return f"{singular} {k + 1}"
                k -= len(r.units)
        raise IndexError(index)

    # -- serialisation -----------------------------------------------------------------
    def to_json(self) -> dict[str, object]:
        """A JSON-ready description (see :mod:`sudoku_model.formats` for the file form)."""
        d: dict[str, object] = {
            "box": [self.shape.box_rows, self.shape.box_cols],
            "variants": [v for v in self.variants if v != "classic"],
        }
        regions = self.regions
        if regions is not None:
            d["regions"] = list(regions)
        return d


def _check_sandwich_lines(shape: Shape, rules: Sequence[Rule]) -> None:
    """Every sandwich line must be an all-different unit of n cells of these rules.

    That is the definition of a sandwich clue here: its line holds every digit once, so
    its 1 and its n are there and there is one of each (a row or column of classic
    sudoku always is such a unit). A line that is not one could miss its 1 or n, or hold
    two of them; "between the 1 and the n" means nothing there, so such a rule set is
    refused rather than read one way by the checker and another by each backend.

    Raises:
        RuleError: naming the rule and the line.
    """
    lines = [(r.name, line) for r in rules if isinstance(r, Sandwich) for line, _ in r.lines]
    if not lines:
        return
    units = {
        frozenset(u)
        for r in rules
        if isinstance(r, AllDifferent)
        for u in r.units
        if len(u) == shape.size
    }
    for name, line in lines:
        if frozenset(line) not in units:
            raise RuleError(
                f"rule {name!r}: line {shape.cell_name(line[0])}..{shape.cell_name(line[-1])} "
                "is not a row, column, box or "
                f"region of these rules; a sandwich line must hold every digit once, so "
                f"that its 1 and its {shape.size} are there and unique"
            )


@lru_cache(maxsize=256)
def _interned(rules: RuleSet) -> RuleSet:
    """The first rule set seen equal to ``rules`` (the classic one when it is classic)."""
    if rules.is_classic:
        return RuleSet.classic(rules.shape)
    return rules
