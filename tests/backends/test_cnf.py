"""CNF encodings: clause counts of Lynce & Ouaknine, every at-most-one encoding, variants,
the givens-simplified encoding (Kwon & Jain), DIMACS output. Solutions are checked by an
independent PySAT solver call on the formula, then by the model's checker."""

from __future__ import annotations

import pytest
from pysat.solvers import Solver

from sudoku_model import Grid, Puzzle, RuleSet, Shape, formats
from sudoku_model.backends.cnf import (
    AMO_ENCODINGS,
    CNF,
    ENCODINGS,
    VariableMap,
    encode_puzzle,
    encode_rules,
    given_literals,
    segment_layers,
)
from sudoku_model.data import bundled_path

NINE = Shape(3, 3)


def first_puzzles(name: str, k: int) -> list[Puzzle]:
    out = []
    for record in formats.iter_records(bundled_path(name)):
        out.append(record.puzzle)
        if len(out) == k:
            break
    return out


def models(cnf: CNF, limit: int) -> list[Grid]:
    """Up to ``limit`` distinct grids the formula allows (blocking cell literals only)."""
    grids = []
    cell_vars = cnf.variables.cell_var_count
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        while len(grids) < limit and solver.solve():
            model = solver.get_model()
            grids.append(cnf.variables.decode(model))
            solver.add_clause([-lit for lit in model[:cell_vars] if lit > 0])
    return grids


def test_empty_9x9_clause_counts() -> None:
    rules = RuleSet.classic(NINE)
    names = ("minimal", "efficient", "extended")
    counts = {
        e: (encode_rules(rules, encoding=e).num_vars, len(encode_rules(rules, encoding=e).clauses))
        for e in names
    }
    assert counts == {"minimal": (729, 8829), "efficient": (729, 11745), "extended": (729, 11988)}


def test_augmented_9x9_counts_follow_from_the_segments() -> None:
    # 27 box-row and 27 box-column segments of 3 cells, one variable per segment and digit,
    # defined by 1 + 3 clauses; each of the 9 rows, 9 columns and 2 x 9 box partitions
    # holds exactly one of its 3 segment variables per digit: 1 + 3 clauses.
    cnf = encode_rules(RuleSet.classic(NINE), encoding="augmented")
    segment_vars = 54 * 9
    partitions = (9 + 9 + 9 + 9) * 9
    assert cnf.num_vars == 729 + segment_vars
    assert len(cnf.clauses) == 11_988 + 4 * segment_vars + 4 * partitions
    assert cnf.clauses[:11_988] == encode_rules(RuleSet.classic(NINE)).clauses


@pytest.mark.parametrize(
    ("shape", "variants", "sizes"),
    [
        (Shape(3, 3), (), [{3}, {3}]),
        (Shape(2, 3), (), [{3}, {2}]),  # 2x3 boxes: rows cut in 3s, columns in 2s
        (Shape(3, 3), ("diagonal",), [{3}, {3}]),  # diagonals tile nothing: no segments
        (Shape(3, 3), ("windoku",), [{3}, {3}]),
    ],
)
def test_segment_layers(shape: Shape, variants: tuple[str, ...], sizes: list[set[int]]) -> None:
    rules = RuleSet.build(shape, variants)
    layers = segment_layers(rules)
    assert [{len(seg) for seg in segments} for segments, _ in layers] == sizes
    n = shape.size
    for segments, groups in layers:
        assert sorted(c for seg in segments for c in seg) == list(range(n * n))
        # every group tiles one full unit of the rule set
        units = {frozenset(u) for u in rules.full_units}
        assert len(groups) == 2 * n
        assert all(frozenset(c for k in g for c in segments[k]) in units for g in groups)


JIGSAW_6X6 = (
    0,
    0,
    0,
    1,
    1,
    1,
    0,
    0,
    2,
    1,
    1,
    1,
    0,
    2,
    2,
    2,
    3,
    3,
    4,
    4,
    2,
    2,
    3,
    3,
    4,
    4,
    5,
    5,
    3,
    3,
    4,
    4,
    5,
    5,
    5,
    5,
)


def test_jigsaw_segments_have_mixed_sizes() -> None:
    rules = RuleSet.build(Shape(2, 3), ["jigsaw"], regions=JIGSAW_6X6)
    layers = segment_layers(rules)
    assert len(layers) == 2  # rows x regions, columns x regions
    assert {1, 2, 3, 4} <= {len(seg) for segments, _ in layers for seg in segments}


def test_augmented_propagation_does_locked_candidates() -> None:
    # Digit 1 ruled out of rows 2 and 3 of box 1: it must sit in r1c1-r1c3, so it leaves the
    # rest of row 1 (pointing). Unit propagation shows this with segments, not without.
    ruled_out = [-(c * 9 + 1) for c in (9, 10, 11, 18, 19, 20)]
    rest_of_row = {-(c * 9 + 1) for c in range(3, 9)}
    implied = {}
    for encoding in ("extended", "augmented"):
        cnf = encode_rules(RuleSet.classic(NINE), encoding=encoding)
        with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
            ok, lits = solver.propagate(assumptions=ruled_out)
        assert ok
        implied[encoding] = set(lits)
    assert rest_of_row <= implied["augmented"]
    assert not rest_of_row & implied["extended"]


@pytest.mark.parametrize("variants", [(), ("diagonal",), ("windoku",), ("anti-king",)])
@pytest.mark.parametrize("simplify", [False, True])
def test_augmented_has_the_solutions_of_extended(variants: tuple[str, ...], simplify: bool) -> None:
    shape = Shape(2, 3)
    rules = RuleSet.build(shape, variants)
    full_grid = models(encode_rules(rules), limit=1)[0]
    puzzle = Puzzle(full_grid.without(range(0, 36, 2)), rules)
    extended = set(models(encode_puzzle(puzzle), limit=1000))
    augmented = set(
        models(encode_puzzle(puzzle, encoding="augmented", simplify=simplify), limit=1000)
    )
    assert augmented == extended and full_grid in extended
    assert all(puzzle.check(g).ok for g in augmented)


def test_augmented_jigsaw_puzzle_keeps_its_solutions() -> None:
    rules = RuleSet.build(Shape(2, 3), ["jigsaw"], regions=JIGSAW_6X6)
    full_grid = models(encode_rules(rules), limit=1)[0]
    puzzle = Puzzle(full_grid.without(range(0, 36, 2)), rules)
    extended = set(models(encode_puzzle(puzzle), limit=1000))
    assert full_grid in extended
    for simplify in (False, True):
        cnf = encode_puzzle(puzzle, encoding="augmented", simplify=simplify)
        assert set(models(cnf, limit=1000)) == extended


def test_25x25_extended_clause_count() -> None:
    # DESIGN.md: a 25x25 grid takes 752,500 clauses before any givens.
    assert len(encode_rules(RuleSet.classic(Shape(5, 5))).clauses) == 752_500


def test_variable_numbering() -> None:
    vm = encode_rules(RuleSet.classic(NINE)).variables
    assert [vm.var(0, 1), vm.var(0, 9), vm.var(1, 1), vm.var(80, 9)] == [1, 9, 10, 729]
    with pytest.raises(IndexError):
        vm.var(81, 1)
    with pytest.raises(IndexError):
        vm.var(0, 10)


def test_encoding_returns_a_fresh_clause_list() -> None:
    rules = RuleSet.classic(Shape(2, 2))
    a = encode_rules(rules)
    a.clauses.append([1])
    assert len(encode_rules(rules).clauses) == len(a.clauses) - 1


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("amo", ["pairwise", "seqcounter", "ladder", "bitwise", "totalizer"])
def test_every_encoding_counts_288_on_4x4(encoding: str, amo: str) -> None:
    puzzle = Puzzle.empty(Shape(2, 2))
    grids = models(encode_puzzle(puzzle, encoding=encoding, amo=amo), limit=400)
    assert len(grids) == len(set(grids)) == 288
    assert all(puzzle.check(g).ok for g in grids)


@pytest.mark.parametrize("amo", AMO_ENCODINGS)
def test_every_amo_encoding_solves_a_hard_9x9(amo: str) -> None:
    puzzle = first_puzzles("hardest", 1)[0]
    cnf = encode_puzzle(puzzle, amo=amo)
    assert cnf.num_vars >= 729
    grids = models(cnf, limit=2)
    assert len(grids) == 1 and puzzle.check(grids[0]).ok


def test_pairs_and_short_units_are_encoded() -> None:
    shape = Shape(2, 3)
    rules = RuleSet.build(shape, ["anti-king"])
    cnf = encode_rules(rules, encoding="extended")
    plain = encode_rules(RuleSet.classic(shape), encoding="extended")
    assert len(cnf.clauses) - len(plain.clauses) == len(rules.pairs) * shape.size
    # a unit shorter than n cells only forbids repeats: no at-least-one clause for it
    short = RuleSet(
        shape, RuleSet.classic(shape).rules + (type(rules.rules[0])("short", ((0, 7, 14),)),)
    )
    extra = encode_rules(short, encoding="extended")
    assert len(extra.clauses) - len(plain.clauses) == 3 * shape.size  # 3 pairs per digit


@pytest.mark.parametrize("variants", [(), ("diagonal",), ("anti-knight",), ("windoku",)])
def test_simplified_encoding_has_the_same_solutions(variants: tuple[str, ...]) -> None:
    shape = Shape(2, 3)
    rules = RuleSet.build(shape, variants)
    full_grid = models(encode_rules(rules), limit=1)[0]
    puzzle = Puzzle(full_grid.without(range(0, 36, 2)), rules)
    full = set(models(encode_puzzle(puzzle), limit=1000))
    small_cnf = encode_puzzle(puzzle, simplify=True)
    small = set(models(small_cnf, limit=1000))
    assert full == small and full_grid in full
    assert len(small_cnf.clauses) < len(encode_puzzle(puzzle).clauses)


def test_simplified_encoding_shrinks_a_17_clue_puzzle() -> None:
    puzzle = first_puzzles("17-clue", 1)[0]
    cnf = encode_puzzle(puzzle, simplify=True)
    assert cnf.num_vars < 729 and len(cnf.clauses) < 11_988 // 2
    grids = models(cnf, limit=2)
    assert len(grids) == 1 and puzzle.check(grids[0]).ok
    assert cnf.variables.var(puzzle.givens.filled_cells()[0], 1) is None


def test_clashing_givens_give_an_unsatisfiable_formula() -> None:
    puzzle = Puzzle(Grid(NINE, [3, 3] + [0] * 79))
    for simplify in (False, True):
        assert models(encode_puzzle(puzzle, simplify=simplify), limit=1) == []


def test_given_literals_and_dimacs() -> None:
    puzzle = Puzzle(Grid(Shape(2, 2), [1, 0, 0, 0] * 4))
    assert given_literals(puzzle) == [1, 4 * 4 + 1, 8 * 4 + 1, 12 * 4 + 1]
    text = encode_puzzle(puzzle).to_dimacs()
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("p "))
    _, _, nv, nc = header.split()
    body = [line for line in lines if line and not line.startswith(("c", "p"))]
    assert int(nv) == 64 and int(nc) == len(body)
    assert all(line.endswith(" 0") for line in body)
    assert "1 0" in body  # the unit clause of the first given


def test_unknown_options_are_refused() -> None:
    rules = RuleSet.classic(Shape(2, 2))
    with pytest.raises(ValueError, match="encoding"):
        encode_rules(rules, encoding="compact")
    with pytest.raises(ValueError, match="at-most-one"):
        encode_rules(rules, amo="native")


def test_decode_refuses_an_incomplete_model() -> None:
    vm = VariableMap(Shape(2, 2))
    with pytest.raises(ValueError):
        vm.decode([1, 2])


@pytest.mark.parametrize(
    "extra",
    [[], ["--simplify"], ["--encoding", "minimal", "--amo", "ladder"], ["--encoding", "augmented"]],
)
def test_sudoku_cnf_command_writes_a_solvable_dimacs(tmp_path, extra: list[str]) -> None:
    from pysat.formula import CNF as PySATCNF

    from sudoku_model.cli import main

    puzzle = first_puzzles("top95", 1)[0]
    out = tmp_path / "p.cnf"
    assert main(["cnf", puzzle.to_line(), "-o", str(out), *extra]) == 0
    formula = PySATCNF(from_file=str(out))
    with Solver(name="cadical195", bootstrap_with=formula.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
    if extra == ["--simplify"]:  # decode through the 'c var V rRcC D' comments
        values = list(puzzle.givens.values)
        positive = set(lit for lit in model if lit > 0)
        for line in out.read_text().splitlines():
            if line.startswith("c var "):
                _, _, var, cell, digit = line.split()
                r, c = cell[1:].split("c")
                if int(var) in positive:
                    values[(int(r) - 1) * 9 + int(c) - 1] = int(digit)
        grid = Grid(puzzle.shape, values)
    else:
        grid = VariableMap(puzzle.shape).decode(model)
    assert puzzle.check(grid).ok


def test_sudoku_cnf_command_errors() -> None:
    from sudoku_model.cli import main

    assert main(["cnf", "bundled:top95", "--index", "1000"]) == 2
    assert main(["cnf", "1.3..4.2.1.4..2.", "--index", "0"]) == 2
