"""Rules as data.

Every rule is one of two kinds, and backends encode kinds, never rule names:

* :class:`AllDifferent` - a list of units, each a tuple of cells that must hold different
  digits (rows, columns, boxes, diagonals, windoku windows, jigsaw regions). A unit of n
  cells also means "every digit once"; a shorter unit (a diagonal is always n long, but a
  user unit need not be) only means "no repeats".
* :class:`Different` - pairs of cells that must differ (anti-knight, anti-king).

A :class:`RuleSet` is the shape plus an ordered tuple of rules. It is immutable and hashable
(backends key their long-lived solvers on it) and derives, once, the tables every solver
needs: all units, the extra pairs no unit already covers, and the peers of each cell.

>>> from sudoku_model.geometry import Shape
>>> rs = RuleSet.build(Shape(3, 3), variants=["diagonal"])
>>> [r.name for r in rs.rules]
['rows', 'columns', 'boxes', 'diagonals']
>>> len(rs.units), len(rs.peers[0])
(29, 26)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import compress
from typing import ClassVar

from .errors import ShapeError
from .geometry import Shape, peers_of_units

__all__ = ["RULE_KINDS", "VARIANTS", "AllDifferent", "Different", "Rule", "RuleSet"]

#: Rule kinds a backend may declare support for.
RULE_KINDS = ("all_different", "different")


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


Rule = AllDifferent | Different


# -- rule constructors ---------------------------------------------------------------------
def rows_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("rows", shape.rows)


def columns_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("columns", shape.columns)


def boxes_rule(shape: Shape) -> AllDifferent:
    return AllDifferent("boxes", shape.boxes)


def diagonals_rule(shape: Shape) -> AllDifferent:
    n = shape.size
    main = tuple(i * n + i for i in range(n))
    anti = tuple(i * n + (n - 1 - i) for i in range(n))
    return AllDifferent("diagonals", (main, anti))


def windoku_rule(shape: Shape) -> AllDifferent:
    """Extra box-sized windows one cell in from the edges, one empty line between them."""
    n, br, bc = shape.size, shape.box_rows, shape.box_cols
    tops = list(range(1, n - br + 1, br + 1))
    lefts = list(range(1, n - bc + 1, bc + 1))
    units = tuple(
        tuple((top + i) * n + left + j for i in range(br) for j in range(bc))
        for top in tops
        for left in lefts
    )
    if not units:
        raise ShapeError(f"windoku has no window on a {shape.name} grid")
    return AllDifferent("windoku", units)


def regions_rule(shape: Shape, labels: Sequence[int]) -> AllDifferent:
    """Jigsaw regions from one label per cell: n regions of n cells each.

    Raises:
        ShapeError: when there are not exactly n labels used n times each.
    """
    n = shape.size
    if len(labels) != shape.cell_count:
        raise ShapeError(f"regions need one label per cell ({shape.cell_count}), got {len(labels)}")
    groups: dict[int, list[int]] = {}
    for cell, label in enumerate(labels):
        groups.setdefault(label, []).append(cell)
    if len(groups) != n:
        raise ShapeError(f"a {n}x{n} jigsaw needs {n} regions, got {len(groups)}")
    for label, cells in groups.items():
        if len(cells) != n:
            raise ShapeError(f"region {label!r} has {len(cells)} cells; each needs {n}")
    ordered = sorted(groups.values(), key=lambda cells: cells[0])
    return AllDifferent("regions", tuple(tuple(c) for c in ordered))


def _offset_pairs(shape: Shape, name: str, moves: Iterable[tuple[int, int]]) -> Different:
    n = shape.size
    pairs = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in moves:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < n and 0 <= c2 < n:
                    a, b = r * n + c, r2 * n + c2
                    pairs.add((min(a, b), max(a, b)))
    return Different(name, tuple(sorted(pairs)))


def anti_knight_rule(shape: Shape) -> Different:
    return _offset_pairs(shape, "anti-knight", [(1, 2), (2, 1), (1, -2), (2, -1)])


def anti_king_rule(shape: Shape) -> Different:
    # Orthogonal neighbours already share a row or column: only the diagonal steps matter.
    return _offset_pairs(shape, "anti-king", [(1, 1), (1, -1)])


#: Variant names accepted by :meth:`RuleSet.build` (``jigsaw`` needs ``regions``).
VARIANTS = ("classic", "diagonal", "windoku", "jigsaw", "anti-knight", "anti-king")

_VARIANT_ALIASES = {
    "x": "diagonal",
    "diagonals": "diagonal",
    "x-sudoku": "diagonal",
    "window": "windoku",
    "hyper": "windoku",
    "irregular": "jigsaw",
    "regions": "jigsaw",
    "antiknight": "anti-knight",
    "anti_knight": "anti-knight",
    "antiking": "anti-king",
    "anti_king": "anti-king",
}


def canonical_variant(name: str) -> str:
    """The canonical name of a variant (``"x"`` -> ``"diagonal"``).

    Raises:
        ValueError: for an unknown variant, listing the known ones.
    """
    key = name.strip().lower()
    key = _VARIANT_ALIASES.get(key, key)
    if key not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    return key


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
            else:
                raise TypeError(f"not a rule: {rule!r}")
            if any(not 0 <= c < cc for c in cells):
                raise ShapeError(f"rule {rule.name!r} names a cell outside the grid")
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
        return f"<RuleSet {self.shape.name} {'+'.join(self.variants)}>"

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
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every all-different unit of every rule, in rule order."""
        return tuple(u for r in self.rules if isinstance(r, AllDifferent) for u in r.units)

    @cached_property
    def full_units(self) -> tuple[tuple[int, ...], ...]:
        """The units of exactly n cells: each holds every digit once."""
        n = self.shape.size
        return tuple(u for u in self.units if len(u) == n)

    @cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """Pairs from :class:`Different` rules that no unit already covers, sorted."""
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
        return peers_of_units(self.shape.cell_count, self.units)

    @cached_property
    def peers(self) -> tuple[frozenset[int], ...]:
        """For each cell, every other cell that must hold a different digit."""
        acc = [set(p) for p in self._unit_peers]
        for a, b in self.pairs:
            acc[a].add(b)
            acc[b].add(a)
        return tuple(frozenset(s) for s in acc)

    @cached_property
    def units_of_cell(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the indices (into :attr:`units`) of the units holding it."""
        acc: list[list[int]] = [[] for _ in range(self.shape.cell_count)]
        for k, unit in enumerate(self.units):
            for c in unit:
                acc[c].append(k)
        return tuple(tuple(a) for a in acc)

    @cached_property
    def _pair_partners(self) -> tuple[tuple[int, ...], ...]:
        acc: list[list[int]] = [[] for _ in range(self.shape.cell_count)]
        for a, b in self.pairs:
            acc[a].append(b)
        return tuple(tuple(a) for a in acc)

    def has_clash(self, values: Sequence[int]) -> bool:
        """True when the values (0 = empty) put one digit twice where a rule forbids it.

        The fast yes/no behind :meth:`sudoku_model.Puzzle.conflicts`: a bitmask per unit,
        visiting only the filled cells (~5 us for a 9x9 puzzle with 25 givens).
        """
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
