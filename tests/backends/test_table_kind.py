"""The ``table`` rule kind (allowed digit tuples over scopes of cells) in every backend.

The oracle is written here and shares no code with the encodings or with
:meth:`Table.violations`: brute force over all 288 4x4 grids (and, on 6x6, over the empty
cells of an almost full grid), keeping the grids whose every scope holds an allowed tuple.
On random tables over random scopes of 2-4 cells, every installed backend that declares
the kind counts (limit large) exactly the grids of the oracle, and its uniqueness verdicts
agree (``mip:highs`` too, with a column per scope and tuple; it refuses more than its
limit). The primitives that take rules (enumeration, batches, the removal oracle, random
grids, the pencilmark pass; native's forbidden pairs) answer as the oracle does;
certificates are refused with a typed error.
"""

from __future__ import annotations

import itertools
import pickle
import random
import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from sudoku_model import Grid, Puzzle, RuleSet, Shape
from sudoku_model.backends.sat import PROOF_SOLVERS
from sudoku_model.errors import UnsupportedPuzzleError
from sudoku_model.formats import puzzle_from_json, puzzle_to_json
from sudoku_model.logic import CandidateGrid, solve_logically
from sudoku_model.logic.techniques.killer import table_pruning
from sudoku_model.native_backtrack import Model
from sudoku_model.rules import RULE_KINDS, Table, killer_rule, thermometer_rule
from sudoku_model.solving import (
    Backend,
    CertificationUnsupported,
    VerdictKind,
    available_backends,
    get_backend,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from minimal_backend import MinimalBackend  # noqa: E402

S4, S6, S9 = Shape(2, 2), Shape(2, 3), Shape(3, 3)
LIMIT = 1000


@cache
def backend(name: str) -> Backend:
    if name == "minimal":
        return MinimalBackend()
    if name == "native-generic":
        return get_backend("native", fast=False)
    return get_backend(name)


def _loads(name: str) -> bool:
    try:
        get_backend(name)
    except Exception:  # noqa: BLE001 - a backend that does not load is not installed
        return False
    return True


#: Every installed backend that declares tables, the generic native path and the oracle-free
#: minimal backend (it prunes with the rules' checkers).
TABLE_BACKENDS = [
    name
    for name in available_backends()
    if _loads(name) and "table" in get_backend(name).capabilities.rule_kinds
] + ["native-generic", "minimal"]


@cache
def all_4x4_grids() -> tuple[tuple[int, ...], ...]:
    rules = RuleSet.classic(S4)
    perms = list(itertools.permutations(range(1, 5)))
    partial: list[tuple[int, ...]] = [()]
    for _ in range(4):
        partial = [
            p + row
            for p in partial
            for row in perms
            if not rules.has_clash(p + row + (0,) * (12 - len(p)))
        ]
    assert len(partial) == 288
    return tuple(partial)


def holds(values: Sequence[int], tables: Sequence[Table]) -> bool:
    """The oracle's check of a full grid: every scope holds an allowed tuple."""
    return all(tuple(values[c] for c in scope) in t.allowed for t in tables for scope in t.scopes)


def random_tables(
    rng: random.Random, shape: Shape, cells: Sequence[int], count: int
) -> list[Table]:
    """``count`` tables of arity 2-4 over random scopes among ``cells``, each with one to
    three scopes and a few to many random tuples."""
    n = shape.size
    out = []
    for k in range(count):
        arity = rng.randint(2, 4)
        scopes = tuple(tuple(rng.sample(cells, arity)) for _ in range(rng.randint(1, 3)))
        rows = rng.randint(1, min(n**arity, 60))
        allowed = frozenset(tuple(rng.randint(1, n) for _ in range(arity)) for _ in range(rows))
        out.append(Table(f"table {k}", scopes, allowed))
    return out


def expected_kind(count: int) -> VerdictKind:
    return (
        VerdictKind.UNSOLVABLE
        if count == 0
        else VerdictKind.UNIQUE
        if count == 1
        else VerdictKind.MULTIPLE
    )


def _cases_4x4(seed: int, count: int) -> list[tuple[Puzzle, list[tuple[int, ...]]]]:
    """Random table puzzles on 4x4, some with givens from an oracle solution, and the
    oracle's solutions of each."""
    rng = random.Random(seed)
    grids = all_4x4_grids()
    out = []
    while len(out) < count:
        tables = random_tables(rng, S4, range(16), rng.randint(1, 3))
        rules = RuleSet.classic(S4).with_rules(tables)
        values = [0] * 16
        ok = [g for g in grids if holds(g, tables)]
        if ok and rng.random() < 0.5:
            base = rng.choice(ok)
            for c in rng.sample(range(16), rng.randint(2, 6)):
                values[c] = base[c]
        sols = [g for g in ok if all(v == 0 or v == g[c] for c, v in enumerate(values))]
        out.append((Puzzle(Grid(S4, values), rules), sols))
    return out


@pytest.mark.parametrize("name", TABLE_BACKENDS)
def test_counts_and_verdicts_match_brute_force_on_4x4(name: str) -> None:
    b = backend(name)
    cases = _cases_4x4(11, 30 if name in ("logic", "minimal", "cpsat") else 60)
    assert any(len(s) == 0 for _, s in cases) and any(len(s) > 1 for _, s in cases)
    for puzzle, sols in cases:
        result = b.count(puzzle, limit=LIMIT)
        assert result.complete and result.count == len(sols), (name, puzzle.rules.rules[-1])
        assert {tuple(g.values) for g in result.solutions} == set(sols)
        assert b.check_unique(puzzle).kind is expected_kind(len(sols))


def _random_full_6x6(rng: random.Random) -> list[int]:
    rules = RuleSet.classic(S6)
    peers = rules.peers
    values = [0] * 36

    def fill(cell: int) -> bool:
        if cell == 36:
            return True
        for d in rng.sample(range(1, 7), 6):
            if all(values[p] != d for p in peers[cell]):
                values[cell] = d
                if fill(cell + 1):
                    return True
        values[cell] = 0
        return False

    assert fill(0)
    return values


@pytest.mark.parametrize("name", TABLE_BACKENDS)
def test_counts_match_brute_force_on_6x6(name: str) -> None:
    rng = random.Random(23)
    rules6 = RuleSet.classic(S6)
    b = backend(name)
    for _ in range(6 if name in ("logic", "minimal") else 10):
        full = _random_full_6x6(rng)
        empty = rng.sample(range(36), 6)
        tables = random_tables(rng, S6, empty + rng.sample(range(36), 4), 2)
        # half the time, make the full grid one of the solutions
        if rng.random() < 0.5:
            tables = [
                Table(
                    t.name,
                    t.scopes,
                    t.allowed | {tuple(full[c] for c in scope) for scope in t.scopes},
                )
                for t in tables
            ]
        givens = [0 if c in empty else v for c, v in enumerate(full)]
        sols = []
        for digits in itertools.product(range(1, 7), repeat=len(empty)):
            values = list(givens)
            for c, d in zip(empty, digits):
                values[c] = d
            if not rules6.has_clash(values) and holds(values, tables):
                sols.append(tuple(values))
        puzzle = Puzzle(Grid(S6, givens), rules6.with_rules(tables))
        result = b.count(puzzle, limit=LIMIT)
        assert result.complete and result.count == len(sols), name
        assert {tuple(g.values) for g in result.solutions} == set(sols)


def test_violations_agree_with_the_table() -> None:
    rng = random.Random(5)
    for _ in range(200):
        (table,) = random_tables(rng, S4, range(16), 1)
        values = list(rng.choice(all_4x4_grids()))
        assert (table.violations(values) == []) == holds(values, [table])
        for c in rng.sample(range(16), rng.randint(1, 10)):
            values[c] = 0
        # a partial grid: broken when some scope's filled cells match no allowed tuple
        broken = {
            scope
            for scope in table.scopes
            if any(values[c] for c in scope)
            and not any(
                all(values[c] in (0, t[i]) for i, c in enumerate(scope)) for t in table.allowed
            )
        }
        assert {cells for cells, _ in table.violations(values)} == broken


def test_the_partial_scope_index_is_a_cache_never_pickled() -> None:
    rng = random.Random(6)
    (table,) = random_tables(rng, S4, range(16), 1)
    before = pickle.dumps(table)
    values = [0] * 16
    values[table.scopes[0][0]] = 1
    table.violations(values)  # builds the index
    assert pickle.dumps(table) == before
    copy = pickle.loads(before)
    assert copy == table and hash(copy) == hash(table)
    assert copy.violations(values) == table.violations(values)


@pytest.mark.parametrize("name", TABLE_BACKENDS)
def test_a_table_nothing_can_meet_makes_the_puzzle_unsolvable(name: str) -> None:
    b = backend(name)
    # two cells of one row must hold the same digit
    same = Table("same", ((0, 1),), frozenset({(d, d) for d in range(1, 5)}))
    puzzle = Puzzle(Grid.empty(S4), RuleSet.classic(S4).with_rules([same]))
    assert b.count(puzzle, limit=LIMIT).count == 0
    assert b.check_unique(puzzle).kind is VerdictKind.UNSOLVABLE
    # tuples the givens rule out
    apart = Table("apart", ((0, 5, 10),), frozenset({(1, 2, 3), (2, 1, 4)}))
    givens = Grid(S4, [3] + [0] * 15)
    assert b.count(Puzzle(givens, RuleSet.classic(S4).with_rules([apart])), limit=9).count == 0


def test_mip_refuses_tables_too_big_for_its_model() -> None:
    pytest.importorskip("highspy")
    from sudoku_model.backends.mip import MAX_TABLE_COLUMNS

    mip = get_backend("mip:highs")
    assert "table" in mip.capabilities.rule_kinds
    rows = frozenset(itertools.islice(itertools.permutations(range(1, 10)), 50_000))
    scopes = tuple(tuple(range(r * 9, r * 9 + 9)) for r in range(9))
    assert len(rows) * len(scopes) > MAX_TABLE_COLUMNS
    big = Table("rows in order", scopes, rows)
    puzzle = Puzzle(Grid.empty(S9), RuleSet.classic(S9).with_rules([big]))
    with pytest.raises(UnsupportedPuzzleError, match="tuple columns"):
        mip.count(puzzle, limit=2)


def test_every_other_backend_declares_every_kind() -> None:
    assert "table" in RULE_KINDS
    for name in ("native", "pysat", "cpsat", "logic"):
        assert frozenset(RULE_KINDS) <= get_backend(name).capabilities.rule_kinds


def test_json_round_trip() -> None:
    t = Table("between", ((0, 1, 2), (4, 5, 6)), frozenset({(1, 2, 3), (3, 2, 1), (1, 3, 2)}))
    puzzle = Puzzle(Grid(S4, [1] + [0] * 15), RuleSet.classic(S4).with_rules([t]))
    obj = puzzle_to_json(puzzle)
    assert {"type": "table", "name": "between"}.items() <= obj["constraints"][0].items()
    back, _solution = puzzle_from_json(obj)
    assert back == puzzle and back.rules.rules[-1] == t


def test_json_refuses_a_bad_table_by_entry() -> None:
    obj = {
        "size": 4,
        "puzzle": "." * 16,
        "constraints": [
            {"type": "table", "name": "t", "scopes": [["r1c1", "r1c2"]], "allowed": [[1, 2, 3]]}
        ],
    }
    with pytest.raises(ValueError, match=r"constraint 1 \(\"table\"\)"):
        puzzle_from_json(obj)


def _unique_table_puzzle() -> tuple[Puzzle, tuple[int, ...]]:
    """A 4x4 puzzle whose tables and givens leave exactly one grid (the oracle's)."""
    rng = random.Random(3)
    grids = all_4x4_grids()
    while True:
        tables = random_tables(rng, S4, range(16), 3)
        ok = [g for g in grids if holds(g, tables)]
        if not ok:
            continue
        target = ok[0]
        values = [0] * 16
        cells = rng.sample(range(16), 16)
        while len([g for g in ok if all(v in (0, g[c]) for c, v in enumerate(values))]) > 1:
            c = cells.pop()
            values[c] = target[c]
        return Puzzle(Grid(S4, values), RuleSet.classic(S4).with_rules(tables)), target


@pytest.mark.parametrize("name", TABLE_BACKENDS)
def test_primitives_respect_tables(name: str) -> None:
    b = backend(name)
    puzzle, target = _unique_table_puzzle()
    rules = puzzle.rules
    tables = [r for r in rules.rules if isinstance(r, Table)]
    ok = {g for g in all_4x4_grids() if holds(g, tables)}
    # enumeration of the rules alone
    empty = Puzzle(Grid.empty(S4), rules)
    assert {tuple(g.values) for g in b.solutions(empty, limit=None)} == ok
    solved = b.solve(puzzle).solution
    assert solved is not None and tuple(solved.values) == target
    # one batch of puzzles of these rules
    batch = b.check_unique_batch(rules, [bytes(puzzle.givens.values), bytes(16)])
    assert batch.kinds == [VerdictKind.UNIQUE, expected_kind(len(ok))]
    # random grids are solutions of the tables
    rng = random.Random(1)
    for _ in range(5):
        grid = b.random_solution(rules, rng)
        assert grid is not None and tuple(grid.values) in ok
    # the removal oracle: still unique without a clue exactly when the oracle says so
    with b.removal_oracle(rules, Grid(S4, target)) as oracle:
        givens = list(puzzle.givens.values)
        for c in [c for c, v in enumerate(givens) if v]:
            fewer = list(givens)
            fewer[c] = 0
            left = [g for g in ok if all(v in (0, g[i]) for i, v in enumerate(fewer))]
            assert oracle.still_unique(fewer, [c]) is (len(left) == 1), (name, c)
    # the pencilmark pass: whatever it restores, the candidates leave the target alone
    masks = [1 << (v - 1) if v else 0b1111 for v in puzzle.givens.values]
    order = [(c, d) for c in range(16) for d in range(1, 5) if not masks[c] >> (d - 1) & 1]
    out, _answers = b.restore_candidates(rules, Grid(S4, target), masks, order)
    left = [g for g in ok if all(out[c] >> (g[c] - 1) & 1 for c in range(16))]
    assert left == [target]


def test_native_forbidden_pairs_respect_tables() -> None:
    native = get_backend("native")
    puzzle, target = _unique_table_puzzle()
    tables = [r for r in puzzle.rules.rules if isinstance(r, Table)]
    ok = {g for g in all_4x4_grids() if holds(g, tables)}
    empty = Puzzle(Grid.empty(S4), puzzle.rules)
    cell = next(c for c, v in enumerate(puzzle.givens.values) if not v)
    outcome = native.search_excluding(empty, [(cell, target[cell])], limit=LIMIT)
    assert outcome.complete
    assert {tuple(g.values) for g in outcome.solutions} == {
        g for g in ok if g[cell] != target[cell]
    }


def test_the_classic_fast_path_is_left_to_plain_rules() -> None:
    shape_rules = RuleSet.classic(S9)
    t = Table("t", ((0, 1, 2),), frozenset({(1, 2, 3), (4, 5, 6), (7, 8, 9)}))
    native = get_backend("native")
    assert native.model(shape_rules).classic9
    assert not native.model(shape_rules.with_rules([t])).classic9
    text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    plain = Puzzle.parse(text)
    solution = native.solve(plain).solution
    assert solution is not None
    first = tuple(solution.values[:3])
    for rows, want in (({first}, 1), ({(9, 9, 9)} if first != (9, 9, 9) else {(1, 1, 1)}, 0)):
        puzzle = Puzzle(plain.givens, shape_rules.with_rules([Table("t", ((0, 1, 2),), rows)]))
        for name in ("native", "native-generic", "pysat"):
            assert backend(name).count(puzzle, limit=5).count == want, name


@pytest.mark.parametrize("solver", sorted(PROOF_SOLVERS))
def test_certificates_of_tables_are_refused(solver: str) -> None:
    t = Table("t", ((0, 1),), frozenset({(1, 2), (2, 1)}))
    puzzle = Puzzle(Grid.empty(S4), RuleSet.classic(S4).with_rules([t]))
    sat = get_backend(f"pysat:{solver}")
    assert sat.certificate_refusal() is None  # a solver with trusted proofs...
    with pytest.raises(CertificationUnsupported, match="table"):  # ...refuses the kind
        sat.certificate(puzzle.rules, puzzle.givens)


def test_the_c_model_checks_its_tables() -> None:
    units = [list(r) for r in S4.rows] + [list(c) for c in S4.columns]
    bad = [
        [([(0, 1)], [(1, 2, 3)])],  # a tuple longer than the scope
        [([(0, 0)], [(1, 1)])],  # a scope repeating a cell
        [([(0, 16)], [(1, 2)])],  # a cell outside the grid
        [([(0, 1)], [(1, 5)])],  # a digit beyond n
        [([(0, 1)], [(1, 2), (1,)])],  # tuples of different lengths
    ]
    for tables in bad:
        with pytest.raises(ValueError, match="tables|allowed"):
            Model(4, units, [], tables=tables)
    # no tuple: no solution; a unary table narrows one cell
    assert Model(4, units, [], tables=[([(0, 1)], [])]).solve(bytes(16))[0] == 0
    count, *_ = Model(4, units, [], tables=[([(0,)], [(2,)])]).solve(bytes(16), limit=1000)
    assert count == Model(4, units, []).solve(bytes(16), limit=1000)[0] // 4


def test_the_generic_random_solution_keeps_every_constraint_rule() -> None:
    """The default random_solution (Python random fill) prunes with the rules' checkers:
    its grids keep cages, dots and tables, not the units alone."""
    rules = RuleSet.classic(S4).with_rules(
        [
            killer_rule(S4, [((0, 1), 3)]),
            thermometer_rule(S4, [(4, 8)]),
            Table("t", ((5, 10),), frozenset({(1, 4), (4, 1), (2, 2)})),
        ]
    )
    ok = {g for g in all_4x4_grids() if not rules.violations(g)}
    assert ok and len(ok) < 40
    minimal = backend("minimal")
    grids = [Backend.random_solution(minimal, rules, random.Random(s)) for s in range(20)]
    got = [tuple(g.values) for g in grids if g is not None]
    assert len(got) >= 10 and set(got) <= ok


def test_native_and_pysat_agree_on_9x9_tables() -> None:
    """Larger tables (arity 3-5, hundreds of tuples, scopes sharing one table) on 9x9
    puzzles around a random grid: native (its tuple index and skipped scopes) and the CNF
    encoding count alike."""
    rng = random.Random(9)
    native, sat = get_backend("native"), get_backend("pysat")
    base = RuleSet.classic(S9)
    for _ in range(8):
        full = native.random_solution(base, rng)
        assert full is not None
        tables = []
        for k in range(3):
            arity = rng.randint(3, 5)
            allowed = {tuple(rng.randint(1, 9) for _ in range(arity)) for _ in range(400)}
            scopes = tuple(tuple(rng.sample(range(81), arity)) for _ in range(4))
            allowed |= {tuple(full.values[c] for c in scope) for scope in scopes}
            tables.append(Table(f"table {k}", scopes, frozenset(allowed)))
        values = [0] * 81
        for c in rng.sample(range(81), 24):
            values[c] = full.values[c]
        puzzle = Puzzle(Grid(S9, values), base.with_rules(tables))
        want = sat.count(puzzle, limit=50)
        got = native.count(puzzle, limit=50)
        assert want.count >= 1 and (got.count, got.complete) == (want.count, want.complete)
        assert set(got.solutions) == set(want.solutions) or not got.complete


def test_the_logic_technique_explains_table_pruning() -> None:
    # r1c1, r1c2 hold 1 and 2 in some order; r2c3 is r1c2's digit
    t = Table("pair", ((0, 1, 6),), frozenset({(1, 2, 2), (2, 1, 1)}))
    rules = RuleSet.classic(S4).with_rules([t])
    grid = CandidateGrid.from_puzzle(Puzzle(Grid.empty(S4), rules))
    step = table_pruning(grid)
    assert step is not None and step.technique == "table_pruning"
    assert set(step.eliminations) == {(c, d) for c in (0, 1, 6) for d in (3, 4)}
    assert "pair (r1c1, r1c2, r2c3)" in step.explanation
    # a given that no tuple fits breaks the grid
    grid = CandidateGrid.from_puzzle(Puzzle(Grid(S4, [3] + [0] * 15), rules))
    assert table_pruning(grid) is None and grid.broken is not None
    # three givens and the table leave one grid, which logic reaches through the table
    puzzle = Puzzle(Grid(S4, [0, 0, 3, 0, 3, 0, 0, 0, 2] + [0] * 7), rules)
    result = solve_logically(puzzle)
    assert result.status == "solved" and result.steps[0].technique == "table_pruning"
    assert tuple(result.grid.values) == (1, 2, 3, 4, 3, 4, 2, 1, 2, 1, 4, 3, 4, 3, 1, 2)
    assert not rules.violations(result.grid.values)
