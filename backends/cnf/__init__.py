"""CNF encodings of Sudoku rule sets, as plain functions.

Variables: ``var(cell, digit) = cell * n + digit`` (cells 0..n*n-1, digits 1..n), so an
n x n grid uses the variables 1..n**3 and auxiliary variables (from a non-pairwise
at-most-one encoding) come after them. The encodings of Lynce & Ouaknine (2006):

* ``minimal``: every cell holds at least one digit; no digit twice in a unit.
* ``efficient``: minimal plus "every cell holds at most one digit".
* ``extended``: efficient plus "every digit somewhere in each unit of n cells"; unit
  propagation on it is exactly naked plus hidden singles, and it is the fastest to solve.
* ``augmented``: extended plus segment variables, as in tdoku's "augmented" MiniSat
  encoding: for each intersection of a box with a row or column (any box shape; jigsaw
  regions too) and each digit, ``t <-> OR(cells)``, and exactly one ``t`` per unit of the
  partition. Unit propagation then also does locked candidates (pointing and claiming);
  see :func:`segment_layers`. Units that tile nothing (diagonals, windoku) only get their
  extended clauses. Measured with CaDiCaL 1.9.5 on uniqueness checks it halves the conflicts
  on easy lists (top95: 8 instead of 15) but not on the hardest (~94 instead of ~98), and each
  conflict costs more (twice the propagations): slower overall, so not the default.

Units come from :attr:`RuleSet.units` (any shape, any unit-based variant); a unit shorter
than n cells only gets "no repeats". Pairwise rules (anti-knight, anti-king) give
``x(a, d) -> not x(b, d)`` for every digit, in every encoding.

At-most-one constraints are pairwise by default (no auxiliary variables; the fastest for
9x9 and 16x16) or any :mod:`pysat.card` encoding by name (``seqcounter``, ``ladder``,
``bitwise``, ``totalizer`` ...).

For a one-off large grid, :func:`encode_puzzle` with ``simplify=True`` drops everything the
givens decide (Kwon & Jain 2006): a given cell and the given digit in its peers get no
variable at all, so a 25x25 puzzle shrinks from 752,500 clauses to a fraction.

>>> from sudoku_model import RuleSet, Shape
>>> cnf = encode_rules(RuleSet.classic(Shape(3, 3)), encoding="minimal")
>>> cnf.num_vars, len(cnf.clauses)
(729, 8829)
>>> cnf.variables.var(0, 1), cnf.variables.var(80, 9)
(1, 729)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from sudoku_model.errors import UnsupportedPuzzleError
from sudoku_model.geometry import Shape
from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import AllDifferent, Relation, RuleSet, Sandwich, Sum, SumGroup, Table

# the names, in a module of their own (the command line reads them without this encoder)
from ..encodings import AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS

__all__ = [
    "ENCODINGS",
    "AMO_ENCODINGS",
    "DEFAULT_ENCODING",
    "DEFAULT_AMO",
    "VariableMap",
    "CNF",
    "encode_rules",
    "encode_constraint_rules",
    "encode_puzzle",
    "given_literals",
    "segment_layers",
    "to_dimacs",
]


Clause = list[int]


@dataclass(frozen=True)
class VariableMap:
    """Which SAT variable stands for "cell holds digit".

    The full encodings use ``cell * n + digit``; a givens-simplified encoding numbers only
    the undecided (cell, digit) pairs and remembers the givens in ``fixed``.
    """

    shape: Shape
    #: (cell, digit) -> variable, only for a simplified encoding (None: the dense numbering).
    table: dict[tuple[int, int], int] | None = None
    #: Values decided without a variable (a simplified encoding's givens), 0 elsewhere.
    fixed: tuple[int, ...] | None = None

    @property
    def cell_var_count(self) -> int:
        """How many variables stand for cells (auxiliaries come after them)."""
        if self.table is None:
            return self.shape.size**3
        return len(self.table)

    def var(self, cell: int, digit: int) -> int | None:
        """The variable of "``cell`` holds ``digit``"; None when a simplified encoding
        decided it (the given itself, or a digit a given rules out).

        Raises:
            IndexError: for a cell or digit outside the grid.
        """
        n = self.shape.size
        if not (0 <= cell < n * n and 1 <= digit <= n):
            raise IndexError(f"no variable for cell {cell}, digit {digit} in a {n}x{n} grid")
        if self.table is None:
            return cell * n + digit
        return self.table.get((cell, digit))

    def decode(self, model: Iterable[int]) -> Grid:
        """The grid a model (a list of literals, as from ``solver.get_model()``) describes.

        Raises:
            ValueError: when the model leaves a cell without a digit.
        """
        n = self.shape.size
        values = list(self.fixed) if self.fixed is not None else [0] * (n * n)
        if self.table is None:
            top = n**3
            for lit in model:
                if 0 < lit <= top:
                    cell, digit = divmod(lit - 1, n)
                    if not values[cell]:
                        values[cell] = digit + 1
        else:
            back = {v: cd for cd, v in self.table.items()}
            for lit in model:
                cd = back.get(lit) if lit > 0 else None
                if cd is not None and not values[cd[0]]:
                    values[cd[0]] = cd[1]
        if 0 in values:
            raise ValueError(
                f"the model leaves cell {self.shape.cell_name(values.index(0))} without a digit"
            )
        return Grid(self.shape, values)


@dataclass
class CNF:
    """Clauses, the number of variables they use, and what the cell variables mean."""

    clauses: list[Clause]
    num_vars: int
    variables: VariableMap
    comments: list[str] = field(default_factory=list)

    def to_dimacs(self) -> str:
        """The formula in DIMACS CNF text (comments first, then ``p cnf V C``)."""
        return to_dimacs(self.clauses, self.num_vars, self.comments)


def to_dimacs(clauses: Sequence[Clause], num_vars: int, comments: Iterable[str] = ()) -> str:
    """DIMACS CNF text for a clause list."""
    lines = [f"c {c}" for c in comments]
    lines.append(f"p cnf {num_vars} {len(clauses)}")
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in clauses)
    return "\n".join(lines) + "\n"


# -- at-most-one -------------------------------------------------------------------------
def _check_options(encoding: str, amo: str) -> None:
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; known: {', '.join(ENCODINGS)}")
    if amo not in AMO_ENCODINGS:
        raise ValueError(f"unknown at-most-one encoding {amo!r}; known: {', '.join(AMO_ENCODINGS)}")


class _AtMostOne:
    """Adds at-most-one constraints to a clause list, allocating auxiliaries from ``top``."""

    def __init__(self, amo: str, top: int) -> None:
        self.amo = amo
        self.top = top
        self._enc_type: int | None = None
        if amo != "pairwise":
            from pysat.card import EncType  # optional: only for non-pairwise encodings

            self._enc_type = getattr(EncType, amo)

    def add(self, clauses: list[Clause], lits: Sequence[int]) -> None:
        if len(lits) < 2:
            return
        if self._enc_type is None or len(lits) == 2:
            clauses.extend([-a, -b] for a, b in combinations(lits, 2))
            return
        from pysat.card import CardEnc

        enc = CardEnc.atmost(lits=list(lits), bound=1, top_id=self.top, encoding=self._enc_type)
        clauses.extend(enc.clauses)
        self.top = max(self.top, enc.nv)


# -- full encodings ----------------------------------------------------------------------
def encode_rules(
    rules: RuleSet, *, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO
) -> CNF:
    """The rules of a rule set as CNF, without givens (add :func:`given_literals` as unit
    clauses or as assumptions).

    Clause order: cell definedness, cell uniqueness (efficient, extended), unit uniqueness,
    unit definedness (extended), pairs.

    Raises:
        ValueError: for an unknown encoding or at-most-one encoding.
    """
    _check_options(encoding, amo)
    if rules.constraint_rules:
        base = _encode_rules_cached(rules.base, encoding, amo)
        clauses, top = encode_constraint_rules(rules, top=base.num_vars)
        comments = [
            *base.comments,
            "rules " + ", ".join(r.name for r in rules.constraint_rules) + f": variables "
            f"{base.num_vars + 1}..{top} are their selectors, partial sums and sandwich flags",
        ]
        return CNF([*base.clauses, *clauses], top, base.variables, comments)
    cnf = _encode_rules_cached(rules, encoding, amo)
    # Hand out a copy of the clause list so callers may append to it safely.
    return CNF(list(cnf.clauses), cnf.num_vars, cnf.variables, list(cnf.comments))


@lru_cache(maxsize=32)
def _encode_rules_cached(rules: RuleSet, encoding: str, amo: str) -> CNF:
    shape = rules.shape
    n = shape.size
    cells = range(shape.cell_count)
    digits = range(1, n + 1)
    lits = [[0] + [c * n + d for d in digits] for c in cells]
    builder = _AtMostOne(amo, n**3)
    clauses: list[Clause] = [lits[c][1:] for c in cells]
    if encoding != "minimal":
        for c in cells:
            builder.add(clauses, lits[c][1:])
    for unit in rules.units:
        for d in digits:
            builder.add(clauses, [lits[c][d] for c in unit])
    if encoding in ("extended", "augmented"):
        for unit in rules.full_units:
            for d in digits:
                clauses.append([lits[c][d] for c in unit])
    for a, b in rules.pairs:
        for d in digits:
            clauses.append([-lits[a][d], -lits[b][d]])
    comments = [
        f"sudoku {shape.name} {'+'.join(rules.variants)}: {encoding} encoding, {amo} at-most-one",
        f"variable cell*{n}+digit (cells 0..{n * n - 1} row-major, digits 1..{n})",
    ]
    if encoding == "augmented":
        first = builder.top + 1
        builder.top = _add_segments(clauses, rules, builder.top, lambda c, d: lits[c][d])
        comments.append(
            f"variables {first}..{builder.top}: segment variables "
            "(digit somewhere in a box-row or box-column segment)"
        )
    return CNF(clauses, builder.top, VariableMap(shape), comments)


# -- segments (the "augmented" encoding) ---------------------------------------------------
def _tiles(shape: Shape, units: Sequence[Sequence[int]]) -> bool:
    """True when the units are n full units that together cover every cell once."""
    n = shape.size
    cells = {c for u in units for c in u}
    return len(units) == n and all(len(u) == n for u in units) and len(cells) == shape.cell_count


@lru_cache(maxsize=32)
def segment_layers(
    rules: RuleSet,
) -> tuple[tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]], ...]:
    """The segments of the augmented encoding, one layer per pair of tiling rules.

    A tiling rule has n units of n cells that cover the grid (rows, columns, boxes, jigsaw
    regions). For two tiling rules A and B, each nonempty intersection of a unit of A with
    a unit of B is a segment; the segments of one unit tile it. A layer is
    ``(segments, groups)``: the segments (tuples of cells) and, for every unit of A and of
    B, the indices of the segments that tile it. Pairs whose segments are all single cells
    (rows and columns) or whole units are left out. Units of other rules (diagonals,
    windoku windows, short units) get no segments.
    """
    shape = rules.shape
    n = shape.size
    tiling = [
        r.units for r in rules.rules if isinstance(r, AllDifferent) and _tiles(shape, r.units)
    ]
    layers = []
    for i, a_units in enumerate(tiling):
        for b_units in tiling[i + 1 :]:
            segments: list[tuple[int, ...]] = []
            a_groups: list[list[int]] = [[] for _ in a_units]
            b_groups: list[list[int]] = [[] for _ in b_units]
            b_sets = [set(u) for u in b_units]
            for ai, a_unit in enumerate(a_units):
                for bi, b_set in enumerate(b_sets):
                    seg = tuple(c for c in a_unit if c in b_set)
                    if seg:
                        a_groups[ai].append(len(segments))
                        b_groups[bi].append(len(segments))
                        segments.append(seg)
            sizes = {len(seg) for seg in segments}
            if max(sizes) < 2 or n in sizes:
                continue
            layers.append((tuple(segments), tuple(tuple(g) for g in a_groups + b_groups)))
    return tuple(layers)


def _add_segments(
    clauses: list[Clause], rules: RuleSet, top: int, lit_of: Callable[[int, int], int | None]
) -> int:
    """Add the segment layers of :func:`segment_layers` to ``clauses``; auxiliary
    variables from ``top + 1``. ``lit_of(cell, digit)`` is the cell literal, or None when
    the cell cannot hold the digit (a simplified encoding). Returns the new top.

    For each segment S and digit d: ``t <-> OR(x(c, d) for c in S)`` (a one-cell segment is
    its cell literal, no new variable), and for each unit, exactly one of the ``t`` of its
    segments. Unit propagation then does locked candidates (pointing and claiming): when d
    is confined to one segment of a box, that segment's ``t`` is forced, the other ``t`` of
    the row go false, and so does d in the rest of the row.
    """
    n = rules.shape.size
    for segments, groups in segment_layers(rules):
        for d in range(1, n + 1):
            seg_lit: list[int | None] = []
            for seg in segments:
                live = [lit for lit in (lit_of(c, d) for c in seg) if lit is not None]
                if not live:
                    seg_lit.append(None)
                elif len(live) == 1:
                    seg_lit.append(live[0])
                else:
                    top += 1
                    t = top
                    seg_lit.append(t)
                    clauses.append([-t] + live)
                    clauses.extend([-x, t] for x in live)
            for group in groups:
                ts = [lit for lit in (seg_lit[k] for k in group) if lit is not None]
                if not ts:
                    continue  # d is given in this unit (simplified encoding)
                clauses.append(ts)  # one live segment (simplified): a unit clause
                clauses.extend([-a, -b] for a, b in combinations(ts, 2))
    return top


# -- relation, domain, sum and sandwich rules ------------------------------------------------
#: Killer cages with at most this many digit combinations get the combination encoding;
#: bigger ones (large cages on 16x16 and up) the layered sum encoding plus pairwise
#: distinctness.
MAX_COMBINATIONS = 256


class _Clauses:
    """A clause list with a variable counter, where literals may be the constants
    ``TRUE``/``FALSE`` (a simplified encoding's decided cells): a clause holding ``TRUE``
    is dropped, ``FALSE`` is left out of its clause."""

    TRUE = 0x7FFFFFFF
    FALSE = -0x7FFFFFFF

    def __init__(self, clauses: list[Clause], top: int, *, constants: bool = True) -> None:
        self.clauses = clauses
        self.top = top
        self.constants = constants
        if not constants:  # the dense encoding: no constant ever shows up
            self.add = self._add_plain  # type: ignore[method-assign]

    def _add_plain(self, clause: Iterable[int]) -> None:
        self.clauses.append(list(clause))

    def new(self) -> int:
        self.top += 1
        return self.top

    def add(self, clause: Iterable[int]) -> None:
        """Add a clause whose literals may be constants unless ``constants=False``."""
        self.add_checked(clause)

    def add_checked(self, clause: Iterable[int]) -> None:
        """Add a clause that may hold constants (the layered sums' root and end)."""
        out = []
        for lit in clause:
            if lit == self.TRUE:
                return
            if lit != self.FALSE:
                out.append(lit)
        self.clauses.append(out)

    def equals_or(self, lits: Sequence[int]) -> int:
        """A literal equivalent to ``OR(lits)`` (a new variable unless trivial)."""
        live = [x for x in lits if x != self.FALSE]
        if any(x == self.TRUE for x in live):
            return self.TRUE
        if not live:
            return self.FALSE
        if len(live) == 1:
            return live[0]
        t = self.new()
        self.add_checked([-t, *live])
        for x in live:
            self.add_checked([t, -x])
        return t


def _neg(lit: int) -> int:
    return -lit  # TRUE and FALSE are each other's negation too


LiteralOf = Callable[[int, int], int]


def encode_constraint_rules(rules: RuleSet, *, top: int) -> tuple[list[Clause], int]:
    """The clauses of the rule set's relation, domain, sum, sandwich and table rules alone, over
    the dense cell variables, auxiliaries from ``top + 1``; returns them and the new top.

    :func:`encode_rules` is the base rules' clauses plus these. The PySAT backend adds
    them to a solver already loaded with the base rules, under a guard literal, so a
    killer puzzle does not reload the 12,000 clauses of the classic rules.

    Relations: every forbidden digit pair of a pair of cells is a binary clause, and the
    digits no allowed pair supports (arc consistency over the relation and domain rules,
    :attr:`RuleSet.candidate_digits`) are unit clauses, as are domains. A killer cage
    (distinct, unit weights): its digit combinations with one selector each, a two-cell
    cage binary clauses alone (see :func:`_add_combinations`), plus pairwise distinctness
    where no unit already gives it; each (size, total, peer pattern) is encoded once as a
    template (:func:`_cage_template`) that a cage maps onto its cells.
    Other sums (little killers, arrows, weighted groups) and large cages: a layered sum
    (:func:`_add_layered_sum`). Sandwich lines: prefix flags "the 1 / the n is before
    here", a "between" flag per cell, and a layered sum of the between cells. Tables: a
    selector per (scope, allowed tuple) with support clauses (:func:`_add_table_scope`).

    Raises:
        UnsupportedPuzzleError: for a sandwich line that is not a unit of n cells.
    """
    n = rules.shape.size
    out = _Clauses([], top, constants=False)
    _add_constraint_rules(out, rules, lambda c, d: c * n + d)
    return out.clauses, out.top


def _add_constraint_rules(out: _Clauses, rules: RuleSet, lit: LiteralOf) -> None:
    """Clauses of the relation, domain, sum, sandwich and table rules (see
    :func:`encode_rules`).

    ``lit(cell, digit)`` is the cell literal, or a :class:`_Clauses` constant.
    """
    if not rules.constraint_rules:
        return
    n = rules.shape.size
    digits = range(1, n + 1)
    candidates = rules.candidate_digits
    for c, allowed in enumerate(candidates):
        for d in digits:
            if d not in allowed:
                out.add([_neg(lit(c, d))])
    peers = rules.base.peers
    full_units = {frozenset(u) for u in rules.base.full_units}
    for rule in rules.constraint_rules:
        if isinstance(rule, Relation):
            forbidden = [(a, b) for a in digits for b in digits if (a, b) not in rule.allowed]
            for x, y in rule.pairs:
                cx, cy = candidates[x], candidates[y]
                for a, b in forbidden:
                    if a in cx and b in cy and not (a == b and y in peers[x]):
                        out.add([_neg(lit(x, a)), _neg(lit(y, b))])
        elif isinstance(rule, Sum):
            for group in rule.groups:
                _add_sum_group(out, group, n, lit, peers, candidates)
        elif isinstance(rule, Sandwich):
            for line, total in rule.lines:
                if frozenset(line) not in full_units:
                    raise UnsupportedPuzzleError(
                        f"rule {rule.name!r}: the CNF sandwich encoding needs each line to be "
                        "a unit of n different digits (a row or column of the rules)"
                    )
                _add_sandwich_line(out, line, total, n, lit)
        elif isinstance(rule, Table):
            for scope in rule.scopes:
                _add_table_scope(out, scope, rule.allowed, lit, candidates)
        # Domain rules are all in candidate_digits.


def _add_table_scope(
    out: _Clauses,
    scope: Sequence[int],
    allowed: Iterable[tuple[int, ...]],
    lit: LiteralOf,
    candidates: Sequence[frozenset[int]],
) -> None:
    """One scope of a table rule: a selector per allowed tuple that its cells' candidates
    admit, the selector implying each of its cell literals, at least one selector, and for
    each candidate digit of each cell a support clause (the digit implies one of the
    selectors whose tuple has it there; none: the digit is out). Unit propagation on these
    clauses keeps the scope to generalised arc consistency. No tuple left: an empty clause."""
    rows = sorted(
        t for t in allowed if all(d in candidates[c] for c, d in zip(scope, t, strict=True))
    )
    selectors: list[int] = []
    support: dict[tuple[int, int], list[int]] = {}
    for row in rows:
        t = out.new()
        selectors.append(t)
        for i, d in enumerate(row):
            out.add([-t, lit(scope[i], d)])
            support.setdefault((i, d), []).append(t)
    out.add(selectors)
    for i, c in enumerate(scope):
        for d in sorted(candidates[c]):
            out.add([_neg(lit(c, d)), *support.get((i, d), ())])


@lru_cache(maxsize=4096)
def _cage_combinations(k: int, total: int, n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(s for s in combinations(range(1, n + 1), k) if sum(s) == total)


def _add_sum_group(
    out: _Clauses,
    group: SumGroup,
    n: int,
    lit: LiteralOf,
    peers: Sequence[frozenset[int]],
    candidates: Sequence[frozenset[int]],
) -> None:
    cells = group.cells
    unit_weights = all(w == 1 for w in group.weights)
    if group.distinct:
        apart = tuple(b not in peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :])
        if unit_weights:
            combos = _cage_combinations(len(cells), group.total, n)
            if len(combos) <= MAX_COMBINATIONS:
                _add_template(out, _cage_template(len(cells), group.total, n, apart), cells, lit)
                return
        # Distinct digits: pairs no unit already keeps apart.
        pairs = iter(apart)
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                if next(pairs):
                    for d in range(1, n + 1):
                        out.add([_neg(lit(a, d)), _neg(lit(b, d))])
    layers = [
        [(w * d, lit(c, d)) for d in sorted(candidates[c])] for c, w in zip(cells, group.weights)
    ]
    _add_layered_sum(out, layers, group.total)


@dataclass(frozen=True)
class _Template:
    """The clauses of a killer cage over symbolic literals: ``i * n + d`` is "the cage's
    i-th cell holds d", ``k * n + j`` (j >= 1) its j-th selector, negative values their
    negations. ``flat`` holds every clause's literals one after the other, ``slices`` where
    each clause lies in it."""

    k: int
    n: int
    selectors: int
    flat: tuple[int, ...]
    slices: tuple[slice, ...]


@lru_cache(maxsize=8192)
def _cage_template(k: int, total: int, n: int, apart: tuple[bool, ...]) -> _Template:
    """The clauses of a killer cage of ``k`` cells and ``total`` whose cell pairs (in
    ``combinations`` order) flagged in ``apart`` share no unit: pairwise distinctness for
    those, then :func:`_add_combinations`.

    A killer list repeats a few hundred (size, total, shape) cases, so each is encoded once
    and a cage only maps the template's literals to its own (about 8x faster than building
    the clauses anew in Python: ~0.15 ms instead of ~1.3 ms per 9x9 killer)."""
    out = _Clauses([], k * n, constants=False)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    for (i, j), differ in zip(pairs, apart):
        if differ and k > 2:  # two cells: the combination clauses keep them apart
            for d in range(1, n + 1):
                out.add([-(i * n + d), -(j * n + d)])
    _add_combinations(out, range(k), _cage_combinations(k, total, n), n, lambda i, d: i * n + d)
    slices = []
    at = 0
    for clause in out.clauses:
        slices.append(slice(at, at + len(clause)))
        at += len(clause)
    flat = tuple(x for clause in out.clauses for x in clause)
    return _Template(k, n, out.top - k * n, flat, tuple(slices))


def _add_template(out: _Clauses, template: _Template, cells: Sequence[int], lit: LiteralOf) -> None:
    """The template's clauses for ``cells``, selectors numbered from ``out.top + 1``."""
    n = template.n
    actual = [lit(c, d) for c in cells for d in range(1, n + 1)]
    first = out.top + 1
    actual.extend(range(first, first + template.selectors))
    out.top += template.selectors
    # lut[v] is the literal of symbolic v, lut[-v] its negation (negative indices count
    # from the end), so one itemgetter call maps the whole template.
    lut = [0, *actual, *map(_neg, reversed(actual))]
    flat = template.flat
    if not flat:
        return
    mapped: tuple[int, ...] = itemgetter(*flat)(lut) if len(flat) > 1 else (lut[flat[0]],)
    if out.constants:
        for part in template.slices:
            out.add_checked(mapped[part])
        return
    # map/list (C loops): a Python loop over the clauses costs as much as the rest
    out.clauses.extend(map(list, map(mapped.__getitem__, template.slices)))


def _add_combinations(
    out: _Clauses, cells: Sequence[int], combos: Sequence[tuple[int, ...]], n: int, lit: LiteralOf
) -> None:
    """A killer cage by its digit sets: one selector per set, at least one selector true;
    a selector puts every cell in its set and every digit of its set in the cage; a digit
    in a cell needs a selector whose set holds it.

    A cage of two cells needs no selector: ``x(a, d) -> x(b, total - d)`` both ways, and a
    digit of no set is ruled out. That is exact (it also keeps the two digits apart) and
    propagates as much, with fewer clauses and no selector. Selectors cost beyond their
    clauses: a solver that keeps the base rules loaded keeps every retired overlay's
    variables, and each later call pays for them (on killer-200, 2-cell cages held 41% of
    the selectors; see tests/benchmarks/bench_rules.py).
    """
    digits = range(1, n + 1)
    table = [[0, *(lit(c, d) for d in digits)] for c in cells]  # table[i][d]: cell i holds d
    if len(table) == 2 and combos:
        total = sum(combos[0])
        used = {d for combo in combos for d in combo}
        for here, there in (table, table[::-1]):
            for d in digits:
                if d in used:
                    out.add([_neg(here[d]), there[total - d]])
                else:
                    out.add([_neg(here[d])])
        return
    if len(combos) == 1:
        (only,) = combos
        for row in table:
            for d in digits:
                if d not in only:
                    out.add([_neg(row[d])])
        for d in only:
            out.add([row[d] for row in table])
        return
    # No "at most one selector": two true selectors would put each cell in both sets,
    # which the clauses already allow; leaving it out saves m*(m-1)/2 clauses.
    selectors = [out.new() for _ in combos]
    out.add(selectors)
    for s, combo in zip(selectors, combos):
        for row in table:
            out.add([-s, *[row[d] for d in combo]])
        for d in combo:
            out.add([-s, *[row[d] for row in table]])
    for d in digits:
        having = [s for s, combo in zip(selectors, combos) if d in combo]
        if len(having) == len(combos):
            # in every set: somewhere in the cage (a cell holding d needs no selector
            # clause, the selectors' at-least-one clause covers it)
            out.add([row[d] for row in table])
            continue
        for row in table:
            out.add([_neg(row[d]), *having])


def _add_layered_sum(
    out: _Clauses, layers: Sequence[Sequence[tuple[int, int]]], total: int
) -> None:
    """``sum(value of the option taken in each layer) == total``, where each layer is a
    list of ``(value, literal)`` options exactly one of which is true (a cell's digits).

    A layered decision diagram: node ``(i, s)`` means "the first i layers sum to s"; only
    nodes on some path from ``(0, 0)`` to ``(len(layers), total)`` exist. Clauses: a node
    and an option lead to the child node (or are incompatible when the child is dead); a
    true node takes one of its live options; a true node has a true parent, the one its
    option came from. Unit propagation then keeps each cell to the digits some full sum
    still allows, in both directions.
    """
    k = len(layers)
    forward: list[set[int]] = [{0}]
    for options in layers:
        forward.append({s + v for s in forward[-1] for v, _ in options})
    live: list[set[int]] = [set() for _ in range(k + 1)]
    live[k] = {total} & forward[k]
    for i in range(k - 1, -1, -1):
        live[i] = {s for s in forward[i] if any(s + v in live[i + 1] for v, _ in layers[i])}
    if not live[0]:
        out.add_checked([])
        return
    node: list[dict[int, int]] = [{0: out.TRUE}]
    for i in range(1, k):
        node.append({s: out.new() for s in sorted(live[i])})
    node.append({total: out.TRUE})
    for i, options in enumerate(layers):
        here, there = node[i], node[i + 1]
        for s, u in here.items():
            taken = []
            for v, x in options:
                child = there.get(s + v)
                if child is None:
                    out.add_checked([_neg(u), _neg(x)])
                else:
                    out.add_checked([_neg(u), _neg(x), child])
                    taken.append(x)
            out.add_checked([_neg(u), *taken])
        for t, w in there.items():
            parents = []
            for v, x in options:
                parent = here.get(t - v)
                if parent is None:
                    out.add_checked([_neg(w), _neg(x)])
                else:
                    out.add_checked([_neg(w), _neg(x), parent])
                    parents.append(parent)
            out.add_checked([_neg(w), *dict.fromkeys(parents)])


def _add_sandwich_line(
    out: _Clauses, line: Sequence[int], total: int, n: int, lit: LiteralOf
) -> None:
    """The digits strictly between the 1 and the n of a full line sum to ``total``.

    ``p1[i]``/``pn[i]``: the 1 (the n) stands before position i; ``b[i]``: position i is
    between them, i.e. exactly one of ``p1[i]``, ``pn[i]`` holds and the cell is neither 1
    nor n; ``z[i][d] = b[i] and cell i holds d``. The sum is a layered sum over the options
    "not between" (0) and ``z[i][d]`` (d) of each position.
    """
    p1 = [out.FALSE]
    pn = [out.FALSE]
    for c in line[:-1]:
        p1.append(out.equals_or([p1[-1], lit(c, 1)]))
        pn.append(out.equals_or([pn[-1], lit(c, n)]))
    layers = []
    for i, c in enumerate(line):
        one, top = lit(c, 1), lit(c, n)
        e = _xor(out, p1[i], pn[i])
        if e == out.FALSE:
            layers.append([(0, out.TRUE)])
            continue
        b = out.new()
        out.add_checked([-b, e])
        out.add_checked([-b, _neg(one)])
        out.add_checked([-b, _neg(top)])
        out.add_checked([b, _neg(e), one, top])
        options = [(0, -b)]
        for d in range(2, n):
            x = lit(c, d)
            if x == out.FALSE:
                continue
            z = out.new()
            out.add_checked([-z, b])
            out.add_checked([-z, x])
            out.add_checked([z, -b, _neg(x)])
            options.append((d, z))
        layers.append(options)
    _add_layered_sum(out, layers, total)


def _xor(out: _Clauses, a: int, b: int) -> int:
    if a == out.FALSE:
        return b
    if b == out.FALSE:
        return a
    if a == out.TRUE:
        return _neg(b)
    if b == out.TRUE:
        return _neg(a)
    e = out.new()
    out.add_checked([-e, a, b])
    out.add_checked([-e, -a, -b])
    out.add_checked([e, -a, b])
    out.add_checked([e, a, -b])
    return e


def given_literals(puzzle: Puzzle) -> list[int]:
    """The literals ``var(cell, given)`` of the givens (dense numbering), in cell order."""
    n = puzzle.size
    return [c * n + v for c, v in enumerate(puzzle.givens.values) if v]


def encode_puzzle(
    puzzle: Puzzle,
    *,
    encoding: str = DEFAULT_ENCODING,
    amo: str = DEFAULT_AMO,
    simplify: bool = False,
) -> CNF:
    """A puzzle as one formula: its rules plus the givens.

    Without ``simplify`` the givens are unit clauses appended to :func:`encode_rules`.
    With ``simplify`` (Kwon & Jain 2006) nothing the givens decide gets a variable: given
    cells drop out, and so does every digit a given rules out of a peer; clauses made true
    by the givens vanish. Variables are then numbered compactly (see
    :class:`VariableMap`). A puzzle whose givens clash gets an empty clause.

    >>> from sudoku_model import Grid, Shape
    >>> p = Puzzle(Grid(Shape(2, 2), [1, 2, 3, 4] + [0] * 12))
    >>> full, small = encode_puzzle(p), encode_puzzle(p, simplify=True)
    >>> (full.num_vars, len(full.clauses)), (small.num_vars, len(small.clauses))
    ((64, 452), (32, 164))

    Raises:
        ValueError: for an unknown encoding or at-most-one encoding.
    """
    if not simplify:
        cnf = encode_rules(puzzle.rules, encoding=encoding, amo=amo)
        cnf.clauses.extend([lit] for lit in given_literals(puzzle))
        cnf.comments.append(f"givens: {puzzle.clues} unit clauses at the end")
        return cnf
    _check_options(encoding, amo)
    return _encode_simplified(puzzle, encoding, amo)


def _encode_simplified(puzzle: Puzzle, encoding: str, amo: str) -> CNF:
    rules = puzzle.rules
    shape = rules.shape
    n = shape.size
    values = puzzle.givens.values
    digits = range(1, n + 1)
    comments = [
        f"sudoku {shape.name} {'+'.join(rules.variants)}: {encoding} encoding "
        f"simplified by {puzzle.clues} givens (Kwon & Jain), {amo} at-most-one",
        "variables numbered compactly: see the variable map",
    ]
    if puzzle.conflicts():
        comments.append("the givens clash: the formula is an empty clause")
        return CNF([[]], 0, VariableMap(shape, {}, values), comments)
    peers = rules.peers
    table: dict[tuple[int, int], int] = {}
    for c, v in enumerate(values):
        if v:
            continue
        ruled_out = {values[p] for p in peers[c]}
        for d in digits:
            if d not in ruled_out:
                table[(c, d)] = len(table) + 1
    builder = _AtMostOne(amo, len(table))
    clauses: list[Clause] = []
    cell_lits = {
        c: [table[(c, d)] for d in digits if (c, d) in table] for c, v in enumerate(values) if not v
    }
    clauses.extend(cell_lits.values())  # an empty list here is an empty clause: unsat
    if encoding in ("efficient", "extended"):
        for lits in cell_lits.values():
            builder.add(clauses, lits)
    for unit in rules.units:
        placed = {values[c] for c in unit}
        for d in digits:
            if d in placed:
                continue
            lits = [table[(c, d)] for c in unit if (c, d) in table]
            builder.add(clauses, lits)
            if encoding in ("extended", "augmented") and len(unit) == n:
                clauses.append(lits)
    for a, b in rules.pairs:
        for d in digits:
            va, vb = table.get((a, d)), table.get((b, d))
            if va is not None and vb is not None:
                clauses.append([-va, -vb])
    top = builder.top
    if encoding == "augmented":
        top = _add_segments(clauses, rules, top, lambda c, d: table.get((c, d)))
    if rules.constraint_rules:

        def lit(c: int, d: int) -> int:
            x = table.get((c, d))
            if x is not None:
                return x
            return _Clauses.TRUE if values[c] == d else _Clauses.FALSE

        out = _Clauses(clauses, top)
        _add_constraint_rules(out, rules, lit)
        top = out.top
    return CNF(clauses, top, VariableMap(shape, table, values), comments)
