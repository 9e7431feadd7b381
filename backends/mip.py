"""The MIP backend (``mip:highs``): HiGHS, through highspy, on a 0/1 integer programme.

The model: one binary variable ``x[c, d]`` per cell c and digit d (cell c holds d), with

* every cell exactly one digit: ``sum_d x[c, d] == 1``;
* all-different units: ``sum_{c in unit} x[c, d] == 1`` for a unit of n cells (every digit
  once), ``<= 1`` for a shorter one; a :class:`~sudoku_model.rules.Different` pair
  ``x[a, d] + x[b, d] <= 1``;
* relations (thermometers, dots, greater-than...): for a pair (a, b) and a digit p of a,
  ``x[a, p] <= sum of x[b, q] over the q allowed with p`` (and the same from b's side), the
  "support" form, exact on 0/1 points;
* domains (odd/even cells, candidates): the excluded ``x[c, d]`` left out (with what the
  relations exclude on their own, :attr:`~sudoku_model.rules.RuleSet.candidate_digits`);
* sums (killer cages, arrows, little killers): ``sum w * d * x[c, d] == total``, with
  ``sum_{c in group} x[c, d] <= 1`` for a distinct group;
* tables (between and lockout lines, quadruples, X-sums...): one more binary ``t[s, k]``
  per scope s and allowed tuple k, ``sum_k t[s, k] == 1`` per scope, and for each position
  i of the scope and digit d, ``x[c_i, d] == sum of the t[s, k] whose tuple has d at i``.
  A tuple that the cells' candidates rule out is a column fixed to 0; one whose cells are
  all fixed, a column fixed to 1. At most :data:`MAX_TABLE_COLUMNS` such columns a model
  (a bigger one is refused as unsupported: the linear form grows with the lists);
* givens: ``x[c, g]`` fixed to 1.

Sandwich rules have no short linear form here and are refused before solving (the
contract's :class:`~sudoku_model.errors.UnsupportedPuzzleError`, from the declared rule
kinds).

Every question is a sequence of *sub-problems*, each the model with some cells' candidate
sets narrowed. Before HiGHS sees one, the fixings are propagated (a fixed cell removes its
digit from its peers, a digit with one place left in a full unit goes there): a
sub-problem this refutes is infeasible without a solve, and HiGHS receives only the
columns still open (the rows restricted to them, their bounds moved by the fixed ones), so
that a small sub-problem costs a small solve. HiGHS finds every solution except where
propagation has fixed every cell of a sub-problem: that single point is checked against
every row of the model instead (a full grid that breaks a sum or a relation is no
solution).

* **Uniqueness** (``limit <= 2``): after the first solution S a no-good cut
  ``sum_{c open} x[c, S[c]] <= (open cells) - 1`` removes exactly S and the programme is
  solved once more (the LP relaxation of the whole puzzle is what makes MIP strong on hard
  pencilmark puzzles).
* **Counting and enumeration** (``limit > 2``): the first two solutions as for uniqueness
  (a unique puzzle costs two solves); then the space left after a solution S of a
  sub-problem P is split into disjoint sub-problems instead of accumulating cuts: take the
  open cell f of P with fewest candidates; ``P and f != S[f]`` is one part, and the rest is
  ``P and f == S[f]`` (propagated: more cells fall to S's digits) minus S, split the same
  way until every cell is fixed. Each part is solved on its own (depth first), so a count
  costs about one small solve per solution plus one per part that HiGHS proves empty.

Budgets: ``seconds`` (wall time; HiGHS's ``time_limit`` per solve) and ``nodes``
(branch-and-bound nodes, at least one per solve, summed over the solves of one call).
Each solve runs in a helper thread while the caller waits in short slices: at the deadline
or on :meth:`HighsBackend.interrupt` the solve is cancelled (``cancelSolve``) and the call
answers ``unknown`` or raises :class:`~sudoku_model.errors.SearchInterrupted`.

highspy is an optional dependency (the ``mip`` extra): without it the backend is listed
but raises :class:`~sudoku_model.errors.BackendUnavailableError` naming the extra.

>>> from sudoku_model import Puzzle
>>> backend = create()                                                # doctest: +SKIP
>>> backend.check_unique(Puzzle.parse("1.3..4.2.1.3..2.")).kind.value  # doctest: +SKIP
'unique'
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sudoku_model.errors import BackendUnavailableError, UnsupportedPuzzleError
from sudoku_model.grid import Grid
from sudoku_model.puzzle import Puzzle
from sudoku_model.rules import Different, Domain, Relation, RuleSet, Sum, Table
from sudoku_model.solving import Backend, Budget, Capabilities, SearchOutcome

from .threads import Background

__all__ = ["LINEAR_RULE_KINDS", "HighsBackend", "create"]

#: How often the waiting thread looks at the clock and the interrupt flag (seconds).
_POLL = 0.02

#: How long a cancelled solve is awaited before it is left to end in its own thread
#: (seconds); :meth:`HighsBackend.close` awaits the ones left.
_GRACE = 0.005

#: The rule kinds with a linear form in this model (see the module docs).
LINEAR_RULE_KINDS = frozenset({"all_different", "different", "relation", "domain", "sum", "table"})

#: The most tuple columns of table rules in one model (scopes times allowed tuples).
MAX_TABLE_COLUMNS = 400_000

#: HiGHS options of every solve: one thread (one core per search, like the other
#: backends), no output, no symmetry detection and no improvement heuristics (the
#: objective is 0: the first integer point is optimal; measured on hard classic and
#: pencilmark puzzles, these options take 20-40% off the CPU time of a solve).
_OPTIONS: dict[str, Any] = {
    "output_flag": False,
    "threads": 1,
    "mip_detect_symmetry": False,
    "mip_heuristic_effort": 0.0,
    "mip_heuristic_run_rins": False,
    "mip_heuristic_run_rens": False,
    "mip_heuristic_run_root_reduced_cost": False,
}


#: HiGHS's default ``mip_max_nodes`` (no limit), set again after a call with a node budget.
_NO_NODE_LIMIT = 2**31 - 1


def _import_highspy() -> Any:
    try:
        import highspy
        import numpy
    except ImportError as exc:
        raise BackendUnavailableError(
            "the mip:highs backend needs highspy: pip install 'sudoku-model[mip]'"
        ) from exc
    return highspy, numpy


_QUIET: Any = None


def _quiet_highs_class(hs: Any) -> Any:
    """``highspy.Highs`` with its output switched off before its log callback is set, so
    that the first solver of a process prints no banner on standard output (HiGHS writes
    its header at that moment while ``output_flag`` is on)."""
    global _QUIET
    if _QUIET is None:

        class QuietHighs(hs.Highs):  # type: ignore[misc,name-defined]
            def enableCallbacks(self) -> None:  # noqa: N802 - highspy's name
                self.setOptionValue("output_flag", False)
                super().enableCallbacks()

        _QUIET = QuietHighs
    return _QUIET


# -- the model of a rule set -------------------------------------------------------------------
def _rows(rules: RuleSet, np: Any) -> tuple[Any, Any, Any, Any, Any]:
    """The rows of the model of ``rules``, row-wise, as numpy arrays: (row of each entry,
    column of each entry, coefficient of each entry, row lower bounds, row upper bounds).
    Domains are not rows: they narrow the cells' candidates (:meth:`RuleSet.candidate_digits`).
    The rows of cells, units and pairs (every digit of each) are built by array arithmetic:
    a 25x25 model has 15,625 columns and 2,500 such rows."""
    n = rules.shape.size
    cells = rules.shape.cell_count
    inf = float("inf")
    digits = np.arange(n, dtype=np.int64)
    # blocks of rows that share their width: (columns (rows x width), coefs, lower, upper)
    blocks: list[tuple[Any, Any, Any, Any]] = []

    def block(cols: Any, coefs: Any | None, lo: Any, hi: Any) -> None:
        if cols.size:
            rows = cols.shape[0]
            blocks.append(
                (
                    cols,
                    np.ones(cols.shape) if coefs is None else coefs,
                    np.broadcast_to(np.asarray(lo, dtype=np.float64), (rows,)),
                    np.broadcast_to(np.asarray(hi, dtype=np.float64), (rows,)),
                )
            )

    # one digit per cell: row c holds columns c*n .. c*n+n-1
    block(np.arange(cells * n, dtype=np.int64).reshape(cells, n), None, 1.0, 1.0)
    # each digit at most (full units: exactly) once per unit, grouped by unit length
    by_length: dict[int, list[tuple[int, ...]]] = {}
    for unit in rules.units:
        if len(unit) >= 2:
            by_length.setdefault(len(unit), []).append(unit)
    for length, units in by_length.items():
        members = np.asarray(units, dtype=np.int64)  # (units, length)
        block(
            (members[:, None, :] * n + digits[None, :, None]).reshape(-1, length),
            None,
            1.0 if length == n else -inf,
            1.0,
        )
    if rules.pairs:
        ends = np.asarray(rules.pairs, dtype=np.int64)  # (pairs, 2)
        block((ends[:, None, :] * n + digits[None, :, None]).reshape(-1, 2), None, -inf, 1.0)
    # the other linear kinds, row by row
    row_of: list[int] = []
    index: list[int] = []
    value: list[float] = []
    lower: list[float] = []
    upper: list[float] = []

    def row(cols: list[int], coefs: list[float] | None, lo: float, hi: float) -> None:
        row_of.extend([len(lower)] * len(cols))
        index.extend(cols)
        value.extend(coefs if coefs is not None else [1.0] * len(cols))
        lower.append(lo)
        upper.append(hi)

    for rule in rules.constraint_rules:
        if isinstance(rule, Relation):
            for a, b in rule.pairs:
                for first, second, flip in ((a, b, False), (b, a, True)):
                    for p in range(1, n + 1):
                        partners = sorted(
                            {(x if flip else y) for x, y in rule.allowed if (y if flip else x) == p}
                        )
                        partners = [q for q in partners if q <= n]
                        # x[first, p] - sum x[second, q] <= 0
                        row(
                            [first * n + p - 1] + [second * n + q - 1 for q in partners],
                            [1.0] + [-1.0] * len(partners),
                            -inf,
                            0.0,
                        )
        elif isinstance(rule, Sum):
            for group in rule.groups:
                cols: list[int] = []
                coefs: list[float] = []
                for c, w in zip(group.cells, group.weights):
                    for d in range(1, n + 1):
                        cols.append(c * n + d - 1)
                        coefs.append(float(w * d))
                row(cols, coefs, float(group.total), float(group.total))
                if group.distinct and len(group.cells) > 1:
                    for d in range(n):
                        row([c * n + d for c in group.cells], None, -inf, 1.0)
        elif isinstance(rule, Different):  # pragma: no cover - folded into rules.pairs
            for a, b in rule.pairs:
                for d in range(n):
                    row([a * n + d, b * n + d], None, -inf, 1.0)
        elif isinstance(rule, Domain):
            continue  # in the candidates (candidate_digits)
    next_column = cells * n
    for scopes, tuples in _table_groups(rules, np):
        count, width = tuples.shape
        for s, scope in enumerate(scopes.tolist()):
            base = next_column + s * count
            row(list(range(base, base + count)), None, 1.0, 1.0)
            for i, c in enumerate(scope):
                for d in range(1, n + 1):
                    with_d = (base + np.flatnonzero(tuples[:, i] == d)).tolist()
                    # x[c, d] - sum of the tuple columns with d at position i == 0
                    row([c * n + d - 1, *with_d], [1.0] + [-1.0] * len(with_d), 0.0, 0.0)
        next_column += len(scopes) * count
    parts_rows: list[Any] = []
    parts_index: list[Any] = []
    parts_value: list[Any] = []
    parts_lower: list[Any] = []
    parts_upper: list[Any] = []
    first = 0
    for matrix, factors, lo, hi in blocks:
        rows, width = matrix.shape
        parts_rows.append(np.repeat(np.arange(first, first + rows, dtype=np.int64), width))
        parts_index.append(matrix.ravel())
        parts_value.append(np.asarray(factors, dtype=np.float64).ravel())
        parts_lower.append(lo)
        parts_upper.append(hi)
        first += rows
    parts_rows.append(np.asarray(row_of, dtype=np.int64) + first)
    parts_index.append(np.asarray(index, dtype=np.int64))
    parts_value.append(np.asarray(value, dtype=np.float64))
    parts_lower.append(np.asarray(lower, dtype=np.float64))
    parts_upper.append(np.asarray(upper, dtype=np.float64))
    return (
        np.concatenate(parts_rows),
        np.concatenate(parts_index),
        np.concatenate(parts_value),
        np.concatenate(parts_lower),
        np.concatenate(parts_upper),
    )


def _table_groups(rules: RuleSet, np: Any) -> list[tuple[Any, Any]]:
    """Each table rule's scopes (scopes x arity) and allowed tuples (tuples x arity) as
    arrays, in rule order (their columns follow the cells' in that order).

    Raises:
        UnsupportedPuzzleError: when the tables need more than :data:`MAX_TABLE_COLUMNS`
            columns.
    """
    groups = []
    total = 0
    for rule in rules.constraint_rules:
        if isinstance(rule, Table) and rule.scopes and rule.allowed:
            scopes = np.asarray(rule.scopes, dtype=np.int64)
            tuples = np.asarray(sorted(rule.allowed), dtype=np.int64)
            total += len(rule.scopes) * len(rule.allowed)
            groups.append((scopes, tuples))
    if total > MAX_TABLE_COLUMNS:
        raise UnsupportedPuzzleError(
            f"the table rules need {total:,} tuple columns, more than the {MAX_TABLE_COLUMNS:,} "
            "of a mip:highs model"
        )
    return groups


class _Model:
    """The model of one rule set, as numpy arrays, and what propagation needs."""

    def __init__(self, rules: RuleSet, np: Any) -> None:
        n = rules.shape.size
        self.n = n
        self.cells = rules.shape.cell_count
        self.full = (1 << n) - 1
        self.row_of, self.index, self.value, self.lower, self.upper = _rows(rules, np)
        self.rows = int(self.lower.size)
        self.tables = _table_groups(rules, np)
        self.peers = tuple(tuple(sorted(p)) for p in rules.peers)
        self.full_units = rules.full_units
        masks: dict[frozenset[int], int] = {}
        start: list[int] = []
        for digits in rules.candidate_digits:
            mask = masks.get(digits)
            if mask is None:
                mask = masks[digits] = sum(1 << (d - 1) for d in digits if 1 <= d <= n)
            start.append(mask)
        self.start = tuple(start)
        self.bit_digit = {1 << d: d + 1 for d in range(n)}
        self.digit_shifts = np.arange(n, dtype=np.int64)


def _propagate(model: _Model, doms: list[int], queue: list[int]) -> list[int] | None:
    """Narrow ``doms`` (candidate bitmasks, changed in place) by the all-different rules:
    each fixed cell in ``queue`` (and each cell fixed on the way) removes its digit from
    its peers; a digit with one place left in a full unit goes there. None when a cell or
    a unit runs out of candidates. Sound for every rule set: only the peers and the full
    units are used, whatever else the rules say."""
    peers = model.peers
    full = model.full
    done = [False] * model.cells
    while True:
        while queue:
            c = queue.pop()
            if done[c]:
                continue
            done[c] = True
            bit = doms[c]
            for p in peers[c]:
                dp = doms[p]
                if dp & bit:
                    dp ^= bit
                    if not dp:
                        return None
                    doms[p] = dp
                    if not dp & (dp - 1):
                        queue.append(p)
        for unit in model.full_units:
            once = twice = 0
            for c in unit:
                m = doms[c]
                twice |= once & m
                once |= m
            if once != full:
                return None
            hidden = once & ~twice
            if hidden:
                for c in unit:
                    m = doms[c] & hidden
                    if m and doms[c] != m:
                        if m & (m - 1):
                            return None  # two digits with this cell as their only place
                        doms[c] = m
                        queue.append(c)
        if not queue:
            return doms


def _open_cell(doms: list[int]) -> int:
    """The open cell with fewest candidates (-1 when every cell is fixed)."""
    best, best_count = -1, 1 << 30
    for c, m in enumerate(doms):
        if m & (m - 1):
            k = m.bit_count()
            if k < best_count:
                best, best_count = c, k
                if k == 2:
                    break
    return best


@dataclass
class _Tally:
    """What one call has spent: HiGHS solves, branch-and-bound nodes, sub-problems refuted
    without a solve (by propagation, or by a row whose cells are all fixed)."""

    solves: int = 0
    nodes: int = 0
    refuted: int = 0


def _split(
    model: _Model, doms: list[int], solution: Sequence[int], tally: _Tally
) -> list[list[int]]:
    """The space of the sub-problem ``doms`` less its solution ``solution``, as disjoint
    sub-problems (propagated; those propagation refutes are left out and tallied), in the
    order to solve them: take the open cell f with fewest candidates; ``f != solution[f]``
    is one part, ``f == solution[f]`` (propagated) is split again, until no cell is open."""
    parts: list[list[int]] = []
    rest: list[int] | None = doms
    while rest is not None:
        f = _open_cell(rest)
        if f < 0:
            break
        bit = 1 << (solution[f] - 1)
        other = rest.copy()
        other[f] &= ~bit
        part = _propagate(model, other, [] if other[f] & (other[f] - 1) else [f])
        if part is None:
            tally.refuted += 1
        else:
            parts.append(part)
        rest = rest.copy()
        rest[f] = bit
        rest = _propagate(model, rest, [f])
    parts.reverse()
    return parts


class _Stop(Exception):
    """The budget ended the call (internal: turned into an ``unknown`` outcome)."""


class HighsBackend(Backend):
    """Sudoku as a 0/1 programme solved by HiGHS (see the module docs).

    Args:
        threads: HiGHS ``threads`` option (default 1: one core per search, like the other
            backends).
        options: extra HiGHS options by name (for experiments), e.g. ``{"presolve": "off"}``.

    Raises:
        BackendUnavailableError: when highspy is not installed.
        ValueError: for a thread count below 1 or an option HiGHS refuses.
    """

    name = "mip:highs"
    capabilities = Capabilities(
        LINEAR_RULE_KINDS,
        min_size=4,
        max_size=25,
        budgets=("seconds", "nodes"),
        notes="HiGHS (highspy) on a 0/1 programme: one binary per cell and digit, linear "
        "rows per rule; uniqueness by a no-good cut, counting by disjoint sub-problems; "
        "sandwich rules refused",
        sub_solvers=("highs",),
    )

    def __init__(self, *, threads: int = 1, options: dict[str, Any] | None = None) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, got {threads!r}")
        self._hs, self._np = _import_highspy()
        self.threads = threads
        self.options = dict(options or {})
        self._models: OrderedDict[RuleSet, _Model] = OrderedDict()
        self._highs: Any = None
        self._active: set[Any] = set()  # the Highs objects solving now (see interrupt)
        self._leftovers: list[Background] = []  # cancelled solves not ended yet
        self._solver()  # refuses an unknown option now, not at the first question

    def version(self) -> str:
        from importlib.metadata import version

        return f"highspy {version('highspy')}"

    def close(self) -> None:
        """Forget the models of every rule set and the HiGHS instance, and wait for the
        cancelled solves still ending in their threads; the backend stays usable (the next
        call builds what it needs)."""
        self._models.clear()
        self._highs = None
        leftovers, self._leftovers = self._leftovers, []
        for job in leftovers:
            job.wait()

    # -- interruption ----------------------------------------------------------------------
    def interrupt(self) -> None:
        """Cancel every solve of this backend in flight (see the base class). Takes no lock:
        safe in a signal handler."""
        super().interrupt()
        for highs in tuple(self._active):
            highs.cancelSolve()

    # -- model ---------------------------------------------------------------------------
    def _model(self, rules: RuleSet) -> _Model:
        model = self._models.get(rules)
        if model is None:
            model = self._models[rules] = _Model(rules, self._np)
            while len(self._models) > 16:
                self._models.popitem(last=False)
        return model

    def _solver(self) -> Any:
        highs = self._highs
        if highs is None:
            hs = self._hs
            highs = _quiet_highs_class(hs)()
            highs.HandleUserInterrupt = True  # cancelSolve() works only with it
            for key, value in {**_OPTIONS, "threads": self.threads, **self.options}.items():
                if highs.setOptionValue(key, value) != hs.HighsStatus.kOk:
                    raise ValueError(f"HiGHS refused option {key}={value!r}")
            self._highs = highs
        return highs

    def _run(self, highs: Any, deadline: float | None) -> bool:
        """``highs.run()`` in a helper thread; False when the deadline came first (the solve
        is cancelled and awaited).

        Raises:
            SearchInterrupted: after :meth:`interrupt`.
        """
        self._active.add(highs)
        timed_out = False
        try:
            self._check_interrupt()
            job = Background(highs.run, name="highs-solve", daemon=False)
            while True:
                wait = _POLL
                if deadline is not None:
                    wait = min(wait, max(deadline - time.perf_counter(), 0.0))
                if job.wait(wait):
                    break
                if self._interrupted or (deadline is not None and time.perf_counter() >= deadline):
                    highs.cancelSolve()
                    timed_out = True
                    if not job.wait(_GRACE):
                        # HiGHS looks at the cancel flag only now and then (not during
                        # presolve): leave the cancelled instance to end in its thread
                        self._leftovers = [j for j in self._leftovers if not j.wait(0)]
                        self._leftovers.append(job)
                    break
        except BaseException:  # a signal handler raised in this (main) thread
            highs.cancelSolve()
            timed_out = True
            raise
        finally:
            self._active.discard(highs)
            if timed_out or self._interrupted:
                # highspy keeps a cancelled instance's stop flag set (until startSolve,
                # which this backend does not use): the next solve gets a fresh instance
                self._highs = None
        self._check_interrupt()
        if not timed_out:
            job.result()
        return not timed_out

    def _solve(
        self,
        model: _Model,
        doms: list[int],
        cut: list[int] | None,
        budget: Budget,
        deadline: float | None,
        tally: _Tally,
    ) -> list[int] | None:
        """A solution (one digit per cell) of the sub-problem ``doms`` (propagated candidate
        masks), or None when it has none. ``cut``: a full grid the solution must differ
        from in at least one open cell (a no-good row).

        Raises:
            _Stop: when the budget ended the solve.
            SearchInterrupted: after :meth:`interrupt`.
        """
        np = self._np
        hs = self._hs
        n = model.n
        masks = np.asarray(doms, dtype=np.int64)
        allowed = ((masks[:, None] >> model.digit_shifts) & 1).astype(bool).ravel()
        is_open = (masks & (masks - 1)) != 0
        col_open = np.repeat(is_open, n)
        if model.tables:
            # a tuple column is allowed while every cell of its scope may hold its digit,
            # open while one of them is open
            more_allowed = [allowed]
            more_open = [col_open]
            for scopes, tuples in model.tables:
                bits = (masks[scopes][:, None, :] >> (tuples - 1)[None, :, :]) & 1
                more_allowed.append(bits.all(axis=2).ravel())
                scope_open = is_open[scopes].any(axis=1)
                more_open.append(np.repeat(scope_open, tuples.shape[0]))
            allowed = np.concatenate(more_allowed)
            col_open = np.concatenate(more_open)
        open_cols = allowed & col_open
        one_cols = allowed & ~col_open
        # the rows restricted to the open columns, their bounds moved by the fixed ones
        fixed = np.bincount(
            model.row_of, weights=model.value * one_cols[model.index], minlength=model.rows
        )
        lower = model.lower - fixed
        upper = model.upper - fixed
        keep = open_cols[model.index]
        rows_used = np.zeros(model.rows, dtype=bool)
        rows_used[model.row_of[keep]] = True
        empty = ~rows_used
        if np.any((lower[empty] > 1e-9) | (upper[empty] < -1e-9)):
            tally.refuted += 1
            return None  # a row no open column can satisfy (all of its cells are fixed)
        open_index = np.flatnonzero(open_cols)
        if open_index.size == 0:
            return [model.bit_digit[m] for m in doms]
        colmap = np.full(open_cols.size, -1, dtype=np.int64)
        colmap[open_index] = np.arange(open_index.size)
        rowmap = np.cumsum(rows_used) - 1
        entry_rows = rowmap[model.row_of[keep]]
        entry_cols = colmap[model.index[keep]]
        entry_vals = model.value[keep]
        row_lower = lower[rows_used]
        row_upper = upper[rows_used]
        num_rows = int(row_lower.size)
        if cut is not None:
            cut_cols = colmap[[c * n + cut[c] - 1 for c in range(model.cells) if is_open[c]]]
            cut_cols = cut_cols[cut_cols >= 0]
            entry_rows = np.concatenate([entry_rows, np.full(cut_cols.size, num_rows)])
            entry_cols = np.concatenate([entry_cols, cut_cols])
            entry_vals = np.concatenate([entry_vals, np.ones(cut_cols.size)])
            row_lower = np.append(row_lower, -np.inf)
            row_upper = np.append(row_upper, float(cut_cols.size - 1))
            num_rows += 1
        # entries are already grouped by row (rows were written one after the other)
        order = np.argsort(entry_rows, kind="stable")
        entry_rows = entry_rows[order]
        starts = np.searchsorted(entry_rows, np.arange(num_rows)).astype(np.int32)
        num_cols = int(open_index.size)
        highs = self._solver()
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise _Stop
            highs.setOptionValue("time_limit", left)
        else:
            highs.setOptionValue("time_limit", float("inf"))
        if budget.nodes is not None:
            if tally.nodes >= budget.nodes:
                raise _Stop
            highs.setOptionValue("mip_max_nodes", int(budget.nodes - tally.nodes))
        else:
            highs.setOptionValue("mip_max_nodes", _NO_NODE_LIMIT)
        highs.passModel(
            num_cols,
            num_rows,
            int(entry_cols.size),
            int(hs.MatrixFormat.kRowwise),
            int(hs.ObjSense.kMinimize),
            0.0,
            np.zeros(num_cols),
            np.zeros(num_cols),
            np.ones(num_cols),
            row_lower,
            row_upper,
            starts,
            entry_cols[order].astype(np.int32),
            entry_vals[order],
            np.ones(num_cols, dtype=np.int32),  # kInteger
        )
        finished = self._run(highs, deadline)
        tally.solves += 1
        tally.nodes += max(1, int(highs.getInfo().mip_node_count))
        status = highs.getModelStatus()
        if not finished:
            raise _Stop
        if status == hs.HighsModelStatus.kInfeasible:
            return None
        if status != hs.HighsModelStatus.kOptimal:
            raise _Stop  # time or node limit, or cancelled: the budget answered
        x = np.asarray(highs.getSolution().col_value)
        chosen = open_index[x > 0.5]
        chosen = chosen[chosen < model.cells * n]  # the cells' columns, not the tuples'
        values = [model.bit_digit.get(m, 0) for m in doms]
        for col in chosen.tolist():
            values[col // n] = col % n + 1
        return values

    @staticmethod
    def _root(model: _Model, puzzle: Puzzle) -> list[int] | None:
        """The candidates of every cell (the rules' own narrowing, the givens), propagated;
        None when propagation refutes the puzzle."""
        doms = list(model.start)
        for c, v in enumerate(puzzle.givens.values):
            if v:
                doms[c] &= 1 << (v - 1)
                if not doms[c]:
                    return None
        return _propagate(model, doms, [c for c, m in enumerate(doms) if not m & (m - 1)])

    # -- the contract primitive -----------------------------------------------------------
    def _search(self, puzzle: Puzzle, *, limit: int, budget: Budget) -> SearchOutcome:
        start = time.perf_counter()
        deadline = budget.deadline(start)
        tally = _Tally()
        found: list[Grid] = []
        if budget.seconds == 0 or budget.nodes == 0:
            return self._outcome(found, False, tally, stopped=True)
        model = self._model(puzzle.rules)
        shape = puzzle.shape
        root = self._root(model, puzzle)
        try:
            if root is None:
                tally.refuted += 1
                return self._outcome(found, True, tally)
            if limit <= 2:
                complete = self._by_cut(model, root, limit, budget, deadline, tally, found, shape)
            else:
                complete = self._by_parts(model, root, limit, budget, deadline, tally, found, shape)
        except _Stop:
            return self._outcome(found, False, tally, stopped=True)
        return self._outcome(found, complete, tally)

    def _by_cut(
        self,
        model: _Model,
        root: list[int],
        limit: int,
        budget: Budget,
        deadline: float | None,
        tally: _Tally,
        found: list[Grid],
        shape: Any,
    ) -> bool:
        """Up to two solutions: one solve, then one with a no-good cut. True when the space
        was exhausted."""
        first = self._solve(model, root, None, budget, deadline, tally)
        if first is None:
            return True
        found.append(Grid._trusted(shape, tuple(first)))
        if len(found) >= limit:
            return False
        if _open_cell(root) < 0:
            return True  # nothing open: the only point of the sub-problem
        second = self._solve(model, root, first, budget, deadline, tally)
        if second is None:
            return True
        found.append(Grid._trusted(shape, tuple(second)))
        return False

    def _by_parts(
        self,
        model: _Model,
        root: list[int],
        limit: int,
        budget: Budget,
        deadline: float | None,
        tally: _Tally,
        found: list[Grid],
        shape: Any,
    ) -> bool:
        """Up to ``limit`` solutions: the first two as :meth:`_by_cut` finds them (a unique
        puzzle costs two solves), then the rest of the space after the first by disjoint
        sub-problems (see the module docs). True when the space was exhausted."""
        if self._by_cut(model, root, 2, budget, deadline, tally, found, shape):
            return True
        if len(found) >= limit:
            return False
        first, second = (tuple(g.values) for g in found)
        stack = _split(model, root, first, tally)
        while stack:
            self._check_interrupt()
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Stop
            doms = stack.pop()
            solution = self._solve(model, doms, None, budget, deadline, tally)
            if solution is None:
                continue
            if tuple(solution) != second:  # found again in its part: counted once
                found.append(Grid._trusted(shape, tuple(solution)))
                if len(found) >= limit:
                    return False
            stack.extend(_split(model, doms, solution, tally))
        return True

    def _search_other(self, puzzle: Puzzle, solution: Grid, *, budget: Budget) -> SearchOutcome:
        """A solution other than ``solution``: one solve with its no-good cut."""
        start = time.perf_counter()
        deadline = budget.deadline(start)
        tally = _Tally()
        found: list[Grid] = []
        if budget.seconds == 0 or budget.nodes == 0:
            return self._outcome(found, False, tally, stopped=True)
        model = self._model(puzzle.rules)
        root = self._root(model, puzzle)
        if root is None or _open_cell(root) < 0:
            return self._outcome(found, True, tally)
        try:
            other = self._solve(model, root, list(solution.values), budget, deadline, tally)
        except _Stop:
            return self._outcome(found, False, tally, stopped=True)
        if other is not None:
            found.append(Grid._trusted(puzzle.shape, tuple(other)))
        return self._outcome(found, other is None, tally)

    @staticmethod
    def _outcome(
        found: list[Grid], complete: bool, tally: _Tally, *, stopped: bool = False
    ) -> SearchOutcome:
        stats = {"nodes": tally.nodes, "solves": tally.solves, "refuted": tally.refuted}
        return SearchOutcome(found, complete, stats, stopped_by_budget=stopped)


def create(sub: str | None = None, **options: Any) -> HighsBackend:
    """Entry-point factory: ``get_backend("mip:highs")`` (``mip`` alone means HiGHS).

    Raises:
        ValueError: for a sub-solver other than ``highs`` or an invalid option.
        BackendUnavailableError: when highspy is not installed.
    """
    if sub not in (None, "", "highs"):
        raise ValueError(f"the mip backend has one sub-solver, highs (got {sub!r})")
    return HighsBackend(**options)
